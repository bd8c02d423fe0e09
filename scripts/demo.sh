#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro's demo: the bundled demo fabric in ibsim, the real OpenSM with keiro
# loaded, once per keiro engine (and once with OpenSM's own minhop for
# contrast); then one line per engine: what OpenSM installed, VLs/SLs used,
# escape-path fallbacks, routing time, path lengths, and whether the tables
# OpenSM installed (its dumps + the SLs its SA hands out) are deadlock free.
# Exit status: 0 when OpenSM installed every keiro engine's own tables and
# they passed keiro check; 1 otherwise, also when a keiro engine failed and
# OpenSM fell back to another engine (said after the table, which is always
# printed).
#
# usage: scripts/demo.sh [BUILDDIR]     (default: build; run `make` there first)
# Environment: KEIRO_DEMO_FABRIC (net file), KEIRO_DEMO_VLS (default 4).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${KEIRO_BUILD_DIR:-$src/build}}" 2>/dev/null && pwd) || {
  echo "demo: build directory ${1:-$src/build} not found; run scripts/build.sh first" >&2
  exit 1
}
export KEIRO_BUILDDIR=$build
. "$src/tests/harness/lib.sh"

fabric=${KEIRO_DEMO_FABRIC:-$src/ibsim-topologies/demo-lrt-25sw.net}
layout=${fabric%.net}.layout
vls=${KEIRO_DEMO_VLS:-4}
out=$build/demo
keiro=$build/keiro
for f in "$build/.libs/libkeiro.so" "$keiro" "$build/tests/harness/sa_path_sl"; do
  [ -e "$f" ] || { echo "demo: $f is missing; build first (scripts/build.sh)" >&2; exit 1; }
done
kh_prereq || exit 1
rm -rf "$out"
mkdir -p "$out"

popts="max_vls=$vls"
[ -r "$layout" ] && popts="$popts loren_layout=$layout"

# run ENGINE_LIST TAG [run-fabric options]: one OpenSM run; 0 on SUBNET UP.
run() {
  local engines=$1 tag=$2
  shift 2
  "$src/tests/harness/run-fabric.sh" -t "$fabric" -o "$out/$tag" -s -e "$engines" "$@" \
    >"$out/$tag.harness.txt" 2>&1
}

made_with=$(sed -nE '1s/^# (keiro topo .*)/, made with `\1`/p' "$fabric")
echo "keiro demo: $(basename "$fabric"): $(grep -c '^Switch' "$fabric") switches, $(grep -cE '^(Hca|Ca)[[:space:]]' "$fabric") HCAs$made_with"
echo "OpenSM $(opensm --version 2>/dev/null | sed -n 's/^OpenSM //p' | head -n 1) on ibsim, plugin libkeiro.so, qos TRUE, event_plugin_options \"$popts\""
echo

# The first run names the engines the plugin registered.
run "keiro-nue,updn" keiro-nue -p "$popts" || true
engines=$(sed -nE 's/.*keiro: keiro .* loaded; routing engines: ([^;]*);.*/\1/p' \
            "$out/keiro-nue/opensm.log" 2>/dev/null | head -n 1 | tr -d ' ' | tr ',' ' ')
if [ -z "$engines" ]; then
  echo "demo: OpenSM did not load keiro; see $out/keiro-nue/opensm.log" >&2
  tail -n 5 "$out/keiro-nue.harness.txt" >&2
  exit 1
fi

printf '%-12s %-18s %-5s %-7s %-9s %-9s %-11s %s\n' \
  engine "OpenSM installed" VLs SLs fallbacks route "hops" "installed tables (keiro check + SA SLs)"
fail=0
fell_back=()
for e in $engines minhop; do
  dir=$out/$e
  if [ "$e" != keiro-nue ]; then
    if [ "$e" = minhop ]; then run minhop minhop -P; else run "$e,updn" "$e" -p "$popts"; fi
  fi
  log=$dir/opensm.log
  if ! grep -q 'SUBNET UP' "$log" 2>/dev/null; then
    printf '%-12s %s\n' "$e" "no SUBNET UP (see $out/$e.harness.txt)"
    fail=1
    continue
  fi
  used=$(kh_installed_engine "$log")
  [ "$e" = minhop ] && used="$used (built-in)"
  if [ "$e" != minhop ] && [ "${used%% *}" != "$e" ]; then
    why=$(grep -oE 'ERR KE[0-9]+: .*' "$log" | head -n 1)
    fell_back+=("$e -> ${used:-nothing}")
    used="fell back to $used"
    [ -n "$why" ] && used="$used: $why"
  fi
  vls_used=$(kh_summary_field "$log" "VLs used")
  budget=$(kh_summary_field "$log" "VLs used [0-9]+ of" "$e")
  sls_used=$(kh_summary_field "$log" "SLs used")
  # Spare SLs (docs/rerouting.md): handed out (the engine's own).
  own=$(grep -oE "$e: the paths of its [0-9]+ SLs spread over" "$log" | tail -n 1 | grep -oE '[0-9]+')
  [ -n "$own" ] && sls_used="$sls_used ($own)"
  fb=$(kh_summary_field "$log" "escape fallbacks")
  rt=$(kh_summary_field "$log" "route")
  "$keiro" check "$dir/dumps" --sls "$dir/sa-path-sl.dump" >"$dir/check.txt" 2>&1
  rc=$?
  "$keiro" analyze "$dir/dumps" --sls "$dir/sa-path-sl.dump" --no-traffic --json >"$dir/analyze.json" 2>"$dir/analyze.err"
  hops=$(kh_json "$dir/analyze.json" paths.avg_hops:%.3f paths.max_hops 2>/dev/null | paste -sd/)
  [ "$hops" = / ] && hops=
  if [ $rc -eq 0 ]; then
    verdict="deadlock free: $(sed -nE 's/^ +pairs checked +//p' "$dir/check.txt") pairs reachable, no loop, no credit loop"
  elif grep -qE 'credit loops +FOUND' "$dir/check.txt"; then
    verdict="CREDIT LOOP ($(sed -nE 's/^ +credit loops +FOUND \((.*)\)/\1/p' "$dir/check.txt"))"
  else
    verdict="FAILED: $(grep -m1 -A1 '^problems:' "$dir/check.txt" | tail -n 1 | sed 's/^ *//')"
  fi
  case $e in minhop) ;; *) [ $rc -eq 0 ] || fail=1 ;; esac
  rtcol=${rt:+$rt s}
  rtcol=${rtcol:--}
  if [ "$e" = minhop ]; then vl_col=-; sl_col=-; else vl_col="${vls_used:-?}/${budget:-?}"; sl_col=${sls_used:-?}; fi
  printf '%-12s %-18s %-5s %-7s %-9s %-9s %-11s %s\n' "$e" "$used" "$vl_col" "$sl_col" \
    "${fb:--}" "$rtcol" "${hops:-?}" "$verdict"
done
echo
echo "VLs: used/budget; SLs: handed out (the engine's own, spread over spare SLs for re-routing:"
echo "docs/rerouting.md); fallbacks: destinations routed over escape paths (keiro-nue); route: engine"
echo "time in OpenSM; hops: average/maximum links between HCAs. minhop is OpenSM's default engine,"
echo "shown for contrast. Logs, dumps and check reports: $out/<engine>/"
if [ ${#fell_back[@]} -gt 0 ]; then
  echo
  echo "demo: FAILED: OpenSM fell back from ${#fell_back[@]} keiro engine(s): ${fell_back[*]}" >&2
  fail=1
fi
exit $fail
