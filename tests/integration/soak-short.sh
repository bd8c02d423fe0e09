#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The short variant of the soak test (tests/soak/soak.sh, issue 16 item 4):
# every keiro engine in its own OpenSM on the 64-switch LRT, 4 heavy sweeps
# each after the first (two link flaps: Unlink, then ReLink, of a
# switch-to-switch link drawn with seed 1), 16 sweeps in all. After every
# sweep: OpenSM alive, the engine's tables installed (no fallback), no keiro
# error, and the installed tables pass keiro check; OpenSM's resident memory
# at most 2 MB above its value after the first 2 sweeps. The 200-sweep run
# is `tests/soak/soak.sh -o DIR` (docs/deployment.md).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
[ -x "$IT_KEIRO" ] || { echo "FAIL: keiro not built"; exit 99; }
mkdir -p "$IT_DIR"
for engine in keiro-nue keiro-acro keiro-dl keiro-loren; do
  if "$KEIRO_SRCDIR/tests/soak/soak.sh" -o "$IT_DIR/$engine" -e "$engine" -n 4 -W 2 -r 2 \
       >"$IT_DIR/$engine.out" 2>&1; then
    it_log "$engine: $(sed -n 1p "$IT_DIR/$engine/summary.txt" | sed 's/^soak: //')"
    it_log "$engine: $(sed -n 2p "$IT_DIR/$engine/summary.txt" | sed 's/^soak: //')"
  else
    it_fail "$engine: soak failed:"
    tail -n 20 "$IT_DIR/$engine.out"
  fi
done
it_done
