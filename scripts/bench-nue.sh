#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: keiro-nue against OpenSM's built-in nue, in one run, on the same
# fabrics, through the real OpenSM on ibsim, with the same VL cap.
#
# usage: scripts/bench-nue.sh [BUILDDIR] [OUTDIR]
#   BUILDDIR  built keiro tree (default ./build)
#   OUTDIR    run directories and the result table (default BUILDDIR/bench-nue)
# Environment: BENCH_FABRICS (default: the two fabrics of issue 2),
#              BENCH_KS (default "1 2 4 8").
#
# Routing time is read from OpenSM's own log for both engines the same way:
# from "building routing with '<engine>'" to "<engine> tables configured on
# all switches" (both include OpenSM's LFT push, identical for both). Hops
# and the max edge forwarding index come from `keiro analyze` on the dumps
# OpenSM wrote (CA-to-CA routes), escape fallbacks from each engine's log.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd) || exit 2
out=${2:-$build/bench-nue}
mkdir -p "$out"
fabrics=${BENCH_FABRICS:-"rrg-128-d8-h4 torus-6x6x6-f1-h2"}
ks=${BENCH_KS:-"1 2 4 8"}
run=$src/tests/harness/run-fabric.sh
export KEIRO_BUILDDIR=$build

# seconds between the engine's "building routing" line and its "tables
# configured" line in an OpenSM log (timestamps: "Mon DD HH:MM:SS usec").
route_time() {
  awk -v eng="$2" '
    function t(l,  a, h) { split(l, a, " "); split(a[3], h, ":");
                           return h[1]*3600 + h[2]*60 + h[3] + a[4] / 1e6 }
    index($0, "building routing with \047" eng "\047") { s = t($0) }
    s && index($0, ": " eng " tables configured on all switches") { printf "%.3f", t($0) - s; exit }
  ' "$1"
}

analyze() {  # DIR -> "avg_hops max_efi"
  "$build/keiro" analyze "$1/dumps" --no-traffic --pairs ca 2>/dev/null |
    awk '/path length/ { h = $4; sub(",", "", h) } /EFI \(sw-sw\)/ { m = $(NF-2); sub(",", "", m) }
         END { print h, m }'
}

table=$out/result.txt
{
  printf '%-18s %2s | %9s %9s %6s | %9s %9s | %9s %9s | %7s %7s\n' fabric k \
    "nue s" "keiro s" ratio "nue fb" "keiro fb" "nue hops" "keiro hp" "nue EFI" "keiro"
} >"$table"
for fab in $fabrics; do
  net=$src/ibsim-topologies/$fab.net
  for k in $ks; do
    b=$out/$fab-k$k-builtin
    "$run" -t "$net" -o "$b" -P -e nue -c "nue_max_num_vls $k" -c "log_flags 0x47" -w 600 >/dev/null 2>&1 ||
      echo "bench: built-in nue failed on $fab k=$k (see $b/opensm.log)" >&2
    kdir=$out/$fab-k$k-keiro
    "$run" -t "$net" -o "$kdir" -e keiro-nue -p "max_vls=$k" -c "log_flags 0x47" -w 600 >/dev/null 2>&1 ||
      echo "bench: keiro-nue failed on $fab k=$k (see $kdir/opensm.log)" >&2
    tn=$(route_time "$b/opensm.log" nue)
    tk=$(route_time "$kdir/opensm.log" keiro-nue)
    fbn=$(grep -c "fallback to escape paths" "$b/opensm.log")
    fbk=$(grep -o "escape fallbacks [0-9]*" "$kdir/opensm.log" | tail -n 1 | awk '{print $3}')
    read -r hn en < <(analyze "$b")
    read -r hk ek < <(analyze "$kdir")
    ratio=$(awk -v a="${tn:-0}" -v b="${tk:-0}" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }')
    printf '%-18s %2s | %9s %9s %6s | %9s %9s | %9s %9s | %7s %7s\n' "$fab" "$k" "${tn:--}" \
      "${tk:--}" "$ratio" "$fbn" "${fbk:--}" "${hn:--}" "${hk:--}" "${en:--}" "${ek:--}" >>"$table"
  done
done
cat "$table"
