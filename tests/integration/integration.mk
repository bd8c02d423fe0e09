# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Integration tests: the real OpenSM with the plugin from this build tree
# (LD_LIBRARY_PATH=.libs, nothing installed) on ibsim fabrics, each in its
# own scratch directory under tests/integration/ of the build tree.
AM_TESTS_ENVIRONMENT = \
	KEIRO_BUILDDIR='$(abs_top_builddir)'; KEIRO_SRCDIR='$(abs_top_srcdir)'; \
	export KEIRO_BUILDDIR KEIRO_SRCDIR;
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = bash
INTEGRATION_TESTS = tests/integration/topologies-up.sh \
	tests/integration/nue-random.sh tests/integration/nue-torus.sh \
	tests/integration/nue-fattree.sh tests/integration/bad-option.sh \
	tests/integration/qos-off.sh tests/integration/lmc.sh tests/integration/reroute.sh \
	tests/integration/check-torus.sh tests/integration/check-live.sh \
	tests/integration/acro-random.sh tests/integration/loren-lrt.sh \
	tests/integration/dl-fabrics.sh tests/integration/live-keiro.sh \
	tests/integration/fallback-staged.sh tests/integration/check-cli.sh \
	tests/integration/tool-cli.sh tests/integration/topo-convert.sh tests/integration/simulate-cli.sh \
	tests/integration/man-pages.sh \
	tests/integration/sim-deadlock.sh tests/integration/sim-figures.sh tests/integration/sim-papers-quick.sh tests/integration/fixed-sl.sh tests/integration/bench-scripts.sh \
	tests/integration/bench-report-smoke.sh tests/integration/reroute-sls.sh \
	tests/integration/soak-short.sh tests/integration/stale-sls.sh \
	tests/integration/soak-figures.sh tests/integration/reroute-figures.sh tests/integration/dump-sizes.sh \
	tests/integration/no-silent-skips.sh tests/integration/mcast-join-leave.sh \
	tests/integration/mcast-trees.sh tests/integration/oracle-differential.sh \
	tests/integration/real-fabrics.sh tests/integration/relabel-survey.sh \
	tests/integration/clos3-survey.sh \
	tests/integration/eval-scripts.sh \
	tests/integration/engine-figures.sh \
	tests/integration/mcast-figures-quick.sh \
	tests/golden/tables.sh tests/arch/include-graph.sh
TESTS += $(INTEGRATION_TESTS)
dist_noinst_SCRIPTS += $(INTEGRATION_TESTS) tests/integration/common.sh \
	tests/soak/soak.sh tests/soak/asan-plugin.sh
EXTRA_DIST += tests/golden/tables.sha256 tests/golden/drop-link.py \
	tests/integration/data/dl-irregular-64.net tests/oracle/oracle.py \
	tests/oracle/differential.py tests/oracle/test_oracle.py tests/arch/include_graph.py
