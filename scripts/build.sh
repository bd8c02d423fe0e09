#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Configures and builds keiro out of tree in BUILDDIR (default: build).
# Extra arguments go to configure.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${KEIRO_BUILD_DIR:-$src/build}
jobs=${KEIRO_JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$src"
[ -x configure ] || autoreconf -fi
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$src/configure" --enable-werror --enable-debug "$@"
make -j"$jobs"
