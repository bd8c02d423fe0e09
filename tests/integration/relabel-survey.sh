#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/relabel-survey.py, offline: on a 4-ary 3-tree in four labellings
# (as written, reversed, --relabel 1 and 2) and on a director fabric, every
# labelling routes and passes keiro's check, and the labellings are the same
# fabric: the same switch and HCA counts (keiro topo show) and, with
# keiro-acro, the same average path length and the same max EFI (k^3 - k = 60
# on the fat tree, the leaf bound keiro-acro reaches there). Needs python3,
# no simulator.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
mkdir -p "$IT_DIR"
survey="$KEIRO_SRCDIR/scripts/relabel-survey.py"

# check_survey JSON ROWS EFI: ROWS rows, every one routed and checked, one
# avg hops value, max EFI EFI in every row (any value when EFI is empty).
check_survey() {
  python3 - "$1" "$2" "$3" <<'PY' || it_fail "$(basename "$1"): $(cat "$1.why")"
import json, sys
rows = json.load(open(sys.argv[1]))
why = []
if len(rows) != int(sys.argv[2]):
    why.append("%d rows, want %s" % (len(rows), sys.argv[2]))
for r in rows:
    if not r["ok"]:
        why.append("%s not routed: %s" % (r["labelling"], r.get("error", "check failed")))
good = [r for r in rows if r["ok"]]
if len({round(r["avg_hops"], 6) for r in good}) > 1:
    why.append("avg hops differ: %s" % sorted({r["avg_hops"] for r in good}))
if sys.argv[3] and any(r["max_efi"] != int(sys.argv[3]) for r in good):
    why.append("max EFI %s, want %s" % ([r["max_efi"] for r in good], sys.argv[3]))
open(sys.argv[1] + ".why", "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
}

if ! python3 "$survey" --keiro "$IT_KEIRO" --engines acro --vls 1 --seeds 1,2 \
    --json "$IT_DIR/fattree.json" "fattree 4 3 --port-split hca-high" >"$IT_DIR/fattree.txt" 2>&1; then
  it_fail "relabel-survey.py failed on fattree 4 3: $(tail -n 3 "$IT_DIR/fattree.txt")"
else
  check_survey "$IT_DIR/fattree.json" 4 60
  grep -q 'spread max/min: max EFI 1.000, avg hops 1.000' "$IT_DIR/fattree.txt" ||
    it_fail "fattree 4 3: no spread line of 1.000 in the survey's table"
fi
if ! python3 "$survey" --keiro "$IT_KEIRO" --engines dl --vls 8 --seeds 3 \
    --json "$IT_DIR/director.json" "director 1 12 --uplinks 12" >"$IT_DIR/director.txt" 2>&1; then
  it_fail "relabel-survey.py failed on director 1 12: $(tail -n 3 "$IT_DIR/director.txt")"
else
  check_survey "$IT_DIR/director.json" 3 ""
fi
it_log "$(grep -c '^  [a-z]' "$IT_DIR/fattree.txt" "$IT_DIR/director.txt" | tr '\n' ' ')rows"
it_done
