#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The soak figures of docs/testing.md ("Soak test"), in one run: every keiro
# engine in its own OpenSM on ibsim (tests/soak/soak.sh, the 64-switch LRT,
# max_vls=4, links flapped with seed 1), the engines side by side. Per
# engine: sweeps, wall time, OpenSM's VmRSS (first, after the warm-up, last,
# growth after the warm-up, peak), the sweeps whose tables passed keiro
# check, and what the re-routes did with the SLs (soak.sh's reroutes.tsv):
# every SL kept (without routing afresh), SLs changed (pairs in all and in
# the worst re-route), and of those the relaxed incremental routes with
# every stale path dropped, those with some stale paths unsafe, and the
# rest (pinned steps or a fresh routing, which do not guard stale SLs).
# usage: soak-figures.sh [-q] [-n SWEEPS] [-o DIR] [-d DOC] [BUILDDIR]
#   -q       quick: 6 sweeps per engine (about 15 s)
#   -n N     sweeps per engine after the first (default 200)
#   -o DIR   keep the soak directories in DIR (default: a temporary one)
#   -d DOC   replace the block between <!-- soak-figures:begin/end --> in DOC
# Prints the block on stdout. Exit 1 when a soak failed (the block is still
# printed, with the failure, and DOC is left alone).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
quick=0 doc= sweeps=200 out=
while getopts "qn:o:d:h" opt; do
  case $opt in
    q) quick=1 sweeps=6 ;;
    n) sweeps=$OPTARG ;;
    o) out=$OPTARG ;;
    d) doc=$OPTARG ;;
    *) sed -n '/^# usage:/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-$src/build}" && pwd)
keiro="$build/keiro"
[ -x "$keiro" ] || { echo "soak-figures: no $keiro" >&2; exit 2; }
if [ -z "$out" ]; then
  out=$(mktemp -d /tmp/soak-figures.XXXXXX)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
t0=$SECONDS

engines=$("$keiro" engines --osm-names | tr '\n' ' ')
declare -A pid wall
for e in $engines; do
  (s=$SECONDS
   KEIRO_SRCDIR=$src KEIRO_BUILDDIR=$build "$src/tests/soak/soak.sh" -o "$out/$e" -e "$e" -n "$sweeps" -S 1 \
     >"$out/$e.out" 2>&1
   rc=$?
   echo $((SECONDS - s)) >"$out/$e.wall"
   exit $rc) &
  pid[$e]=$!
done
failed=0
for e in $engines; do
  wait "${pid[$e]}" || { failed=1; echo "soak-figures: $e: soak failed; see $out/$e.out" >&2; }
done

rows=()
for e in $engines; do
  rows+=("$(python3 - "$out/$e" "$e" "$(cat "$out/$e.wall" 2>/dev/null || echo 0)" <<'PY'
import csv, os, re, sys
d, engine, wall = sys.argv[1], sys.argv[2], int(sys.argv[3])
def tsv(name):
    p = os.path.join(d, name)
    return list(csv.DictReader(open(p), delimiter="\t")) if os.path.isfile(p) else []
sw, rr = tsv("soak.tsv"), tsv("reroutes.tsv")
summary = open(os.path.join(d, "summary.txt")).read() if os.path.isfile(os.path.join(d, "summary.txt")) else ""
m = re.search(r"after (\d+) warm-up sweeps (\d+) kB", summary)
warm, ref = (int(m.group(1)), int(m.group(2))) if m else (4, 0)
m = re.search(r"peak (\d+) kB", summary)
peak = int(m.group(1)) if m else 0
n = len(sw) - 1
rss = [int(r["vmrss_kb"]) for r in sw if r["vmrss_kb"].isdigit()]
first, last = (rss[0], rss[-1]) if rss else (0, 0)
passed = sum(1 for r in sw if r["check"] == "pass")
ch = [r for r in rr if int(r["sls_changed"]) > 0]
kept = [r for r in rr if int(r["sls_changed"]) == 0]
noafresh = sum(1 for r in kept if r["routed_afresh"] == "no")
pairs = sum(int(r["sls_changed"]) for r in ch)
most = max([int(r["sls_changed"]) for r in ch] or [0])
dropped = sum(1 for r in ch if r["relaxed"] == "yes" and int(r["stale_unsafe"]) == 0)
unsafe = [r for r in ch if r["relaxed"] == "yes" and int(r["stale_unsafe"]) > 0]
upaths = sum(int(r["stale_unsafe"]) for r in unsafe)
other = len(ch) - dropped - len(unsafe)
fmt = lambda v: f"{v:,}"
print(f"| {engine} | {n} | {wall} | {fmt(first)} | {fmt(ref)} | {fmt(last)} | {last - ref:+,} | {fmt(peak)} "
      f"| {passed} of {len(sw)} | {len(rr)} | {len(kept)} ({noafresh}) | {len(ch)}: {pairs} ({most}) "
      f"| {dropped} | {len(unsafe)} ({upaths}) | {other} |")
PY
)")
done

commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
block=$(
  echo "<!-- soak-figures:begin -->"
  echo "Written by \`scripts/soak-figures.sh$([ $quick = 1 ] && echo ' -q')$([ $quick = 0 ] && [ "$sweeps" != 200 ] && echo " -n $sweeps")\` at commit $commit in $((SECONDS - t0)) s on $(date -u +%F); do not edit."
  echo
  echo "\`tests/soak/soak.sh -n $sweeps -S 1\` per engine, the $(echo $engines | wc -w) engines side by side in their own OpenSM on a 2-core machine shared with other jobs (so the wall times are those of a busy machine); every sweep after the first is a re-route (a link fails or comes back). VmRSS in kB after a sweep; *growth*: last minus after the warm-up (4 sweeps). *checks*: sweeps whose installed tables passed \`keiro check\`. *SLs kept*: re-routes that kept the SL of every (source, destination) pair routed before (in brackets: without routing afresh). *SLs changed*: re-routes that changed some (one WARN line each): pairs changed in all (the most in one re-route). Of those, *relaxed, dropped*: by the relaxed incremental route with the stale traffic of every changed path dropped (VL 15); *relaxed, unsafe*: with some paths whose old SL can still close a credit loop (the paths); *other*: by the pinned steps or a fresh routing, which do not guard stale SLs."
  echo
  echo "| engine | sweeps | wall s | RSS first | after warm-up | last | growth | peak | checks | re-routes | SLs kept | SLs changed | relaxed, dropped | relaxed, unsafe | other |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  [ $failed = 0 ] || echo "A soak failed; see its output."
  echo "<!-- soak-figures:end -->"
)
echo "$block"
if [ -n "$doc" ] && [ $failed = 0 ]; then
  echo "$block" | python3 "$src/scripts/keiro_bench.py" replace-blocks "$doc" || exit 1
fi
exit $failed
