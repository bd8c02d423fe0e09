#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Reproduces the simulations of the DL, Nue and LOREN papers with
# `keiro simulate` (issue 17; docs/simulation.md, "Reproducing the papers").
# Every routing is installed by the real OpenSM on ibsim (tests/harness/
# run-fabric.sh -s): OpenSM's built-in engines without the plugin, keiro's
# engines through it. The simulations read what OpenSM installed: the LFTs,
# the SL2VL tables and the SA's path SL for every (source, destination) pair.
#
#  dl     DL paper, Table 6's setting: ten random irregular fabrics of 64
#         8-port switches (4 HCAs and 4 links to other switches each, at most
#         one link between two switches: `keiro topo random 64 4
#         --hcas-per-switch 4 --seed 1..10`). keiro-dl with 3 VLs (the
#         paper's 3 virtual channels) against OpenSM's updn from the same
#         root (keiro-dl's root, given to updn in root_guid_file). Saturation
#         throughput (highest accepted throughput of a load sweep 0.02 ..
#         0.2) under uniform and bit-reversal traffic; updn also with 3x the
#         buffer per (port, VL) under uniform traffic, the buffer DL's 3 VLs
#         have per port.
#  nue    Nue paper, Fig. 1 and Fig. 10's shape: shift all-to-all of 2 KiB
#         messages (throughput) with keiro-nue at 1..8 VLs against OpenSM's
#         updn, lash, dfsssp and OpenSM's own nue (8 VLs) on a 4x4x3 torus with
#         4 HCAs per switch and one failed switch (Fig. 1) and on a random
#         fabric of 64 switches of degree 8 with 4 HCAs each (Fig. 10's
#         random topology, scaled down from 125 x 16 with 8 HCAs).
#  loren  LOREN paper, Figs. 7-10's shape: keiro-loren at t_max 18 and 32
#         against balanced minimal routing (keiro-acro: keiro's balanced
#         minimal routes made deadlock free by ACRO) on LRT(64,4,2), one HCA
#         per switch, 4 VLs, under uniform, transpose, shuffle and reverse
#         traffic; load sweeps 0.05 .. 0.6 with the paper's Table II model
#         (1-flit packets, 8 flits per VC buffer, 4-cycle switch; 1,000 +
#         5,000 cycles) and with keiro simulate's InfiniBand defaults.
#
# usage: scripts/sim-papers.sh [-b BUILDDIR] [-o OUTDIR] [-d DOCDIR] [-q] [-r] [-T] [PART...]
#   PART   dl, nue, loren (default: all three)
#   -b     build tree with keiro, .libs/libkeiro.so, tests/harness/sa_path_sl
#          (default: $KEIRO_BUILDDIR, else ./build)
#   -o     where the runs go (default: BUILDDIR/sim-papers)
#   -d     where the tables (sim-papers.md) and the SVGs (img/sim-*.svg) go
#          (default: the source tree's docs/; with -q: OUTDIR/docs)
#   -q     quick smoke run: 2 irregular fabrics, Nue on the torus with 1, 2
#          and 4 VLs and updn, LOREN at t_max 32 and minimal, uniform only,
#          coarse sweeps
#   -r     reuse OpenSM runs already in OUTDIR (same fabric, same settings)
#   -T     no runs: only write the tables and charts again from OUTDIR
# Exit: 0 done, 1 a run failed, 2 usage.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/harness/lib.sh"
build=${KEIRO_BUILDDIR:-$src/build}
out='' docdir='' quick=no reuse=no tables_only=no
while getopts "b:o:d:qrTh" opt; do
  case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    d) docdir=$OPTARG ;;
    q) quick=yes ;;
    r) reuse=yes ;;
    T) tables_only=yes ;;
    *) kh_usage "$0" Exit: ;;
  esac
done
shift $((OPTIND - 1))
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(dl nue loren)
for p in "${parts[@]}"; do
  case $p in dl | nue | loren) ;; *) echo "sim-papers: unknown part '$p' (dl, nue, loren)" >&2; exit 2 ;; esac
