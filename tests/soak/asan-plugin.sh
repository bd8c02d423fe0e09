#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro built with AddressSanitizer + UndefinedBehaviorSanitizer, loaded into
# the stock /usr/sbin/opensm (issue 16, item 4): for every engine a short
# soak (tests/soak/soak.sh: link flaps, a heavy sweep and keiro check after
# each) with the sanitizer runtimes preloaded into OpenSM ahead of umad2sim.
# It fails on any sanitizer report:
#  - AddressSanitizer errors and UBSan runtime errors anywhere (the plugin
#    is the only instrumented code in OpenSM; halt_on_error=1 stops OpenSM
#    at the first one, which the soak sees as a crash);
#  - LeakSanitizer leaks whose stack has a keiro frame. OpenSM 3.3.23 itself
#    does not free everything at exit (leak reports without a keiro frame);
#    those are counted and listed in the summary, not failed.
# Reports go to OUTDIR/ENGINE/asan.PID and ubsan.PID (log_path); OpenSM's
# stderr (opensm.out) is searched as well.
#
# usage: asan-plugin.sh -o OUTDIR [-n SWEEPS] [-e ENGINES]
#   -n SWEEPS   sweeps after the first, per engine (default 2)
#   -e ENGINES  space-separated (default: every keiro engine, as
#               `keiro engines --osm-names` lists them)
# Environment: KEIRO_ASAN_DIR: the sanitized build tree (default build-asan
# beside the sources; scripts/build-asan.sh libkeiro.la keiro builds it),
# KEIRO_TOOL: the keiro program for `keiro topo` and `keiro check` (default:
# the sanitized build's, else build/keiro), KEIRO_SRCDIR.
# Exit: 0 clean, 1 a report or a failed soak, 2 usage.
# END
set -u
here=$(cd "$(dirname "$0")" && pwd)
KEIRO_SRCDIR=${KEIRO_SRCDIR:-$(cd "$here/../.." && pwd)}
export KEIRO_SRCDIR
. "$KEIRO_SRCDIR/tests/harness/lib.sh"
out= sweeps=2 engines=
usage() { sed -n '/^# usage:/,/^# END/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
kh_options "o=out n=sweeps e=engines" usage "$@"
[ -n "$out" ] || usage
asan=$(cd "${KEIRO_ASAN_DIR:-$KEIRO_SRCDIR/build-asan}" 2>/dev/null && pwd) ||
  { echo "asan-plugin: no sanitized build tree (scripts/build-asan.sh libkeiro.la keiro)" >&2; exit 1; }
lib="$asan/.libs/libkeiro.so"
tool=${KEIRO_TOOL:-$asan/keiro}
[ -x "$tool" ] || tool=$KEIRO_SRCDIR/build/keiro
[ -e "$lib" ] && [ -x "$tool" ] ||
  { echo "asan-plugin: no $lib or keiro program (scripts/build-asan.sh libkeiro.la keiro)" >&2; exit 1; }
[ -n "$engines" ] || engines=$("$tool" engines --osm-names | tr '\n' ' ')
[ -n "$engines" ] || { echo "asan-plugin: $tool engines lists no engine" >&2; exit 1; }
# The sanitizer runtimes, ASan's first (it must come first in the process).
# libtool links the shared plugin without -fsanitize=address, so its __asan_*
# symbols are left for the preloaded runtime: take the compiler's libasan.so
# (g++ 12: libasan.so.8) and libubsan.so.
nm -D "$lib" 2>/dev/null | grep -q ' U __asan_' ||
  { echo "asan-plugin: $lib is not built with AddressSanitizer" >&2; exit 1; }
cxx=${CXX:-g++}
cxx=${cxx##* }  # "ccache g++" -> g++
rt_asan=$(readlink -f "$("$cxx" -print-file-name=libasan.so)")
rt_ubsan=$(readlink -f "$("$cxx" -print-file-name=libubsan.so)")
[ -r "$rt_asan" ] && [ -r "$rt_ubsan" ] ||
  { echo "asan-plugin: no libasan.so/libubsan.so from $cxx -print-file-name" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Two reports of the simulated MAD path, neither in keiro nor avoidable here,
# are suppressed (only those raised by libc interceptors on behalf of these
# two libraries; OpenSM's and keiro's own code are not affected):
#  - umad2sim (ibsim's libumad shim, test-only; absent on hardware) copies
#    320 bytes out of a 288-byte buffer in its read();
#  - libibumad's umad_send: under umad2sim the answer to a MAD arrives inside
#    write(), and OpenSM's receiver thread frees the sent MAD
#    (osm_vendor_put) before write() returns, so the interceptor's check of
#    the written buffer after the call sees freed memory.
printf '%s\n' 'interceptor_via_lib:libumad2sim.so' 'interceptor_via_lib:libibumad.so' >"$out/asan.supp"

fails=0 osm_leaks=0
for engine in $engines; do
  dir="$out/$engine"
  rm -rf "$dir"
  mkdir -p "$dir"
  t0=$SECONDS
  # The leak check runs while OpenSM exits: give it time before KILL.
  KEIRO_BUILDDIR="$asan" KEIRO_TOOL="$tool" KEIRO_STOP_WAIT=60 \
  KEIRO_PRELOAD="$rt_asan $rt_ubsan" \
  ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:suppressions=$out/asan.supp:log_path=$dir/asan" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$dir/ubsan" \
    "$here/soak.sh" -o "$dir" -e "$engine" -n "$sweeps" -W 0 -r 0 >"$dir/soak.out" 2>&1
  rc=$?
  result=pass
  [ $rc -eq 0 ] || { result="soak failed (rc $rc)"; tail -n 15 "$dir/soak.out"; }
  # Sanitizer errors other than leaks, from any process of the run.
  if grep -lsE 'ERROR: AddressSanitizer|runtime error:' "$dir"/asan.* "$dir"/ubsan.* "$dir/opensm.out" \
      >"$dir/reports.txt" 2>/dev/null; then
    result="sanitizer report"
    grep -hE -A12 'ERROR: AddressSanitizer|runtime error:' $(cat "$dir/reports.txt") | head -n 30
  fi
  # Leak reports: one block per "Direct/Indirect leak"; keiro's if any frame
  # is keiro code.
  read -r kleaks oleaks < <(cat "$dir"/asan.* 2>/dev/null | awk '
    function flush() { if (inb) { if (k) kl++; else ol++ } inb = 0; k = 0 }
    /^(Direct|Indirect) leak of/ { flush(); inb = 1; next }
    /^$/ { flush(); next }
    inb && /libkeiro\.so|keiro::|\/plugin\/|\/core\// { k = 1 }
    END { flush(); print kl + 0, ol + 0 }')
  osm_leaks=$((osm_leaks + oleaks))
  if [ "$kleaks" -gt 0 ]; then
    result="$kleaks leak(s) with keiro frames"
    awk '/^(Direct|Indirect) leak of/,/^$/' "$dir"/asan.* | head -n 30
  fi
  grep -q '^soak: PASS' "$dir/soak.out" || [ "$result" != pass ] || result="soak did not pass"
  echo "asan-plugin: $engine: $result ($(sed -n 1p "$dir/summary.txt" 2>/dev/null | sed 's/^soak: //');" \
    "$oleaks OpenSM leak report(s) without keiro frames; $((SECONDS - t0)) s)"
  [ "$result" = pass ] || fails=$((fails + 1))
done
if [ $fails -ne 0 ]; then
  echo "asan-plugin: FAIL ($fails engine(s)); runs in $out"
  exit 1
fi
echo "asan-plugin: PASS (sanitized libkeiro.so in the stock OpenSM, engines: $engines;" \
  "$osm_leaks leak report(s) of OpenSM's own allocations ignored)"
exit 0
