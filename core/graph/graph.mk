# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Generic graph algorithms (BFS, heaps, convex subgraph, betweenness, spanning trees,
# METIS partitioning) on dense ids.
libkeirocore_la_SOURCES += core/graph/betweenness.cc core/graph/betweenness.h core/graph/bfs.h \
	core/graph/convex_subgraph.cc core/graph/convex_subgraph.h core/graph/dynamic_dag.cc \
	core/graph/dynamic_dag.h core/graph/graph.cc \
	core/graph/graph.h core/graph/indexed_heap.h core/graph/partition.cc \
	core/graph/partition.h core/graph/spanning_tree.cc core/graph/spanning_tree.h
