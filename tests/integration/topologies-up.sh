#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every bundled fabric (ibsim-topologies/*.net) loads in ibsim and OpenSM
# brings it up (SUBNET UP), with OpenSM's own engine (minhop, no plugin), so
# the test is about the fabric files. For each one, the fabric OpenSM found
# (its opensm-subnet.lst dump) must equal what keiro reads offline from the
# net file: the same switches, links and end ports with the same GUIDs, port
# numbers, descriptions and LIDs (keiro gives LIDs in OpenSM's order).
#
# usage (from a build tree): KEIRO_SRCDIR=.. ../tests/integration/topologies-up.sh [FILE.net...]
# KEIRO_TOOL overrides the keiro binary (default: $KEIRO_BUILDDIR/keiro).
. "$(dirname "$0")/common.sh"

it_require_sim
keiro=${KEIRO_TOOL:-$IT_KEIRO}
[ -x "$keiro" ] || { echo "FAIL: no keiro tool at $keiro (build first)"; exit 99; }

if [ $# -gt 0 ]; then
  nets=("$@")
else
  nets=("$KEIRO_SRCDIR"/ibsim-topologies/*.net)
fi
[ -e "${nets[0]}" ] || { echo "FAIL: no fabric files"; exit 99; }

for net in "${nets[@]}"; do
  tag=$(basename "$net" .net)
  t0=$SECONDS
  if ! it_run "$tag" "$net" -P -e minhop -w 300; then
    it_fail "$tag: OpenSM did not bring the fabric up"
    continue
  fi
  up=$((SECONDS - t0))
  lst="$IT_OUT/dumps/opensm-subnet.lst"
  if [ ! -s "$lst" ]; then
    it_fail "$tag: no opensm-subnet.lst"
    continue
  fi
  if ! "$keiro" topo show "$net" >"$IT_OUT/offline.txt" 2>"$IT_OUT/offline.err"; then
    it_fail "$tag: keiro cannot read $net: $(cat "$IT_OUT/offline.err")"
    continue
  fi
  if ! "$keiro" topo show "$lst" >"$IT_OUT/opensm.txt" 2>"$IT_OUT/opensm.err"; then
    it_fail "$tag: keiro cannot read $lst: $(cat "$IT_OUT/opensm.err")"
    continue
  fi
  if ! diff -u "$IT_OUT/offline.txt" "$IT_OUT/opensm.txt" >"$IT_OUT/diff.txt"; then
    it_fail "$tag: the fabric OpenSM found differs from the net file read offline:"
    head -n 20 "$IT_OUT/diff.txt"
    continue
  fi
  it_log "$tag: SUBNET UP in ${up}s; $(cat "$IT_OUT/offline.err" | sed 's/^[^:]*: //'), GUIDs and LIDs as read offline"
done

# With LMC 2 (aligned blocks of 4 LIDs, switches keep one) on the first fabric.
net=${nets[0]}
tag=$(basename "$net" .net)-lmc2
if it_run "$tag" "$net" -P -e minhop -l 2 -w 300; then
  "$keiro" topo show "$net" --lmc 2 >"$IT_OUT/offline.txt" 2>/dev/null &&
    "$keiro" topo show "$IT_OUT/dumps/opensm-subnet.lst" --lmc 2 >"$IT_OUT/opensm.txt" 2>/dev/null &&
    diff -u "$IT_OUT/offline.txt" "$IT_OUT/opensm.txt" >"$IT_OUT/diff.txt" &&
    it_log "$tag: LIDs with LMC 2 as read offline" ||
    { it_fail "$tag: LIDs with LMC 2 differ:"; head -n 20 "$IT_OUT/diff.txt"; }
else
  it_fail "$tag: OpenSM did not bring the fabric up with LMC 2"
fi
it_done