done
build=$(cd "$build" && pwd) || exit 2
keiro=$build/keiro
for f in "$keiro" "$build/.libs/libkeiro.so" "$build/tests/harness/sa_path_sl"; do
  [ -e "$f" ] || { echo "sim-papers: $f missing: build first (make)" >&2; exit 2; }
done
case " ${parts[*]} " in
  *" dl "* | *" loren "*)
    "$keiro" simulate --help 2>&1 | grep -q -- '--sweep' ||
      { echo "sim-papers: this keiro simulate has no --sweep (parts dl and loren need it)" >&2; exit 2; } ;;
esac
kh_prereq || exit 2
out=${out:-$build/sim-papers}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
[ -z "$docdir" ] && { [ $quick = yes ] && docdir=$out/docs || docdir=$src/docs; }
mkdir -p "$docdir/img" && docdir=$(cd "$docdir" && pwd) || exit 2
export KEIRO_BUILDDIR=$build
fails=0
t_start=$SECONDS

say() { echo "sim-papers: $*" >&2; }

# osm_run DIR NET [run-fabric.sh options]: one OpenSM run into DIR (with the
# SA's path SLs); the SLs are copied into DIR/dumps/keiro-path-sl.dump so that
# keiro simulate and keiro analyze find them with the dumps. With -r a DIR
# that already has them (and the same options) is reused.
osm_run() {
  local dir=$1 net=$2
  shift 2
  local sig
  sig="$* $(md5sum <"$net" | cut -c1-32)"
  if [ $reuse = yes ] && [ -s "$dir/dumps/keiro-path-sl.dump" ] && [ "$(cat "$dir/args" 2>/dev/null)" = "$sig" ]; then
    return 0
  fi
  rm -rf "$dir"
  if ! "$src/tests/harness/run-fabric.sh" -t "$net" -o "$dir" -s -w 600 "$@" >"$dir.harness.txt" 2>&1; then
    say "FAILED: OpenSM run $dir ($*): $(tail -n 3 "$dir.harness.txt" | tr '\n' ' ')"
    fails=$((fails + 1))
    return 1
  fi
  cp "$dir/sa-path-sl.dump" "$dir/dumps/keiro-path-sl.dump"
  echo "$sig" >"$dir/args"
}

# analyze DIR: keiro analyze's JSON of DIR's dumps (CA-to-CA pairs) in
# DIR/analyze.json: deadlock freedom (check.ok), VLs used, path lengths.
analyze() {
  local rc
  "$keiro" analyze "$1/dumps" --pairs ca --no-traffic --json >"$1/analyze.json" 2>"$1/analyze.err"
  rc=$?
  # 1: the check failed (a credit loop, ...): analyze.json says so.
  [ $rc -le 1 ] || say "$1: keiro analyze exit $rc ($(head -c 200 "$1/analyze.err"))"
  return 0
}

# engine_ok DIR ENGINE: OpenSM installed ENGINE's tables in DIR's run.
engine_ok() {
  [ "$(kh_installed_engine "$1/opensm.log")" = "$2" ] && return 0
  say "FAILED: $1: OpenSM installed '$(kh_installed_engine "$1/opensm.log")', not $2"
  fails=$((fails + 1))
  return 1
}

# link_inputs SIMDIR NAME=DIR...: SIMDIR/NAME -> DIR/dumps, so that keiro
# simulate labels the routings NAME (it drops the common directory).
link_inputs() {
  local d=$1 kv
  shift
  rm -rf "$d" && mkdir -p "$d"
  for kv in "$@"; do ln -s "${kv#*=}/dumps" "$d/${kv%%=*}"; done
}

