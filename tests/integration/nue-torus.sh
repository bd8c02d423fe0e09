#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue through the real OpenSM on the bundled 4x4x4 3D torus with 4 failed
# links, k = 1, 2, 4, 8 VLs; the installed tables must pass keiro check.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
it_route_nue "$(it_fabric torus-4x4x4-f4-h1.net)" 1 2 4 8
it_done
