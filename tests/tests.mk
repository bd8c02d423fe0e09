# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unit tests: one GoogleTest binary; each area adds its *_test.cc files to
# tests_unit_tests_SOURCES in its own fragment.
tests_unit_tests_LDADD = libkeirocore.la $(GTEST_LIBS) -lgtest_main
TESTS += tests/unit_tests

# The ibsim + OpenSM harness (tests/harness/). sa_path_sl asks the SA for
# path SLs in bulk (libibumad; under umad2sim against ibsim).
noinst_PROGRAMS = tests/harness/sa_path_sl
tests_harness_sa_path_sl_SOURCES = tests/harness/sa_path_sl.cc
tests_harness_sa_path_sl_LDADD = libkeirocore.la -libumad
dist_noinst_SCRIPTS += tests/harness/lib.sh tests/harness/run-fabric.sh \
	tests/harness/compare-engines.sh

# Integration tests run the real OpenSM with the plugin from this build tree
# (LD_LIBRARY_PATH=.libs, nothing installed) on ibsim fabrics. Each test runs
# in its own scratch directory under tests/integration/ of the build tree.
AM_TESTS_ENVIRONMENT = \
	KEIRO_BUILDDIR='$(abs_top_builddir)'; KEIRO_SRCDIR='$(abs_top_srcdir)'; \
	export KEIRO_BUILDDIR KEIRO_SRCDIR;
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = bash
INTEGRATION_TESTS = \
	tests/integration/nue-random.sh \
	tests/integration/nue-torus.sh \
	tests/integration/nue-fattree.sh \
	tests/integration/bad-option.sh \
	tests/integration/qos-off.sh \
	tests/integration/lmc.sh \
	tests/integration/reroute.sh
TESTS += $(INTEGRATION_TESTS)
dist_noinst_SCRIPTS += $(INTEGRATION_TESTS) tests/integration/common.sh

# The demo (scripts/demo.sh): the bundled demo fabric through ibsim + OpenSM
# with every keiro engine, one summary line each. `make demo` after `make`.
demo: all
	$(SHELL) $(top_srcdir)/scripts/demo.sh '$(abs_top_builddir)'
.PHONY: demo
dist_noinst_SCRIPTS += scripts/demo.sh scripts/build.sh scripts/install-deps.sh \
	scripts/bench-nue.sh run-demo.sh run-tests.sh .ci/run
# Imported by scripts/acro-compare.py and scripts/loren-repro.py.
EXTRA_DIST += scripts/keiro_bench.py
