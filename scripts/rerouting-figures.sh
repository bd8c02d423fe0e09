#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The figures of docs/rerouting.md, in one run, offline (`keiro route
# --previous`, `keiro check`); four blocks:
#  rerouting-single  one link and one switch (with its HCAs) fail on a 5x5x5
#                    torus with 2 HCAs per switch and on the bundled LRT(25)
#                    demo fabric; per engine: SLs a fresh routing keeps and
#                    whether its tables are deadlock free with the old SLs,
#                    SLs the re-route keeps and how, times, both checks;
#  rerouting-torus   scripts/fail-in-place.sh on the 6x6x6 torus (seed 1)
#                    with 4 and 8 VLs, keiro-dl with 4 VLs over seeds 1-5,
#                    and keiro-acro/-dl with 4 VLs without spare SLs
#                    (spread_sls=0), with a summary per series and engine;
#  rerouting-lrt     the same on LRT(144,4,2) with keiro-loren (8 VLs);
#  rerouting-scale   one link fails on a random fabric of 1,900 switches x
#                    12 links with 24 HCAs each (47,500 LIDs), keiro-acro,
#                    8 VLs: the re-route against a full route, peak memory.
# usage: rerouting-figures.sh [-q] [-o DIR] [-d DOC] [BUILDDIR]
#   -q       quick (about 15 s on an idle machine): the LRT(25) failures
#            without keiro-acro, 3x3x3 torus and LRT(16) series of 2
#            failures, a random fabric of 100 switches
#   -o DIR   keep the work files in DIR (default: a temporary one)
#   -d DOC   replace the four blocks in DOC (docs/rerouting.md)
# Prints the blocks on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
quick=0 doc= work=
while getopts "qo:d:h" opt; do
  case $opt in
    q) quick=1 ;;
    o) work=$OPTARG ;;
    d) doc=$OPTARG ;;
    *) sed -n '/^# usage:/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-$src/build}" && pwd)
