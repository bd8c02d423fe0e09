# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-acro (issue 5): balanced minimal routing (core/minimal), ACRO layers
# (core/acro) and the realization of per-hop VLs as SLs + SL2VL (core/vlmap).
libkeirocore_la_SOURCES += \
	core/minimal/dest_trees.h core/minimal/dest_trees.cc \
	core/minimal/balanced.h core/minimal/balanced.cc \
	core/minimal/forwarding_index.h core/minimal/forwarding_index.cc \
	core/acro/index_heap.h \
	core/acro/acro_weights.h core/acro/acro_weights.cc \
	core/acro/acro.h core/acro/acro.cc \
	core/acro/lash_layers.h core/acro/lash_layers.cc \
	core/acro/realize.h core/acro/realize.cc \
	core/acro/engine.h core/acro/engine.cc \
	core/vlmap/vl_demand.h \
	core/vlmap/path_dp.h core/vlmap/path_dp.cc \
	core/vlmap/turn_table.h core/vlmap/turn_table.cc \
	core/vlmap/vlmap.h core/vlmap/vlmap.cc

keiro_SOURCES += core/tool/cmd_acro.cc

tests_unit_tests_SOURCES += \
	tests/unit/acro_test_fabrics.h \
	tests/unit/minimal_balanced_test.cc \
	tests/unit/acro_weights_test.cc \
	tests/unit/acro_layers_test.cc \
	tests/unit/vlmap_test.cc \
	tests/unit/acro_engine_test.cc

# The reproduction of the paper's Figs. 5-7 (scripts/acro-compare.py runs it).
check_PROGRAMS += tests/bench/acro_bench
tests_bench_acro_bench_SOURCES = tests/bench/acro_bench.cc tests/bench/random_regular.h
tests_bench_acro_bench_LDADD = libkeirocore.la
dist_noinst_SCRIPTS += scripts/acro-compare.py scripts/acro-opensm.sh

# Through ibsim + the real OpenSM (tests/tests.mk sets up the .sh driver).
TESTS += tests/integration/acro-random.sh
dist_noinst_SCRIPTS += tests/integration/acro-random.sh