# sim SIMDIR TAG [keiro simulate options]: every input of SIMDIR side by side
# -> SIMDIR/TAG.json; a deadlock (exit 1) is recorded in
# the JSON, other failures count.
sim() {
  local d=$1 tag=$2 rc ins=()
  shift 2
  for i in "$d"/*/; do ins+=("${i%/}"); done
  nice -n 10 "$keiro" simulate "${ins[@]}" "$@" --json >"$d/$tag.json" 2>"$d/$tag.err"
  rc=$?
  if [ $rc -gt 1 ]; then
    say "FAILED: keiro simulate $d $tag ($*): exit $rc: $(head -c 300 "$d/$tag.err")"
    fails=$((fails + 1))
  fi
}

# ---- DL: Table 6 ----
part_dl() {
  local seeds sweep s net dir root
  if [ $quick = yes ]; then seeds="1 2" sweep=0.04:0.24:0.04; else seeds="1 2 3 4 5 6 7 8 9 10" sweep=0.02:0.2:0.02; fi
  mkdir -p "$out/dl"
  : >"$out/dl/manifest.tsv"
  for s in $seeds; do
    net=$out/dl/irr$s.net
    "$keiro" topo random 64 4 --hcas-per-switch 4 --seed "$s" -o "$net" >/dev/null 2>&1 ||
      { say "FAILED: keiro topo random 64 4 --seed $s"; fails=$((fails + 1)); continue; }
    dir=$out/dl/irr$s
    mkdir -p "$dir"
    say "dl: fabric $s: keiro-dl (3 VLs) and updn through OpenSM"
    osm_run "$dir/dl" "$net" -e keiro-dl,updn -p max_vls=3 && engine_ok "$dir/dl" keiro-dl || continue
    root=$(sed -nE "s/.*keiro-dl: root='.*' \((0x[0-9a-f]+)\).*/\1/p" "$dir/dl/opensm.log" | tail -n 1)
    [ -n "$root" ] || { say "FAILED: no keiro-dl root in $dir/dl/opensm.log"; fails=$((fails + 1)); continue; }
    echo "$root" >"$dir/root_guid"
    osm_run "$dir/updn" "$net" -P -e updn -c "root_guid_file $dir/root_guid" && engine_ok "$dir/updn" updn || continue
    analyze "$dir/dl"
    analyze "$dir/updn"
    link_inputs "$dir/sim" DL="$dir/dl" updn="$dir/updn"
    link_inputs "$dir/sim12k" updn="$dir/updn"
    for tr in uniform bitrev; do
      say "dl: fabric $s: $tr sweep $sweep"
      sim "$dir/sim" "$tr" --traffic "$tr" --sweep "$sweep"
      [ $tr = uniform ] && sim "$dir/sim12k" "$tr" --traffic "$tr" --sweep "$sweep" --buffer 12288
    done
    printf '%s\t%s\t%s\n' "$s" "$root" "$dir" >>"$out/dl/manifest.tsv"
  done
  # Fig. 6's shape: latency against load on the first fabric.
  s=${seeds%% *}
  sim "$out/dl/irr$s/sim" plot --traffic uniform --sweep "$sweep" --plot "$out/dl/plot"
  cp "$out/dl/plot/latency.svg" "$docdir/img/sim-dl-irr$s-latency.svg" 2>/dev/null
  cp "$out/dl/plot/throughput.svg" "$docdir/img/sim-dl-irr$s-throughput.svg" 2>/dev/null
}

