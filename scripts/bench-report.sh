#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The benchmark page (docs/benchmarks.md): every keiro engine and every
# applicable OpenSM built-in engine through the real OpenSM on ibsim, on a
# fat tree, a degraded fat tree, a torus with failed links, a random fabric,
# a dragonfly, an LRT with its layout and an HDN, in one run.
#
# usage: scripts/bench-report.sh [BUILDDIR] [OUTDIR]
#   BUILDDIR  built keiro tree (default ./build)
#   OUTDIR    run directories, results.tsv, benchmarks.md and the SVGs
#             (default BUILDDIR/bench-report)
# Environment:
#   BENCH_QUICK=1    tiny fabrics of the same families (a smoke run)
#   BENCH_FABRICS    names of the fabrics to run (default: all of the set)
#   BENCH_ENGINES    engines (default: keiro's, as `keiro engines --osm-names`
#                    lists them, keiro-nue also with fixed_sl=0, then minhop
#                    updn ftree dfsssp lash nue torus-2QoS)
#   BENCH_VLS        VL cap: keiro max_vls and OpenSM's nue_max_num_vls (8)
#   BENCH_SIM=0      no `keiro simulate` runs
#   BENCH_TABLES_ONLY=1  no runs: write the page and the SVGs again from
#                    OUTDIR's results.tsv (after a change of the renderer)
#   BENCH_DOC        write the page there (e.g. docs/benchmarks.md) and its
#                    SVGs into DIR(BENCH_DOC)/img; the text between the
#                    page's bench-report:begin/end markers is replaced, the
#                    rest (the recommendations) is kept. Without it the page
#                    is OUTDIR/benchmarks.md, made from the source tree's
#                    docs/benchmarks.md in the same way.
#
# Per run: the engine OpenSM installed, routing time from OpenSM's own log
# lines, and from `keiro analyze --pairs ca` on the installed dumps: VLs and
# SLs used, average hops, max edge forwarding index, Γ (uniform traffic),
# the shift all-to-all estimate and keiro check's deadlock verdict with the
# SLs the SA hands out (keiro's engines: the plugin's keiro-path-sl.dump,
# which is what its path_sl answers; dfsssp, nue, lash and torus-2QoS: asked
# from the SA pair by pair; the others hand out SL 0); `keiro check
# --fixed-sl 0` (MPI with a fixed SL); `keiro simulate --traffic alltoall
# --size 2048` with the SA's SLs (throughput and whether it deadlocked).
# ftree runs on fat trees only, torus-2QoS on tori only (with a generated
# torus-2QoS.conf), keiro-loren on fabrics that come with a layout (LRT).
# Exit: 0 all runs done (verdicts are data), 1 a run failed, 2 usage.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
kb_init bench-report "$@"
start=$(date +%s)

vls=${BENCH_VLS:-8}
# ENGINE@k=v: the engine with an extra keiro option (keiro-nue@fixed_sl=0:
# tables for MPI on a fixed SL 0, docs/fixed-sl.md).
kb_keiro_engines bench-report keiro-nue@fixed_sl=0
engines=${BENCH_ENGINES:-"${KB_ENGINES}minhop updn ftree dfsssp lash nue torus-2QoS"}
# name|keiro topo arguments|kind (fattree, torus, other)|description
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  set_=(
    "ft4x3|fattree 4 3|fattree|4-ary 3-tree"
    "ft4x3-f2|fattree 4 3 --fail-links 0.02 --seed 1|fattree|4-ary 3-tree, 2% links failed"
    "torus4x4x4-f1|torus 4x4x4 --hcas-per-switch 1 --fail-links 0.01 --seed 1|torus|4x4x4 torus, 1% links failed"
    "rrg32-d4|random 32 4 --hcas-per-switch 2 --seed 1|other|random 32 switches, degree 4"
    "dfly-4-2-2-9|dragonfly 4 2 2 9|other|dragonfly a=4 p=2 h=2 g=9"
    "lrt16|lrt 16 4 2 --hcas-per-switch 1 --seed 1|other|LRT(16,4,2) with layout"
    "hdn-2x3x5|hdn --base 2x3x5 --k 1 --S 15|other|HDN base 2x3x5, k=1, S=15"
    "ft4x3-r3|fattree 4 3 --port-split hca-low --relabel 3|fattree|4-ary 3-tree, leaf-first HCAs-low numbering, relabelled (seed 3)"
    "dir1-8-r1|director 1 8 --relabel 1|other|one 648-port director, 8 rack switches, relabelled (seed 1)"
  )
