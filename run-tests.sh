#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# One command on a fresh Debian 12 machine, as root: installs the
# dependencies, builds keiro (in ./build), runs `make check` (unit tests and
# the integration tests through ibsim + the real OpenSM), then builds the unit
# tests, the readers' fuzz test and the plugin with AddressSanitizer +
# UndefinedBehaviorSanitizer (in ./build-asan, scripts/build-asan.sh) and runs
# them: the unit tests, the fuzz test, and the sanitized plugin in the stock
# OpenSM (tests/soak/asan-plugin.sh).
#
# The run ends with one line "N passed, N failed, N skipped" over every
# GoogleTest case (plain and sanitized) and every integration test. A skipped
# test fails the run: a test that did not run has not passed. On a machine
# without ibsim/OpenSM, KEIRO_ALLOW_SKIP=1 lets the OpenSM tests skip (and
# the run pass without them).
#
# Environment: KEIRO_SKIP_DEPS=1 skips apt-get; KEIRO_JOBS (default: cores);
# KEIRO_BUILD_DIR, KEIRO_ASAN_DIR; KEIRO_ALLOW_SKIP=1 (see above).
set -euo pipefail
cd "$(dirname "$0")"
src=$PWD
jobs=${KEIRO_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "${KEIRO_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
scripts/build.sh

build=${KEIRO_BUILD_DIR:-$src/build}
. "$src/tests/harness/lib.sh"
passed=0 failed=0 skipped=0

# gtest_count LOG: adds LOG's GoogleTest totals (kh_gtest_counts) to the counters.
gtest_count() {
  local p f s
  read -r p f s < <(kh_gtest_counts "$1")
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

echo "== clang-format"
if scripts/check-format.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== make check ($build)"
check_ok=yes
make -C "$build" -j"$jobs" check || check_ok=no
# Every automake test but the GoogleTest binary counts once, by its result.
for trs in "$build"/tests/*/*.trs; do
  [ -f "$trs" ] || continue
  case $(sed -n 's/^:test-result: //p' "$trs" | head -n 1) in
    PASS | XFAIL) passed=$((passed + 1)) ;;
    SKIP) skipped=$((skipped + 1)); echo "SKIPPED: ${trs%.trs}" ;;
    *) failed=$((failed + 1)) ;;
  esac
done
[ -f "$build/tests/unit_tests.log" ] && gtest_count "$build/tests/unit_tests.log" || failed=$((failed + 1))
if [ $check_ok = no ]; then
  for f in "$build"/tests/*.log "$build"/tests/*/*.log; do
    [ -f "$f" ] && grep -qE '^:test-result: (FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null &&
      { echo "---- $f"; tail -n 40 "$f"; }
  done
fi

asan_ok=yes
if [ $check_ok = yes ]; then
  asan=${KEIRO_ASAN_DIR:-$src/build-asan}
  echo "== unit tests with AddressSanitizer + UndefinedBehaviorSanitizer ($asan)"
  KEIRO_ASAN_DIR=$asan KEIRO_JOBS=$jobs scripts/build-asan.sh \
    tests/unit_tests tests/fuzz_readers libkeiro.la
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  srcdir="$src" "$asan/tests/unit_tests" --gtest_brief=1 2>&1 | tee "$asan/unit_tests.out" || asan_ok=no
  gtest_count "$asan/unit_tests.out"

  # The readers' fuzz test, sanitized: the bounded run of make check
  # (400 inputs per reader, seed 1) with another seed.
  echo "== fuzz test of the readers, sanitized"
  mkdir -p "$asan/fuzz"
  if ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     srcdir="$src" "$asan/tests/fuzz_readers" --seed 2 --save "$asan/fuzz" 2>&1 |
       tee "$asan/fuzz/fuzz.out" && grep -q ' 0 failure(s)$' "$asan/fuzz/fuzz.out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)) asan_ok=no
  fi

  # The sanitized plugin in the stock OpenSM: a short soak per engine.
  echo "== sanitized libkeiro.so in OpenSM (tests/soak/asan-plugin.sh)"
  if ! (. tests/harness/lib.sh && kh_prereq) 2>/dev/null && [ "${KEIRO_ALLOW_SKIP:-0}" = 1 ]; then
    echo "SKIPPED: asan-plugin (no simulator stack, KEIRO_ALLOW_SKIP=1)"
    skipped=$((skipped + 1))
  elif KEIRO_ASAN_DIR=$asan KEIRO_TOOL=$build/keiro tests/soak/asan-plugin.sh -o "$asan/asan-plugin" -n 2; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)) asan_ok=no
  fi
fi

echo "== summary: make check $check_ok, sanitized tests $asan_ok"
echo "$passed passed, $failed failed, $skipped skipped"
[ $check_ok = yes ] && [ $asan_ok = yes ] && [ $failed -eq 0 ] || exit 1
if [ $skipped -gt 0 ] && [ "${KEIRO_ALLOW_SKIP:-0}" != 1 ]; then
  echo "run-tests.sh: $skipped test(s) skipped; a skipped test has not passed" \
    "(KEIRO_ALLOW_SKIP=1 accepts skips on a machine without ibsim)" >&2
  exit 1
fi
