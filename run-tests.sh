#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# One command on a fresh Debian 12 machine, as root: installs the
# dependencies, builds keiro (in ./build), runs `make check` (unit tests and
# the integration tests through ibsim + the real OpenSM), then builds the unit
# tests with AddressSanitizer + UndefinedBehaviorSanitizer (in ./build-asan)
# and runs them. KEIRO_SKIP_DEPS=1 skips apt-get.
set -euo pipefail
cd "$(dirname "$0")"
src=$PWD
jobs=${KEIRO_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "${KEIRO_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
scripts/build.sh

build=${KEIRO_BUILD_DIR:-$src/build}
echo "== make check ($build)"
if ! make -C "$build" -j"$jobs" check; then
  for f in "$build"/tests/*.log "$build"/tests/*/*.log; do
    [ -f "$f" ] && grep -qE '^(FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "---- $f"; tail -n 40 "$f"; }
  done
  exit 1
fi

asan=${KEIRO_ASAN_DIR:-$src/build-asan}
echo "== unit tests with AddressSanitizer + UndefinedBehaviorSanitizer ($asan)"
mkdir -p "$asan"
if [ ! -f "$asan/Makefile" ]; then
  (cd "$asan" && "$src/configure" \
     CXXFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
     LDFLAGS="-fsanitize=address,undefined")
fi
make -C "$asan" -j"$jobs" tests/unit_tests
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$asan/tests/unit_tests" --gtest_brief=1
echo "== all tests passed"