else
  set_=(
    "ft8x3|fattree 8 3|fattree|8-ary 3-tree (192 switches, 512 HCAs)"
    "ft8x3-f2|fattree 8 3 --fail-links 0.02 --seed 1|fattree|8-ary 3-tree, 2% links failed"
    "torus6x6x6-f1|torus 6x6x6 --hcas-per-switch 2 --fail-links 0.01 --seed 1|torus|6x6x6 torus, 2 HCAs/switch, 1% links failed"
    "rrg128-d8|random 128 8 --hcas-per-switch 4 --seed 1|other|random 128 switches, degree 8, 4 HCAs/switch"
    "dfly-6-3-3-19|dragonfly 6 3 3 19|other|dragonfly a=6 p=3 h=3 g=19 (114 switches, 342 HCAs)"
    "lrt64|lrt 64 4 2 --hcas-per-switch 2 --seed 1|other|LRT(64,4,2), 2 HCAs/switch, with layout"
    "hdn-2x3x5|hdn --base 2x3x5 --k 1 --S 15|other|HDN base 2x3x5, k=1, S=15 (120 switches)"
    "ft8x3-r3|fattree 8 3 --port-split hca-low --relabel 3|fattree|8-ary 3-tree as a real fabric numbers it (leaf level first, HCAs on the low ports), then relabelled at random (seed 3)"
    "dir3-24-r1|director 3 24 --relabel 1|other|three 648-port directors (18 spine + 36 line chips each) and 24 rack switches of 18 HCAs, relabelled at random (seed 1; 186 switches, 432 HCAs)"
  )
fi

# torus2qos_conf NET CONF: a torus-2QoS.conf for a keiro topo torus net file
# (switch i at coordinates in its comment, GUID 0x0203<i:4 bytes>000000):
# the torus size and a seed switch with its +x, +y, +z links (and -x, -y,
# -z for dimensions of radix 4, as torus-2QoS.conf(5) requires) all present.
torus2qos_conf() {
  python3 - "$1" "$2" <<'EOF'
import re, sys
sw, links, dims = {}, {}, None
cur = None
for line in open(sys.argv[1]):
    m = re.match(r'switchguid=(0x[0-9a-f]+)', line)
    if m:
        guid = m.group(1)
        continue
    m = re.match(r'Switch \d+ "(\S+)" # "torus ([0-9,]+)"', line)
    if m:
        cur = m.group(1)
        sw[cur] = (guid, tuple(int(c) for c in m.group(2).split(',')))
        links[cur] = set()
        continue
    m = re.match(r'\[\d+\]\s+"(S\d+)"', line)
    if m and cur:
        links[cur].add(m.group(1))
    if line.startswith('# keiro topo torus'):
        dims = [int(x) for x in line.split()[4].split('x')]
by = {c: n for n, (g, c) in sw.items()}
for n, (g, c) in sorted(sw.items(), key=lambda kv: kv[1][1]):
    # radix 4: torus-2QoS also needs the - direction links of the seed.
    nb = []
    for d in range(len(dims)):
        for step, tag in ((1, 'p'), (-1, 'm')):
            if tag == 'm' and dims[d] != 4:
                continue
            cc = list(c)
            cc[d] = (cc[d] + step) % dims[d]
            nb.append(('xyz'[d] + tag, by[tuple(cc)]))
    if all(x in links[n] for _, x in nb):
        with open(sys.argv[2], 'w') as f:
            f.write('torus %s\n' % ' '.join(str(k) for k in dims))
            for tag, x in nb:
                f.write('%s_link %s %s\n' % (tag, g, sw[x][0]))
        sys.exit(0)
sys.exit('no seed switch with all + links')
EOF
}

tsv=$out/results.tsv
fabtsv=$out/fabrics.tsv
if [ "${BENCH_TABLES_ONLY:-0}" = 1 ]; then
  [ -s "$tsv" ] && [ -s "$fabtsv" ] || { echo "bench-report: no $tsv to render" >&2; exit 2; }
  set_=()
