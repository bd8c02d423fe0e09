#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Golden tables (issue 30): the tables keiro route writes (LFTs, SL2VL,
# path SLs, subnet list) for a fixed list of runs, hashed and compared with
# tests/golden/tables.sha256. Every bundled fabric (ibsim-topologies/*.net)
# x every engine x {plain, fixed_sl=0} x {first routing, re-route with
# --previous after one link failed (tests/golden/drop-link.py), first
# routing with keiro's multicast trees for the broadcast group and 4 more}. keiro-loren
# gets the layout file where the fabric has one and fails (recorded as such)
# elsewhere. Refactors that must not change behaviour keep every line.
# KEIRO_GOLDEN_WRITE=1 rewrites the file instead (only for a change that is
# meant to change tables; say so in its commit).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
golden="$KEIRO_SRCDIR/tests/golden/tables.sha256"
got="$IT_DIR/tables.sha256"
: >"$got"

# route TAG NET ENGINE OUT [keiro route options]: one offline routing; its
# line is "TAG rc=N sha256" over the dumps it wrote (or "-" when none).
route() {
  local tag=$1 net=$2 engine=$3 out=$4
  shift 4
  local opts=(--opt threads=2)
  [ "$engine" = loren ] && [ -r "${net%.net}.layout" ] && opts+=(--opt "loren_layout=${net%.net}.layout")
  rm -rf "$out"
  "$IT_KEIRO" route --topology "$net" --engine "$engine" "${opts[@]}" --out "$out" "$@" \
    >"$out.log" 2>&1
  local rc=$? sum=-
  if [ -d "$out" ]; then
    sum=$(cd "$out" && cat opensm-subnet.lst opensm-lfts.dump opensm-sl2vl.dump keiro-path-sl.dump \
      opensm.mcfdbs 2>/dev/null | sha256sum | cut -c1-16)
  fi
  echo "$tag rc=$rc $sum" >>"$got"
}

for net in "$KEIRO_SRCDIR"/ibsim-topologies/*.net; do
  base=$(basename "$net" .net)
  python3 "$KEIRO_SRCDIR/tests/golden/drop-link.py" "$net" "$IT_DIR/$base-down.net" ||
    it_fail "$base: drop-link.py failed"
  cp -f "${net%.net}.layout" "$IT_DIR/$base-down.layout" 2>/dev/null
  for engine in nue acro dl loren; do
    for fixed in none 0; do
      extra=()
      [ "$fixed" = none ] || extra=(--opt "fixed_sl=$fixed")
      t="$base $engine fixed_sl=$fixed"
      d="$IT_DIR/$base-$engine-$fixed"
      route "$t first" "$net" "$engine" "$d-up" "${extra[@]}"
      if [ -d "$d-up" ]; then
        route "$t reroute" "$IT_DIR/$base-down.net" "$engine" "$d-down" --previous "$d-up" "${extra[@]}"
      else
        echo "$t reroute not-run" >>"$got"
      fi
      # Multicast trees (as the plugin builds them) beside the unicast tables.
      route "$t first+mcast" "$net" "$engine" "$d-mc" --mcast broadcast+4:7 "${extra[@]}"
      rm -rf "$d-up" "$d-down" "$d-mc"
    done
  done
done

if [ "${KEIRO_GOLDEN_WRITE:-0}" = 1 ]; then
  cp "$got" "$golden"
  it_log "wrote $golden ($(wc -l <"$golden") runs)"
  exit 0
fi
[ -r "$golden" ] || { echo "$IT_NAME: ERROR: $golden is missing"; exit 99; }
if ! diff -u "$golden" "$got" >"$IT_DIR/diff.txt"; then
  it_fail "tables differ from $golden ($(grep -c '^+[^+]' "$IT_DIR/diff.txt") runs):"
  head -n 40 "$IT_DIR/diff.txt"
fi
n=$(wc -l <"$got")
[ "$n" -ge 100 ] || it_fail "only $n runs (want every fabric x engine x variant)"
[ $IT_FAILS -eq 0 ] && it_log "PASS ($n runs match tests/golden/tables.sha256)"
exit $((IT_FAILS > 0))
