# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The documentation's own test: every measured figure comes from a script.
TESTS += tests/docs/figures.sh
dist_noinst_SCRIPTS += tests/docs/figures.sh tests/docs/figures.py