fi
[ ${#set_[@]} -gt 0 ] && printf '#fabric\tengine\tinstalled\troute_s\tvls\tsls\tefi_max\tefi_avg\tgamma_uniform\tshift\tavg_hops\tverdict\tverdict_sl0\tsim_tput\tsim_deadlock\tnote\n' >"$tsv"
[ ${#set_[@]} -gt 0 ] && printf '#fabric\tdescription\tswitches\thcas\tlinks\n' >"$fabtsv"
failed=0
na() { printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\tn/a (%s)\n' "$1" "$2" "$3" >>"$tsv"; }
for entry in ${set_[@]+"${set_[@]}"}; do
  IFS='|' read -r fab topo kind desc <<<"$entry"
  if [ -n "${BENCH_FABRICS:-}" ] && ! [[ " $BENCH_FABRICS " == *" $fab "* ]]; then continue; fi
  net=$out/$fab.net
  # shellcheck disable=SC2086
  "$keiro" topo $topo -o "$net" >"$out/$fab.topo.txt" 2>&1 ||
    { echo "bench-report: keiro topo $topo failed" >&2; exit 1; }
  read -r nsw nhca nlink < <(sed -nE 's/.*: ([0-9]+) switches, ([0-9]+) HCAs, ([0-9]+) switch-to-switch links.*/\1 \2 \3/p' \
    "$out/$fab.topo.txt" | tail -n 1)
  printf '%s\t%s\t%s\t%s\t%s\n' "$fab" "$desc" "${nsw:--}" "${nhca:--}" "${nlink:--}" >>"$fabtsv"
  layout=${net%.net}.layout
  for label in $engines; do
    e=${label%%@*}
    case $e in
      ftree) [ "$kind" != fattree ] && { na "$fab" "$label" "fat trees only"; continue; } ;;
      torus-2QoS)
        [ "$kind" != torus ] && { na "$fab" "$label" "tori only"; continue; }
        torus2qos_conf "$net" "$out/$fab.torus-2QoS.conf" 2>"$out/$fab.torus-2QoS.err" ||
          { na "$fab" "$label" "no torus-2QoS.conf: $(tail -n 1 "$out/$fab.torus-2QoS.err")"; continue; } ;;
      keiro-loren) [ -s "$layout" ] || { na "$fab" "$label" "needs a layout"; continue; } ;;
    esac
    dir=$out/$fab/$label
    echo "bench-report: $fab: $label ($(($(date +%s) - start)) s)" >&2
    if ! kb_run "$label" "$net" "$dir" "$vls" "$layout" "$out/$fab.torus-2QoS.conf"; then
      echo "bench-report: $fab: $label: no SUBNET UP (see $dir.harness.txt)" >&2
      printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\tno SUBNET UP\t-\t-\t-\t-\n' "$fab" "$label" >>"$tsv"
      failed=1
      continue
    fi
    kb_analyze "$dir" || failed=1
    "$keiro" check "$dir/dumps" --pairs ca --fixed-sl 0 >"$dir/check-sl0.txt" 2>&1
    case $? in
      0) v0="deadlock free" ;;
      1) v0="FAILS: $(sed -n '/^problems:/{n;s/^ *//;p;q}' "$dir/check-sl0.txt" | cut -c1-200)" ;;
      *) v0="no verdict: $(head -n 1 "$dir/check-sl0.txt")" failed=1 ;;
    esac
    tput=- dl=-
    if [ "${BENCH_SIM:-1}" != 0 ]; then
      nice -n 10 "$keiro" simulate "$dir/dumps" ${KB_SLS[@]+"${KB_SLS[@]}"} --traffic alltoall --size 2048 \
        --json >"$dir/sim.json" 2>"$dir/sim.err"
      if [ $? -le 1 ]; then
        { read -r tput; read -r dl; } < <(kh_json "$dir/sim.json" throughput:%.4f deadlock)
      else
        echo "bench-report: $fab: $label: keiro simulate failed: $(head -c 200 "$dir/sim.err")" >&2
        failed=1
      fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\n' "$fab" "$label" "${KB_USED:--}" "${KB_RT:--}" \
      "$KB_VLS" "$KB_SLS_USED" "$KB_EFI_MAX" "$KB_EFI_AVG" "$KB_GAMMA" "$KB_SHIFT" "$KB_HOPS" "$KB_VERDICT" "$v0" \
      "${tput:--}" "${dl:--}" >>"$tsv"
  done
done
elapsed=$(($(date +%s) - start))
# The commit and the machine are those of the run, also when the page is
# only written again (BENCH_TABLES_ONLY=1).
if [ "${BENCH_TABLES_ONLY:-0}" = 1 ]; then
  elapsed=$(cat "$out/elapsed" 2>/dev/null || echo '?')
  KB_COMMIT=$(cat "$out/commit" 2>/dev/null || echo unknown)
  note=$(cat "$out/note" 2>/dev/null)
else
  echo "$elapsed" >"$out/elapsed"
  echo "$KB_COMMIT" >"$out/commit"
  note="$(date -u +%Y-%m-%d), $(nproc 2>/dev/null || echo '?') cores shared with other jobs (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') at the end)"
  echo "$note" >"$out/note"
fi

page=${BENCH_DOC:-$out/benchmarks.md}
imgdir=$(dirname "$page")/img
[ -n "${BENCH_DOC:-}" ] || { imgdir=$out/img; cp "$src/docs/benchmarks.md" "$page"; }
mkdir -p "$imgdir"
quick=()
[ "${BENCH_QUICK:-0}" = 1 ] && quick=(--quick)
python3 "$src/scripts/bench_table.py" report "$tsv" --fabrics "$fabtsv" --svg "$imgdir/bench-report" \
  --md "$out/report.md" --doc "$page" --elapsed "$elapsed" --commit "$KB_COMMIT" --note "$note" \
  ${quick[@]+"${quick[@]}"} || failed=1
echo "bench-report: $page written ($elapsed s)" >&2
exit $failed
