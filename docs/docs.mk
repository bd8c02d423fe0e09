# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The documentation (shipped in the source tarball).
EXTRA_DIST += docs/acro-evaluation.md docs/acro-layers.svg docs/acro-opensm.md docs/acro.md \
	docs/analyze-compare-example.svg docs/architecture.md docs/check.md \
	docs/deployment.md docs/dl.md docs/fixed-sl.md docs/multicast.md docs/performance.md docs/rerouting.md docs/testing.md \
	docs/loren-data/engine-256.tsv \
	docs/loren-data/engine-64.tsv docs/loren-data/fig11-256.tsv \
	docs/loren-data/fig11-64.tsv docs/loren-data/fig5-256.tsv \
	docs/loren-data/fig5-64.tsv docs/loren-data/fig6-256.tsv \
	docs/loren-data/fig6-64.tsv docs/loren-evaluation.md docs/loren-fig11-256.svg \
	docs/loren-fig11-64.svg docs/loren-fig12-256.svg docs/loren-fig12-64.svg \
	docs/loren-fig5-256.svg docs/loren-fig5-64.svg docs/loren-fig6.svg docs/loren.md \
	docs/nue.md docs/simulation.md docs/topologies.md docs/relabelling.md docs/balance.md \
	docs/benchmarks.md docs/img/bench-report-gamma.svg docs/img/bench-report-alltoall.svg \
	docs/sim-papers.md docs/img/sim-dl-irr1-latency.svg docs/img/sim-dl-irr1-throughput.svg \
	docs/img/sim-dl-table6.svg docs/img/sim-loren-ib-reverse-latency.svg \
	docs/img/sim-loren-ib-reverse-throughput.svg docs/img/sim-loren-ib-shuffle-latency.svg \
	docs/img/sim-loren-ib-shuffle-throughput.svg docs/img/sim-loren-ib-transpose-latency.svg \
	docs/img/sim-loren-ib-transpose-throughput.svg docs/img/sim-loren-ib-uniform-latency.svg \
	docs/img/sim-loren-ib-uniform-throughput.svg docs/img/sim-loren-paper-reverse-latency.svg \
	docs/img/sim-loren-paper-reverse-throughput.svg \
	docs/img/sim-loren-paper-shuffle-latency.svg \
	docs/img/sim-loren-paper-shuffle-throughput.svg \
	docs/img/sim-loren-paper-transpose-latency.svg \
	docs/img/sim-loren-paper-transpose-throughput.svg \
	docs/img/sim-loren-paper-uniform-latency.svg \
	docs/img/sim-loren-paper-uniform-throughput.svg docs/img/sim-nue-random64.svg \
	docs/img/sim-nue-torus443.svg

# Man pages, generated from docs/man/*.in and what the built tool says
# (scripts/gen-man.py: every subcommand's --help, every plugin option key).
man_MANS = docs/man/keiro.1 docs/man/keiro-plugin.8
docs/man/keiro.1: docs/man/keiro.1.in scripts/gen-man.py keiro$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) docs/man && \
	  python3 $(srcdir)/scripts/gen-man.py ./keiro$(EXEEXT) $(srcdir)/docs/man/keiro.1.in $@
docs/man/keiro-plugin.8: docs/man/keiro-plugin.8.in scripts/gen-man.py keiro$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) docs/man && \
	  python3 $(srcdir)/scripts/gen-man.py ./keiro$(EXEEXT) $(srcdir)/docs/man/keiro-plugin.8.in $@
CLEANFILES += $(man_MANS)
EXTRA_DIST += docs/man/keiro.1.in docs/man/keiro-plugin.8.in scripts/gen-man.py

# bash completion for the keiro tool.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = tool/bash-completion/keiro

# The opensm.conf block the plugin package ships as an example.
EXTRA_DIST += docs/examples/opensm-keiro.conf
