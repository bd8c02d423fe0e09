# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The documentation (shipped in the source tarball).
EXTRA_DIST += docs/acro-evaluation.md docs/acro-layers.svg docs/acro-opensm.md docs/acro.md \
	docs/analyze-compare-example.svg docs/architecture.md docs/check.md \
	docs/deployment.md docs/dl.md docs/testing.md docs/loren-data/engine-256.tsv \
	docs/loren-data/engine-64.tsv docs/loren-data/fig11-256.tsv \
	docs/loren-data/fig11-64.tsv docs/loren-data/fig5-256.tsv \
	docs/loren-data/fig5-64.tsv docs/loren-data/fig6-256.tsv \
	docs/loren-data/fig6-64.tsv docs/loren-evaluation.md docs/loren-fig11-256.svg \
	docs/loren-fig11-64.svg docs/loren-fig12-256.svg docs/loren-fig12-64.svg \
	docs/loren-fig5-256.svg docs/loren-fig5-64.svg docs/loren-fig6.svg docs/loren.md \
	docs/nue.md docs/simulation.md docs/topologies.md
