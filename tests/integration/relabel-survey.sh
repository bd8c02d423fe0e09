#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/relabel-survey.py, offline: on a 4-ary 3-tree in four labellings
# (as written, reversed, --relabel 1 and 2) and on a director fabric, every
# labelling routes and passes keiro's check, and the labellings are the same
# fabric: the same switch and HCA counts (keiro topo show) and, with
# keiro-acro, the same average path length and the same max EFI (k^3 - k = 60
# on the fat tree, the leaf bound keiro-acro reaches there). Then the page's
# survey in its quick mode (--page --quick --md, and --doc on a copy of
# docs/relabelling.md): the summary names the script and the commit,
# keiro-acro's rows on the 4-ary 3-tree show 60 in every labelling (spread
# 1.000), the as-written cells of keiro-nue (fat tree) and keiro-loren (LRT,
# with its layout) equal `keiro route` run here, and --doc replaces only the
# page's relabel-survey block. Then --fattree-check --quick (issue 32's
# done-when, on the 4-ary 3-tree): exit 0 with no bound missed, four rows
# of nine labellings, keiro-acro at 60 in all nine (spread 1.000),
# keiro-dl at most 68 and keiro-nue at most 84 (1.40 x 60) in every one,
# and --doc writes only the relabel-fattree block.
# The balance survey in its quick mode
# (--page --balance --quick): the real X5 cluster and a small director fabric
# all routed, on X5 every engine's max/avg EFI within 1.2x of the best, and
# --doc replaces only the relabel-survey-balance block. Every routing's
# self-check verdict is also the independent oracle's, on its tables. Needs
# python3, no simulator.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
survey="$KEIRO_SRCDIR/scripts/relabel-survey.py"
# every routing's tables, for the independent oracle at the end
export KEIRO_SURVEY_DUMPS=$IT_DIR/tables

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

# The page's survey, quick.
md=$IT_DIR/page.md
page=$IT_DIR/relabelling.md
cp "$KEIRO_SRCDIR/docs/relabelling.md" "$page"
if ! python3 "$survey" --keiro "$IT_KEIRO" --page --quick --md "$md" --doc "$page" \
    >"$IT_DIR/page.txt" 2>&1; then
  it_fail "relabel-survey.py --page --quick failed: $(tail -n 3 "$IT_DIR/page.txt")"
fi
commit=$(git -C "$KEIRO_SRCDIR" rev-parse --short HEAD 2>/dev/null) || commit=unknown
head -n 1 "$md" | grep -qF "Written by \`scripts/relabel-survey.py --page --quick\` at commit $commit " ||
  it_fail "summary header does not name the script and commit $commit: $(head -n 1 "$md")"
# cell FABRIC ENGINE VLS N: the Nth cell of that summary row.
cell() {
  awk -F' [|] ' -v f="| \`$1\`" -v e="$2" -v v="$3" -v n="$4" \
    '$1 == f && $2 == e && $3 == v { sub(/ [|]$/, "", $NF); print $n; exit }' "$md"
}
for v in 1 8; do
  for n in 5 6 7; do
    [ "$(cell "fattree 4 3" keiro-acro $v $n)" = 60 ] ||
      it_fail "keiro-acro max_vls=$v: cell $n '$(cell "fattree 4 3" keiro-acro $v $n)', want 60"
  done
  case $(cell "fattree 4 3" keiro-acro $v 8) in 1.000*) ;; *) it_fail "keiro-acro max_vls=$v: spread not 1.000" ;; esac
done
# efi_here ENGINE NET [OPT...]: keiro route's max EFI at max_vls=8.
efi_here() {
  local e=$1 net=$2
  shift 2
  "$IT_KEIRO" route --topology "$net" --engine "$e" --opt max_vls=8 "$@" --json 2>/dev/null |
    python3 -c 'import json, sys; print("{:,}".format(json.load(sys.stdin)["efi"]["max"]))'
}
"$IT_KEIRO" topo fattree 4 3 -o "$IT_DIR/ft.net" >/dev/null 2>&1
"$IT_KEIRO" topo lrt 16 4 2 --hcas-per-switch 1 --seed 1 -o "$IT_DIR/lrt.net" >/dev/null 2>&1
want=$(efi_here nue "$IT_DIR/ft.net") got=$(cell "fattree 4 3" keiro-nue 8 5)
[ -n "$want" ] && [ "$got" = "$want" ] || it_fail "keiro-nue as-written: summary '$got', keiro route '$want'"
want=$(efi_here loren "$IT_DIR/lrt.net" --opt loren_layout="$IT_DIR/lrt.layout")
got=$(cell "lrt 16 4 2 --hcas-per-switch 1 --seed 1" keiro-loren 8 5)
[ -n "$want" ] && [ "$got" = "$want" ] || it_fail "keiro-loren as-written: summary '$got', keiro route '$want'"
strip() { sed '/<!-- relabel-survey:begin -->/,/<!-- relabel-survey:end -->/d' "$1"; }
cmp -s <(strip "$page") <(strip "$KEIRO_SRCDIR/docs/relabelling.md") || it_fail "--doc changed the page outside the block"
grep -qF "$(head -n 1 "$md")" "$page" || it_fail "--doc did not write the summary into the page"
it_log "$(grep -c '^  [a-z]' "$IT_DIR/fattree.txt" "$IT_DIR/director.txt" | tr '\n' ' ')rows"

