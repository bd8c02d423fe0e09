#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Regenerates the bundled fabrics with keiro topo (same seeds, same files).
# usage: ibsim-topologies/generate.sh [KEIRO]   (default: ./keiro of a build tree)
set -eu
keiro=${1:-./keiro}
dir=$(cd "$(dirname "$0")" && pwd)
gen() {
  out=$1
  shift
  "$keiro" topo "$@" -o "$dir/$out" >/dev/null
}
gen random-16sw.net           random 16 4 --hcas-per-switch 2 --seed 1
gen rrg-128-d8-h4.net         random 128 8 --hcas-per-switch 4 --seed 1
gen torus-6x6x6-f1-h2.net     torus 6x6x6 --hcas-per-switch 2 --fail-links 0.01 --seed 1
gen torus-4x4x4-f4-h1.net     torus 4x4x4 --hcas-per-switch 1 --fail-links 0.02 --seed 1
gen fattree-4ary-3tree.net    fattree 4 3
gen dragonfly-a4p2h2g5.net    dragonfly 4 2 2 5
gen hdn-2x3x5-k1-s15.net      hdn --base 2x3x5 --k 1 --S 15
gen demo-lrt-25sw.net         lrt 25 4 2 --hcas-per-switch 3 --seed 1