# fail_switch NET NAME: the net file without switch NAME and its HCAs.
fail_switch() {
  python3 - "$1" "$2" <<'PY'
import re, sys
net, drop = sys.argv[1], sys.argv[2]
paras = open(net).read().split("\n\n")
gone = {drop}
for p in paras:  # the HCAs hanging off the switch
    m = re.search(r'^(Hca|Ca)\s+\d+\s+"([^"]+)"', p, re.M)
    if m and re.search(r'^\[\d+\]\s+"%s"\[' % re.escape(drop), p, re.M):
        gone.add(m.group(2))
keep = []
for p in paras:
    m = re.search(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', p, re.M)
    if m and m.group(2) in gone:
        continue
    lines = [l for l in p.split("\n")
             if not (re.match(r'\s*\[\d+\]\s+"([^"]+)"', l) and re.match(r'\s*\[\d+\]\s+"([^"]+)"', l).group(1) in gone)]
    keep.append("\n".join(lines))
sys.stdout.write("# switch %s failed (removed with %d HCAs)\n" % (drop, len(gone) - 1) + "\n\n".join(keep))
PY
}

# ---- Nue: Fig. 1 / Fig. 10 ----
part_nue() {
  local fabs f net dir k e ks builtins
  mkdir -p "$out/nue"
  "$keiro" topo torus 4x4x3 --hcas-per-switch 4 -o "$out/nue/torus443-full.net" >/dev/null 2>&1 &&
    fail_switch "$out/nue/torus443-full.net" S21 >"$out/nue/torus443.net" ||
    { say "FAILED: torus 4x4x3"; fails=$((fails + 1)); return; }
  "$keiro" topo random 64 8 --hcas-per-switch 4 --seed 1 -o "$out/nue/random64.net" >/dev/null 2>&1 ||
    { say "FAILED: random 64 8"; fails=$((fails + 1)); return; }
  if [ $quick = yes ]; then fabs="torus443" ks="1 2 4" builtins="updn"; else fabs="torus443 random64" ks="1 2 3 4 5 6 7 8" builtins="updn lash dfsssp nue"; fi
  : >"$out/nue/manifest.tsv"
  for f in $fabs; do
    net=$out/nue/$f.net
    dir=$out/nue/$f
    mkdir -p "$dir"
    for k in $ks; do
      say "nue: $f: keiro-nue with $k VLs"
      osm_run "$dir/keiro-nue-$k" "$net" -e keiro-nue,updn -p "max_vls=$k" &&
        engine_ok "$dir/keiro-nue-$k" keiro-nue && analyze "$dir/keiro-nue-$k" &&
        printf '%s\tkeiro-nue %s\t%s\n' "$f" "$k" "$dir/keiro-nue-$k" >>"$out/nue/manifest.tsv"
    done
    # OpenSM's updn finds no root by itself on these fabrics (its guess looks
    # for fat-tree leaves): it gets the most central switch, keiro-dl's
    # default root.
    "$keiro" route --engine dl --topology "$net" -v 2>&1 |
      sed -nE "s/.*root '.*' \((0x[0-9a-f]+)\).*/\1/p" | head -n 1 >"$dir/root_guid"
    for e in $builtins; do
      say "nue: $f: OpenSM $e"
      osm_run "$dir/$e" "$net" -P -e "$e" -c "nue_max_num_vls 8" -c "root_guid_file $dir/root_guid" &&
        engine_ok "$dir/$e" "$e" &&
        analyze "$dir/$e" && printf '%s\t%s\t%s\n' "$f" "$e" "$dir/$e" >>"$out/nue/manifest.tsv"
    done
    while IFS=$'\t' read -r ff _ d; do
      [ "$ff" = "$f" ] || continue
      link_inputs "$d/sim" "x=$d"
      sim "$d/sim" alltoall --traffic alltoall --size 2048
    done <"$out/nue/manifest.tsv"
  done
}

# ---- LOREN: Figs. 7-10 ----
part_loren() {
  local net lay dir t tmaxes traffics sweep model ins
  dir=$out/loren
  mkdir -p "$dir"
  net=$dir/lrt64.net lay=$dir/lrt64.layout
  "$keiro" topo lrt 64 4 2 --hcas-per-switch 1 --seed 1 -o "$net" --layout "$lay" >/dev/null 2>&1 ||
    { say "FAILED: keiro topo lrt 64 4 2"; fails=$((fails + 1)); return; }
  if [ $quick = yes ]; then tmaxes="32" traffics="uniform" sweep=0.1:1:0.3; else tmaxes="18 32" traffics="uniform transpose shuffle reverse" sweep=0.05:0.6:0.05; fi
  ins=()
  for t in $tmaxes; do
    say "loren: keiro-loren t_max $t"
    osm_run "$dir/loren-$t" "$net" -e keiro-loren,updn -p "loren_layout=$lay loren_tmax=$t max_vls=4" -m 4 &&
      engine_ok "$dir/loren-$t" keiro-loren && analyze "$dir/loren-$t" && ins+=("LOREN-tmax$t=$dir/loren-$t")
  done
  say "loren: keiro-acro (balanced minimal)"
  osm_run "$dir/minimal" "$net" -e keiro-acro,updn -p "max_vls=4" -m 4 &&
    engine_ok "$dir/minimal" keiro-acro && analyze "$dir/minimal" && ins+=("minimal=$dir/minimal")
  link_inputs "$dir/sim" "${ins[@]}"
  for model in paper ib; do
    for tr in $traffics; do
      say "loren: $tr sweep ($model model)"
      if [ $model = paper ]; then
        sim "$dir/sim" "$model-$tr" --traffic "$tr" --sweep "$sweep" --mtu 64 --size 64 --buffer 512 \
          --switch-latency 20.48 --warmup 1000 --cycles 5000 --plot "$dir/plot-$model-$tr"
      else
        sim "$dir/sim" "$model-$tr" --traffic "$tr" --sweep "$sweep" --plot "$dir/plot-$model-$tr"
      fi
      cp "$dir/plot-$model-$tr/latency.svg" "$docdir/img/sim-loren-$model-$tr-latency.svg" 2>/dev/null
      cp "$dir/plot-$model-$tr/throughput.svg" "$docdir/img/sim-loren-$model-$tr-throughput.svg" 2>/dev/null
    done
  done
}

for p in "${parts[@]}"; do
  [ $tables_only = yes ] && break
  t0=$SECONDS
  "part_$p"
  say "$p: $((SECONDS - t0)) s"
done

# ---- tables (markdown) and bar charts ----
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$src" diff --quiet HEAD -- core tool scripts 2>/dev/null || rev="$rev (with local changes)"
python3 - "$out" "$docdir" "$quick" "$rev" "$((SECONDS - t_start))" "${parts[@]}" <<'PY' || fails=$((fails + 1))
import json, math, os, statistics, sys
out, docdir, quick, rev, secs, parts = (sys.argv[1], sys.argv[2], sys.argv[3] == "yes", sys.argv[4],
                                        sys.argv[5], sys.argv[6:])
cmd = "scripts/sim-papers.sh%s%s" % (" -q" if quick else "",
                                     "" if parts == ["dl", "nue", "loren"] else " " + " ".join(parts))
md = ["<!-- SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause -->",
      "# keiro simulate: the papers' simulations, measured", "",
      "How these were made and how they compare with the papers: docs/simulation.md, "
      "\"Reproducing the papers\".", "",
      "<!-- sim-papers:begin -->",
      "Generated by `%s` at keiro commit %s; do not edit by hand. The runs took %s s of wall "
      "time (OpenSM on ibsim included; `-T` and `-r` reuse earlier runs, so their time is not "
      "the simulations')." % (cmd, rev, secs), ""]

def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None

def sat(doc, label):
    """Saturation throughput of one routing in a sweep JSON (several inputs:
    keyed by label; one input: the document itself): the highest accepted
    throughput of the sweep, the papers' figure (keiro simulate's headline
    saturation throughput is the plateau since; JSON from before has only
    "throughput", which was the highest)."""
    if doc is None:
        return None
    d = doc.get(label, doc) if isinstance(doc, dict) and "points" not in doc else doc
    if d is None or "saturation" not in d:
        return None
    s = d["saturation"]
    return s.get("throughput_max", s["throughput"]), d.get("deadlock", False)

def sw_hops(a):
    """Average switch-to-switch hops between HCAs: keiro analyze counts the
    links of a CA-to-CA path, the two HCA links included."""
    h = (a or {}).get("paths", {}).get("avg_hops")
    return None if h is None else h - 2

def fmt(v, f="%.3f"):
    return "-" if v is None else f % v

def bars(path, title, ylabel, cats, series):
    """Grouped bar chart: series = [(name, [value or None per category])]."""
    W, H, L, B, T = 760, 360, 60, 70, 40
    vmax = max([v for _, vs in series for v in vs if v is not None] + [1e-9])
    top = 10 ** math.floor(math.log10(vmax))
    top = math.ceil(vmax / top * 1.1) * top
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    pw, ph = W - L - 150, H - T - B
    cw = pw / max(1, len(cats))
    bw = cw * 0.8 / max(1, len(series))
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14">%s</text>' % (L, title)]
    for i in range(6):
        v = top * i / 5
        y = T + ph - ph * i / 5
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, L + pw, y, y))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%.3g</text>' % (L - 4, y + 4, v))
    s.append('<text transform="translate(14,%d) rotate(-90)" text-anchor="middle">%s</text>' % (T + ph // 2, ylabel))
    for c, name in enumerate(cats):
        x0 = L + c * cw + cw * 0.1
        s.append('<text x="%.1f" y="%d" text-anchor="end" transform="rotate(-35 %.1f %d)">%s</text>'
                 % (x0 + cw * 0.4, T + ph + 14, x0 + cw * 0.4, T + ph + 14, name))
        for k, (_, vs) in enumerate(series):
            v = vs[c]
            if v is None:
                continue
            h = ph * v / top
            s.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %.4f</title></rect>'
                     % (x0 + k * bw, T + ph - h, bw * 0.95, h, colors[k % len(colors)], name, v))
    for k, (n, _) in enumerate(series):
        y = T + 10 + 16 * k
        s.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>'
                 % (L + pw + 12, y, colors[k % len(colors)], L + pw + 26, y + 9, n))
    s.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>' % (L, L + pw, T + ph, T + ph))
    s.append("</svg>")
    open(path, "w").write("\n".join(s) + "\n")

