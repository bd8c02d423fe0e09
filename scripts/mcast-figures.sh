#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The figures of docs/multicast.md, in one run:
#  1. offline (`keiro route --mcast FILE`): keiro's trees for the IPoIB
#     broadcast group (every CA port) and 4 groups of 8-16 ports (seeded)
#     on a torus, two random fabrics, a fat tree, a dragonfly and an HDN,
#     per engine, with the default settings (groups on SL 0) and with a
#     multicast SL and VL of their own (max_sls=15 mcast_sl=15 mcast_vl=1,
#     groups on SL 15); per run: groups with a sound tree, the deepest tree,
#     links used, the busiest link's trees, the unicast+multicast check;
#  2. through OpenSM on the 4x4x4 torus (scripts/mcast-survey.sh): keiro's
#     trees, OpenSM's own builder over keiro's tables (mcast_trees=0) and
#     OpenSM's engines, judged by keiro check and the independent oracle.
# usage: mcast-figures.sh [-q] [-d DOC] [-k DIR] [BUILDDIR]
#   -q       quick: the offline part on the torus and one random fabric, no OpenSM part
#   -d DOC   replace the block between <!-- mcast-figures:begin/end --> in DOC
#   -k DIR   keep every offline routing's tables (with its trees) in
#            DIR/FABRIC-ENGINE-SETTINGS, for the independent oracle
# Prints the block on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
quick=0 doc= keep=
while getopts "qd:k:h" opt; do
  case $opt in
    q) quick=1 ;;
    d) doc=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n '/^# usage:/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-$src/build}" && pwd)
keiro="$build/keiro"
[ -x "$keiro" ] || { echo "mcast-figures: no $keiro" >&2; exit 2; }
work=$(mktemp -d /tmp/mcast-figures.XXXXXX)
trap 'rm -rf "$work"' EXIT
t0=$SECONDS
# The commit the run measures: the source tree's HEAD when it starts.
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)

fabrics=(torus:"torus 4x4x4 --hcas-per-switch 2" random1:"random 64 4 --hcas-per-switch 2 --seed 1")
[ $quick = 1 ] || fabrics+=(random2:"random 64 4 --hcas-per-switch 2 --seed 2"
  fattree:"fattree 4 3" dragonfly:"dragonfly 4 2 2 5"
  hdn:"hdn --base 2x3x5 --k 1 --S 15" torus10:"torus 10x10x10 --hcas-per-switch 4")
engines=(nue acro dl)
modes=(default:"" dedicated:"--opt max_sls=15 --opt mcast_sl=15 --opt mcast_vl=1"
  fixed_sl=0:"--opt fixed_sl=0")