keiro="$build/keiro"
[ -x "$keiro" ] || { echo "rerouting-figures: no $keiro" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/rerouting-figures.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
q=$([ $quick = 1 ] && echo ' -q')
header() {  # header NAME SECONDS
  echo "<!-- $1:begin -->"
  echo "Written by \`scripts/rerouting-figures.sh$q\` at commit $commit on $(date -u +%F) ($2 s for this part), on a 2-core machine shared with other jobs; do not edit."
  echo
}

# fact JSON KEY: route_seconds or facts.KEY of keiro route --json ("" if absent).
fact() { python3 -c "import json,sys
try: d=json.load(open(sys.argv[1]))
except Exception: sys.exit()
k=sys.argv[2]; print(d.get(k) if k in d else d.get('facts', {}).get(k, ''))" "$1" "$2"; }

# drop_from_lst IN OUT link A B | switch S: the subnet list without the
# link between the switches described A and B, or without switch S and the
# CAs cabled to it (descriptions as in the list's {...}).
drop_from_lst() {
  python3 - "$@" <<'PY'
import re, sys
src, out, kind = sys.argv[1:4]
names = sys.argv[4:]
ends = lambda l: re.findall(r"\{ (SW|CA)[^{}]*NodeGUID:(\w+)[^{}]*\{([^}]*)\}", l)
lines = open(src).read().splitlines()
drop = set()
if kind == "switch":
    guid = {g for l in lines for t, g, d in ends(l) if t == "SW" and d == names[0]}
    cas = {g for l in lines if any(g0 in guid for _, g0, _ in ends(l)) for t, g, _ in ends(l) if t == "CA"}
    gone = guid | cas
    drop = {i for i, l in enumerate(lines) if any(g in gone for _, g, _ in ends(l))}
else:
    drop = {i for i, l in enumerate(lines) if sorted(d for _, _, d in ends(l)) == sorted(names)}
if not drop:
    sys.exit("rerouting-figures: nothing to drop for %s %s" % (kind, names))
open(out, "w").write("\n".join(l for i, l in enumerate(lines) if i not in drop) + "\n")
PY
}

# how JSON: how the re-route kept (or changed) the SLs, from its facts.
how() {
  local f=$1
  if [ "$(fact "$f" repaired_previous)" = yes ]; then echo "previous routing repaired"
  elif [ "$(fact "$f" routed_afresh)" = no ]; then echo "incremental, engine not run"
  elif [ "$(fact "$f" incremental)" = yes ]; then echo "incremental"
  elif [ "$(fact "$f" incremental_relaxed)" = yes ]; then echo "relaxed incremental"
  elif [ -n "$(fact "$f" pinned_ports)" ]; then echo "pinned layers"
  else echo "pinned realization, sls_kept=$(fact "$f" sls_kept)"; fi
}

pct() { python3 -c "import sys; p, c = int(sys.argv[1] or 0), int(sys.argv[2] or 0)
print('%.1f%%' % (100.0 * (p - c) / p) if p else '-')" "$1" "$2"; }

# ---- rerouting-single ----------------------------------------------------
t0=$SECONDS
single_rows=()
single() {  # single TAG NET "ENGINES" OPTS... ; FAULTS in the array faults
  local tag=$1 net=$2 engines=$3
  shift 3
  local opts=("$@") e fs kind label base lst d
  for e in $engines; do
    "$keiro" route --engine "$e" --topology "$net" "${opts[@]}" --out "$work/$tag-$e-base" \
      >/dev/null 2>"$work/$tag-$e-base.err" || return 1
  done
  for fs in "${faults[@]}"; do
    IFS='|' read -r kind label a b <<<"$fs"
    for e in $engines; do
      base=$work/$tag-$e-base lst=$work/$tag-$kind.lst d=$work/$tag-$kind-$e
      [ -f "$lst" ] || drop_from_lst "$base/opensm-subnet.lst" "$lst" "$kind" "$a" ${b:+"$b"} || return 1
      local fresh_old="routing failed" fresh_kept="-" full="-"
      if "$keiro" route --engine "$e" --topology "$lst" "${opts[@]}" --opt keep_sls=0 --previous "$base" \
           --out "$d-fresh" --json >"$d-fresh.json" 2>"$d-fresh.err"; then
        fresh_kept=$(pct "$(fact "$d-fresh.json" previous_pairs)" "$(fact "$d-fresh.json" sls_changed)")
        full=$(printf '%.3f' "$(fact "$d-fresh.json" route_seconds)")
        "$keiro" check "$d-fresh" --threads 1 --sls "$base/keiro-path-sl.dump" >"$d-fresh.old" 2>&1 &&
          fresh_old=pass || fresh_old=$(grep -q 'credit loops *FOUND' "$d-fresh.old" && echo "credit loop" || echo FAIL)
      fi
      if ! "$keiro" route --engine "$e" --topology "$lst" "${opts[@]}" --previous "$base" --out "$d" \
             --json >"$d.json" 2>"$d.err"; then
        single_rows+=("| $label | keiro-$e | - | $fresh_kept | $fresh_old | re-route failed: $(head -c 120 "$d.err" | tr '\n|' '  ') | | $full | | | |")
        continue
      fi
      local cn co pairs
      "$keiro" check "$d" --threads 1 >/dev/null 2>&1 && cn=pass || cn=FAIL
      "$keiro" check "$d" --threads 1 --stale-sls "$base/keiro-path-sl.dump" >"$d.old" 2>&1 && co=pass || co=FAIL
      pairs=$(fact "$d.json" previous_pairs)
      single_rows+=("$(printf '| %s | keiro-%s | %s | %s | %s | %s | %s | %s | %.3f | %s | %s |' "$label" "$e" \
        "$pairs" "$fresh_kept" "$fresh_old" "$(pct "$pairs" "$(fact "$d.json" sls_changed)")" "$(how "$d.json")" \
        "$full" "$(fact "$d.json" route_seconds)" "$cn" "$co")")
    done
  done
}
lrt25=$src/ibsim-topologies/demo-lrt-25sw
faults=("link|LRT 25, link|lrt x=3 y=3|lrt x=4 y=4" "switch|LRT 25, switch|lrt x=2 y=2|")
single lrt25 "$lrt25.net" "$([ $quick = 1 ] && echo "nue dl loren" || echo "nue acro dl loren")" --opt max_vls=4 --opt threads=1 \
  --opt loren_layout="$lrt25.layout" || { echo "rerouting-figures: LRT 25 failed" >&2; exit 1; }
if [ $quick = 0 ]; then
  "$keiro" topo torus 5x5x5 --hcas-per-switch 2 -o "$work/t555.net" >/dev/null || exit 1
  faults=("link|5x5x5 torus, link|torus 0,0,0|torus 1,0,0" "switch|5x5x5 torus, switch|torus 2,2,2|")
  single t555 "$work/t555.net" "nue acro dl" --opt max_vls=4 --opt threads=1 ||
    { echo "rerouting-figures: 5x5x5 torus failed" >&2; exit 1; }
fi
block_single=$(
  header rerouting-single $((SECONDS - t0))
  echo "max_vls=4, one check thread. The failed fabric is the first routing's \`opensm-subnet.lst\` without the failed link, or without the switch and its HCAs, so LIDs stay. *pairs*: (source LID, destination LID) pairs routed before and still connected. *fresh*: a routing from scratch (\`keep_sls=0\`): the share of those pairs whose SL it keeps, and \`keiro check --sls\` of its tables with the old SLs (what jobs that started before the fault send). *re-route*: the SL-stable re-route: the share kept and how. Times are keiro's \`route_seconds\`. *check old SLs*: \`keiro check --stale-sls\` of the re-routed tables with the old SLs."
  echo
  echo "| fault | engine | pairs | SLs kept, fresh | fresh tables with old SLs | SLs kept, re-route | how | full route s | re-route s | check new SLs | check old SLs |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${single_rows[@]}"
  echo "<!-- rerouting-single:end -->"
)

# ---- fail-in-place series --------------------------------------------------
fip="$src/scripts/fail-in-place.sh"
# series TAG ARGS...: one fail-in-place run; its table in $work/TAG.md.
series() {
  local tag=$1
  shift
  "$fip" -k "$keiro" -o "$work/$tag" "$@" >"$work/$tag.md" 2>"$work/$tag.err" ||
    { echo "rerouting-figures: fail-in-place.sh $* failed: $(tail -n 3 "$work/$tag.err")" >&2; exit 1; }
}
# summary TITLE FILE...: per engine over the rows of the tables: steps, steps
# that changed SLs and how many pairs, times, checks, dropping hops.
summary() {
  python3 - "$@" <<'PY'
import re, sys
title, files = sys.argv[1], sys.argv[2:]
eng = {}
for f in files:
    for line in open(f):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or not c[0].isdigit():
            continue
        e = eng.setdefault(c[2], dict(steps=0, failed=0, changed=[], full=[], rr=[], bad=0, drops=[]))
        e["steps"] += 1
        if len(c) < 10:
            e["failed"] += 1
            continue
        if int(c[5]) > 0:
            e["changed"].append(int(c[5]))
        e["full"].append(float(c[6])); e["rr"].append(float(c[7]))
        if c[8] != "pass" or not c[9].startswith("pass"):
            e["bad"] += 1
        m = re.search(r"(\d+) hops drop", c[9])
        if m:
            e["drops"].append(int(m.group(1)))
rng = lambda v, f="%.2f": (f % min(v)) if min(v) == max(v) else (f + "-" + f) % (min(v), max(v))
for name, e in eng.items():
    ch = e["changed"]
    s = "keiro-%s: %d steps; " % (name, e["steps"])
    if e["failed"]:
        s += "%d re-routes failed; " % e["failed"]
    s += ("every SL kept at every step" if not ch else
          "SLs changed at %d of %d steps, %s of the pairs at each" % (len(ch), e["steps"], rng(ch, "%d")))
    if e["rr"]:
        s += "; re-route %s s, full route %s s" % (rng(e["rr"]), rng(e["full"]))
    s += "; " + ("every table passes the check with the new and with the old SLs" if not e["bad"] else
                 "%d steps fail a check" % e["bad"])
    if e["drops"]:
        s += " (stale traffic dropped at %d steps, %s hops each)" % (len(e["drops"]), rng(e["drops"], "%d"))
    print("- %s, %s." % (title, s))
PY
}

t0=$SECONDS
if [ $quick = 1 ]; then
  tor=(-t 3x3x3 -f 0.025) lrt=(-t lrt:16,4,2 -f 0.05) seeds="1 2" teng="nue dl" neng="dl"
else
  tor=(-t 6x6x6 -f 0.01) lrt=(-t lrt:144,4,2 -f 0.02) seeds="1 2 3 4 5" teng="nue acro dl" neng="acro dl"
fi
series tor4 "${tor[@]}" -e "$teng" -v 4 -s 1
series tor8 "${tor[@]}" -e "$teng" -v 8 -s 1
for s in $seeds; do
  [ "$s" = 1 ] && { grep -E "^\\| [0-9]+ \\| [^|]* \\| dl \\|" "$work/tor4.md" >"$work/dl4-s1.md"; continue; }
  series "dl4-s$s" "${tor[@]}" -e dl -v 4 -s "$s"
done
series nospread "${tor[@]}" -e "$neng" -v 4 -s 1 -x spread_sls=0
tdesc=$([ $quick = 1 ] && echo "3x3x3 torus, 2.5% of its links" || echo "6x6x6 torus, 1% of its links")
block_torus=$(
  header rerouting-torus $((SECONDS - t0))
  echo "\`scripts/fail-in-place.sh ${tor[*]} -e ENGINES -v VLS -s SEED\`: a $tdesc failing one after the other, 2 HCAs per switch, each step re-routed from the previous step's re-routed tables, one thread. *SLs changed afresh*: a routing from scratch (\`keep_sls=0\`) would change that many (source LID, destination LID) pairs; *SLs changed re-route*: the SL-stable re-route did. *check old SLs*: \`keiro check --stale-sls\` with the previous step's SLs (\"N hops drop\": the stale traffic of a path that changed SL is dropped on VL 15 before it could close a credit loop)."
  echo
  echo "Summary:"
  echo
  summary "8 VLs, seed 1" "$work/tor8.md"
  summary "4 VLs, seed 1" "$work/tor4.md"
  summary "4 VLs, keiro-dl, seeds $(echo $seeds | tr ' ' ',')" $(for s in $seeds; do echo "$work/dl4-s$s.md"; done) |
    sed 's/keiro-dl: //'
  summary "4 VLs without spare SLs (\`-x spread_sls=0\`), seed 1" "$work/nospread.md"
  echo
  echo "max_vls=8:"
  echo
  cat "$work/tor8.md"
  echo
  echo "max_vls=4:"
  echo
  cat "$work/tor4.md"
  echo "<!-- rerouting-torus:end -->"
)

t0=$SECONDS
series lrt8 "${lrt[@]}" -v 8 -s 1
block_lrt=$(
  header rerouting-lrt $((SECONDS - t0))
  echo "\`scripts/fail-in-place.sh ${lrt[*]} -v 8 -s 1\` (every engine): an LRT fabric (\`keiro topo lrt\`, seed 1) with its layout, 2 HCAs per switch, its links failing one after the other; columns as above."
  echo
  summary "8 VLs, seed 1" "$work/lrt8.md"
  echo
  cat "$work/lrt8.md"
  echo "<!-- rerouting-lrt:end -->"
)

# ---- rerouting-scale ------------------------------------------------------
t0=$SECONDS
if [ $quick = 1 ]; then rnd=(100 6 --hcas-per-switch 4 --seed 11); else rnd=(1900 12 --hcas-per-switch 24 --seed 11); fi
"$keiro" topo random "${rnd[@]}" -o "$work/big.net" >/dev/null || exit 1
sopts=(--engine acro --opt max_vls=8)
"$keiro" route "${sopts[@]}" --topology "$work/big.net" --out "$work/big0" >/dev/null 2>"$work/big0.err" ||
  { echo "rerouting-figures: scale: first route failed: $(tail -n 2 "$work/big0.err")" >&2; exit 1; }
link=$(python3 - "$work/big0/opensm-subnet.lst" <<'PY'
import re, sys
for l in open(sys.argv[1]):
    e = re.findall(r"\{ (SW|CA)[^{}]*\{([^}]*)\}", l)
    if len(e) == 2 and e[0][0] == e[1][0] == "SW":
        print(e[0][1] + "|" + e[1][1]); break
PY
)
drop_from_lst "$work/big0/opensm-subnet.lst" "$work/big1.lst" link "${link%%|*}" "${link#*|}" || exit 1
/usr/bin/time -f %M -o "$work/full.mem" "$keiro" route "${sopts[@]}" --topology "$work/big1.lst" --json \
  >"$work/full.json" 2>"$work/full.err" || { echo "rerouting-figures: scale: full route failed" >&2; exit 1; }
/usr/bin/time -f %M -o "$work/rr.mem" "$keiro" route "${sopts[@]}" --topology "$work/big1.lst" \
  --previous "$work/big0" --json >"$work/rr.json" 2>"$work/rr.err" ||
  { echo "rerouting-figures: scale: re-route failed: $(tail -n 2 "$work/rr.err")" >&2; exit 1; }
sw=$(python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['fabric']; print('%d switches, %d LIDs' % (f['switches'], f['lids']))" "$work/rr.json")
block_scale=$(
  header rerouting-scale $((SECONDS - t0))
  echo "\`keiro topo random ${rnd[*]}\` ($sw after the failure), keiro-acro with \`max_vls=8\`, the tool's default threads; one switch-to-switch link (${link/|/ - }) removed from the first routing's \`opensm-subnet.lst\`. *full route*: \`keiro route\` of the failed fabric; *re-route*: the same with \`--previous\` (the first routing's dumps). Route phase = keiro's \`route_seconds\` (routing and the keeping steps, without the final self-check); peak memory of the whole \`keiro route\` process (GNU time's maximum RSS)."
  echo
  echo "| run | route phase s | incremental route s (its check included) | self-check s | SLs changed | engine routed | peak memory MB |"
  echo "|---|---|---|---|---|---|---|"
  for r in full rr; do
    python3 - "$work/$r.json" "$(cat "$work/$r.mem")" "$r" <<'PY'
import json, sys
d, mem, r = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
f = d.get("facts", {})
print("| %s | %.1f | %s | %.1f | %s | %s | %d |" % (
    "full route" if r == "full" else "re-route", d["route_seconds"],
    f.get("incremental_seconds", "-"), d["check"]["seconds"],
    ("%s of %s pairs" % (f.get("sls_changed", "?"), f.get("previous_pairs", "?"))) if r == "rr" else "-",
    "no" if f.get("routed_afresh") == "no" else "yes", mem // 1024))
PY
  done
  echo "<!-- rerouting-scale:end -->"
)

printf '%s\n\n' "$block_single" "$block_torus" "$block_lrt" "$block_scale"
if [ -n "$doc" ]; then
  printf '%s\n' "$block_single" "$block_torus" "$block_lrt" "$block_scale" |
    python3 "$src/scripts/keiro_bench.py" replace-blocks "$doc" || exit 1
fi
