# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue: Nue routing inside the complete channel dependency graph.
libkeirocore_la_SOURCES += core/nue/cdg.cc core/nue/cdg.h core/nue/channel_index.h core/nue/channel_load.cc \
	core/nue/channel_load.h core/nue/dijkstra.cc core/nue/dijkstra.h core/nue/engine.cc \
	core/nue/engine.h core/nue/escape_paths.cc core/nue/escape_paths.h core/nue/layer_routing.cc \
	core/nue/layer_routing.h core/nue/layers.cc core/nue/layers.h core/nue/nue.cc \
	core/nue/nue.h core/nue/omega.cc core/nue/omega.h core/nue/tree_balance.cc \
	core/nue/tree_balance.h
