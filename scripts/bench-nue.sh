#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: keiro-nue against OpenSM's built-in nue, in one run, on the same
# fabrics, through the real OpenSM on ibsim, with the same VL cap.
#
# usage: scripts/bench-nue.sh [BUILDDIR] [OUTDIR]
#   BUILDDIR  built keiro tree (default ./build)
#   OUTDIR    run directories and the result table (default BUILDDIR/bench-nue)
# Environment: BENCH_FABRICS (default: the two fabrics of issue 2),
#              BENCH_KS (default "1 2 4 8"),
#              BENCH_REPEAT (default 3): OpenSM runs per engine and cell; the
#                table shows the median routing time,
#              BENCH_SWITCHES (default 1): also run built-in nue with
#                nue_include_switches TRUE (switch LIDs routed inside the
#                deadlock-free layers, as keiro-nue always does); 0 skips it.
#
# Routing time is read from OpenSM's own log for every engine the same way:
# from "building routing with '<engine>'" to "<engine> tables configured on
# all switches". Both ends are OpenSM's lines, so the interval holds the same
# OpenSM work for every engine (its hop-table allocation, the LFT block
# updates) besides the engine's own. Hops and the max edge forwarding index
# come from `keiro analyze --pairs ca` on the dumps OpenSM wrote (CA-to-CA
# routes), escape fallbacks from each engine's log.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd) || exit 2
out=${2:-$build/bench-nue}
mkdir -p "$out"
fabrics=${BENCH_FABRICS:-"rrg-128-d8-h4 torus-6x6x6-f1-h2"}
ks=${BENCH_KS:-"1 2 4 8"}
repeat=${BENCH_REPEAT:-3}
with_sw=${BENCH_SWITCHES:-1}
run=$src/tests/harness/run-fabric.sh
export KEIRO_BUILDDIR=$build
. "$src/tests/harness/lib.sh"

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

analyze() {  # DIR -> "avg_hops max_efi" ("-" when unknown)
  "$build/keiro" analyze "$1/dumps" --no-traffic --pairs ca --json >"$1/analyze.json" 2>/dev/null
  kh_json "$1/analyze.json" paths.avg_hops:%.3f efi.max:%.0f 2>/dev/null |
    awk '{ v[NR] = $0 == "" ? "-" : $0 } END { print (NR >= 1 ? v[1] : "-"), (NR >= 2 ? v[2] : "-") }'
}

# runs ENGINE-LABEL DIR-PREFIX ENGINE-NAME run-fabric-args...: REPEAT runs,
# prints the median routing time; the first run's directory keeps the dumps.
runs() {
  local label=$1 prefix=$2 eng=$3
  shift 3
  local times="" i dir
  for i in $(seq 1 "$repeat"); do
    dir=$prefix-r$i
    "$run" -o "$dir" "$@" -c "log_flags 0x47" -w 600 >/dev/null 2>&1 ||
      echo "bench: $label failed (see $dir/opensm.log)" >&2
    times="$times $(kh_route_time "$dir/opensm.log" "$eng")"
  done
  echo "$times" | median
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1fx", a / b; else print "-" }'; }

table=$out/result.txt
phases=$out/keiro-phases.txt
{
  printf '%-18s %2s | %7s %7s %6s | %6s %6s | %7s %7s | %6s %6s' fabric k \
    "nue s" "keiro s" ratio "nue fb" "kr fb" "nue hp" "kr hp" "nueEFI" "krEFI"
  [ "$with_sw" = 1 ] && printf ' | %7s %6s %6s %6s' "nue+sw" ratio "fb" "EFI"
  printf '\n'
} >"$table"
: >"$phases"
for fab in $fabrics; do
  net=$src/ibsim-topologies/$fab.net
  for k in $ks; do
    b=$out/$fab-k$k-builtin kd=$out/$fab-k$k-keiro s=$out/$fab-k$k-builtin-sw
    tn=$(runs "built-in nue on $fab k=$k" "$b" nue -t "$net" -P -e nue -c "nue_max_num_vls $k")
    tk=$(runs "keiro-nue on $fab k=$k" "$kd" keiro-nue -t "$net" -e keiro-nue -p "max_vls=$k")
    fbn=$(grep -c "fallback to escape paths" "$b-r1/opensm.log")
    fbk=$(kh_summary_field "$kd-r1/opensm.log" "escape fallbacks" keiro-nue)
    read -r hn en < <(analyze "$b-r1")
    read -r hk ek < <(analyze "$kd-r1")
    {
      printf '%-18s %2s | %7s %7s %6s | %6s %6s | %7s %7s | %6s %6s' "$fab" "$k" "$tn" "$tk" \
        "$(ratio "$tn" "$tk")" "$fbn" "${fbk:--}" "${hn:--}" "${hk:--}" "${en:--}" "${ek:--}"
      if [ "$with_sw" = 1 ]; then
        ts=$(runs "built-in nue (switches) on $fab k=$k" "$s" nue -t "$net" -P -e nue \
          -c "nue_max_num_vls $k" -c "nue_include_switches TRUE")
        fbs=$(grep -c "fallback to escape paths" "$s-r1/opensm.log")
        read -r _ es < <(analyze "$s-r1")
        printf ' | %7s %6s %6s %6s' "$ts" "$(ratio "$ts" "$tk")" "$fbs" "${es:--}"
      fi
      printf '\n'
    } >>"$table"
    for i in $(seq 1 "$repeat"); do
      echo "$fab k=$k run $i: $(kh_summary_line "$kd-r$i/opensm.log" keiro-nue | grep -o 'read [0-9.]* s, route .*')"
    done >>"$phases"
  done
done
cat "$table"
echo
echo "keiro-nue's own phases (from its log line):"
cat "$phases"
