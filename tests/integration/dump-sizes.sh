#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/dump-sizes.sh in its quick mode (the dump-sizes block of
# docs/check.md, "Compact tables"): 50 switches of a random 12-regular graph
# with 24 CAs each, 1,250 LIDs, routed by keiro-nue and keiro-dl. The block
# must name the script and a commit and have one row per engine, with
# sizes within what the formats allow, worked out here from S = 50 switches
# and L = 1,250 LIDs:
#  - opensm-lfts.dump: S * (L + 2) text lines (one per switch and LID, a
#    header and a footer per switch) of 60 to 100 bytes;
#  - keiro-tables.bin: at least S * (L + 1) bytes (a byte per LFT entry)
#    plus the GUID list (8 bytes per switch and CA), at most that plus the
#    SL2VL tables (per switch (36 + 2)^2 one-byte indices and its port list,
#    a byte per CA) and the path SLs (half a byte per LID, per switch for
#    keiro-dl), and 1 kB of headers;
#  - keiro-path-sl.dump: under 2 kB for keiro-nue (one row), S rows of
#    L + 21 bytes for keiro-dl;
#  - OpenSM format / compact at least 30 (the quick run measured 51 and 62);
#  - the same verdict, ok, on both (the script itself fails otherwise);
#  - the summary block (docs/performance.md) on the same fabric, with the
#    table's keiro-tables.bin size for keiro-dl.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
[ -x "$IT_KEIRO" ] || { echo "FAIL: keiro not built"; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
KEIRO=$IT_KEIRO "$KEIRO_SRCDIR/scripts/dump-sizes.sh" --quick --work "$IT_DIR/work" \
  --blocks "$IT_DIR/block.md" 2>"$IT_DIR/err.txt" ||
  it_fail "dump-sizes.sh --quick failed: $(tail -n 5 "$IT_DIR/err.txt")"
head -n 2 "$IT_DIR/block.md" | grep -qE 'scripts/dump-sizes\.sh` --quick at commit [0-9a-f]{7,}' ||
  it_fail "the block names no script and commit: $(head -n 2 "$IT_DIR/block.md")"
for e in nue dl; do
  row=$(grep "^| 50 / 1,250 | keiro-$e |" "$IT_DIR/block.md")
  [ -n "$row" ] || { it_fail "keiro-$e: no row"; continue; }
  python3 - "$row" "$e" <<'PY' || it_fail "keiro-$e: $row"
import sys
row, engine = sys.argv[1], sys.argv[2]
c = [x.strip() for x in row.strip("|").split("|")]
unit = {"kB": 1e3, "MB": 1e6, "GB": 1e9}
def size(s):
    v, u = s.split()
    return float(v) * unit[u]
S, L, T = 50, 1250, 1200
bad = []
lfts = size(c[2])
if not 60 * S * (L + 2) <= lfts <= 100 * S * (L + 2):
    bad.append("opensm-lfts.dump %s, want %d to %d lines of 60-100 bytes" % (c[2], S * (L + 2), S * (L + 2)))
lo = S * (L + 1) + 8 * (S + T)
sls = (L + 1) / 2 * (S if engine == "dl" else 1)
hi = lo + S * (38 * 38 + 40) + T + sls + 1000
x = size(c[8])
if not (lo <= x * 1.005 and x <= hi * 1.005):
    bad.append("keiro-tables.bin %s, want %d to %d bytes" % (c[8], lo, hi))
psl = size(c[4])
if engine == "nue" and psl > 2000: bad.append("keiro-path-sl.dump %s for one row" % c[4])
if engine == "dl" and abs(psl - S * (L + 21)) > 0.02 * S * (L + 21):
    bad.append("keiro-path-sl.dump %s, want about %d" % (c[4], S * (L + 21)))
if int(c[11]) < 30: bad.append("OpenSM / compact %s, want >= 30" % c[11])
if c[13] != "ok": bad.append("verdict %s" % c[13])
sys.exit("; ".join(bad) if bad else 0)
PY
done
# The summary block for docs/performance.md: the same fabric and figures.
dl_bin=$(grep "^| 50 / 1,250 | keiro-dl |" "$IT_DIR/block.md" | cut -d'|' -f10 | xargs)
grep -q "dump-sizes-summary:begin" "$IT_DIR/block.md" &&
  grep -q "^\`keiro route --out\` at 1,250 LIDs (50 switches, 24 CAs each): keiro-nue: .*; keiro-dl: .*keiro-tables.bin $dl_bin, " \
    "$IT_DIR/block.md" || it_fail "summary block: $(sed -n '/summary:begin/,$p' "$IT_DIR/block.md")"
it_log "$(grep '^| 50 ' "$IT_DIR/block.md" | cut -d'|' -f3,4,10,13 | tr '\n' ';')"
it_done
