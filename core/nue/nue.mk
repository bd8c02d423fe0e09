# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue and the generic graph algorithms it uses.
libkeirocore_la_SOURCES += \
	core/graph/graph.h core/graph/graph.cc \
	core/graph/bfs.h core/graph/switch_bfs.h \
	core/graph/indexed_heap.h \
	core/graph/convex_subgraph.h core/graph/convex_subgraph.cc \
	core/graph/betweenness.h core/graph/betweenness.cc \
	core/graph/spanning_tree.h core/graph/spanning_tree.cc \
	core/graph/partition.h core/graph/partition.cc \
	core/nue/nue.h core/nue/nue.cc \
	core/nue/layers.h core/nue/layers.cc \
	core/nue/omega.h core/nue/omega.cc \
	core/nue/cdg.h core/nue/channel_index.h core/nue/cdg.cc \
	core/nue/escape_paths.h core/nue/escape_paths.cc \
	core/nue/dijkstra.h core/nue/dijkstra.cc \
	core/nue/layer_routing.h core/nue/layer_routing.cc \
	core/nue/channel_load.h core/nue/channel_load.cc

tests_unit_tests_SOURCES += \
	tests/unit/nue_fabrics.h tests/unit/nue_fabrics.cc \
	tests/unit/graph_basic_test.cc \
	tests/unit/graph_centrality_test.cc \
	tests/unit/graph_partition_test.cc \
	tests/unit/nue_cdg_test.cc \
	tests/unit/nue_escape_test.cc \
	tests/unit/nue_dijkstra_test.cc \
	tests/unit/nue_layers_test.cc \
	tests/unit/nue_route_test.cc

# nue_bench: timing and route quality of keiro-nue on the issue's benchmark
# fabrics (rrg128, torus666; k = 1, 2, 4, 8). Built by 'make check', not run.
check_PROGRAMS += tests/nue_bench
tests_nue_bench_SOURCES = tests/unit/nue_bench.cc tests/unit/nue_fabrics.h tests/unit/nue_fabrics.cc
tests_nue_bench_LDADD = libkeirocore.la