def manifest(part):
    """The rows of the part's manifest.tsv; None when the part did not run."""
    path = "%s/%s/manifest.tsv" % (out, part)
    if part not in parts or not os.path.exists(path):
        return None
    return [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]

rows = manifest("dl")
if rows is not None:
    md += ["## DL against updn (DL paper, Table 6)", "",
           "Random irregular fabrics of 64 switches, 4 HCAs and 4 switch links each; keiro-dl with 3 VLs, "
           "OpenSM's updn from keiro-dl's root (1 VL). Saturation throughput in flits (64-byte credits) per "
           "HCA per cycle, i.e. a fraction of injection bandwidth. updn 3x buf: updn with 12 KiB per (port, VL), the buffer DL has "
           "per port over its 3 VLs. Hops: switch-to-switch hops between HCAs (the paper's Table 7 measure).", "",
           "| fabric | root | hops DL / updn | uniform DL | uniform updn | uniform updn 3x buf | bitrev DL | bitrev updn | DL-free DL / updn |",
           "|---|---|---|---|---|---|---|---|---|"]
    cols = {k: [] for k in ("hd", "hu", "ud", "uu", "uu3", "bd", "bu")}
    wins = []  # per fabric: True (DL above updn), "deadlock" (updn deadlocked), False
    for s, root, d in rows:
        a = load(d + "/dl/analyze.json") or {}
        b = load(d + "/updn/analyze.json") or {}
        v = {"hd": sw_hops(a), "hu": sw_hops(b)}
        cell = {"hd": fmt(v["hd"]), "hu": fmt(v["hu"])}
        for tr, p in (("uniform", "u"), ("bitrev", "b")):
            j, j3 = load("%s/sim/%s.json" % (d, tr)), load("%s/sim12k/%s.json" % (d, tr))
            for k, doc, label in ((p + "d", j, "DL"), (p + "u", j, "updn")) + (((p + "u3", j3, "updn"),) if p == "u" else ()):
                r = sat(doc, label)
                v[k] = None if r is None or r[1] else r[0]
                cell[k] = "DEADLOCK" if r and r[1] else fmt(v[k])
        for k in cols:
            if v[k] is not None:
                cols[k].append(v[k])
        if v["ud"] is not None:
            wins.append("deadlock" if cell["uu"] == "DEADLOCK" else (v["uu"] is not None and v["ud"] > v["uu"]))
        yn = lambda x: {True: "yes", False: "NO"}.get(x.get("check", {}).get("ok"), "-")
        md.append("| irr %s | %s | %s / %s | %s | %s | %s | %s | %s | %s / %s |" % (
            s, root, cell["hd"], cell["hu"], cell["ud"], cell["uu"], cell["uu3"],
            cell["bd"], cell["bu"], yn(a), yn(b)))
    def ms(x):
        if not x:
            return "-"
        return "%.3f (SD %.3f)" % (statistics.mean(x), statistics.pstdev(x)) if len(x) > 1 else "%.3f" % x[0]
    md.append("| **mean** | | %s / %s | %s | %s | %s | %s | %s | |" % (
        fmt(statistics.mean(cols["hd"]) if cols["hd"] else None),
        fmt(statistics.mean(cols["hu"]) if cols["hu"] else None),
        ms(cols["ud"]), ms(cols["uu"]), ms(cols["uu3"]), ms(cols["bd"]), ms(cols["bu"])))
    md.append("| paper, 64 switches, mean of 10 | switch 0 | 3.14 / 3.72 | 0.105-0.164 | 0.033-0.037 | | 0.123-0.192 | 0.052-0.062 | |")
    if cols["ud"] and cols["uu"]:
        md += ["", "DL / updn, mean saturation throughput: uniform %.2fx, bit reversal %s "
               "(paper, DL (UD)* vs up*/down* with the same path selection: 3.2x-4.4x uniform, "
               "2.4x-3.3x bit reversal)." % (
                   statistics.mean(cols["ud"]) / statistics.mean(cols["uu"]),
                   ("%.2fx" % (statistics.mean(cols["bd"]) / statistics.mean(cols["bu"])))
                   if cols["bd"] and cols["bu"] else "-")]
        md.append("DL's uniform saturation throughput is above updn's on %d of %d fabrics; updn deadlocked under "
                  "uniform traffic on %d of them (the means leave deadlocked sweeps out)." % (
                      sum(1 for w in wins if w), len(wins), sum(1 for w in wins if w == "deadlock")))
    first = rows[0][0] if rows else "1"
    md += ["", "![latency](img/sim-dl-irr%s-latency.svg) ![throughput](img/sim-dl-irr%s-throughput.svg)" % (first, first), ""]
    if cols["ud"]:
        bars(docdir + "/img/sim-dl-table6.svg", "Saturation throughput, 64-switch irregular fabrics",
             "flits / HCA / cycle", ["irr %s" % r[0] for r in rows],
             [("DL uniform", cols["ud"]), ("updn uniform", cols["uu"]),
              ("DL bitrev", cols["bd"]), ("updn bitrev", cols["bu"])]
             if len(cols["ud"]) == len(rows) == len(cols["uu"]) == len(cols["bd"]) == len(cols["bu"]) else
             [("DL uniform", cols["ud"])])
        md += ["![Table 6](img/sim-dl-table6.svg)", ""]

