# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-dl (issue 6): Descending Layers routing. Reuses core/minimal (the
# destination trees) and core/vlmap (SLs + SL2VL) of keiro-acro.
libkeirocore_la_SOURCES += \
	core/dl/restriction.h core/dl/restriction.cc \
	core/dl/updown.h core/dl/updown.cc \
	core/dl/dest_search.h core/dl/dest_search.cc \
	core/dl/path_select.h core/dl/path_select.cc \
	core/dl/dl.h core/dl/dl.cc \
	core/dl/engine.h core/dl/engine.cc

tests_unit_tests_SOURCES += \
	tests/unit/dl_test_fabrics.h \
	tests/unit/dl_restriction_test.cc \
	tests/unit/dl_search_test.cc \
	tests/unit/dl_engine_test.cc \
	tests/unit/dl_fabrics_test.cc

# Through ibsim + the real OpenSM (tests/tests.mk sets up the .sh driver).
TESTS += tests/integration/dl-fabrics.sh
dist_noinst_SCRIPTS += tests/integration/dl-fabrics.sh
EXTRA_DIST += tests/integration/data/dl-irregular-64.net
