#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Failure paths through OpenSM, end to end (issue 13, item 5):
#  a. the self-check fails AFTER keiro staged its tables in OpenSM's new_lft
#     (test-only fault hook KEIRO_TEST_FAIL_CHECK, docs/deployment.md): one
#     ERROR line, the staged tables are withdrawn, OpenSM falls back to updn,
#     and what the switches hold is exactly what updn alone installs on the
#     same fabric and passes keiro check with the SA's SLs;
#  b. keiro's path-SL file (dump_files_dir/keiro-path-sl.dump) is removed
#     when another engine wins a later sweep of the same OpenSM;
#  c. keiro-dl with more sub-networks than VLs, and with qos FALSE, as
#     docs/dl.md says: an ERROR line and the fallback, or (dl_subnets 0, QoS
#     off) one sub-network on VL 0 that passes keiro check;
#  d. qos FALSE with keiro-acro and keiro-loren on fabrics that need 2 VLs:
#     one ERROR line that says to turn qos TRUE on, then the fallback.
# (keiro-nue with qos FALSE: qos-off.sh.)
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
fat=$(it_fabric fattree-4ary-3tree.net)
rnd=$(it_fabric random-16sw.net)
mkdir -p "$IT_DIR"
# updn gets one root (the first switch of the file): with OpenSM's own root
# choice (every top switch of the fat tree, none at all on random-16sw) top
# switches cannot reach each other, and the diagnostics cannot reach them.
root_file() { sed -n 's/^switchguid=//p' "$1" | head -n 1 >"$2"; }
root_file "$fat" "$IT_DIR/fat.root"
root_file "$rnd" "$IT_DIR/rnd.root"

# lft_ports DUMPS: "switch-guid lid port" per LFT entry of opensm-lfts.dump.
lft_ports() {
  awk '/^Unicast lids/ { for (i = 1; i <= NF; i++) if ($i == "guid") g = $(i + 1); next }
       /^0x/ { print g, $1, $2 }' "$1/opensm-lfts.dump"
}

# fallback_ok ENGINE FALLBACK WHY: the last run logged ENGINE's failure once
# (ERR KE.. matching WHY), and OpenSM installed FALLBACK's tables instead.
fallback_ok() {
  local fails=$IT_FAILS
  it_expect_log "ERR KE0[0-9]: $1: $3" 1
  it_expect_log 'ERR KE' 1
  it_expect_log "$1: cannot build fwd tables" 1
  it_expect_log "$1 tables configured" 0
  it_expect_log "$2 tables configured on all switches" 1
  [ "$(kh_installed_engine "$IT_OUT/opensm.log")" = "$2" ] ||
    it_fail "$(basename "$IT_OUT"): OpenSM installed '$(kh_installed_engine "$IT_OUT/opensm.log")', expected $2"
  it_no_osm_errors
  [ "$IT_FAILS" -eq "$fails" ] && it_log "$(basename "$IT_OUT"): $2 installed after $(grep -o 'ERR KE.*' "$IT_OUT/opensm.log" | head -n 1)"
}

# --- a. self-check failure after staging -------------------------------------
# updn alone on the fat tree: the reference for the fallback's tables.
if it_run updn-ref "$fat" -P -e updn -c "root_guid_file $IT_DIR/fat.root"; then
  lft_ports "$IT_OUT/dumps" >"$IT_DIR/updn-ref.lft"
else
  it_fail "updn-ref: no SUBNET UP"
fi
export KEIRO_TEST_FAIL_CHECK=1
fails=$IT_FAILS
if it_start staged "$fat" engines=keiro-nue,updn plugin_options=max_vls=4 \
     "root_guid_file=$IT_DIR/fat.root"; then
  fallback_ok keiro-nue updn \
    "self-check failed, tables not installed: LID [0-9]+ \('.*'\) is dropped at switch '.*' \(LFT entry 0xFF\)"
  it_expect_log 'KEIRO_TEST_FAIL_CHECK: test fault' 1
  it_expect_log 'keiro-nue: routed [0-9]+ switches' 0
  [ -e "$IT_OUT/dumps/keiro-path-sl.dump" ] && it_fail "staged: keiro wrote its path-SL file for updn's tables"
  if kh_sa_sls "$IT_OUT/sa-path-sl.dump"; then
    it_check_installed --lmc 0
  else
    it_fail "staged: SA queries failed"
  fi
  # What the switches hold: updn's tables, not keiro-nue's staged ones.
  it_live_check 0 --sa-tool "$KEIRO_BUILDDIR/tests/harness/sa_path_sl --raw"
  it_same_lfts
  if [ -s "$IT_DIR/updn-ref.lft" ]; then
    lft_ports "$IT_OUT/live" >"$IT_OUT/live.lft"
    diff -q "$IT_DIR/updn-ref.lft" "$IT_OUT/live.lft" >/dev/null ||
      it_fail "staged: the switches' LFTs differ from updn's own on this fabric ($(diff "$IT_DIR/updn-ref.lft" "$IT_OUT/live.lft" | grep -c '^>') entries)"
  fi
  [ "$IT_FAILS" -eq "$fails" ] && it_log "staged: $(grep -o 'ERR KE03.*' "$IT_OUT/opensm.log" | head -n 1); updn installed, live tables = updn's, keiro check passes"
