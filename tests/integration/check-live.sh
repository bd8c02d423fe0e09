#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro check --live (issue 3): the fabric and tables read through
# ibnetdiscover, ibroute, smpquery sl2vl and the SA (saquery, or the bulk
# sa_path_sl helper) on ibsim through umad2sim, as on hardware:
#  - 3x3x3 torus: minhop's credit loop is found (exit 1), lash passes (exit 0),
#    and what was read live equals OpenSM's own dumps;
#  - a ring of 5 switches with LMC 1: the same with one saquery per pair.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
mkdir -p "$IT_DIR"
net="$IT_DIR/torus-3x3x3.net"
"$IT_KEIRO" topo torus 3x3x3 -o "$net" >/dev/null || { it_fail "keiro topo torus 3x3x3 failed"; it_done; }
sa_tool="$KEIRO_BUILDDIR/tests/harness/sa_path_sl --raw"

if it_start minhop "$net" plugin=no engines=minhop; then
  it_live_check 1 --sa-tool "$sa_tool" &&
    { grep -q '^  credit loops    FOUND' "$IT_OUT/live-check.txt" || it_fail "minhop live: no credit loop"; }
  it_same_lfts
else
  it_fail "minhop: no SUBNET UP"
fi
it_stop

if it_start lash "$net" plugin=no engines=lash; then
  it_live_check 0 --sa-tool "$sa_tool"
  grep -qE 'path SLs .*\(2862 PathRecords\)' "$IT_OUT/live-check.txt" || it_fail "lash live: not every PathRecord answered"
  it_same_lfts
else
  it_fail "lash: no SUBNET UP"
fi
it_stop

# One saquery per (source port, destination LID) on a small fabric, LMC 1.
if it_start ring5 "$KEIRO_SRCDIR/tests/unit/data/ring5-minhop/ring5.net" plugin=no engines=minhop lmc=1; then
  it_live_check 1 --jobs 4
  grep -qE 'path SLs +saquery \((1[0-9]{2}|2[0-9]{2}) PathRecords\)' "$IT_OUT/live-check.txt" ||
    it_fail "ring5 live: saquery PathRecords missing"
  grep -q 'LMC 1' "$IT_OUT/live-check.txt" || it_fail "ring5 live: LMC 1 not recognised"
  grep -q '^  pairs checked   260$' "$IT_OUT/live-check.txt" || it_fail "ring5 live: expected 260 pairs"
else
  it_fail "ring5: no SUBNET UP"
fi
it_stop
it_done
