#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The scripts that write keiro simulate's figures, in their quick modes,
# offline (no OpenSM), with assertions on the figures they write:
#  - scripts/sim-figures.sh --quick -o FILE: the six blocks of
#    docs/simulation.md, each naming the script and a commit; values known
#    from the model (4,032 and 65,280 all-to-all messages delivered, the
#    minhop ring's deadlock closing at cycle 111,121, the seed-1 uniform
#    throughput inside the range simulate-cli.sh accepts, keiro's multicast
#    trees ok and OpenSM's default tree a storm, the pairwise all-to-all
#    between half and 1.1 times keiro analyze's estimate); the doc untouched;
#  - scripts/sim-vs-booksim.sh --keiro-only --quick --no-doc: nine rows,
#    keiro's zero-load latency and plateau of the 8x8 mesh under uniform
#    traffic in their known ranges, the Booksim columns empty.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
export KEIRO=$IT_KEIRO
doc=$KEIRO_SRCDIR/docs/simulation.md
before=$(md5sum <"$doc")

# --- sim-figures.sh ---
out=$IT_DIR/blocks.md
bash "$KEIRO_SRCDIR/scripts/sim-figures.sh" --quick -w "$IT_DIR/figures" -o "$out" \
  >"$IT_DIR/figures.log" 2>&1 || it_fail "sim-figures.sh --quick failed: $(tail -n 3 "$IT_DIR/figures.log")"
[ "$(md5sum <"$doc")" = "$before" ] || it_fail "sim-figures.sh --quick changed docs/simulation.md"
for b in sim-sweeps sim-mcast sim-measured sim-queues sim-alltoall sim-speed; do
  sed -n "/<!-- $b:begin -->/,/<!-- $b:end -->/p" "$out" >"$IT_DIR/$b.md"
  grep -q "<!-- $b:end -->" "$IT_DIR/$b.md" || { it_fail "block $b missing or not closed"; continue; }
  sed -n 2p "$IT_DIR/$b.md" | grep -qE '`scripts/sim-figures.sh --quick` at keiro commit [0-9a-f]{7,}' ||
    it_fail "block $b does not name the script and a commit: $(sed -n 2p "$IT_DIR/$b.md")"
done
grep -qE '^\| keiro-nue, torus 4x4x4 \(64 CAs\), shift all-to-all \| 4,032 messages in [0-9,]+ cycles .*completed' \
  "$IT_DIR/sim-measured.md" || it_fail "4x4x4 all-to-all: not 4,032 messages completed"
grep -qE '^\| OpenSM minhop, ring5 .*\| deadlock yes: closed at cycle 111,121, S1 port 2 VL 0 .*exit 1 \|' \
  "$IT_DIR/sim-measured.md" || it_fail "ring5: no deadlock closed at cycle 111,121 (exit 1)"
python3 - "$IT_DIR" <<'EOF' || it_fail "values of the blocks out of range (above)"
import re, sys
d = sys.argv[1]
blk = lambda b: open('%s/%s.md' % (d, b)).read()
bad = []
q = blk('sim-queues')
m = re.search(r'\| torus 4x4x4 \(64 CAs\) \| ([0-9.]+), .* \| ([0-9.]+), ', q)
if not m or not (0.827 <= float(m.group(1)) <= 0.897) or not float(m.group(2)) < float(m.group(1)):
    bad.append('uniform load 1, 64 CAs: per-VL %s not in 0.827-0.897 or FIFO %s not below it'
               % (m and m.group(1), m and m.group(2)))
m = re.search(r'Seeds 1-5 .*: per-VL ([0-9.]+)-([0-9.]+), mean ([0-9.]+)', q)
if not m or not (0.827 <= float(m.group(1)) <= float(m.group(3)) <= float(m.group(2)) <= 0.897):
    bad.append('seeds 1-5: %s' % (m and m.group(0)))
mc = blk('sim-mcast')
if not re.search(r"^\| `--traffic broadcast --load 0.004` \(keiro's trees\) \| .*verdict ok, exit 0 \|$", mc, re.M):
    bad.append("broadcast over keiro's trees not ok")
if not re.search(r"^\| `--traffic broadcast --load 0.004 --mcast-trees opensm` \| .*storm at cycle \d+ .*verdict storm, exit 1 \|$", mc, re.M):
    bad.append("broadcast over OpenSM's tree not a storm")
a = blk('sim-alltoall')
rows = re.findall(r'^\| (\S+, \d per switch \(\d+\)) \| .*\| ([0-9.]+) \| [0-9.]+ \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| [0-9.-]+ \| [0-9.-]+ \| (\d+)% \|', a, re.M)
if len(rows) != 2:
    bad.append('all-to-all table: %d rows, want 2' % len(rows))
for name, bound, est, free, w1, pct in rows:
    if not (float(est) <= float(bound) and 50 <= int(pct) <= 110):
        bad.append('%s: estimate %s above the EFI bound %s, or pairwise at %s%% of it' % (name, est, bound, pct))
s = blk('sim-speed')
m = re.search(r'65,280 packets .* \*\*([0-9.e+]+) packets and ([0-9.e+]+) flits per wall second\*\*', s)
if not m or abs(float(m.group(2)) / float(m.group(1)) - 32) > 0.64:  # 3 digits each
    bad.append('speed: no 65,280 packets or flits != 32 x packets: %s' % (m and m.group(0)))
if not re.search(r'^\| keiro \| [0-9,]+ \| 0\.(09|10|11)\d* \|', s, re.M):
    bad.append('speed: keiro uniform 0.1 row missing or its accepted rate not about 0.1')
sw = blk('sim-sweeps')
m = re.search(r'^\| torus 4x4x4, uniform \| ([0-9.]+) \| ([0-9.]+) \(', sw, re.M)
if not m or not (0.8 <= float(m.group(1)) <= 1 and 0.75 < float(m.group(2)) < 0.95):
    bad.append('4x4x4 sweep: %s' % (m and m.group(0)))
for b in bad:
    print('sim-figures: FAIL:', b)
sys.exit(1 if bad else 0)
EOF

# --- sim-vs-booksim.sh, keiro's half ---
bash "$KEIRO_SRCDIR/scripts/sim-vs-booksim.sh" --keiro-only --quick --no-doc -w "$IT_DIR/booksim" \
  >"$IT_DIR/booksim.md" 2>"$IT_DIR/booksim.log" ||
  it_fail "sim-vs-booksim.sh --keiro-only --quick --no-doc failed: $(tail -n 3 "$IT_DIR/booksim.log")"
[ "$(md5sum <"$doc")" = "$before" ] || it_fail "sim-vs-booksim.sh --no-doc changed docs/simulation.md"
rows=$(grep -cE '^\| (mesh|torus|random) \([0-9] VLs?\) \|' "$IT_DIR/booksim.md")
[ "$rows" -eq 9 ] || it_fail "sim-vs-booksim.sh: $rows rows, want 9"
awk -F' \\| ' '/^\| mesh \(1 VL\) \| uniform/ {
  z = $3; split($5, p, " / "); ok = (z >= 30 && z <= 45 && p[1] >= 0.2 && p[1] <= 0.35 && $4 == "-") }
  END { exit !ok }' "$IT_DIR/booksim.md" ||
  it_fail "sim-vs-booksim.sh: mesh uniform row out of range: $(grep '^| mesh (1 VL) | uniform' "$IT_DIR/booksim.md")"
it_done