else
  it_fail "staged: no SUBNET UP"
fi
it_stop

# --- b. the path-SL file goes when another engine wins --------------------
# keiro-nue routes the first sweep (its check passes), fails from its second
# run on; a link failure makes OpenSM route again, and updn wins.
export KEIRO_TEST_FAIL_CHECK=2
# OpenSM logs every trap it receives at error level (log_trap_info); here the
# test itself takes the link down, so trap 128 is expected.
IT_KNOWN_OSM_ERRS+=('log_trap_info: Received Generic Notice type:1 num:128 \(Link state change\)')
if it_start slfile "$fat" engines=keiro-nue,updn plugin_options=max_vls=4 \
     "root_guid_file=$IT_DIR/fat.root"; then
  sl_file="$IT_OUT/dumps/keiro-path-sl.dump"
  it_expect_log 'keiro-nue tables configured on all switches' 1
  if grep -q '^engine keiro-nue$' "$sl_file" 2>/dev/null; then
    link=$(it_net_link "$fat" switch 1)
    kh_ibsim_cmd "Unlink $link"
    if it_wait_count 'updn tables configured on all switches' 1 && it_wait_count 'SUBNET UP' 2; then
      it_expect_log 'ERR KE03: keiro-nue: self-check failed' 1
      it_expect_log 'ERR KE' 1
      fails=$IT_FAILS
      [ -e "$sl_file" ] && it_fail "slfile: keiro-path-sl.dump is still there after updn won the sweep"
      it_no_osm_errors
      kh_sa_sls "$IT_OUT/sa-path-sl.dump" && it_check_installed --lmc 0 && [ "$IT_FAILS" -eq "$fails" ] &&
        it_log "slfile: keiro-nue, then (after Unlink $link) updn: keiro-path-sl.dump removed, updn's tables pass keiro check"
    fi
  else
    it_fail "slfile: keiro-nue did not write $sl_file on its first sweep"
  fi
else
  it_fail "slfile: no SUBNET UP"
fi
it_stop
unset KEIRO_TEST_FAIL_CHECK

# --- c. keiro-dl: more sub-networks than VLs; QoS off ------------------------
if it_run dl-subnets3 "$fat" -e keiro-dl,updn -p "max_vls=2 dl_subnets=3" \
     -c "root_guid_file $IT_DIR/fat.root"; then
  fallback_ok keiro-dl updn "dl_subnets=3 asks for 3 sub-networks, but only 2 VLs are available"
else
  it_fail "dl-subnets3: no SUBNET UP"
fi
if it_run dl-qosoff-subnets2 "$fat" -q FALSE -e keiro-dl,updn -p "max_vls=4 dl_subnets=2" \
     -c "root_guid_file $IT_DIR/fat.root"; then
  fallback_ok keiro-dl updn "dl_subnets=2 asks for 2 sub-networks, but only 1 VLs? .*qos TRUE"
else
  it_fail "dl-qosoff-subnets2: no SUBNET UP"
fi
# dl_subnets 0 with QoS off: one sub-network (up*/down*) on VL 0.
irr="$KEIRO_SRCDIR/tests/integration/data/dl-irregular-64.net"
if it_run dl-qosoff "$irr" -s -q FALSE -e keiro-dl,updn -p "max_vls=4"; then
  it_expect_qos_off keiro-dl
  [ "$(kh_engine_fact "$IT_OUT/opensm.log" keiro-dl subnets)" = 1 ] ||
    it_fail "dl-qosoff: subnets='$(kh_engine_fact "$IT_OUT/opensm.log" keiro-dl subnets)', expected 1"
  it_check_installed --lmc 0 && it_log "dl-qosoff: one sub-network on VL 0, installed tables pass keiro check"
else
  it_fail "dl-qosoff: no SUBNET UP"
fi

# --- d. qos FALSE: keiro-acro and keiro-loren need 2 VLs here ----------------
if it_run acro-qosoff "$rnd" -q FALSE -e keiro-acro,updn -p "max_vls=4" \
     -c "root_guid_file $IT_DIR/rnd.root"; then
  fallback_ok keiro-acro updn "ACRO needs 2 VLs .*only 1 allowed.*qos TRUE"
else
  it_fail "acro-qosoff: no SUBNET UP"
fi
if it_run loren-qosoff "$(it_fabric demo-lrt-25sw.net)" -q FALSE -e keiro-loren,minhop \
     -p "max_vls=4 loren_layout=$(it_fabric demo-lrt-25sw.layout)"; then
  fallback_ok keiro-loren minhop "ACRO needs 2 VLs for LOREN's routes .*only 1 allowed.*qos TRUE"
else
  it_fail "loren-qosoff: no SUBNET UP"
fi
it_done
