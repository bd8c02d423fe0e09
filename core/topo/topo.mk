# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Topology generators (keiro topo) and the HDN total exchange (keiro hdn-exchange).
libkeirocore_la_SOURCES += \
	core/topo/rng.h core/topo/rng.cc \
	core/topo/gen_fabric.h core/topo/gen_fabric.cc \
	core/topo/graph_metrics.h core/topo/graph_metrics.cc \
	core/topo/families.h core/topo/redundancy.cc \
	core/topo/random_regular.cc core/topo/lrt.cc core/topo/torus.cc \
	core/topo/fat_tree.cc core/topo/dragonfly.cc core/topo/kautz.cc \
	core/topo/hdn.h core/topo/hdn.cc \
	core/topo/hdn_exchange.h core/topo/hdn_exchange.cc \
	core/topo/fail_links.h core/topo/fail_links.cc

keiro_SOURCES += core/tool/cmd_topo.cc core/tool/cmd_hdn.cc

tests_unit_tests_SOURCES += \
	tests/unit/topo_families_test.cc \
	tests/unit/topo_hdn_test.cc

# The bundled fabrics and the test that OpenSM brings each of them up on ibsim
# with the GUIDs and LIDs keiro reads offline (tests/integration/common.sh).
TESTS += tests/integration/topologies-up.sh
dist_noinst_SCRIPTS += tests/integration/topologies-up.sh ibsim-topologies/generate.sh
EXTRA_DIST += docs/topologies.md ibsim-topologies/README.md \
	ibsim-topologies/random-16sw.net ibsim-topologies/rrg-128-d8-h4.net \
	ibsim-topologies/torus-6x6x6-f1-h2.net ibsim-topologies/torus-4x4x4-f4-h1.net \
	ibsim-topologies/fattree-4ary-3tree.net ibsim-topologies/dragonfly-a4p2h2g5.net \
	ibsim-topologies/hdn-2x3x5-k1-s15.net \
	ibsim-topologies/demo-lrt-25sw.net ibsim-topologies/demo-lrt-25sw.layout
