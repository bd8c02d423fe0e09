#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Installs everything keiro needs to build, test and run its demo on Debian 12
# (bookworm). Run as root.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
# build: compiler, autotools, OpenSM headers, METIS (keiro-nue), GoogleTest
# run/test: OpenSM 3.3.23, ibsim + umad2sim (simulated fabrics), libibumad
#           (the harness's SA client), infiniband-diags (saquery, ibroute, ...)
# scripts: python3 (JSON fields in tests/harness/lib.sh, the benchmark scripts,
#          the man pages: scripts/gen-man.py)
# packages: debhelper, lintian, dpkg-dev, fakeroot (scripts/package-test.sh),
#           man-db, groff-base (man pages checked in tests)
apt-get install -y --no-install-recommends \
  ca-certificates g++ make autoconf automake libtool pkg-config \
  libopensm-dev libibumad-dev libmetis-dev libgtest-dev \
  opensm ibsim-utils libumad2sim0 infiniband-diags \
  clang-format python3 \
  debhelper lintian dpkg-dev fakeroot man-db groff-base
