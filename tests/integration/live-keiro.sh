#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro's own engines, read back from the switches (issue 13, item 4): each
# keiro engine (keiro-nue, keiro-acro, keiro-dl, keiro-loren with its layout)
# routes the bundled demo fabric (an LRT of 25 switches, 75 HCAs) through
# OpenSM + ibsim, with OpenSM kept running. Then `keiro check --live` reads
# what the switches actually hold (ibroute, smpquery sl2vl) and the SLs the
# SA hands out, and
#  - OpenSM installed the keiro engine's tables (no fallback), no ERR KE line;
#  - OpenSM logged no error line of its own (it_no_osm_errors: a failed LFT
#    or SL2VL set shows up there);
#  - the live LFTs and SL2VL tables equal OpenSM's dumps (which are its
#    new_lft, i.e. staged, not necessarily sent);
#  - the live tables pass keiro check (reachable, no loop, no credit loop);
# and keiro-nue once more with OpenSM's usual log flags (no routing dumps).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
net=$(it_fabric demo-lrt-25sw.net)
layout=$(it_fabric demo-lrt-25sw.layout)
case $layout in /*) ;; *) layout=$PWD/$layout ;; esac  # OpenSM runs elsewhere
sa_tool="$KEIRO_BUILDDIR/tests/harness/sa_path_sl --raw"

for engine in $("$IT_KEIRO" engines --osm-names); do
  opts="max_vls=4"
  [ "$engine" = keiro-loren ] && opts="$opts loren_layout=$layout"
  if ! it_start "$engine" "$net" engines="$engine,minhop" "plugin_options=$opts"; then
    it_fail "$engine: no SUBNET UP"
    it_stop
    continue
  fi
  it_expect_log "$engine tables configured on all switches" 1
  it_expect_log 'ERR KE' 0
  [ "$(kh_installed_engine "$IT_OUT/opensm.log")" = "$engine" ] ||
    it_fail "$engine: OpenSM installed '$(kh_installed_engine "$IT_OUT/opensm.log")'"
  it_no_osm_errors
  # --sl-pairs all: the SA's SL for every (source LID, destination LID) pair
  # (keiro-acro, keiro-dl and keiro-loren pick the SL per source switch).
  if it_live_check 0 --sa-tool "$sa_tool" --sl-pairs all; then
    grep -qE 'path SLs .*\(9900 PathRecords\)' "$IT_OUT/live-check.txt" ||
      it_fail "$engine live: not every PathRecord answered: $(grep 'path SLs' "$IT_OUT/live-check.txt")"
    grep -q '^  pairs checked   9900$' "$IT_OUT/live-check.txt" ||
      it_fail "$engine live: expected 9900 pairs checked: $(grep 'pairs checked' "$IT_OUT/live-check.txt")"
  fi
  it_same_lfts && it_log "$engine: live LFTs and SL2VL tables equal OpenSM's dumps"
  # The sweep's log once more, after the live reads (they must not have made
  # OpenSM log errors either).
  it_no_osm_errors
  it_stop
done

# OpenSM's usual log flags (no ROUTING: no routing dumps): the plugin then
# stages hop rows for switch LIDs only, as OpenSM's own min-hop matrix has
# them (plugin/install_tables.h); what the switches hold must pass the same.
if it_start keiro-nue-quiet "$net" engines=keiro-nue,minhop "plugin_options=max_vls=4" \
  log_flags=0x03; then
  it_expect_log "keiro-nue tables configured on all switches" 1
  it_expect_log 'ERR KE' 0
  it_no_osm_errors
  [ -e "$IT_OUT/dumps/opensm-lfts.dump" ] &&
    it_fail "keiro-nue quiet: OpenSM wrote its routing dumps: log_flags 0x03 not in effect"
  if it_live_check 0 --sa-tool "$sa_tool" --sl-pairs all; then
    grep -q '^  pairs checked   9900$' "$IT_OUT/live-check.txt" ||
      it_fail "keiro-nue quiet live: expected 9900 pairs checked: $(grep 'pairs checked' "$IT_OUT/live-check.txt")"
  fi
else
  it_fail "keiro-nue quiet: no SUBNET UP"
fi
it_stop
it_done
