# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The realization of per-hop VLs as path SLs + SL2VL tables.
libkeirocore_la_SOURCES += core/vlmap/dest_dp.cc core/vlmap/dest_dp.h core/vlmap/path_dp.cc core/vlmap/path_dp.h core/vlmap/turn_table.cc \
	core/vlmap/turn_table.h core/vlmap/vl_demand.h core/vlmap/vlmap.cc core/vlmap/vlmap.h core/vlmap/vlmap_options.h \
	core/vlmap/tree_realize.cc core/vlmap/tree_realize.h \
	core/vlmap/turn_levels.cc core/vlmap/turn_levels.h
