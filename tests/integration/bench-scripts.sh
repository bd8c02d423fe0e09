#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The benchmark scripts in their quick modes, with assertions on what they
# measure (not only that they ran):
#  - bench-balance.sh on a 4-ary 3-tree through ibsim + OpenSM with
#    keiro-acro, ftree and updn: keiro-acro's max EFI (read from the raw
#    results, as keiro analyze measured it) is within 5% of ftree's, both
#    pass the deadlock check (keiro analyze's, and the independent oracle's
#    on the installed dumps), and the rendered table gives ftree (the best
#    built-in engine there) ratio 1.00x and the chart one bar per run;
#  - bench-scale.sh on its quick fabrics with 1 and 2 threads (the 6x6x6
#    torus also with 1% of its links failed: keiro-acro and keiro-dl within
#    8 VLs and 3 times the intact torus's user time): every
#    offline run routes and passes its self-check (and the independent
#    oracle, on the tables it wrote), and both thread counts give the same
#    VLs and SLs and the same tables; its OpenSM half on the 4x4x4 torus: OpenSM
#    installed keiro-nue and the built-in nue as asked, both with a routing
#    time from OpenSM's log, and the page's "time / keiro-nue" column is the
#    ratio of the two times in the raw results;
#  - both pages' first line names the script and the source tree's commit;
#  - the scale page's targets table on crafted rows: a run within its
#    target is "met", one over it (time or SLs) "not met".
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
  # the same verdict from the independent oracle, on the tables OpenSM installed
  # (the SLs the script used: keiro's path-SL dump, SL 0 for ftree)
  sls=(); [ "$e" = ftree ] && sls=(--assume-sl 0)
  IT_VERDICTS=$IT_DIR/balance-$e it_oracle_agrees "$out/ft4x3/$e/dumps" --pairs ca ${sls[@]+"${sls[@]}"} &&
    [ "$IT_ORACLE_RC" -eq 0 ] || it_fail "$e: the independent oracle does not pass the installed tables"
  [ "$(field "$e" 3)" = "$e" ] || it_fail "$e: OpenSM installed '$(field "$e" 3)'"
done
grep -qE '^\| ftree \| = \| 1 \| [0-9,]+ \(1\.00x\)' "$out/balance.md" ||
  it_fail "ftree's row does not show ratio 1.00x: $(grep '^| ftree' "$out/balance.md")"
bars=$(grep -c '<rect x=' "$out/balance.svg")
[ "$bars" -eq 3 ] || it_fail "balance.svg has $bars bars, want 3 (one per run)"
# header PAGE SCRIPT: the page's first line names the script and the commit.
commit=$(git -C "$KEIRO_SRCDIR" rev-parse --short HEAD 2>/dev/null) || commit=unknown
header() {
  head -n 1 "$1" | grep -qF "Written by \`scripts/$2\` at commit $commit " ||
    it_fail "$1: first line does not name scripts/$2 at commit $commit: $(head -n 1 "$1")"
}
header "$out/balance.md" bench-balance.sh

out=$IT_DIR/scale
BENCH_QUICK=1 BENCH_KEEP_DUMPS=1 "$KEIRO_SRCDIR/scripts/bench-scale.sh" "$KEIRO_BUILDDIR" "$out" \
  >"$IT_DIR/scale.txt" 2>&1 || it_fail "bench-scale.sh failed: $(tail -n 3 "$IT_DIR/scale.txt")"
rows=$(grep -vc '^#' "$out/offline.tsv")
[ "$rows" -ge 34 ] || it_fail "bench-scale.sh wrote $rows rows, want >= 34 (18 runs x 2 thread counts)"
# The failed torus (issue 32): links did fail, keiro-acro and keiro-dl
# route it within 8 VLs, at most 3 times the intact torus's user time (plus
# 0.5 s of slack for a loaded machine).
grep -q '([1-9][0-9]* failed)' "$out/torus6x6x6-h4-f1-s31.topo.txt" ||
  it_fail "the failed torus has no failed link: $(head -n 1 "$out/torus6x6x6-h4-f1-s31.topo.txt")"
for e in keiro-acro keiro-dl; do
  awk -F'\t' -v e="$e" '!/^#/ && $3 == e && $6 == 1 && $2 ~ /^torus6x6x6-h4/ { u[$2] = $8; v[$2] = $13 }
    END { f = "torus6x6x6-h4-f1-s31"; i = "torus6x6x6-h4"
          exit !((f in u) && (i in u) && v[f] + 0 >= 1 && v[f] + 0 <= 8 && u[f] <= 3 * u[i] + 0.5) }' \
    "$out/offline.tsv" || it_fail "$e on the failed 6x6x6 torus: $(awk -F'\t' -v e="$e" '$3 == e && $2 ~ /^torus6x6x6/' "$out/offline.tsv")"