# Issue 32's done-when in its quick mode (the 4-ary 3-tree).
ftmd=$IT_DIR/fattree-check.md
ftpage=$IT_DIR/relabelling-ft.md
cp "$KEIRO_SRCDIR/docs/relabelling.md" "$ftpage"
if ! python3 "$survey" --keiro "$IT_KEIRO" --fattree-check --quick --md "$ftmd" --doc "$ftpage" \
    >"$IT_DIR/fattree-check.txt" 2>&1; then
  it_fail "relabel-survey.py --fattree-check --quick failed: $(tail -n 3 "$IT_DIR/fattree-check.txt")"
fi
tail -n 1 "$IT_DIR/fattree-check.txt" | grep -qx 'fattree-check: 0 of the bounds missed' ||
  it_fail "fattree-check: $(tail -n 1 "$IT_DIR/fattree-check.txt")"
python3 - "$ftmd" <<'PY' >"$IT_DIR/fattree-check.why" || it_fail "fattree-check: $(cat "$IT_DIR/fattree-check.why")"
import sys
rows = [l.split(" | ") for l in open(sys.argv[1]) if l.startswith("| `fattree 4 3`")]
why = [] if len(rows) == 4 else ["%d rows, want 4" % len(rows)]
limit = {"keiro-nue": 84, "keiro-dl": 68, "keiro-acro": 60}
for r in rows:
    efi = [int(v) for v in r[4].split(", ")]
    if r[3] != "9" or len(efi) != 9:
        why.append("%s max_vls=%s: %s labellings" % (r[1], r[2], r[3]))
    if max(efi) > limit[r[1]]:
        why.append("%s max_vls=%s: max EFI %s, want <= %d" % (r[1], r[2], efi, limit[r[1]]))
    if r[1] == "keiro-acro" and (min(efi) != 60 or r[5] != "1.000"):
        why.append("keiro-acro: %s, spread %s, want 60 and 1.000" % (efi, r[5]))
print("; ".join(why))
sys.exit(1 if why else 0)
PY
ftstrip() { sed '/<!-- relabel-fattree:begin -->/,/<!-- relabel-fattree:end -->/d' "$1"; }
cmp -s <(ftstrip "$ftpage") <(ftstrip "$KEIRO_SRCDIR/docs/relabelling.md") ||
  it_fail "--fattree-check --doc changed the page outside its block"
grep -qF "$(head -n 1 "$ftmd")" "$ftpage" || it_fail "--fattree-check --doc did not write its block"

# The balance survey, quick (--page --balance --quick): the real X5 cluster
# (every engine's max/avg EFI within 1.2x of the best, issue 32) and a small
# director fabric in three labellings, all routed; --doc writes only the
# page's relabel-survey-balance block.
bmd=$IT_DIR/balance.md
bpage=$IT_DIR/relabelling-balance.md
cp "$KEIRO_SRCDIR/docs/relabelling.md" "$bpage"
if ! python3 "$survey" --keiro "$IT_KEIRO" --page --balance --quick --md "$bmd" --doc "$bpage" \
    --json "$IT_DIR/balance.json" >"$IT_DIR/balance.txt" 2>&1; then
  it_fail "relabel-survey.py --page --balance --quick failed: $(tail -n 3 "$IT_DIR/balance.txt")"
fi
head -n 1 "$bmd" | grep -qF "Written by \`scripts/relabel-survey.py --page --balance --quick\` at commit $commit " ||
  it_fail "balance summary header: $(head -n 1 "$bmd")"
python3 - "$IT_DIR/balance.json" <<'PY' || it_fail "balance survey: $(cat "$IT_DIR/balance.json.why")"
import json, sys
rows = json.load(open(sys.argv[1]))
why = [r["fabric"] + " " + r["engine"] + " " + r["labelling"] + " not routed"
       for r in rows if not r["ok"]]
if len(rows) != 3 + 9:
    why.append("%d rows, want 12" % len(rows))
x5 = {r["engine"]: r["max_over_avg"] for r in rows if "psmn-x5" in r["fabric"] and r["ok"]}
if len(x5) == 3 and max(x5.values()) > 1.2 * min(x5.values()):
    why.append("psmn-x5 max/avg EFI %s: not within 1.2x of the best" % x5)
open(sys.argv[1] + ".why", "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
# the ratio row of psmn-x5: three values, each at most 1.20
row=$(grep -F '| `file:tests/data/real/psmn-x5.topo` | 8 |' "$bmd")
python3 -c 'import sys; v=[float(x) for x in sys.argv[1].split("|")[3:6]]; sys.exit(0 if max(v) <= 1.2 else 1)' "$row" ||
  it_fail "psmn-x5 ratio row: '$row'"
bstrip() { sed '/<!-- relabel-survey-balance:begin -->/,/<!-- relabel-survey-balance:end -->/d' "$1"; }
cmp -s <(bstrip "$bpage") <(bstrip "$KEIRO_SRCDIR/docs/relabelling.md") ||
  it_fail "--balance --doc changed the page outside its block"
grep -qF "$(head -n 1 "$bmd")" "$bpage" || it_fail "--balance --doc did not write the summary"
# The independent oracle on every routing's tables: each passed keiro's
# check (asserted above), so each must pass the oracle too.
it_oracle_passes_all "$KEIRO_SURVEY_DUMPS"
n=$IT_ORACLE_N
[ "$n" -ge 7 ] || it_fail "the oracle checked $n routings, want >= 7"
it_log "the independent oracle agrees on $n routings"
it_done
