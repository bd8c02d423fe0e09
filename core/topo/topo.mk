# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Topology generators (keiro topo) and the HDN total exchange (keiro hdn-exchange).
libkeirocore_la_SOURCES += core/topo/clos3.cc core/topo/director.cc core/topo/dragonfly.cc core/topo/fail_links.cc \
	core/topo/fail_links.h core/topo/families.h core/topo/fat_tree.cc core/topo/gen_fabric.cc \
	core/topo/gen_fabric.h core/topo/graph_metrics.cc core/topo/graph_metrics.h \
	core/topo/hdn.cc core/topo/hdn.h core/topo/hdn_exchange.cc core/topo/hdn_exchange.h \
	core/topo/kautz.cc core/topo/lrt.cc core/topo/net_list.cc core/topo/net_list.h \
	core/topo/random_regular.cc core/topo/redundancy.cc core/topo/rng.cc core/topo/rng.h \
	core/topo/torus.cc
