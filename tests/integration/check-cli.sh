#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro check end to end, offline (no ibsim, no OpenSM): it never guesses
# path SLs and it checks a VL budget on the tables.
#  - the dumps of OpenSM's minhop (tests/unit/data/ring5-minhop: QoS on, SL2VL
#    maps SL i to VL i mod 8, no path SLs): exit 2 with one message counting
#    the pairs without an SL; with --assume-sl 0 it checks (and finds
#    minhop's credit loop on the ring: exit 1), saying how many pairs used the
#    assumed SL (text and JSON);
#  - keiro-nue's tables with max_vls=8 on a bundled fabric: exit 0 with
#    --vls 8, exit 1 with --vls 4 naming a path on VL 4 or above;
#  - both verdicts with a credit-loop answer are also the independent
#    oracle's (tests/oracle/oracle.py).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
ring="$KEIRO_SRCDIR/tests/unit/data/ring5-minhop"
pairs=$((17 * 17 - (5 + 6 * 4)))

# No path SLs: unusable input, one message.
"$IT_KEIRO" check "$ring" >"$IT_DIR/nosl.out" 2>"$IT_DIR/nosl.err"
rc=$?
[ $rc -eq 2 ] || it_fail "check without path SLs: exit $rc, want 2"
[ -s "$IT_DIR/nosl.out" ] && it_fail "check without path SLs printed a report: $(head -n 3 "$IT_DIR/nosl.out")"
[ "$(wc -l <"$IT_DIR/nosl.err")" -eq 1 ] || it_fail "want one message, got: $(cat "$IT_DIR/nosl.err")"
grep -q "^keiro check: $pairs (source, destination) pairs need a path SL and have none: no path-SL file" \
  "$IT_DIR/nosl.err" || it_fail "message: $(cat "$IT_DIR/nosl.err")"

# --assume-sl 0: checked, and minhop's ring credit loop is found.
"$IT_KEIRO" check "$ring" --assume-sl 0 >"$IT_DIR/assume.out" 2>&1
rc=$?
[ $rc -eq 1 ] || it_fail "check --assume-sl 0: exit $rc, want 1 (minhop's credit loop)"
grep -q "credit loops    FOUND" "$IT_DIR/assume.out" || it_fail "no credit loop: $(cat "$IT_DIR/assume.out")"
grep -q "assumed SL      $pairs pairs without a path SL checked with SL 0" "$IT_DIR/assume.out" ||
  it_fail "no assumed-SL count: $(cat "$IT_DIR/assume.out")"
"$IT_KEIRO" check "$ring" --assume-sl 0 --json >"$IT_DIR/assume.json" 2>&1
[ "$(kh_json "$IT_DIR/assume.json" check.pairs_assumed_sl)" = "$pairs" ] ||
  it_fail "JSON pairs_assumed_sl: $(kh_json "$IT_DIR/assume.json" check.pairs_assumed_sl)"
IT_VERDICTS=$IT_DIR/assume it_oracle_agrees "$ring" --assume-sl 0 && [ "$IT_ORACLE_RC" -eq 1 ] ||
  it_fail "the independent oracle does not find minhop's credit loop with --assume-sl 0"

# VL budget: keiro-nue with max_vls=8 on the 4x4x4 torus uses VLs 4 and above.
dumps="$IT_DIR/nue8"
"$IT_KEIRO" route --engine nue --topology "$KEIRO_SRCDIR/ibsim-topologies/torus-4x4x4-f4-h1.net" \
  --opt max_vls=8 --out "$dumps" >"$IT_DIR/route.out" 2>&1 || it_fail "keiro route: $(tail -n 3 "$IT_DIR/route.out")"
"$IT_KEIRO" check "$dumps" --vls 8 >"$IT_DIR/vls8.out" 2>&1
rc=$?
[ $rc -eq 0 ] || it_fail "check --vls 8: exit $rc: $(tail -n 5 "$IT_DIR/vls8.out")"
IT_VERDICTS=$IT_DIR/vls8 it_oracle_agrees "$dumps" --vls 8 && [ "$IT_ORACLE_RC" -eq 0 ] ||
  it_fail "the independent oracle does not pass keiro-nue's tables"
used=$(sed -n 's/^  VLs used *//p' "$IT_DIR/vls8.out")
[ "${used:-0}" -gt 4 ] || it_fail "keiro-nue max_vls=8 uses ${used:-no} VLs; the test needs more than 4"
"$IT_KEIRO" check "$dumps" --vls 4 >"$IT_DIR/vls4.out" 2>&1
rc=$?
[ $rc -eq 1 ] || it_fail "check --vls 4: exit $rc, want 1"
grep -Eq "^  path '[^']+' \(LID [0-9]+\) -> LID [0-9]+ .* SL [0-9]+: hop from switch '[^']+' port [0-9]+ \(in port [0-9]+\) on VL ([4-9]|1[0-4]), but the port operates 4 data VLs" \
  "$IT_DIR/vls4.out" || it_fail "no path named on VL >= 4: $(grep -A3 problems: "$IT_DIR/vls4.out")"
it_log "$(grep -m1 "^  path '" "$IT_DIR/vls4.out" | sed 's/^ *//')"
it_done
