#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# dump-sizes.sh: what `keiro route --out DIR` writes, in OpenSM's text
# formats (--out-format opensm) and as keiro's compact table file
# (--out-format compact, core/io/compact_tables.h), on random 12-regular
# switch graphs with 24 CAs per switch (`keiro topo random N 12
# --hcas-per-switch 24`), routed by keiro-nue (path SLs per destination LID)
# and keiro-dl (per source switch and destination LID). For each it gives
# the bytes of every file, the seconds keiro route took to write them (its
# note), and the read time and verdict of `keiro check DIR --threads 1` on
# both directories (the verdicts must agree, or the script fails).
#
# Usage: scripts/dump-sizes.sh [--quick] [--keiro PATH] [--work DIR]
#                              [--blocks FILE] [--rows FILE] [--write-docs]
#   --quick       one fabric of 50 switches (1,250 LIDs), under 60 s; the
#                 integration test tests/integration/dump-sizes.sh runs it
#   full run      400, 1,000 and 1,900 switches (10,000, 25,000 and 47,500
#                 LIDs); needs about 8 GB of free disk in --work (each
#                 directory is deleted once measured) and ~30 min on 2 cores
#   --blocks F    write the generated blocks to F (default stdout)
#   --rows F      keep the measured rows (tab-separated bytes and seconds) in F
#   --write-docs  and put the blocks into docs/check.md (dump-sizes, every
#                 row) and docs/performance.md (dump-sizes-summary, the
#                 largest fabric) with scripts/keiro_bench.py replace-blocks
# DUMP_SIZES_COMMIT names the commit keiro was built from (default: HEAD).
# The machine may be shared: the seconds are wall clock of single-thread
# runs (keiro route --opt threads=1, keiro check --threads 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
keiro=${KEIRO:-$src/build/keiro}
work=${TMPDIR:-/tmp}/dump-sizes.$$
quick=0 blocks=- write_docs=0 keep_rows=
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --keiro) keiro=$2; shift ;;
    --work) work=$2; shift ;;
    --blocks) blocks=$2; shift ;;
    --rows) keep_rows=$2; shift ;;
    --write-docs) write_docs=1 ;;
    *) echo "usage: $0 [--quick] [--keiro PATH] [--work DIR] [--blocks FILE] [--rows FILE] [--write-docs]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$keiro" ] || { echo "dump-sizes.sh: no keiro at $keiro (--keiro PATH)" >&2; exit 2; }
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
if [ $quick = 1 ]; then sizes="50"; else sizes="400 1000 1900"; fi
t_all=$(date +%s)
commit=${DUMP_SIZES_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)}
rows=$work/rows.tsv
: >"$rows"

# measure N ENGINE: one row of rows.tsv.
measure() {
  local n=$1 eng=$2 net=$work/r$1.net t=$work/text c=$work/compact
  "$keiro" topo random "$n" 12 --hcas-per-switch 24 --seed 1 -o "$net" >/dev/null
  "$keiro" route --engine "$eng" --topology "$net" --opt threads=1 --out "$t" >"$work/route-t.out" 2>&1
  "$keiro" check "$t" --threads 1 >"$work/check-t.out" 2>&1 || true
  local sz_l sz_v sz_p sz_s
  sz_l=$(stat -c %s "$t/opensm-lfts.dump")
  sz_v=$(stat -c %s "$t/opensm-sl2vl.dump")
  sz_p=$(stat -c %s "$t/keiro-path-sl.dump")
  sz_s=$(stat -c %s "$t/opensm-subnet.lst")
  rm -rf "$t"
  "$keiro" route --engine "$eng" --topology "$net" --opt threads=1 --out "$c" --out-format compact \
    >"$work/route-c.out" 2>&1
  "$keiro" check "$c" --threads 1 >"$work/check-c.out" 2>&1 || true
  local sz_b
  sz_b=$(stat -c %s "$c/keiro-tables.bin")
  rm -rf "$c"
  python3 - "$n" "$eng" "$sz_l" "$sz_v" "$sz_p" "$sz_s" "$sz_b" "$work" >>"$rows" <<'PY'
import re, sys
n, eng, lf, vl, ps, sn, bn, work = sys.argv[1:]
def note_s(f):
    m = re.search(r"note: wrote .* \([0-9.]+ [MG]B in ([0-9.]+) s\)", open(f).read())
    if not m: sys.exit("dump-sizes.sh: no write note in %s" % f)
    return m.group(1)
def check(f):
    t = open(f).read()
    r = re.search(r"read time +([0-9.]+) s", t)
    p = re.search(r"pairs checked +(\d+)", t)
    v = re.search(r"result +(\S+)", t)
    if not (r and p and v): sys.exit("dump-sizes.sh: keiro check said: %s" % t[-400:])
    return r.group(1), p.group(1), v.group(1)
rt, pt, vt = check(work + "/check-t.out")
rc, pc, vc = check(work + "/check-c.out")
if (pt, vt) != (pc, vc):
    sys.exit("dump-sizes.sh: keiro check differs: OpenSM format %s pairs %s, compact %s pairs %s"
             % (vt, pt, vc, pc))
print("\t".join([n, eng, lf, vl, ps, sn, note_s(work + "/route-t.out"), rt, bn,
                 note_s(work + "/route-c.out"), rc, pt, vt]))
PY
}

