#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-acro through the real OpenSM (QoS on) on the bundled random regular
# fabrics: OpenSM installs keiro-acro's tables; the installed LFTs, SL2VL
# tables and the SA's path SLs pass keiro check (every pair reachable, no
# credit loop) and every route is minimal. With max_vls=1 keiro-acro fails
# with one ERROR line and OpenSM falls back to minhop, whose installed LFTs
# `keiro acro --dumps` then makes deadlock free.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim

acro_run() {
  local tag=$1 net=$2
  if ! it_start "$tag" "$net" engines=keiro-acro; then
    it_fail "$tag: no SUBNET UP"
    it_stop
    return
  fi
  # The SA's SL for every (source LID, destination LID) pair: keiro-acro's SL
  # depends on the source switch (kh_sa_sls asks for every pair).
  if ! kh_sa_sls "$IT_OUT/sa-path-sl.dump"; then
    it_fail "$tag: SA PathRecord queries failed"
    it_stop
    return
  fi
  it_stop
  it_expect_log 'keiro-acro tables configured on all switches' 1 || return
  it_expect_log 'ERR KE' 0 || return
  it_no_osm_errors
  it_check_installed --vls 8 || return  # keiro-acro's default max_vls
  local routes nonmin stretch
  { read -r routes; read -r nonmin; read -r stretch; } < <(it_analyze_json "$IT_OUT/dumps" \
    --sls "$IT_OUT/sa-path-sl.dump" --no-traffic -- paths.routes paths.nonminimal paths.max_stretch:%.3f)
  [ "${routes:-0}" -gt 0 ] || { it_fail "$tag: keiro analyze measured no routes"; return; }
  [ "$nonmin" = 0 ] ||
    { it_fail "$tag: ${nonmin:-?} of $routes routes are not minimal (max stretch ${stretch:-?})"; return; }
  it_log "$tag: ok ($(grep -E 'keiro-acro: [0-9]+ ACRO layers' "$IT_OUT/opensm.log" | tail -n 1 |
    sed 's/.*keiro-acro: //'))"
}

acro_run random16 "$(it_fabric random-16sw.net)"
acro_run rrg128 "$(it_fabric rrg-128-d8-h4.net)"

# Too few VLs: one ERROR line from keiro-acro, then OpenSM's minhop routes.
if it_run vls1 "$(it_fabric random-16sw.net)" -e keiro-acro -p "max_vls=1"; then
  it_expect_log 'keiro-acro: ACRO needs [0-9]+ VLs' 1
  it_expect_log 'ERR KE' 1
  it_expect_log 'keiro-acro: cannot build fwd tables' 1
  it_expect_log 'minhop tables configured on all switches' 1
  it_no_osm_errors
  # keiro acro --dumps endorses the minhop tables OpenSM installed: same LFTs,
  # plus SLs and SL2VL that keiro check passes.
  if "$IT_KEIRO" acro --dumps "$IT_OUT/dumps" --out "$IT_OUT/acro" >"$IT_OUT/acro.txt" 2>&1 &&
     "$IT_KEIRO" check "$IT_OUT/acro" >"$IT_OUT/acro-check.txt" 2>&1; then
    cmp -s "$IT_OUT/dumps/opensm-lfts.dump" "$IT_OUT/acro/opensm-lfts.dump" ||
      it_fail "keiro acro --dumps changed the LFTs"
    it_oracle_agrees "$IT_OUT/acro"
    it_log "minhop endorsed: $(grep -E 'ACRO:|needs:' "$IT_OUT/acro.txt" | sed 's/^ *//' | tr '\n' ' ')"
  else
    it_fail "keiro acro --dumps on minhop's tables failed:"
    tail -5 "$IT_OUT/acro.txt" "$IT_OUT/acro-check.txt"
  fi
else
  it_fail "vls1: no SUBNET UP"
fi
it_done
