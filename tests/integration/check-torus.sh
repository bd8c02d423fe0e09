#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro check and keiro analyze on OpenSM's own engines, through the dumps
# (issue 3). 3x3x3 torus on ibsim with QoS on:
#  - minhop's tables have a credit loop: keiro check exits 1 and names it,
#    also for CA-to-CA traffic alone;
#  - updn (rooted), lash and dfsssp pass (dfsssp for the traffic CAs send:
#    it leaves switch-sourced paths out of its dependency graph, so those
#    are only reported);
#  - keiro analyze compares minhop and lash in one table and draws the charts.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
mkdir -p "$IT_DIR"
net="$IT_DIR/torus-3x3x3.net"
"$IT_KEIRO" topo torus 3x3x3 -o "$net" >/dev/null || { it_fail "keiro topo torus 3x3x3 failed"; it_done; }
# updn needs a root on a torus: the first switch of the file.
sed -n 's/^switchguid=//p' "$net" | head -n 1 >"$IT_DIR/root.guids"

# check_dumps ENGINE WANT_RC [keiro check options]
check_dumps() {
  local engine=$1 want=$2 rc
  shift 2
  "$IT_KEIRO" check "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" "$@" >"$IT_OUT/check$*.txt" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    it_fail "$engine: keiro check $* exited $rc, expected $want"
    sed -n '1,20p' "$IT_OUT/check$*.txt"
    return 1
  fi
  it_log "$engine: keiro check $* -> $rc ($(grep -E '^  (credit loops|check time)' "$IT_OUT/check$*.txt" | sed 's/  */ /g' | tr '\n' ';'))"
  return 0
}

for engine in minhop updn lash dfsssp; do
  extra=()
  [ "$engine" = updn ] && extra=(-c "root_guid_file $IT_DIR/root.guids")
  if ! it_run "$engine" "$net" -P -e "$engine" -s "${extra[@]}"; then
    it_fail "$engine: no SUBNET UP"
    continue
  fi
  it_expect_log "$engine tables configured on all switches" 1 || continue
  # keiro analyze finds the path SLs under their default name.
  cp "$IT_OUT/sa-path-sl.dump" "$IT_OUT/dumps/keiro-path-sl.dump"
  case $engine in
    minhop)
      check_dumps minhop 1 || continue
      grep -q '^  credit loops    FOUND' "$IT_OUT/check.txt" || it_fail "minhop: no credit loop reported"
      grep -q '^offending cycle' "$IT_OUT/check.txt" || it_fail "minhop: no offending cycle printed"
      grep -qE "^      '.*' \(LID [0-9]+\) -> LID [0-9]+ .* SL [0-9]+$" "$IT_OUT/check.txt" ||
        it_fail "minhop: the paths behind the cycle are not named"
      check_dumps minhop 1 --pairs ca
      # Without any SL source (QoS on: SL2VL maps SLs to different VLs) there is
      # no verdict (exit 2); --assume-sl 0, deliberately, checks (minhop's
      # SA answers SL 0) and finds the loop.
      "$IT_KEIRO" check "$IT_OUT/dumps" --sls /dev/null >/dev/null 2>&1 && it_fail "minhop: --sls /dev/null accepted"
      rm "$IT_OUT/dumps/keiro-path-sl.dump"
      "$IT_KEIRO" check "$IT_OUT/dumps" >"$IT_OUT/check-nosl.txt" 2>&1
      [ $? -eq 2 ] || it_fail "minhop without SLs: expected exit 2"
      grep -q 'pairs need a path SL and have none: no path-SL file' "$IT_OUT/check-nosl.txt" ||
        it_fail "minhop without SLs: $(cat "$IT_OUT/check-nosl.txt")"
      "$IT_KEIRO" check "$IT_OUT/dumps" --assume-sl 0 >"$IT_OUT/check-sl0.txt" 2>&1
      [ $? -eq 1 ] || it_fail "minhop --assume-sl 0: expected exit 1 (credit loop)"
      cp "$IT_OUT/sa-path-sl.dump" "$IT_OUT/dumps/keiro-path-sl.dump"
      ;;
    dfsssp)
      check_dumps dfsssp 0 --pairs ca-sources
      "$IT_KEIRO" check "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" >"$IT_OUT/check-all.txt" 2>&1
      it_log "dfsssp: all pairs incl. switch-sourced traffic -> $(grep '^  credit loops' "$IT_OUT/check-all.txt" | sed 's/  */ /g')"
      ;;
    *)
      check_dumps "$engine" 0
      ;;
  esac
done

# Unusable input: exit 2.
"$IT_KEIRO" check "$IT_DIR/nonexistent" >/dev/null 2>&1
[ $? -eq 2 ] || it_fail "keiro check on a missing directory: expected exit 2"

# keiro analyze: two routings side by side, JSON and SVG charts.
if [ -d "$IT_DIR/minhop/dumps" ] && [ -d "$IT_DIR/lash/dumps" ]; then
  "$IT_KEIRO" analyze "$IT_DIR/minhop/dumps" "$IT_DIR/lash/dumps" --patterns 20 \
    --plot "$IT_DIR/plots" >"$IT_DIR/analyze.txt" 2>&1
  rc=$?
  [ $rc -eq 1 ] || it_fail "keiro analyze minhop+lash: expected exit 1 (minhop fails the check), got $rc"
  for row in 'path length' 'stretch' 'EFI (sw-sw)' 'Gamma uniform' 'shift all-to-all' 'credit loop'; do
    grep -q "^$row" "$IT_DIR/analyze.txt" || it_fail "analyze table lacks '$row'"
  done
  head -n 1 "$IT_DIR/analyze.txt" | grep -q "minhop/dumps.*lash/dumps" || it_fail "analyze table lacks the two columns"
  for svg in hops link-load compare; do
    grep -q '<svg' "$IT_DIR/plots/$svg.svg" 2>/dev/null || it_fail "no $svg.svg"
  done
  "$IT_KEIRO" analyze "$IT_DIR/lash/dumps" --json --patterns 5 >"$IT_DIR/analyze.json" 2>&1 ||
    it_fail "keiro analyze --json on lash failed"
  { read -r gamma; read -r patterns; read -r lash_ok; } < <(kh_json "$IT_DIR/analyze.json" \
    traffic.gamma_uniform traffic.patterns check.ok)
  awk -v g="${gamma:-x}" 'BEGIN { exit !(g ~ /^[0-9.e+-]+$/ && g > 0 && g <= 1) }' ||
    it_fail "analyze JSON: gamma_uniform '${gamma:-}' is not in (0, 1]"
  [ "$patterns" = 5 ] || it_fail "analyze JSON: traffic.patterns '${patterns:-}', expected 5"
  [ "$lash_ok" = true ] || it_fail "analyze JSON: lash's check.ok is '${lash_ok:-}', expected true"
  it_log "analyze: $(grep -E '^(path length|EFI)' "$IT_DIR/analyze.txt" | sed 's/  */ /g' | tr '\n' ';')"
fi
it_done
