#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Fixed-SL safety (issue 16, item 3) through the real OpenSM: keiro-nue with
# 4 VLs on a 5x5 torus (2 HCAs per switch), QoS on.
#  - plain: the installed tables pass keiro check with the SA's SLs, but
#    keiro check --fixed-sl 0 (all traffic on SL 0, as UCX_IB_SL=0 sends it)
#    finds a credit loop (exit 1), and OpenSM's log has keiro's INFO line
#    saying so;
#  - fixed_sl=0: the installed tables pass keiro check with the SA's SLs,
#    with --fixed-sl 0 and with --mixed-sl 0, the SA never answers SL 0, and
#    the INFO line says all three hold; both kinds of traffic share one VL;
#  - acro: keiro-acro with fixed_sl=0 the same way (its minimal routes need
#    VL changes one SL cannot encode, so the fixed-SL search's one-VL run
#    routes up*/down*: docs/fixed-sl.md); it failed before 2026-11-27.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
mkdir -p "$IT_DIR"
net="$IT_DIR/torus-5x5.net"
"$IT_KEIRO" topo torus 5x5 --hcas-per-switch 2 -o "$net" >/dev/null ||
  { it_fail "keiro topo torus 5x5 failed"; it_done; }

# check_rc WANT TAG [keiro check options]: keiro check of the last run's
# installed tables with the SA's SLs; fails unless it exits WANT.
check_rc() {
  local want=$1 tag=$2 rc
  shift 2
  "$IT_KEIRO" check "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" --lmc 0 "$@" \
    >"$IT_OUT/check-$tag.txt" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    it_fail "$IT_TAG: keiro check $* exited $rc, expected $want"
    sed -n '1,20p' "$IT_OUT/check-$tag.txt"
    return 1
  fi
  it_log "$IT_TAG: keiro check $* -> $rc ($(grep -E '^  (path SLs|credit loops|VLs used)' "$IT_OUT/check-$tag.txt" | sed 's/  */ /g' | tr '\n' ';'))"
  # The same verdict from the independent oracle.
  it_oracle_agrees "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" --lmc 0 "$@"
}

for IT_TAG in plain fixed acro; do
  opts="max_vls=4"
  engine=keiro-nue
  [ "$IT_TAG" != plain ] && opts="max_vls=4 fixed_sl=0"
  [ "$IT_TAG" = acro ] && engine=keiro-acro
  if ! it_run "$IT_TAG" "$net" -s -e $engine -p "$opts"; then
    it_fail "$IT_TAG: no SUBNET UP"
    continue
  fi
  it_expect_log "$engine tables configured on all switches" 1 || continue
  it_expect_log 'ERR KE' 0
  it_no_osm_errors
  check_rc 0 own
  if [ "$IT_TAG" = plain ]; then
    check_rc 1 fixed0 --fixed-sl 0 &&
      grep -q '^  credit loops    FOUND' "$IT_OUT/check-fixed0.txt" ||
      it_fail "plain: --fixed-sl 0 found no credit loop"
    grep -q '^  path SLs        every path on SL 0 (--fixed-sl)' "$IT_OUT/check-fixed0.txt" ||
      it_fail "plain: the report does not say every path is on SL 0"
    it_expect_log 'keiro-nue: fixed-SL safety: NOT deadlock free when every path uses SL 0' 1
    # Plain keiro-nue does hand out SL 0 (sanity of the row test below).
    grep -E '^slid [0-9]+ [0-9a-f-]+$' "$IT_OUT/sa-path-sl.dump" | cut -d' ' -f3 | grep -q 0 ||
      it_fail "plain: no SL 0 in the SA's answers"
  else
    check_rc 0 fixed0 --fixed-sl 0
    check_rc 0 mixed0 --mixed-sl 0
    it_expect_log "$engine: fixed-SL safety: deadlock free with the SA.s SLs, with every path on SL 0 \\(fixed_sl=0\\) and with both at once" 1
    it_expect_log "$engine: fixed_sl=0: the SA.s paths use 1 VL and SLs other than 0; every path on SL 0 uses the same VL 0" 1
    # The SA never hands out SL 0: the path-SL file has a row 'slid N DIGITS' per
    # source LID: one hex digit per destination LID, '-' for none.
    rows=$(grep -cE '^slid [0-9]+ [0-9a-f-]+$' "$IT_OUT/sa-path-sl.dump")
    zero=$(grep -E '^slid [0-9]+ [0-9a-f-]+$' "$IT_OUT/sa-path-sl.dump" | cut -d' ' -f3 | grep -c 0)
    [ "${rows:-0}" -ge 75 ] || it_fail "fixed: only ${rows:-0} path-SL rows from the SA"
    [ "${zero:-1}" -eq 0 ] || it_fail "fixed: the SA answered SL 0 in $zero rows"
  fi
done
it_done
