#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Configures and builds keiro out of tree in BUILDDIR (default: build).
# Extra arguments go to configure. Unless CXXFLAGS is set, the test build
# keeps line tables only, compressed (-g1 -gz): backtraces and sanitizer
# reports still name file:line, and the build tree stays a few hundred MB
# (CI machines have run out of disk with full -g).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${KEIRO_BUILD_DIR:-$src/build}
jobs=${KEIRO_JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$src"
[ -x configure ] || autoreconf -fi
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$src/configure" --enable-werror --enable-debug \
  CXXFLAGS="${CXXFLAGS:--O2 -g1 -gz}" "$@"
make -j"$jobs"
