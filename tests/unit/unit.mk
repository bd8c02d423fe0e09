# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The unit tests: one GoogleTest binary over the core library (and the
# OpenSM-free part of the plugin).
check_PROGRAMS += tests/unit_tests
tests_unit_tests_SOURCES += tests/unit/acro_engine_test.cc tests/unit/acro_layers_test.cc \
	tests/unit/acro_weights_test.cc tests/unit/bench_fabrics_test.cc tests/unit/check_paths_test.cc \
	tests/unit/check_verify_test.cc tests/unit/compact_tables_test.cc tests/unit/fixed_sl_test.cc tests/unit/dl_engine_test.cc tests/unit/dl_fabrics_test.cc \
	tests/unit/dl_restriction_test.cc tests/unit/dl_search_test.cc tests/unit/dl_fattree_test.cc \
	tests/unit/dumps_diag_test.cc tests/unit/dumps_test.cc tests/unit/engine_contract_test.cc \
	tests/unit/engine_stage_test.cc tests/unit/reroute_test.cc tests/unit/incremental_classes_test.cc tests/unit/fabric_test.cc tests/unit/fabrics.cc \
	tests/unit/fabrics.h tests/unit/fabrics_test.cc tests/unit/graph_basic_test.cc tests/unit/graph_dynamic_dag_test.cc \
	tests/unit/graph_centrality_test.cc tests/unit/graph_partition_test.cc \
	tests/unit/io_ports_report_test.cc tests/unit/io_topology_test.cc tests/unit/loren_engine_test.cc \
	tests/unit/loren_forward_test.cc tests/unit/loren_layout_test.cc \
	tests/unit/loren_tables_test.cc tests/unit/mcast_test.cc tests/unit/metrics_test.cc \
	tests/unit/minimal_balanced_test.cc tests/unit/nue_cdg_test.cc \
	tests/unit/nue_dijkstra_test.cc tests/unit/nue_escape_test.cc \
	tests/unit/director_balance_test.cc tests/unit/nue_labelling_test.cc tests/unit/nue_layers_test.cc tests/unit/nue_route_test.cc tests/unit/toy_engine_test.cc tests/unit/options_test.cc \
	tests/unit/oracles.cc tests/unit/oracles.h tests/unit/plugin_routed_state_test.cc \
	tests/unit/reader_fuzz_regress_test.cc tests/unit/sl_spread_test.cc \
	tests/unit/plugin_vl_cap_test.cc tests/unit/real_fabrics_test.cc tests/unit/routing_test.cc tests/unit/sim_mcast_test.cc \
	tests/unit/sim_network_test.cc \
	tests/unit/topo_families_test.cc tests/unit/topo_hdn_test.cc tests/unit/topo_relabel_test.cc tests/unit/vlmap_test.cc \
	plugin/routed_state.cc
tests_unit_tests_SOURCES += tests/unit/check_differential_test.cc tests/unit/labelling_property_test.cc
tests_unit_tests_LDADD = libkeirocore.la $(GTEST_LIBS) -lgtest_main
TESTS += tests/unit_tests
EXTRA_DIST += tests/unit/data/ring5-minhop/README.md tests/unit/data/ring5-minhop/ring5.net \
	tests/unit/data/ring5-minhop/opensm-lfts.dump tests/unit/data/ring5-minhop/opensm-sl2vl.dump \
	tests/unit/data/ring5-minhop/opensm-subnet.lst
EXTRA_DIST += tests/unit/data/mcast-torus4x4/README.md tests/unit/data/mcast-torus4x4/opensm-subnet.lst \
	tests/unit/data/mcast-torus4x4/opensm-lfts.dump tests/unit/data/mcast-torus4x4/opensm-sl2vl.dump \
	tests/unit/data/mcast-torus4x4/keiro-path-sl.dump tests/unit/data/mcast-torus4x4/opensm.mcfdbs \
	tests/unit/data/mcast-torus4x4/opensm-sa.dump
EXTRA_DIST += tests/data/real/README.md tests/data/real/psmn-x5.topo tests/data/real/avakas-12800.ibnd
