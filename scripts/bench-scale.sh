#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: how keiro's engines scale with the fabric, in one run.
#  1. Offline (`keiro route`, route + self-check, max_vls=8): families of
#     growing size (tori, random fabrics, fat trees intact and degraded, LRTs,
#     the 10x10x10 torus with 1% of its links failed (issue 32, seeds 31 and
#     32: not among those the engines were looked at with),
#     up to 1,900 switches x 24 HCAs = 47,500 LIDs) for every engine that
#     applies, with threads=1 and threads=2: wall and user time, peak resident
#     memory (GNU time), the engine's own phase times (route, check, and the
#     *_seconds facts it reports), VLs and SLs.
#  2. Through OpenSM + ibsim on a 10x10x10 torus with 4 HCAs per switch:
#     keiro-nue against OpenSM's built-in nue, dfsssp and lash (8 VLs), routing
#     time from OpenSM's own log lines, as ratios in the same run. OpenSM's
#     usual log flags plus VERBOSE for those lines (log_flags 0x07): with the
#     ROUTING flag OpenSM writes its routing dumps after every sweep and the
#     plugin stages a hop row for every (switch, LID) for them
#     (plugin/install_tables.h), which no production setting asks for.
#
# usage: scripts/bench-scale.sh [BUILDDIR] [OUTDIR]
#   BUILDDIR  built keiro tree (default ./build)
#   OUTDIR    run files, offline.tsv, opensm.tsv, scale.md, scale-*.svg
#             (default BUILDDIR/bench-scale)
# Environment:
#   BENCH_QUICK=1     small sizes only, part 2 on a 4x4x4 torus (a smoke run
#                     of well under a minute; tests/integration/bench-scripts.sh)
#   BENCH_THREADS     thread counts (default "1 2")
#   BENCH_TIMEOUT     seconds per offline run before it counts as failed (900)
#   BENCH_OPENSM=0    skip part 2
#   BENCH_KEEP_DUMPS=1  every offline run also writes its tables to
#                     OUTDIR/FABRIC.ENGINE.tT.dumps (for the independent oracle;
#                     the times then include writing them)
#   BENCH_DOC         also put the tables into this markdown file (between its
#                     bench-scale:begin/end markers, e.g. docs/performance.md)
#                     and the SVGs next to it
# Exit: 0 every run routed and passed its self-check, 1 otherwise, 2 usage.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
kb_init bench-scale "$@"
command -v /usr/bin/time >/dev/null || { echo "bench-scale: needs GNU time (/usr/bin/time)" >&2; exit 2; }
threads=${BENCH_THREADS:-"1 2"}
limit=${BENCH_TIMEOUT:-900}

# family|name|keiro topo arguments|engines
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  set_=(
    "torus|torus4x4x4-h4|torus 4x4x4 --hcas-per-switch 4|nue acro dl"
    "torus|torus6x6x6-h4|torus 6x6x6 --hcas-per-switch 4|nue acro dl"
    "torus-f1|torus6x6x6-h4-f1-s31|torus 6x6x6 --hcas-per-switch 4 --fail-links 0.01 --seed 31|acro dl"
    "random-d16|rrg64-d16-h8|random 64 16 --hcas-per-switch 8 --seed 11|nue acro dl"
    "fattree|ft6x3|fattree 6 3|nue acro dl"
    "lrt|lrt64|lrt 64 4 2 --hcas-per-switch 4 --seed 11|nue acro dl loren"
  )
  torus_osm="torus 4x4x4 --hcas-per-switch 4"
else
  set_=(
    "torus|torus4x4x4-h4|torus 4x4x4 --hcas-per-switch 4|nue acro dl"
    "torus|torus6x6x6-h4|torus 6x6x6 --hcas-per-switch 4|nue acro dl"
    "torus|torus8x8x8-h4|torus 8x8x8 --hcas-per-switch 4|nue acro dl"
    "torus|torus10x10x10-h4|torus 10x10x10 --hcas-per-switch 4|nue acro dl"
    "torus-f1|torus10x10x10-h4-f1-s31|torus 10x10x10 --hcas-per-switch 4 --fail-links 0.01 --seed 31|acro dl"
    "torus-f1|torus10x10x10-h4-f1-s32|torus 10x10x10 --hcas-per-switch 4 --fail-links 0.01 --seed 32|acro dl"
    "random-d16|rrg128-d16-h8|random 128 16 --hcas-per-switch 8 --seed 11|nue acro dl"
    "random-d16|rrg256-d16-h8|random 256 16 --hcas-per-switch 8 --seed 11|nue acro dl"
    "random-d16|rrg512-d16-h8|random 512 16 --hcas-per-switch 8 --seed 11|nue acro dl"
    "random-d16|rrg1024-d16-h8|random 1024 16 --hcas-per-switch 8 --seed 11|nue acro dl"
    "fattree|ft12x3|fattree 12 3|nue acro dl"
    "fattree|ft18x3|fattree 18 3|nue acro dl"
    "fattree-f2|ft18x3-f2-s11|fattree 18 3 --fail-links 0.02 --seed 11|nue acro dl"
    "lrt|lrt256|lrt 256 8 3 --hcas-per-switch 4 --seed 11|nue acro dl loren"
    "lrt|lrt1024|lrt 1024 8 4 --hcas-per-switch 4 --seed 11|nue acro dl loren"
    "random-d12|rrg1900-d12-h24|random 1900 12 --hcas-per-switch 24 --seed 11|nue acro dl"
  )
  torus_osm="torus 10x10x10 --hcas-per-switch 4"
