#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/relabel-survey.py --clos3 --quick, offline: the 3-level folded
# Clos `keiro topo clos3 16 4` (80 switches, 256 HCAs) as written and with
# --port-split hca-high, each in three labellings (as written, reversed,
# --relabel 1), routed by keiro-nue and keiro-acro at max_vls 1 and 8. Every
# labelling routes and passes keiro's check; keiro-acro reaches the leaf
# bound 8 x 248 / 8 = 248 in every labelling (spread 1.000); keiro-nue stays
# within 1.16x of it (measured 272-280 with the second pass over each
# tree, 296-320 without; tests/unit/nue_labelling_test.cc) and uses 1 VL
# at max_vls=1; the as-written cell of keiro-nue equals `keiro route` run
# here; the summary names the script, the commit and the
# CPU seconds; --doc replaces only the clos3-survey block of a copy of
# docs/relabelling.md. Every routing's self-check verdict is also the
# independent oracle's. Needs python3, no simulator.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
survey="$KEIRO_SRCDIR/scripts/relabel-survey.py"
export KEIRO_SURVEY_DUMPS=$IT_DIR/tables
mkdir -p "$KEIRO_SURVEY_DUMPS"
md=$IT_DIR/clos3.md
page=$IT_DIR/relabelling.md
cp "$KEIRO_SRCDIR/docs/relabelling.md" "$page"
if ! python3 "$survey" --keiro "$IT_KEIRO" --clos3 --quick --threads 1 --json "$IT_DIR/clos3.json" \
    --md "$md" --doc "$page" >"$IT_DIR/clos3.txt" 2>&1; then
  it_fail "relabel-survey.py --clos3 --quick failed: $(tail -n 3 "$IT_DIR/clos3.txt")"
fi
commit=$(git -C "$KEIRO_SRCDIR" rev-parse --short HEAD 2>/dev/null) || commit=unknown
head -n 1 "$md" | grep -qF "Written by \`scripts/relabel-survey.py --clos3 --quick --threads 1\` at commit $commit " ||
  it_fail "summary header does not name the script and commit $commit: $(head -n 1 "$md")"
head -n 1 "$md" | grep -qF "CPU s: user + system seconds" || it_fail "summary header does not explain CPU s"
# Every run routed and checked; keiro-acro 248 everywhere, keiro-nue within 1.16x.
python3 - "$IT_DIR/clos3.json" <<'PY' || it_fail "$(cat "$IT_DIR/clos3.json.why")"
import json, sys
rows = json.load(open(sys.argv[1]))
why = []
if len(rows) != 24:
    why.append("%d runs, want 24 (2 fabrics x 3 labellings x 2 engines x 2 budgets)" % len(rows))
for r in rows:
    name = "%s %s keiro-%s max_vls=%d" % (r["fabric"], r["labelling"], r["engine"], r["max_vls"])
    if not r["ok"]:
        why.append(name + ": not routed: " + r.get("error", "check failed"))
        continue
    if r["engine"] == "acro" and r["max_efi"] != 248:
        why.append("%s: max EFI %d, want 248" % (name, r["max_efi"]))
    if r["engine"] == "nue" and not 248 <= r["max_efi"] <= 1.16 * 248:
        why.append("%s: max EFI %d, want 248..327" % (name, r["max_efi"]))
    if r["engine"] == "nue" and r["max_vls"] == 1 and r["vls"] != 1:
        why.append("%s: %d VLs" % (name, r["vls"]))
    if not r["cpu"] > 0:
        why.append("%s: CPU seconds %s" % (name, r["cpu"]))
open(sys.argv[1] + ".why", "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
# cell FABRIC ENGINE VLS N: the Nth cell of that summary row.
cell() {
  awk -F' [|] ' -v f="| \`$1\`" -v e="$2" -v v="$3" -v n="$4" \
    '$1 == f && $2 == e && $3 == v { sub(/ [|]$/, "", $NF); print $n; exit }' "$md"
}
for f in "clos3 16 4" "clos3 16 4 --port-split hca-high"; do
  for n in 5 6 7; do
    [ "$(cell "$f" keiro-acro 8 $n)" = 248 ] || it_fail "$f keiro-acro: cell $n '$(cell "$f" keiro-acro 8 $n)', want 248"
  done
  case $(cell "$f" keiro-acro 8 8) in "1.000 (max 1.000x the reference)") ;;
    *) it_fail "$f keiro-acro: spread cell '$(cell "$f" keiro-acro 8 8)'" ;; esac
done
"$IT_KEIRO" topo clos3 16 4 -o "$IT_DIR/c.net" >/dev/null 2>&1
want=$("$IT_KEIRO" route --topology "$IT_DIR/c.net" --engine nue --opt max_vls=8 --json 2>/dev/null |
  python3 -c 'import json, sys; print("{:,}".format(json.load(sys.stdin)["efi"]["max"]))')
got=$(cell "clos3 16 4" keiro-nue 8 5)
[ -n "$want" ] && [ "$got" = "$want" ] || it_fail "keiro-nue as-written: summary '$got', keiro route '$want'"
strip() { sed '/<!-- clos3-survey:begin -->/,/<!-- clos3-survey:end -->/d' "$1"; }
cmp -s <(strip "$page") <(strip "$KEIRO_SRCDIR/docs/relabelling.md") || it_fail "--doc changed the page outside the block"
grep -qF "$(head -n 1 "$md")" "$page" || it_fail "--doc did not write the summary into the page"
it_oracle_passes_all "$KEIRO_SURVEY_DUMPS"
n=$IT_ORACLE_N
[ "$n" -eq 24 ] || it_fail "the oracle checked $n routings, want 24"
it_log "the independent oracle agrees on $n routings"
it_done
