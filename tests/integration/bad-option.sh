#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A bad keiro option never takes OpenSM down: keiro-nue logs ONE clear ERROR
# line (ERR KE01) per routing attempt, refuses to route, OpenSM falls back to
# the next engine of routing_engine (updn), brings the subnet up and keeps
# answering the SA.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
net=$(it_fabric fattree-4ary-3tree.net)

check_case() {
  local tag=$1 opts=$2 why=$3
  if ! it_start "$tag" "$net" engines=keiro-nue,updn "plugin_options=$opts"; then
    it_fail "$tag: no SUBNET UP with event_plugin_options '$opts'"
    it_stop
    return
  fi
  it_expect_log "ERR KE01: keiro-nue: event_plugin_options rejected: .*$why" 1
  it_expect_log 'ERR KE' 1
  it_expect_log 'keiro-nue: cannot build fwd tables' 1
  it_expect_log 'updn tables configured on all switches' 1
  it_expect_log 'keiro-nue tables configured' 0
  it_no_osm_errors
  sleep 1
  kh_pid_alive "$KH_OSM_PID" || it_fail "$tag: OpenSM is not running any more"
  it_sa_ca_pairs 4 || it_fail "$tag: the SA does not answer PathRecords: $(tail -n 2 "$IT_OUT/ca-sls.err")"
  it_log "$tag: $(grep -o 'ERR KE01.*' "$IT_OUT/opensm.log" | head -n 1)"
  it_stop
}

check_case range 'max_vls=99' "max_vls='99' is not a whole number from 1 to 15"
check_case unknown 'max_vls=4 bogus=1' "unknown option 'bogus'"
check_case malformed 'max_vls' "malformed option 'max_vls'"
check_case nofile "config=$IT_DIR/no-such-file.conf" "cannot read config file"
it_done