done
bad=$(awk -F'\t' '!/^#/ && $15 != "ok"' "$out/offline.tsv")
[ -z "$bad" ] || it_fail "bench-scale runs not ok: $(echo "$bad" | head -n 2)"
diff <(awk -F'\t' '!/^#/ && $6 == 1 { print $2, $3, $13, $14 }' "$out/offline.tsv") \
  <(awk -F'\t' '!/^#/ && $6 == 2 { print $2, $3, $13, $14 }' "$out/offline.tsv") >"$IT_DIR/threads.diff" ||
  it_fail "1 and 2 threads differ in VLs/SLs: $(head -n 4 "$IT_DIR/threads.diff")"
# Every offline run's self-check verdict is also the independent oracle's,
# and 2 threads write the same tables as 1.
n=0
for d in "$out"/*.t1.dumps; do
  [ -f "$d/opensm-lfts.dump" ] || continue
  IT_VERDICTS=${d%.dumps} it_oracle_agrees "$d" && [ "$IT_ORACLE_RC" -eq 0 ] ||
    it_fail "$(basename "$d"): the independent oracle does not pass the tables"
  for f in opensm-lfts.dump opensm-sl2vl.dump keiro-path-sl.dump; do
    cmp -s "$d/$f" "${d%.t1.dumps}.t2.dumps/$f" || it_fail "$(basename "$d"): 2 threads wrote another $f"
  done
  n=$((n + 1))
done
[ "$n" -ge 15 ] || it_fail "the oracle checked $n bench-scale runs, want >= 15"
grep -q '<polyline' "$out/scale-time.svg" || it_fail "scale-time.svg has no curve"
header "$out/scale.md" bench-scale.sh
# The OpenSM half: installed as asked, a time each, the page's ratio.
osm() { awk -F'\t' -v e="$1" -v c="$2" '!/^#/ && $2 == e { print $c }' "$out/opensm.tsv"; }
for e in keiro-nue nue; do
  [ "$(osm "$e" 3)" = "$e" ] || it_fail "OpenSM on the quick torus: $e installed '$(osm "$e" 3)'"
  awk -v t="$(osm "$e" 4)" 'BEGIN { exit !(t + 0 > 0) }' || it_fail "$e: no routing time ('$(osm "$e" 4)')"
done
want=$(awk -v k="$(osm keiro-nue 4)" -v n="$(osm nue 4)" 'BEGIN { if (k > 0) printf "%.1fx", n / k }')
got=$(awk -F' [|] ' '$2 == "nue" && $3 == "nue" { sub(/ [|]$/, "", $5); print $5 }' "$out/scale.md")
[ -n "$want" ] && [ "$got" = "$want" ] ||
  it_fail "page's nue / keiro-nue ratio '$got', raw results give '$want'"
[ "$(grep -vc '^#' "$out/opensm.tsv")" -eq 4 ] ||
  it_fail "opensm.tsv: $(grep -vc '^#' "$out/opensm.tsv") rows, want 4 (keiro-nue nue dfsssp lash)"
# The targets table on crafted rows (bench_table.py alone).
t=$IT_DIR/targets.tsv
{
  head -n 1 "$out/offline.tsv"
  printf 'torus\ttorus10x10x10-h4\tkeiro-nue\t1000\t5000\t2\t2.90\t3\t30\t2\t1\t-\t8\t8\tok\n'
  printf 'torus\ttorus10x10x10-h4\tkeiro-acro\t1000\t5000\t2\t10.10\t10\t99\t9\t1\t-\t4\t9 (16)\tok\n'
  printf 'torus\ttorus10x10x10-h4\tkeiro-dl\t1000\t5000\t2\t7.00\t7\t60\t6\t1\t-\t8\t17 (17)\tok\n'
} >"$t"
python3 "$KEIRO_SRCDIR/scripts/bench_table.py" scale "$t" --md "$IT_DIR/targets.md" >/dev/null ||
  it_fail "bench_table.py scale failed on $t"
for want in "keiro-nue|met" "keiro-acro|**not met**" "keiro-dl|**not met**"; do
  grep -qF "| torus10x10x10-h4 | ${want%%|*} | " "$IT_DIR/targets.md" &&
    [ "$(grep -F "| torus10x10x10-h4 | ${want%%|*} | " "$IT_DIR/targets.md" | tail -n 1 |
      awk -F' [|] ' '{ sub(/ [|]$/, "", $NF); print $NF }')" = "${want#*|}" ] ||
    it_fail "targets: ${want%%|*} is not '${want#*|}': $(grep -F "${want%%|*} | " "$IT_DIR/targets.md" | tail -n 1)"
done
it_done