rows = manifest("nue")
if rows is not None:
    md += ["## keiro-nue against OpenSM's engines (Nue paper, Fig. 1 and Fig. 10)", "",
           "Shift all-to-all, 2 KiB messages from every HCA to every other; throughput = data delivered / "
           "(HCAs x completion time x link rate). torus443: 4x4x3 torus, 4 HCAs per switch, switch 1,1,1 "
           "failed (47 switches, 188 HCAs). random64: 64 switches of degree 8, 4 HCAs each (256 HCAs). "
           "VLs: VLs the installed tables use; hops: switch-to-switch hops between HCAs; DL-free: keiro check on the "
           "installed tables (CA pairs, the SA's SLs).", ""]
    fabs = []
    for f, _, _ in rows:
        if f not in fabs:
            fabs.append(f)
    for f in fabs:
        md += ["### " + f, "", "| routing | all-to-all throughput | completion (us) | VLs | avg hops | DL-free |", "|---|---|---|---|---|---|"]
        cats, vals = [], []
        for ff, label, d in rows:
            if ff != f:
                continue
            j = load(d + "/sim/alltoall.json")
            a = load(d + "/analyze.json") or {}
            if isinstance(j, dict) and "throughput" not in j and len(j) == 1:
                j = list(j.values())[0]
            tp = j.get("throughput") if j else None
            us = j["cycles"] * j["cycle_ns"] / 1000 if j and "cycles" in j else None
            name = label.replace("keiro-nue ", "keiro-nue k=") if label.startswith("keiro-nue") else "OpenSM " + label
            dead = bool(j and j.get("deadlock"))
            md.append("| %s | %s | %s | %s | %s | %s |" % (
                name, "DEADLOCK (%s packets delivered)" % j["packets_delivered"]
                if dead else fmt(tp), "-" if dead else fmt(us, "%.1f"), a.get("vls_used", "-"), fmt(sw_hops(a)),
                {True: "yes", False: "NO"}.get(a.get("check", {}).get("ok"), "-")))
            cats.append(name.replace("OpenSM ", "") + (" (deadlock)" if dead else ""))
            vals.append(None if dead else tp)
        md.append("")
        bars(docdir + "/img/sim-nue-%s.svg" % f, "Shift all-to-all throughput, %s" % f,
             "fraction of injection bandwidth", cats, [("all-to-all", vals)])
        md += ["![%s](img/sim-nue-%s.svg)" % (f, f), ""]

