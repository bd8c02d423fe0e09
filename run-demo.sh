#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# One command on a fresh Debian 12 machine, as root: installs the
# dependencies, builds keiro (in ./build), and runs the demo
# (scripts/demo.sh): the bundled demo fabric in ibsim, the real OpenSM with
# keiro loaded, one summary line per engine. KEIRO_SKIP_DEPS=1 skips apt-get.
set -euo pipefail
cd "$(dirname "$0")"
[ "${KEIRO_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
scripts/build.sh
exec scripts/demo.sh "${KEIRO_BUILD_DIR:-$PWD/build}"
