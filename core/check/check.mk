# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Verification of routing tables (self-check, keiro check), metrics, OpenSM's
# dump formats and keiro's path-SL file, and the route/check/analyze
# subcommands of the keiro tool.
libkeirocore_la_SOURCES += \
	core/check/verify.h core/check/verify.cc \
	core/check/paths.h core/check/paths.cc \
	core/io/dumps.h core/io/dumps.cc \
	core/io/path_sl_file.h core/io/path_sl_file.cc \
	core/io/dump_dir.h core/io/dump_dir.cc \
	core/io/diag_output.h core/io/diag_output.cc \
	core/metrics/distances.h core/metrics/distances.cc \
	core/metrics/path_stats.h core/metrics/path_stats.cc \
	core/metrics/traffic.h core/metrics/traffic.cc \
	core/metrics/report.h core/metrics/report.cc \
	core/metrics/svg.h core/metrics/svg.cc

keiro_SOURCES += core/tool/cmd_route.cc core/tool/cmd_check.cc core/tool/cmd_analyze.cc

tests_unit_tests_SOURCES += \
	tests/unit/check_test_fabrics.h \
	tests/unit/check_verify_test.cc \
	tests/unit/check_paths_test.cc \
	tests/unit/dumps_test.cc \
	tests/unit/dumps_diag_test.cc \
	tests/unit/metrics_test.cc

EXTRA_DIST += \
	tests/unit/data/ring5-minhop/README.md \
	tests/unit/data/ring5-minhop/ring5.net \
	tests/unit/data/ring5-minhop/opensm-lfts.dump \
	tests/unit/data/ring5-minhop/opensm-sl2vl.dump \
	tests/unit/data/ring5-minhop/opensm-subnet.lst \
	docs/check.md

# Integration tests of keiro check / analyze on OpenSM's engines (ibsim).
CHECK_INTEGRATION_TESTS = \
	tests/integration/check-torus.sh \
	tests/integration/check-live.sh
TESTS += $(CHECK_INTEGRATION_TESTS)
dist_noinst_SCRIPTS += $(CHECK_INTEGRATION_TESTS)