for n in $sizes; do
  for eng in nue dl; do measure "$n" "$eng"; done
done

python3 - "$rows" "$commit" "$(($(date +%s) - t_all))" "$quick" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  >"$work/block.md" <<'PY'
import sys
rows, commit, secs, quick, load = sys.argv[1:]
def size(b):
    b = int(b)
    if b >= 10**9: return "%.1f GB" % (b / 1e9)
    if b >= 10**6: return "%.1f MB" % (b / 1e6)
    return "%.0f kB" % (b / 1e3)
out = ["<!-- dump-sizes:begin -->",
       "Written by `scripts/dump-sizes.sh`%s at commit %s in %s s on 2 cores shared with other "
       "jobs (load average %s at the end); do not edit." % (" --quick" if quick == "1" else "",
                                                            commit, secs, load), "",
       "`keiro route --out DIR` on `keiro topo random N 12 --hcas-per-switch 24` (N switches, "
       "25 LIDs each): the files of `--out-format opensm` (OpenSM's text dumps and keiro's "
       "path-SL file) and of `--out-format compact` (keiro-tables.bin with the same LFTs, "
       "SL2VL tables and path SLs; opensm-subnet.lst is written by both), the wall seconds "
       "keiro route took to write them, and the read time of `keiro check DIR --threads 1` "
       "(same verdict on both).", "",
       "| switches / LIDs | engine | opensm-lfts.dump | opensm-sl2vl.dump | keiro-path-sl.dump "
       "| OpenSM format total | write s | check read s | keiro-tables.bin | write s "
       "| check read s | OpenSM / compact | opensm-subnet.lst | verdict |",
       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
for line in open(rows):
    n, eng, lf, vl, ps, sn, wt, rt, bn, wc, rc, pairs, verdict = line.rstrip("\n").split("\t")
    total = int(lf) + int(vl) + int(ps)
    out.append("| %s / %s | keiro-%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s |" % (
        "{:,}".format(int(n)), "{:,}".format(25 * int(n)), eng, size(lf), size(vl), size(ps),
        size(total), wt, rt, size(bn), wc, rc, total / int(bn), size(sn), verdict.lower()))
out.append("<!-- dump-sizes:end -->")
print("\n".join(out))
# docs/performance.md: the largest fabric in two sentences.
last = [l.rstrip("\n").split("\t") for l in open(rows)]
big = [r for r in last if r[0] == last[-1][0]]
n = int(big[0][0])
say = []
for r in big:
    total = int(r[2]) + int(r[3]) + int(r[4])
    say.append("keiro-%s: OpenSM format %s (opensm-lfts.dump %s), written in %s s and read by "
               "keiro check in %s s; keiro-tables.bin %s, written in %s s and read in %s s"
               % (r[1], size(total), size(r[2]), r[6], r[7], size(r[8]), r[9], r[10]))
print("\n".join([
    "<!-- dump-sizes-summary:begin -->",
    "Written by `scripts/dump-sizes.sh`%s at commit %s (the largest fabric of its run; "
    "docs/check.md has all rows); do not edit." % (" --quick" if quick == "1" else "", commit), "",
    "`keiro route --out` at {:,} LIDs ({:,} switches, 24 CAs each): ".format(25 * n, n) +
    "; ".join(say) + ". opensm-subnet.lst, written by both, is %s." % size(big[0][5]),
    "<!-- dump-sizes-summary:end -->"]))
PY
if [ "$blocks" = - ]; then cat "$work/block.md"; else cp "$work/block.md" "$blocks"; fi
[ -z "$keep_rows" ] || cp "$rows" "$keep_rows"
if [ $write_docs = 1 ]; then
  # One page per block: replace-blocks wants every block it is given on the page.
  sed -n '/<!-- dump-sizes:begin -->/,/<!-- dump-sizes:end -->/p' "$work/block.md" >"$work/check.blocks"
  sed -n '/<!-- dump-sizes-summary:begin -->/,/<!-- dump-sizes-summary:end -->/p' "$work/block.md" \
    >"$work/performance.blocks"
  python3 "$here/keiro_bench.py" replace-blocks "$src/docs/check.md" "$work/check.blocks"
  python3 "$here/keiro_bench.py" replace-blocks "$src/docs/performance.md" "$work/performance.blocks"
fi
exit 0
