#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Builds keiro with AddressSanitizer + UndefinedBehaviorSanitizer out of tree
# in KEIRO_ASAN_DIR (default: build-asan), separate from the normal build:
# configure (--enable-debug, -O1 -g1 -gz -fsanitize=address,undefined) on the
# first call, then make the targets given (default: everything), e.g.
#   scripts/build-asan.sh tests/unit_tests tests/fuzz_readers libkeiro.la keiro
# The sanitized libkeiro.so (KEIRO_ASAN_DIR/.libs) needs the sanitizer runtime
# preloaded into OpenSM: tests/soak/asan-plugin.sh does that (docs/deployment.md).
# Environment: KEIRO_ASAN_DIR, KEIRO_JOBS (default: cores); CXX is passed to
# configure when set (e.g. CXX="ccache g++").
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
asan=${KEIRO_ASAN_DIR:-$src/build-asan}
jobs=${KEIRO_JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$src"
[ -x configure ] || autoreconf -fi
mkdir -p "$asan"
if [ ! -f "$asan/Makefile" ]; then
  (cd "$asan" && "$src/configure" --enable-debug ${CXX:+CXX="$CXX"} \
     CXXFLAGS="-O1 -g1 -gz -fsanitize=address,undefined -fno-omit-frame-pointer" \
     LDFLAGS="-fsanitize=address,undefined")
fi
make -C "$asan" -j"$jobs" "$@"
