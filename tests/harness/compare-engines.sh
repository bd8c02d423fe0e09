#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Routes one fabric through ibsim + the real OpenSM with several engines
# (keiro's, through the plugin, and OpenSM's built-in ones) and prints one
# line per engine from the same kind of run: routing time measured in OpenSM's
# log (from "building routing with '<engine>'" to "<engine> tables configured
# on all switches", so both kinds of engine are timed the same way), escape-
# path fallbacks, average hops, maximum edge forwarding index (keiro analyze)
# and whether the installed tables pass keiro check with the SA's SLs.
#
# usage: compare-engines.sh -t NETFILE -o OUTDIR [-k VLS] [-w SECONDS] ENGINE...
#   ENGINE   keiro-... (through the plugin) or an OpenSM engine (nue, dfsssp,
#            lash, updn, minhop, ...)
#   -k VLS   VL cap for every engine: keiro max_vls=VLS, OpenSM
#            nue_max_num_vls VLS (default 4)
#   -w SEC   SUBNET UP timeout per run (default 600)
# Environment: KEIRO_BUILDDIR (build tree, default .).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
net= out= k=4 wait_s=600
kh_options "t=net o=out k=k w=wait_s" 'kh_usage "$0" Environment:' "$@"
shift "$KH_SHIFT"
[ -n "$net" ] && [ -n "$out" ] && [ $# -gt 0 ] || { echo "usage: $0 -t NET -o OUT [-k VLS] ENGINE..." >&2; exit 2; }
keiro="$KH_BUILDDIR/keiro"
[ -x "$keiro" ] || { echo "no $keiro (set KEIRO_BUILDDIR)" >&2; exit 2; }
mkdir -p "$out"

printf '%-11s %-12s %9s %9s %9s %8s  %s\n' engine installed "route s" fallbacks "avg hops" "max EFI" "installed tables"
for e in "$@"; do
  dir=$out/$e
  args=(-t "$net" -o "$dir" -s -w "$wait_s" -c "log_flags 0x47")
  case $e in
    keiro-*) args+=(-e "$e" -p "max_vls=$k") ;;
    *) args+=(-P -e "$e" -c "nue_max_num_vls $k") ;;
  esac
  if ! "$here/run-fabric.sh" "${args[@]}" >"$dir.harness.txt" 2>&1; then
    printf '%-11s %s\n' "$e" "no SUBNET UP (see $dir.harness.txt)"
    continue
  fi
  log=$dir/opensm.log
  used=$(kh_installed_engine "$log")
  rt=$(kh_route_time "$log" "$used")
  case $e in
    keiro-*) fb=$(kh_engine_fact "$log" "$e" escape_fallbacks) ;;
    nue) fb=$(grep -c 'fallback to escape paths' "$log") ;;
    *) fb=- ;;
  esac
  "$keiro" analyze "$dir/dumps" --sls "$dir/sa-path-sl.dump" --no-traffic --json >"$dir/analyze.json" 2>"$dir/analyze.err"
  rc=$?
  { read -r hops; read -r efi; read -r problem; } < <(kh_json "$dir/analyze.json" \
    paths.avg_hops:%.3f efi.max:%.0f check.first_problem)
  verdict=$([ $rc -eq 0 ] && echo "deadlock free" || echo "FAILED: ${problem:-see $dir/analyze.err}")
  printf '%-11s %-12s %9s %9s %9s %8s  %s\n' "$e" "${used:-?}" "${rt:--}" "${fb:--}" "${hops:-?}" "${efi:-?}" "$verdict"
done
