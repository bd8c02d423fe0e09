#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Fail-in-place series for SL-stable re-routing (docs/rerouting.md), offline
# through `keiro route --previous`: a torus (default 6x6x6, 2 HCAs per
# switch) loses a share (default 1%) of its switch-to-switch links one at a
# time (seeded); after every failure each engine re-routes with the previous
# step's dumps and is also routed afresh (keep_sls=0) for comparison.
# Per step and engine: pairs still connected, SLs a fresh routing would
# change, SLs the re-route changed, full-route and re-route time (keiro's
# route_seconds: routing plus keeping SLs, without the self-check), and
# `keiro check` of the re-routed tables with the new SLs and with the
# previous step's SLs (every LID survives a link failure, so the previous
# path-SL file covers every pair; --stale-sls: where a path had to change
# SL, the re-route may drop its old SL's traffic on VL 15, counted as
# "N hops drop" -- deadlock free, not delivered).
# -t lrt:N,d,r instead: a layout-conscious random topology (keiro topo lrt,
# seeded with -s too) with its layout, LOREN's kind of fabric.
# usage: scripts/fail-in-place.sh [-k KEIRO] [-t 6x6x6|lrt:N,d,r] [-f 0.01]
#                                 [-e "nue acro"] [-s SEED] [-v VLS] [-o DIR]
#                                 [-x KEY=VALUE ...]   (-x: more engine options)
# -e: the engines (default: every one, `keiro engines --names`).
# Prints a Markdown table. Time: a few seconds per step and engine at 6x6x6.
set -u
keiro=${KEIRO:-build/keiro} dims=6x6x6 frac=0.01 engines= seed=1 vls=4
out=$(mktemp -d /tmp/fail-in-place.XXXXXX)
extra=()
while getopts k:t:f:e:s:v:o:x: o; do
  case $o in
    x) extra+=(--opt "$OPTARG") ;;
    k) keiro=$OPTARG ;; t) dims=$OPTARG ;; f) frac=$OPTARG ;; e) engines=$OPTARG ;;
    s) seed=$OPTARG ;; v) vls=$OPTARG ;; o) out=$OPTARG ;;
    *) sed -n '/^# usage:/,/^# Prints/p' "$0" >&2; exit 2 ;;
  esac
done
[ -n "$engines" ] || engines=$("$keiro" engines --names | tr '\n' ' ')
[ -n "$engines" ] || { echo "fail-in-place: $keiro engines lists no engine" >&2; exit 1; }
mkdir -p "$out"
if [[ $dims == lrt:* ]]; then  # lrt:N,d,r -- LOREN's own kind of fabric, with its layout
  IFS=, read -r n d r <<<"${dims#lrt:}"
  "$keiro" topo lrt "$n" "$d" "$r" --seed "$seed" --hcas-per-switch 2 -o "$out/step0.net" \
    --layout "$out/fabric.layout" >/dev/null || exit 1
else
  "$keiro" topo torus "$dims" --hcas-per-switch 2 -o "$out/step0.net" >/dev/null || exit 1
  # LOREN's layout: torus (x, y, z) at (x + (X + 1) * z, y).
  awk -v X="${dims%%x*}" '/^switchguid=/ { g = substr($1, 12) }
    /^Switch/ && match($0, /torus [0-9]+,[0-9]+(,[0-9]+)?/) {
      split(substr($0, RSTART + 6, RLENGTH - 6), c, ","); z = (3 in c) ? c[3] : 0
      print g, c[1] + (X + 1) * z, c[2] }' "$out/step0.net" >"$out/fabric.layout"
fi

# The links to fail, in order, as "nodeA portA nodeB portB".
python3 - "$out/step0.net" "$frac" "$seed" >"$out/fail.txt" <<'PY'
import random, re, sys
net, frac, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
links, node = set(), None
for line in open(net):
    m = re.match(r'\s*(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"', line)
    if m:
        node = m.group(2) if m.group(1) == 'Switch' else None
        continue
    m = re.match(r'\s*\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if node and m and m.group(2).startswith('S'):
        a, b = (node, int(m.group(1))), (m.group(2), int(m.group(3)))
        links.add(tuple(sorted([a, b])))
links = sorted(links)
random.Random(seed).shuffle(links)
for (a, pa), (b, pb) in links[:max(1, round(frac * len(links)))]:
    print(a, pa, b, pb)
PY

# fact JSON KEY: a field of keiro route --json (route_seconds or facts.KEY).
fact() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); k=sys.argv[2]
print(d.get(k) if k in d else d.get('facts', {}).get(k, ''))" "$1" "$2"; }

opts=(--opt max_vls="$vls" --opt loren_layout="$out/fabric.layout" --opt threads=1 ${extra[@]+"${extra[@]}"})
echo "| step | failed link | engine | pairs | SLs changed afresh | SLs changed re-route | full route s | re-route s | check new SLs | check old SLs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for e in $engines; do
  "$keiro" route --engine "$e" --topology "$out/step0.net" "${opts[@]}" --out "$out/$e-0" \
    >/dev/null 2>"$out/$e-0.err" || { echo "| 0 | - | $e | route failed: $(head -c 200 "$out/$e-0.err") |"; continue; }
done
step=0
while read -r a pa b pb; do
  step=$((step + 1))
  awk -v a="$a" -v pa="$pa" -v b="$b" -v pb="$pb" '
    /^[[:space:]]*(Switch|Hca|Ca)[[:space:]]/ { split($0, q, "\""); node = q[2] }
    /^[[:space:]]*\[[0-9]+\]/ { p = $0; sub(/^[[:space:]]*\[/, "", p); sub(/\].*/, "", p)
      if ((node == a && p == pa) || (node == b && p == pb)) next }
    { print }' "$out/step$((step - 1)).net" >"$out/step$step.net"
  for e in $engines; do
    prev=$out/$e-$((step - 1)) cur=$out/$e-$step
    [ -d "$prev" ] || continue
    "$keiro" route --engine "$e" --topology "$out/step$step.net" "${opts[@]}" --opt keep_sls=0 \
      --previous "$prev" --json >"$cur-fresh.json" 2>/dev/null
    "$keiro" route --engine "$e" --topology "$out/step$step.net" "${opts[@]}" \
      --previous "$prev" --out "$cur" --json >"$cur.json" 2>"$cur.err" ||
      { echo "| $step | $a[$pa]-$b[$pb] | $e | re-route failed: $(head -c 200 "$cur.err") |"; continue; }
    "$keiro" check "$cur" --threads 1 >/dev/null 2>&1 && cn=pass || cn=FAIL
    "$keiro" check "$cur" --threads 1 --stale-sls "$prev/keiro-path-sl.dump" >"$cur.old-check" 2>&1 &&
      co=pass || co=FAIL
    drops=$(awk '/stale drops/ { print $3 }' "$cur.old-check")
    [ "${drops:-0}" != 0 ] && co="$co ($drops hops drop)"
    printf '| %d | %s[%s]-%s[%s] | %s | %s | %s | %s | %.3f | %.3f | %s | %s |\n' "$step" "$a" "$pa" \
      "$b" "$pb" "$e" "$(fact "$cur.json" previous_pairs)" "$(fact "$cur-fresh.json" sls_changed)" \
      "$(fact "$cur.json" sls_changed)" "$(fact "$cur-fresh.json" route_seconds)" \
      "$(fact "$cur.json" route_seconds)" "$cn" "$co"
  done
done <"$out/fail.txt"
echo "(dumps in $out)" >&2
