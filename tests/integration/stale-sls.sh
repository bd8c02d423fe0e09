#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Stale SLs after a fault, offline (no ibsim, no OpenSM), with
# scripts/fail-in-place.sh as docs/rerouting.md runs it: a 6x6x6 torus with
# 2 HCAs per switch loses 1% of its links one after the other, keiro-dl
# with 4 VLs (every sub-network in use, where some broken paths must take
# another SL; seed 1 at 2f586a1: steps 1 and 5, as docs/rerouting.md's
# rerouting-torus block shows).
#  - Every step: the re-routed tables pass `keiro check` with the new SLs,
#    and with the previous step's SLs (--stale-sls): where a path changed
#    SL, its old SL's traffic is dropped (VL 15) before it can close a
#    credit loop; at least one step shows such drops.
#  - The same series with drop_stale_sls=0: at least one step's tables
#    have a credit loop with the previous SLs.
#  - keiro check refuses --sls and --stale-sls together (exit 2), and on the
#    tables of a step with drops --sls (drops are VL errors) exits 1.
#  - The independent oracle (tests/oracle/oracle.py, it_oracle_agrees) gives
#    every one of these verdicts too: each step with its new SLs and with
#    the previous step's (--stale-sls, the same number of dropping hops as
#    the table), the steps without drops whose old SLs close a credit loop,
#    --sls with --stale-sls and --sls on a step with drops.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
fip="$KEIRO_SRCDIR/scripts/fail-in-place.sh"

"$fip" -k "$IT_KEIRO" -e dl -v 4 -s 1 -o "$IT_DIR/drop" >"$IT_DIR/drop.md" 2>"$IT_DIR/drop.err" ||
  it_fail "fail-in-place.sh failed: $(tail -n 3 "$IT_DIR/drop.err")"
rows=$(grep -c '^| [0-9]' "$IT_DIR/drop.md")
[ "$rows" -eq 6 ] || it_fail "want 6 steps, got $rows: $(cat "$IT_DIR/drop.md")"
# Fields split at " | ": "| step", link, engine, pairs, afresh, re-route,
# full s, re-route s, check new SLs, check old SLs (with the closing "|").
awk -F' [|] ' '/^\| [0-9]/ && ($9 != "pass" || $10 !~ /^pass/) { bad = 1; print }
  END { exit bad }' "$IT_DIR/drop.md" >"$IT_DIR/bad.txt" ||
  it_fail "steps failing a check: $(cat "$IT_DIR/bad.txt")"
drop_steps=$(grep -c 'hops drop' "$IT_DIR/drop.md")
[ "$drop_steps" -ge 1 ] || it_fail "no step dropped stale SLs: $(cat "$IT_DIR/drop.md")"
step=$(awk -F' [|] ' '/hops drop/ { sub(/^\| /, "", $1); print $1; exit }' "$IT_DIR/drop.md")
grep -q 'traffic still sent on their previous SLs is dropped (VL 15)' "$IT_DIR/drop/dl-$step.err" ||
  it_fail "step $step: no WARN line about the dropped stale SLs: $(cat "$IT_DIR/drop/dl-$step.err")"

# oracle_steps SERIES: the oracle agrees with keiro check on every step of
# SERIES (drop: new and old SLs; keep: old SLs where they fail), and its
# stale drops are the table's "N hops drop".
oracle_steps() {
  local series=$1 i cur verdict want got n=0
  for i in 1 2 3 4 5 6; do
    cur=$IT_DIR/$series/dl-$i
    verdict=$(awk -F' [|] ' -v i="$i" '$1 == "| " i { print $10 }' "$IT_DIR/$series.md")
    [ "$series" = keep ] && [ "${verdict%% *}" != FAIL ] && continue
    if [ "$series" = drop ]; then
      IT_VERDICTS=$cur-new it_oracle_agrees "$cur" || continue
    fi
    IT_VERDICTS=$cur-old it_oracle_agrees "$cur" --stale-sls "$IT_DIR/$series/dl-$((i - 1))/keiro-path-sl.dump" ||
      continue
    want=$(echo "$verdict" | sed -nE 's/.*\(([0-9]+) hops drop\).*/\1/p')
    got=$(kh_json "$cur-old-oracle.json" unicast.stale_drops)
    [ "$got" = "${want:-0}" ] || it_fail "$series step $i: the oracle's stale drops $got, the table's '$verdict'"
    n=$((n + 1))
  done
  it_log "$series: the oracle agrees with keiro check on the old SLs of $n steps"
}
oracle_steps drop

"$fip" -k "$IT_KEIRO" -e dl -v 4 -s 1 -x drop_stale_sls=0 -o "$IT_DIR/keep" \
  >"$IT_DIR/keep.md" 2>"$IT_DIR/keep.err" || it_fail "fail-in-place.sh -x drop_stale_sls=0 failed"
awk -F' [|] ' '/^\| [0-9]/ && $10 ~ /^FAIL/ { n++ } END { exit !(n >= 1) }' "$IT_DIR/keep.md" ||
  it_fail "without drops no step has a credit loop with the previous SLs: $(cat "$IT_DIR/keep.md")"
grep -q 'credit loops    FOUND' "$IT_DIR/keep/dl-$step.old-check" ||
  it_fail "step $step without drops: $(grep -E 'credit|result' "$IT_DIR/keep/dl-$step.old-check")"
oracle_steps keep

prev=$IT_DIR/drop/dl-$((step - 1))/keiro-path-sl.dump
"$IT_KEIRO" check "$IT_DIR/drop/dl-$step" --sls "$prev" --stale-sls "$prev" >/dev/null 2>"$IT_DIR/both.err"
rc=$?
[ $rc -eq 2 ] || it_fail "--sls with --stale-sls: exit $rc, want 2"
grep -q 'give --sls or --stale-sls, not both' "$IT_DIR/both.err" || it_fail "$(cat "$IT_DIR/both.err")"
IT_VERDICTS=$IT_DIR/both it_oracle_agrees "$IT_DIR/drop/dl-$step" --sls "$prev" --stale-sls "$prev"
"$IT_KEIRO" check "$IT_DIR/drop/dl-$step" --sls "$prev" >"$IT_DIR/sls.out" 2>&1
rc=$?
[ $rc -eq 1 ] || it_fail "--sls on tables with drops: exit $rc, want 1 (VL 15 is an error there)"
grep -q 'onto VL 15 (drop)' "$IT_DIR/sls.out" || it_fail "$(tail -n 5 "$IT_DIR/sls.out")"
IT_VERDICTS=$IT_DIR/sls it_oracle_agrees "$IT_DIR/drop/dl-$step" --sls "$prev"
it_log "$drop_steps of 6 steps dropped stale SLs: $(grep -o '[0-9]* hops drop' "$IT_DIR/drop.md" | tr '\n' ' ')"
it_done
