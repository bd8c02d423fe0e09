# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Integration tests: the real OpenSM with the plugin from this build tree
# (LD_LIBRARY_PATH=.libs, nothing installed) on ibsim fabrics, each in its
# own scratch directory under tests/integration/ of the build tree.
AM_TESTS_ENVIRONMENT = \
	KEIRO_BUILDDIR='$(abs_top_builddir)'; KEIRO_SRCDIR='$(abs_top_srcdir)'; \
	export KEIRO_BUILDDIR KEIRO_SRCDIR;
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = bash
INTEGRATION_TESTS = tests/integration/topologies_up.sh \
	tests/integration/nue_random.sh tests/integration/nue_torus.sh \
	tests/integration/nue_fattree.sh tests/integration/bad_option.sh \
	tests/integration/qos_off.sh tests/integration/lmc.sh tests/integration/reroute.sh \
	tests/integration/check_torus.sh tests/integration/check_live.sh \
	tests/integration/acro_random.sh tests/integration/loren_lrt.sh \
	tests/integration/dl_fabrics.sh
TESTS += $(INTEGRATION_TESTS)
dist_noinst_SCRIPTS += $(INTEGRATION_TESTS) tests/integration/common.sh
EXTRA_DIST += tests/integration/data/dl-irregular-64.net
