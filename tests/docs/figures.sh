#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every measured figure in README.md and docs/*.md comes from a script
# (docs/testing.md, "Figures come from scripts"). tests/docs/figures.py
# --self-test first runs the checker on synthetic documents with known
# verdicts (a bare figure, a block without its script or commit, a script no
# test runs, an unclosed block, a dangling `from:` ...), so a checker that
# stops finding violations fails here; then it checks the real documents.
# Exit: 0 pass, 1 a violation or a wrong self-test verdict, 99 no python3.
src=${KEIRO_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v python3 >/dev/null || { echo "ERROR: figures: no python3"; exit 99; }
python3 "$src/tests/docs/figures.py" --self-test || { echo "FAIL: figures.py --self-test"; exit 1; }
python3 "$src/tests/docs/figures.py" "$src" || { echo "FAIL: a figure in the docs without its script"; exit 1; }
echo "PASS: figures"
