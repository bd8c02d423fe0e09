#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/bench-report.sh in its quick mode on three of its fabrics (4-ary
# 3-tree, 4x4x4 torus with a failed link, LRT(16,4,2) with its layout) with
# keiro-nue, keiro-acro, keiro-loren, minhop, ftree and torus-2QoS, through
# ibsim + OpenSM, and what the page says checked against keiro check run
# here on the same installed tables:
#  - a table row for every (fabric, engine), n/a with the reason where the
#    engine does not apply (ftree off fat trees, torus-2QoS off tori,
#    keiro-loren without a layout);
#  - minhop on the torus: keiro check finds a credit loop with SL 0, and the
#    page's row shows it in both check columns;
#  - keiro's engines: keiro check passes with the plugin's path SLs, and the
#    page's rows say deadlock free;
#  - torus-2QoS installed (not a fallback), with a Γ in (0, 1] and a
#    simulated all-to-all throughput > 0;
#  - the measured picks (one row per fabric) and the recommendations section,
#    and two SVG charts with one bar per run;
#  - each of these keiro check verdicts (minhop's credit loop, keiro's
#    engines and torus-2QoS deadlock free) is also the independent oracle's
#    (tests/oracle/oracle.py, it_oracle_agrees, with the same --pairs ca).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"

out=$IT_DIR/report
fabs="ft4x3 torus4x4x4-f1 lrt16"
engines="keiro-nue keiro-acro keiro-loren minhop ftree torus-2QoS"
BENCH_QUICK=1 BENCH_FABRICS="$fabs" BENCH_ENGINES="$engines" \
  "$KEIRO_SRCDIR/scripts/bench-report.sh" "$KEIRO_BUILDDIR" "$out" >"$IT_DIR/report.txt" 2>&1 ||
  it_fail "bench-report.sh failed: $(tail -n 3 "$IT_DIR/report.txt")"
page=$out/benchmarks.md
[ -s "$page" ] || it_fail "no page $page"

# row FABRIC ENGINE: the page's table row of ENGINE in FABRIC's section.
row() {
  awk -v f="### $1" -v e="| $2 |" '$0 == f { on = 1; next } /^### / { on = 0 }
    on && index($0, e) == 1 { print; exit }' "$page"
}
# col ROW N: the Nth cell of a table row.
col() { echo "$1" | awk -F' [|] ' -v n="$2" '{ gsub(/^[|] | [|]$/, ""); split($0, a, / [|] /); print a[n] }'; }

for f in $fabs; do
  for e in $engines; do
    r=$(row "$f" "$e")
    [ -n "$r" ] || { it_fail "page has no row for $e on $f"; continue; }
    case $f:$e in
      ft4x3:torus-2QoS | lrt16:torus-2QoS) want="n/a (tori only)" ;;
      torus4x4x4-f1:ftree | lrt16:ftree) want="n/a (fat trees only)" ;;
      ft4x3:keiro-loren | torus4x4x4-f1:keiro-loren) want="n/a (needs a layout)" ;;
      *) want= ;;
    esac
    if [ -n "$want" ]; then
      [ "$(col "$r" 2)" = "$want" ] || it_fail "$e on $f: '$(col "$r" 2)', want '$want'"
    else
      [ "$(col "$r" 2)" = "=" ] || it_fail "$e on $f: OpenSM installed '$(col "$r" 2)'"
    fi
  done
done

# minhop on the torus: keiro check, run here, finds a credit loop with SL 0.
dumps=$out/torus4x4x4-f1/minhop/dumps
"$IT_KEIRO" check "$dumps" --pairs ca --fixed-sl 0 >"$IT_DIR/minhop-check.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'credit loops *FOUND' "$IT_DIR/minhop-check.txt" ||
  it_fail "keiro check on minhop's torus tables: exit $rc, no credit loop found"
IT_VERDICTS=$IT_DIR/minhop it_oracle_agrees "$dumps" --pairs ca --fixed-sl 0 &&
  [ "$(kh_json "$IT_DIR/minhop-oracle.json" credit_loop)" = true ] ||
  it_fail "the oracle finds no credit loop in minhop's torus tables with SL 0"
r=$(row torus4x4x4-f1 minhop)
[ "$(col "$r" 10)" = "**credit loop**" ] && [ "$(col "$r" 11)" = "**credit loop**" ] ||
  it_fail "minhop's torus row does not show the credit loop in both check columns: $r"

# keiro's engines: keiro check with the plugin's path SLs passes, the page agrees.
for f in $fabs; do
  for e in keiro-nue keiro-acro keiro-loren; do
    [ "$f:$e" = ft4x3:keiro-loren ] || [ "$f:$e" = torus4x4x4-f1:keiro-loren ] && continue
    "$IT_KEIRO" check "$out/$f/$e/dumps" --pairs ca >"$IT_DIR/$f.$e.check.txt" 2>&1 ||
      it_fail "keiro check fails on $e's tables on $f"
    IT_VERDICTS=$IT_DIR/$f.$e it_oracle_agrees "$out/$f/$e/dumps" --pairs ca
    r=$(row "$f" "$e")
    [ "$(col "$r" 10)" = "deadlock free" ] || it_fail "$e on $f: check column '$(col "$r" 10)'"
  done
done

# torus-2QoS: installed, real figures.
r=$(row torus4x4x4-f1 torus-2QoS)
g=$(col "$r" 8) t=$(col "$r" 12)
awk -v g="$g" -v t="$t" 'BEGIN { exit !(g > 0 && g <= 1 && t > 0 && t <= 1) }' ||
  it_fail "torus-2QoS: Γ '$g' or simulated throughput '$t' out of range: $r"
[ "$(col "$r" 10)" = "deadlock free" ] || it_fail "torus-2QoS with the SA's SLs: '$(col "$r" 10)'"
t2q=$out/torus4x4x4-f1/torus-2QoS
IT_VERDICTS=$IT_DIR/torus-2QoS it_oracle_agrees "$t2q/dumps" --pairs ca --sls "$t2q/sa-path-sl.dump" &&
  [ "$IT_ORACLE_RC" = 0 ] || it_fail "torus-2QoS with the SA's SLs: keiro check and the oracle do not both pass"

grep -q '^### Measured picks' "$page" || it_fail "no measured picks"
picks=$(sed -n '/^### Measured picks/,/^<!--/p' "$page" | grep -cE '^\| (ft4x3|torus4x4x4-f1|lrt16) \|')
[ "$picks" -eq 3 ] || it_fail "measured picks: $picks fabric rows, want 3"
grep -q '^## Which engine for which fabric' "$page" || it_fail "no recommendations section"

runs=$(grep -cvE '^#|n/a' "$out/results.tsv")
for s in gamma alltoall; do
  svg=$out/img/bench-report-$s.svg
  bars=$(grep -c '<rect x=' "$svg" 2>/dev/null)
  [ "$bars" = "$runs" ] || it_fail "$svg: $bars bars, want $runs (one per run)"
  grep -q "img/bench-report-$s.svg" "$page" || it_fail "page does not show $s chart"
done
# The block's first line names the script and the source tree's commit.
commit=$(git -C "$KEIRO_SRCDIR" rev-parse --short HEAD 2>/dev/null) || commit=unknown
grep -qF "Produced by \`scripts/bench-report.sh\` (BENCH_QUICK=1) at commit $commit " "$page" ||
  it_fail "the block's header does not name the script and commit $commit: $(grep -m1 '^Produced by' "$page")"
it_done
