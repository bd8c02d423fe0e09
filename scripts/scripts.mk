# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Set-up, demo and benchmark scripts. The demo (scripts/demo.sh): the bundled
# demo fabric through ibsim + OpenSM with every keiro engine, one summary
# line each; `make demo` after `make`.
demo: all
	$(SHELL) $(top_srcdir)/scripts/demo.sh '$(abs_top_builddir)'
.PHONY: demo
dist_noinst_SCRIPTS += scripts/demo.sh scripts/build.sh scripts/build-asan.sh scripts/install-deps.sh \
	scripts/check-format.sh scripts/bench-nue.sh scripts/bench-balance.sh scripts/bench-scale.sh \
	scripts/bench-report.sh scripts/bench-lib.sh \
	scripts/acro-compare.py scripts/acro-opensm.sh scripts/loren-repro.py scripts/loren-ibsim.sh \
	scripts/sim-papers.sh scripts/fail-in-place.sh scripts/mcast-survey.sh scripts/mcast-figures.sh scripts/package-test.sh tests/package/installed-plugin.sh tests/package/deb-depends.sh run-demo.sh \
	run-tests.sh .ci/run
EXTRA_DIST += scripts/keiro_bench.py scripts/bench_table.py
dist_noinst_SCRIPTS += scripts/relabel-survey.py scripts/engine-figures.py
dist_noinst_SCRIPTS += scripts/sim-figures.sh scripts/sim-vs-booksim.sh
EXTRA_DIST += scripts/sim_figures.py
dist_noinst_SCRIPTS += scripts/soak-figures.sh scripts/rerouting-figures.sh scripts/dump-sizes.sh
