#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The architecture test's checker, offline: tests/arch/include_graph.py
# --self-test runs it on synthetic trees (a clean one, a component cycle, a
# folder cycle, forbidden edges, an engine called and an option read outside
# their places) and compares its verdicts with the known ones, so a checker
# that stops finding violations (or finds them in the clean tree) fails here.
# Then the real tree: no violation of the rules of docs/architecture.md
# ("Include direction", "Layering rules").
# Exit: 0 pass, 1 a wrong verdict, 99 no python3.
src=${KEIRO_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v python3 >/dev/null || { echo "ERROR: include-graph: no python3"; exit 99; }
python3 "$src/tests/arch/include_graph.py" --self-test || { echo "FAIL: include_graph.py --self-test"; exit 1; }
python3 "$src/tests/arch/include_graph.py" "$src" || { echo "FAIL: the tree breaks the layering rules"; exit 1; }
echo "PASS: include-graph"