if "loren" in parts and os.path.exists(out + "/loren/sim"):
    d = out + "/loren"
    labels = sorted(l for l in os.listdir(d + "/sim") if os.path.isdir(d + "/sim/" + l))
    md += ["## keiro-loren against balanced minimal routing (LOREN paper, Figs. 7-10)", "",
           "LRT(64,4,2) (`keiro topo lrt 64 4 2 --seed 1`), one HCA per switch, 4 VLs. minimal: keiro-acro "
           "(balanced minimal routes, deadlock free by ACRO). Saturation throughput (highest accepted, "
           "fraction of injection bandwidth) of a load sweep. paper model: 64-byte (1-flit) packets, "
           "8 flits per (port, VL), 4-cycle switch latency (Table II); IB model: keiro simulate's "
           "defaults (2 KiB packets, 4 KiB per (port, VL), 100 ns switch).", ""]
    hops = {}
    for l in labels:
        a = load(d + "/sim/%s/../analyze.json" % l) or {}
        hops[l] = (sw_hops(a), a.get("vls_used"))
    md += ["| routing | avg hops | VLs used |", "|---|---|---|"]
    md += ["| %s | %s | %s |" % (l, fmt(hops[l][0]), hops[l][1] if hops[l][1] is not None else "-") for l in labels]
    md.append("")
    for model in ("paper", "ib"):
        md += ["| %s model | %s |" % (model, " | ".join(labels)), "|---" * (len(labels) + 1) + "|"]
        for tr in ("uniform", "transpose", "shuffle", "reverse"):
            j = load("%s/sim/%s-%s.json" % (d, model, tr))
            if j is None:
                continue
            cells = []
            for l in labels:
                r = sat(j, l)
                cells.append("-" if r is None else ("DEADLOCK" if r[1] else "%.3f" % r[0]))
            md.append("| %s | %s |" % (tr, " | ".join(cells)))
        md.append("")
    md += ["Latency against offered load (paper model): "
           + " ".join("![%s](img/sim-loren-paper-%s-latency.svg)" % (t, t)
                      for t in ("uniform", "transpose", "shuffle", "reverse")
                      if os.path.exists(docdir + "/img/sim-loren-paper-%s-latency.svg" % t)), "",
           "Accepted throughput against offered load (paper model): "
           + " ".join("![%s](img/sim-loren-paper-%s-throughput.svg)" % (t, t)
                      for t in ("uniform", "transpose", "shuffle", "reverse")
                      if os.path.exists(docdir + "/img/sim-loren-paper-%s-throughput.svg" % t)), ""]

md.append("<!-- sim-papers:end -->")
open(docdir + "/sim-papers.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
say "done in $((SECONDS - t_start)) s; tables in $docdir/sim-papers.md; $fails failure(s)"
[ $fails -eq 0 ]
