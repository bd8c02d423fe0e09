# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-loren (issue 7): LOREN's layout file, compact tables (Algorithm 1)
# and forwarding rule (Sect. V), made deadlock free by ACRO (core/acro) and
# the VL realization (core/vlmap).
libkeirocore_la_SOURCES += \
	core/loren/layout.h core/loren/layout.cc \
	core/loren/tables.h core/loren/tables.cc \
	core/loren/forward.h core/loren/forward.cc \
	core/loren/loren.h core/loren/loren.cc \
	core/loren/engine.h core/loren/engine.cc

tests_unit_tests_SOURCES += \
	tests/unit/loren_test_fabrics.h \
	tests/unit/loren_layout_test.cc \
	tests/unit/loren_tables_test.cc \
	tests/unit/loren_forward_test.cc \
	tests/unit/loren_engine_test.cc

# The reproduction of the paper's Figs. 5, 6, 11 and 12 and the ibsim
# fabrics (scripts/loren-repro.py runs it and writes docs/loren-evaluation.md).
check_PROGRAMS += tests/bench/loren_bench
tests_bench_loren_bench_SOURCES = tests/bench/loren_bench.cc tests/bench/loren_lrt.h
tests_bench_loren_bench_LDADD = libkeirocore.la
dist_noinst_SCRIPTS += scripts/loren-repro.py scripts/loren-ibsim.sh

# ibsim + OpenSM: LRT(64,4,2) at t_max 18 checked, and the one-ERROR-line
# fallbacks (bad layout, t_max too small). (TESTS directly: tests/tests.mk
# defines INTEGRATION_TESTS after this fragment is included.)
TESTS += tests/integration/loren-lrt.sh
dist_noinst_SCRIPTS += tests/integration/loren-lrt.sh