fi

failed=0
tsv=$out/offline.tsv
printf '#family\tfabric\tengine\tswitches\tlids\tthreads\twall_s\tuser_s\trss_mb\troute_s\tcheck_s\tphases\tvls\tsls\tresult\n' >"$tsv"
for entry in "${set_[@]}"; do
  IFS='|' read -r fam fab topo engs <<<"$entry"
  net=$out/$fab.net
  # shellcheck disable=SC2086
  "$keiro" topo $topo -o "$net" >"$out/$fab.topo.txt" 2>&1 ||
    { echo "bench-scale: keiro topo $topo failed" >&2; exit 1; }
  for e in $engs; do
    opts=(--opt max_vls=8)
    [ "$e" = loren ] && opts+=(--opt "loren_layout=${net%.net}.layout")
    for t in $threads; do
      base=$out/$fab.$e.t$t
      echo "bench-scale: $fab: keiro-$e, $t thread(s)" >&2
      keep=()
      [ "${BENCH_KEEP_DUMPS:-0}" = 1 ] && keep=(--out "$base.dumps")
      timeout "$limit" /usr/bin/time -o "$base.time" -f '%e %U %M' \
        "$keiro" route --topology "$net" --engine "$e" "${opts[@]}" --opt "threads=$t" --json \
        ${keep[@]+"${keep[@]}"} >"$base.json" 2>"$base.err"
      rc=$?
      # GNU time puts "Command exited with non-zero status N" first.
      read -r wall user rss_kb < <(tail -n 1 "$base.time" 2>/dev/null) || wall=- user=- rss_kb=
      [ "$rc" = 124 ] && wall=">$limit"
      python3 - "$base.json" "$fam" "$fab" "keiro-$e" "$t" "$wall" "$user" "${rss_kb:-0}" "$rc" \
        >>"$tsv" <<'EOF'
import json, sys
path, fam, fab, eng, t, wall, user, rss, rc = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception:
    d = {}
facts = d.get('facts', {})
phases = ' '.join('%s=%s' % (k[:-8], v) for k, v in facts.items() if k.endswith('_seconds'))
check = d.get('check', {})
result = {'0': 'ok', '124': 'timeout'}.get(rc, 'failed (exit %s)' % rc)
fmt = lambda v: '%.2f' % v if isinstance(v, (int, float)) else '-'
print('\t'.join([fam, fab, eng, str(d.get('fabric', {}).get('switches', '-')),
                 str(d.get('fabric', {}).get('lids', '-')), t, wall, user,
                 '%.0f' % (int(rss) / 1024), fmt(d.get('route_seconds')), fmt(check.get('seconds')),
                 phases or '-', str(d.get('vls_used', '-')),
                 # the engine's SLs; spread over spare SLs (core/pipeline/sl_spread.h): "7 (16)"
                 str(d.get('sls_used', '-')) if 'sls_routed' not in facts else
                 '%s (%s)' % (facts['sls_routed'], d.get('sls_used', '-')), result]))
EOF
      [ "$rc" = 0 ] || { failed=1; echo "bench-scale: $fab keiro-$e threads=$t: $(tail -n 1 "$base.err")" >&2; }
    done
  done
done

osm=$out/opensm.tsv
printf '#fabric\tengine\tinstalled\troute_s\n' >"$osm"
if [ "${BENCH_OPENSM:-1}" = 1 ]; then
  net=$out/opensm-torus.net
  # shellcheck disable=SC2086
  "$keiro" topo $torus_osm -o "$net" >/dev/null 2>&1 || exit 1
  fab=$(echo "$torus_osm" | awk '{ print $1 $2 "-h" $4 }')
  mkdir -p "$out/opensm"
  for e in keiro-nue nue dfsssp lash; do
    echo "bench-scale: OpenSM on $fab: $e" >&2
    if KB_NO_SA=1 KB_LOG_FLAGS=0x07 kb_run "$e" "$net" "$out/opensm/$e" 8; then
      printf '%s\t%s\t%s\t%s\n' "$fab" "$e" "${KB_USED:--}" "${KB_RT:--}" >>"$osm"
    else
      printf '%s\t%s\t-\t-\n' "$fab" "$e" >>"$osm"
      failed=1
    fi
  done
fi

doc=()
[ -n "${BENCH_DOC:-}" ] && doc=(--doc "$BENCH_DOC")
what="offline keiro route --opt max_vls=8 (route + self-check), threads $threads"
[ "${BENCH_OPENSM:-1}" = 1 ] && what+=", and OpenSM + ibsim on $fab"
[ "${BENCH_QUICK:-0}" = 1 ] && what+="; BENCH_QUICK=1"
python3 "$src/scripts/bench_table.py" scale "$tsv" --opensm "$osm" --md "$out/scale.md" \
  --svg "$out/scale-time.svg" --commit "$KB_COMMIT" --note "($what) $(kb_note)" \
  ${doc[@]+"${doc[@]}"} || failed=1
cat "$out/scale.md"
[ -n "${BENCH_DOC:-}" ] && cp "$out/scale-time.svg" "$(dirname "$BENCH_DOC")/scale-time.svg"
exit $failed