rows=()
for fs in "${fabrics[@]}"; do
  name=${fs%%:*} args=${fs#*:}
  net="$work/$name.net"
  # shellcheck disable=SC2086
  "$keiro" topo $args -o "$net" >/dev/null 2>&1 || { echo "mcast-figures: keiro topo $args failed" >&2; exit 1; }
  for e in "${engines[@]}"; do
    for ms in "${modes[@]}"; do
      mode=${ms%%:*} opts=${ms#*:}
      # fixed_sl=0 on the 1,000-switch torus: minutes of VL search, not run.
      [ "$name" = torus10 ] && [ "$mode" = fixed_sl=0 ] && continue
      out=()
      [ -n "$keep" ] && out=(--out "$keep/$name-$e-$mode")
      # shellcheck disable=SC2086
      "$keiro" route --engine "$e" --topology "$net" --mcast broadcast+4 $opts ${out[@]+"${out[@]}"} --json \
        >"$work/$name-$e-$mode.json" 2>"$work/$name-$e-$mode.err"
      rows+=("$(python3 - "$work/$name-$e-$mode.json" "$name" "$e" "$mode" <<'PY'
import json, sys
path, fabric, engine, mode = sys.argv[1:5]
try:
    d = json.load(open(path))
except Exception:
    print("| %s | keiro-%s | %s | routing failed | | | | | |" % (fabric, engine, mode)); sys.exit()
m = d.get("mcast", {})
vl = (d.get("facts") or {}).get("mcast_vl", "-")
print("| %s | keiro-%s | %s | %s | %s of %s | %s | %s | %s | %s |" % (
    fabric, engine, mode, vl, m.get("groups_ok"), m.get("groups"), m.get("max_depth"),
    m.get("links_used"), m.get("max_trees_per_link"),
    "none" if not m.get("credit_loop") else "CREDIT LOOP"))
PY
)")
    done
  done
done

# What the default costs keiro-nue: layer 0's escape tree keeps every turn
# for the groups (EscapePaths all_turns); max/avg EFI and hops against
# mcast_trees=0 on the same fabrics.
cost_rows=()
for fs in "${fabrics[@]}"; do
  name=${fs%%:*}
  for m in 0 1; do
    "$keiro" route --engine nue --topology "$work/$name.net" --opt mcast_trees=$m --json \
      >"$work/cost-$name-$m.json" 2>/dev/null
  done
  cost_rows+=("$(python3 - "$work/cost-$name-0.json" "$work/cost-$name-1.json" "$name" <<'PY'
import json, sys
try:
    a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
except Exception:
    print("| %s | routing failed | | | |" % sys.argv[3]); sys.exit()
fa, fb = a["efi"]["max_over_avg"], b["efi"]["max_over_avg"]
ha, hb = a["paths"]["avg_hops"], b["paths"]["avg_hops"]
print("| %s | %.3f | %.3f (%+.1f%%) | %.3f | %.3f (%+.1f%%) |" % (sys.argv[3], fa, fb, 100 * (fb / fa - 1), ha, hb, 100 * (hb / ha - 1)))
PY
)")
done

osm_rows=()
if [ $quick = 0 ]; then
  net="$work/torus.net"
  for run in own:"keiro-nue keiro-acro keiro-dl" opensm:"-p mcast_trees=0 keiro-nue keiro-acro keiro-dl" \
             builtin:"minhop updn dfsssp nue lash torus-2QoS"; do
    tag=${run%%:*} what=${run#*:}
    # shellcheck disable=SC2086
    KEIRO_BUILDDIR=$build SURVEY_VERDICT=checked "$src/scripts/mcast-survey.sh" -t "$net" -o "$work/survey-$tag" \
      -b "$build" $what >"$work/survey-$tag.txt" 2>&1
    while read -r line; do osm_rows+=("$tag|$line"); done < <(sed -n '/^engine /,$p' "$work/survey-$tag.txt" | tail -n +2)
  done
fi

block=$(
  echo "<!-- mcast-figures:begin -->"
  echo "Written by \`scripts/mcast-figures.sh$([ $quick = 1 ] && echo ' -q')\` at commit $commit in $((SECONDS - t0)) s; do not edit."
  echo
  echo "Offline, \`keiro route --engine E --topology NET --mcast broadcast+4\`: the broadcast group (every CA port) and 4 groups of 8-16 CA ports; *default*: the groups on SL 0, default options; *dedicated*: \`max_sls=15 mcast_sl=15 mcast_vl=1\`, the groups on SL 15; *fixed_sl=0*: all traffic on SL 0 made safe too (docs/fixed-sl.md) and the trees built against the SA's SLs and SL 0 together, so that the last column covers the SA's SLs, every path on SL 0 and the groups at once."
  echo
  echo "| fabric | engine | settings | multicast VL | groups with a sound tree | deepest tree (hops) | links used | busiest link (trees) | unicast + multicast credit loop |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "What keiro-nue's default pays for it (layer 0's escape tree keeps every turn for the groups), \`keiro route --engine nue\` with \`mcast_trees=0\` against the default, 8 VLs:"
  echo
  echo "| fabric | max/avg EFI, mcast_trees=0 | default | average hops, mcast_trees=0 | default |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${cost_rows[@]}"
  if [ ${#osm_rows[@]} -gt 0 ]; then
    echo
    echo "Through OpenSM 3.3.23 + ibsim on the 4x4x4 torus with 2 HCAs per switch (\`scripts/mcast-survey.sh\`: every CA port joins the IPoIB broadcast group through the SA, 4 groups get 8-16 members; the harness's fence group is not counted); *keiro* = keiro's trees, *mcast_trees=0* = OpenSM's builder over keiro's tables, *OpenSM* = its built-in engines; *credit-loop*: a cycle in the unicast (SA's SLs) and multicast dependencies together, by keiro check and the oracle alike (a disagreement would be named in the note):"
    echo
    echo '```'
    printf '%-14s %-12s %-18s %6s %9s %6s %12s  %s\n' tables engine installed groups loop-free looped credit-loop note
    for r in "${osm_rows[@]}"; do
      case ${r%%|*} in own) t=keiro ;; opensm) t=mcast_trees=0 ;; *) t=OpenSM ;; esac
      printf '%-14s %s\n' "$t" "${r#*|}"
    done
    echo '```'
  fi
  echo "<!-- mcast-figures:end -->"
)
echo "$block"
if [ -n "$doc" ]; then
  echo "$block" | python3 "$src/scripts/keiro_bench.py" replace-blocks "$doc"
fi
