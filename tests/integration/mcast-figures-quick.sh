#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/mcast-figures.sh in its quick mode (-q: offline, the 4x4x4 torus
# and one random fabric, every engine, default, dedicated and fixed_sl=0
# settings), and what its block says checked against runs made here:
#  - the block names the script and the source tree's commit;
#  - 6 rows per fabric; on SL 0 (default) and on the dedicated SL 15 every
#    engine gives all 5 groups a sound tree with no unicast + multicast
#    credit loop, and keiro-nue's dedicated rows put the groups on VL 7;
#  - keiro-nue's cost row on the torus (max/avg EFI and average hops with
#    mcast_trees=0 and with the default) equals `keiro route --json` run
#    here with the same options;
#  - with -d the script replaces only the block of a copy of
#    docs/multicast.md (the text around it stays byte for byte);
#  - every routing's verdict (unicast and multicast together; with
#    fixed_sl=0 every path on SL 0 too) is also the independent oracle's,
#    on the tables and trees it wrote (-k): the default and dedicated ones
#    pass.
# Needs python3, no simulator.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
page=$IT_DIR/multicast.md
cp "$KEIRO_SRCDIR/docs/multicast.md" "$page"
"$KEIRO_SRCDIR/scripts/mcast-figures.sh" -q -d "$page" -k "$IT_DIR/tables" "$KEIRO_BUILDDIR" >"$IT_DIR/block.md" 2>"$IT_DIR/err.txt" ||
  it_fail "mcast-figures.sh -q failed: $(tail -n 3 "$IT_DIR/err.txt")"
block=$IT_DIR/block.md

commit=$(git -C "$KEIRO_SRCDIR" rev-parse --short HEAD 2>/dev/null) || commit=unknown
sed -n 2p "$block" | grep -qF "Written by \`scripts/mcast-figures.sh -q\` at commit $commit " ||
  it_fail "block header does not name the script and commit $commit: $(sed -n 2p "$block")"

# cell FABRIC ENGINE SETTINGS N: the Nth cell of that row of the first table.
cell() {
  awk -F' [|] ' -v f="| $1" -v e="$2" -v m="$3" -v n="$4" \
    '$1 == f && $2 == e && $3 == m { sub(/ [|]$/, "", $NF); print $n; exit }' "$block"
}
for f in torus random1; do
  rows=$(grep -c "^| $f | keiro-" "$block")
  [ "$rows" -eq 9 ] || it_fail "$f: $rows rows, want 9 (3 engines x 3 settings)"
  for e in keiro-nue keiro-acro keiro-dl; do
    for m in default dedicated; do
      [ "$(cell $f $e $m 5)" = "5 of 5" ] || it_fail "$f $e $m: groups '$(cell $f $e $m 5)', want 5 of 5"
      [ "$(cell $f $e $m 9)" = "none" ] || it_fail "$f $e $m: credit loop '$(cell $f $e $m 9)'"
    done
  done
  [ "$(cell $f keiro-nue dedicated 4)" = 7 ] ||
    it_fail "$f: keiro-nue's dedicated multicast VL '$(cell $f keiro-nue dedicated 4)', want 7"
done

# keiro-nue's cost on the torus, measured here.
net=$IT_DIR/torus.net
"$IT_KEIRO" topo torus 4x4x4 --hcas-per-switch 2 -o "$net" >/dev/null 2>&1 || it_fail "keiro topo torus"
for m in 0 1; do
  "$IT_KEIRO" route --engine nue --topology "$net" --opt mcast_trees=$m --json >"$IT_DIR/cost-$m.json" 2>/dev/null ||
    it_fail "keiro route mcast_trees=$m failed"
done
want=$(python3 - "$IT_DIR/cost-0.json" "$IT_DIR/cost-1.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("| torus | %.3f | %.3f | %.3f | %.3f |" % (a["efi"]["max_over_avg"], b["efi"]["max_over_avg"],
                                             a["paths"]["avg_hops"], b["paths"]["avg_hops"]))
PY
)
got=$(grep '^| torus | [0-9]' "$block" | sed -E 's/ \([+-][0-9.]+%\)//g')
[ -n "$want" ] && [ "$got" = "$want" ] || it_fail "cost row '$got', measured here '$want'"

# -d: only the block changed.
strip() { sed '/<!-- mcast-figures:begin -->/,/<!-- mcast-figures:end -->/d' "$1"; }
cmp -s <(strip "$page") <(strip "$KEIRO_SRCDIR/docs/multicast.md") || it_fail "-d changed text outside the block"
grep -qF "$(sed -n 2p "$block")" "$page" || it_fail "-d did not write the block into the page"
# The independent oracle on every routing's tables and trees.
n=0
for d in "$IT_DIR"/tables/*; do
  [ -f "$d/opensm-lfts.dump" ] || continue
  opts=()
  case $d in *-fixed_sl=0) opts=(--mixed-sl 0) ;; esac
  IT_VERDICTS=$d it_oracle_agrees "$d" ${opts[@]+"${opts[@]}"} || continue
  case $d in *-default | *-dedicated)
    [ "$IT_ORACLE_RC" -eq 0 ] || it_fail "$(basename "$d"): the oracle does not pass the tables and trees" ;;
  esac
  n=$((n + 1))
done
[ "$n" -ge 12 ] || it_fail "the oracle checked $n routings, want >= 12 (2 fabrics x 3 engines x 2 settings)"
it_log "the independent oracle agrees on $n routings (unicast and multicast)"
it_done
