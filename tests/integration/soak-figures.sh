#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/soak-figures.sh in its quick mode (the block of docs/testing.md,
# "Soak test"): every engine 6 sweeps in its own OpenSM. The block must name
# the script and a commit, have one row per engine, and its figures must
# agree with the soaks' own files: 6 sweeps, 7 of 7 checks passed, one
# re-route per sweep (the facts lines with previous_pairs in opensm.log,
# counted here apart from soak.sh), re-routes that kept every SL plus those
# that changed some = all, the changed ones split into relaxed/dropped,
# relaxed/unsafe and other without remainder, keiro-nue keeping every SL
# (its layers are pinned), and VmRSS growth = last - after the warm-up.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
[ -x "$IT_KEIRO" ] || { echo "FAIL: keiro not built"; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
"$KEIRO_SRCDIR/scripts/soak-figures.sh" -q -o "$IT_DIR/soaks" "$KEIRO_BUILDDIR" >"$IT_DIR/block.md" \
  2>"$IT_DIR/err.txt" || it_fail "soak-figures.sh -q failed: $(tail -n 5 "$IT_DIR/err.txt")"
head -n 2 "$IT_DIR/block.md" | grep -qE 'scripts/soak-figures\.sh -q` at commit [0-9a-f]{7,}' ||
  it_fail "the block names no script and commit: $(head -n 2 "$IT_DIR/block.md")"
engines=$("$IT_KEIRO" engines --osm-names | tr '\n' ' ')
for e in $engines; do
  row=$(grep "^| $e |" "$IT_DIR/block.md")
  [ -n "$row" ] || { it_fail "$e: no row"; continue; }
  logged=$(grep -cE "keiro: $e: (.*, )?previous_pairs=" "$IT_DIR/soaks/$e/opensm.log")
  last=$(awk -F'\t' 'END { print $5 }' "$IT_DIR/soaks/$e/soak.tsv")
  ref=$(awk -F'\t' '$1 == 4 { print $5 }' "$IT_DIR/soaks/$e/soak.tsv")
  python3 - "$row" "$e" "$logged" "$last" "$ref" <<'PY' || it_fail "$e: $row"
import sys
row, engine, logged, last, ref = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
c = [x.strip() for x in row.strip("|").split("|")]
num = lambda s: int(s.replace(",", "").split()[0].split(":")[0])
bad = []
if c[1] != "6": bad.append("sweeps %s, want 6" % c[1])
if c[8] != "7 of 7": bad.append("checks %s, want 7 of 7" % c[8])
if num(c[9]) != logged or logged < 6: bad.append("re-routes %s, the log has %d" % (c[9], logged))
if num(c[4]) != ref or num(c[5]) != last: bad.append("RSS after warm-up/last %s/%s, soak.tsv %d/%d" % (c[4], c[5], ref, last))
if int(c[6].replace(",", "")) != last - ref: bad.append("growth %s, want %+d" % (c[6], last - ref))
if not 10000 < num(c[3]) <= num(c[7]): bad.append("RSS first %s, peak %s" % (c[3], c[7]))
kept, changed = num(c[10]), num(c[11])
if kept + changed != num(c[9]): bad.append("kept %d + changed %d != re-routes %s" % (kept, changed, c[9]))
if num(c[12]) + num(c[13]) + num(c[14]) != changed: bad.append("relaxed/unsafe/other do not add up to %d" % changed)
if changed == 0 and c[11] != "0: 0 (0)": bad.append("no change but pairs %s" % c[11])
if engine == "keiro-nue" and kept != num(c[9]): bad.append("keiro-nue changed SLs")
if bad: print("; ".join(bad)); sys.exit(1)
PY
done
it_log "$(grep -c '^| keiro' "$IT_DIR/block.md") engines: $(grep '^| keiro' "$IT_DIR/block.md" | cut -d'|' -f2,10,11,12 | tr '\n' ';')"
it_done
