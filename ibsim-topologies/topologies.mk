# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The bundled ibsim fabrics (docs/topologies.md); generate.sh rebuilds them
# with keiro topo.
dist_noinst_SCRIPTS += ibsim-topologies/generate.sh
EXTRA_DIST += ibsim-topologies/README.md ibsim-topologies/random-16sw.net \
	ibsim-topologies/rrg-128-d8-h4.net ibsim-topologies/torus-6x6x6-f1-h2.net \
	ibsim-topologies/torus-4x4x4-f4-h1.net ibsim-topologies/fattree-4ary-3tree.net \
	ibsim-topologies/dragonfly-a4p2h2g5.net ibsim-topologies/hdn-2x3x5-k1-s15.net \
	ibsim-topologies/demo-lrt-25sw.net ibsim-topologies/demo-lrt-25sw.layout
