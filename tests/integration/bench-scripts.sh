#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The benchmark scripts in their quick modes, with assertions on what they
# measure (not only that they ran):
#  - bench-balance.sh on a 4-ary 3-tree through ibsim + OpenSM with
#    keiro-acro, ftree and updn: keiro-acro's max EFI (read from the raw
#    results, as keiro analyze measured it) is within 5% of ftree's, both
#    pass the deadlock check, and the rendered table gives ftree (the best
#    built-in engine there) ratio 1.00x and the chart one bar per run;
#  - bench-scale.sh offline (no OpenSM) on its quick fabrics with 1 and 2
#    threads: every run routes and passes its self-check, and both thread
#    counts give the same VLs and SLs.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"

out=$IT_DIR/balance
BENCH_QUICK=1 BENCH_FABRICS=ft4x3 BENCH_ENGINES="keiro-acro ftree updn" \
  "$KEIRO_SRCDIR/scripts/bench-balance.sh" "$KEIRO_BUILDDIR" "$out" >"$IT_DIR/balance.txt" 2>&1 ||
  it_fail "bench-balance.sh failed: $(tail -n 3 "$IT_DIR/balance.txt")"
tsv=$out/results.tsv
field() { awk -F'\t' -v e="$1" -v c="$2" '!/^#/ && $2 == e { print $c }' "$tsv"; }
acro=$(field keiro-acro 6) ftree=$(field ftree 6)
if [ -z "$acro" ] || [ -z "$ftree" ] || [ "$acro" = - ] || [ "$ftree" = - ]; then
  it_fail "no max EFI for keiro-acro ('$acro') or ftree ('$ftree') in $tsv"
else
  awk -v a="$acro" -v f="$ftree" 'BEGIN { exit !(a <= 1.05 * f) }' ||
    it_fail "keiro-acro max EFI $acro > 1.05 x ftree's $ftree on the 4-ary 3-tree"
fi
for e in keiro-acro ftree; do
  [ "$(field "$e" 10)" = "deadlock free" ] || it_fail "$e: verdict '$(field "$e" 10)'"
  [ "$(field "$e" 3)" = "$e" ] || it_fail "$e: OpenSM installed '$(field "$e" 3)'"
done
grep -qE '^\| ftree \| = \| 1 \| [0-9,]+ \(1\.00x\)' "$out/balance.md" ||
  it_fail "ftree's row does not show ratio 1.00x: $(grep '^| ftree' "$out/balance.md")"
bars=$(grep -c '<rect x=' "$out/balance.svg")
[ "$bars" -eq 3 ] || it_fail "balance.svg has $bars bars, want 3 (one per run)"

out=$IT_DIR/scale
BENCH_QUICK=1 BENCH_OPENSM=0 "$KEIRO_SRCDIR/scripts/bench-scale.sh" "$KEIRO_BUILDDIR" "$out" \
  >"$IT_DIR/scale.txt" 2>&1 || it_fail "bench-scale.sh failed: $(tail -n 3 "$IT_DIR/scale.txt")"
rows=$(grep -vc '^#' "$out/offline.tsv")
[ "$rows" -ge 30 ] || it_fail "bench-scale.sh wrote $rows rows, want >= 30 (16 runs x 2 thread counts)"
bad=$(awk -F'\t' '!/^#/ && $15 != "ok"' "$out/offline.tsv")
[ -z "$bad" ] || it_fail "bench-scale runs not ok: $(echo "$bad" | head -n 2)"
diff <(awk -F'\t' '!/^#/ && $6 == 1 { print $2, $3, $13, $14 }' "$out/offline.tsv") \
  <(awk -F'\t' '!/^#/ && $6 == 2 { print $2, $3, $13, $14 }' "$out/offline.tsv") >"$IT_DIR/threads.diff" ||
  it_fail "1 and 2 threads differ in VLs/SLs: $(head -n 4 "$IT_DIR/threads.diff")"
grep -q '<polyline' "$out/scale-time.svg" || it_fail "scale-time.svg has no curve"
it_done
