#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue through the real OpenSM on the bundled 4-ary 3-tree, k = 1, 2, 4, 8
# VLs; the installed tables must pass keiro check.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
it_route_nue "$(it_fabric fattree-4ary-3tree.net)" 1 2 4 8
it_done
