#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The independent oracle (tests/oracle/, docs/testing.md "The independent
# oracle"), offline (no ibsim, no OpenSM):
#  - its own unit tests on hand-built dump directories (test_oracle.py);
#  - the randomized differential of `keiro check --json` against it
#    (differential.py, seed 1 unless KEIRO_ORACLE_SEED is set): fabrics from
#    `keiro topo` routed by every keiro engine, mutated LFTs, SL2VL tables and
#    path SLs, fixed/mixed SLs, --pairs subsets, stale SLs (--stale-sls),
#    multicast cases; every case must agree and the targets (cases,
#    credit-loop cases, HCA-port-only and fixed-SL-only credit loops,
#    multicast cases, --pairs subsets that pass where all pairs fail, stale
#    SLs with drops and with credit loops) must be met.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
command -v python3 >/dev/null || { echo "ERROR: python3 is missing (scripts/install-deps.sh)"; exit 99; }
[ -x "$IT_KEIRO" ] || { echo "ERROR: $IT_KEIRO not built"; exit 99; }

python3 "$KEIRO_SRCDIR/tests/oracle/test_oracle.py" >"$IT_DIR/unit.out" 2>&1 ||
  it_fail "oracle unit tests: $(tail -n 20 "$IT_DIR/unit.out")"
it_log "oracle unit tests: $(grep -E '^(Ran|OK|FAILED)' "$IT_DIR/unit.out" | tr '\n' ' ')"

t0=$SECONDS
python3 "$KEIRO_SRCDIR/tests/oracle/differential.py" --keiro "$IT_KEIRO" --work "$IT_DIR/cases" \
  --seed "${KEIRO_ORACLE_SEED:-1}" --quiet --strict >"$IT_DIR/differential.out" 2>&1
rc=$?
grep -v '^known difference ' "$IT_DIR/differential.out" | sed "s/^/$IT_NAME: /"
[ $rc -eq 0 ] || it_fail "differential exit $rc after $((SECONDS - t0)) s (cases kept in $IT_DIR/cases)"
it_done
