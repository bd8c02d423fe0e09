#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue on a live fabric that changes: a switch-to-switch link fails
# (ibsim Unlink -> trap 128 -> heavy sweep) and keiro-nue reroutes from
# scratch; the new installed tables pass keiro check. Then, with OpenSM's
# unicast cache on, a CA link goes down and comes back: OpenSM reuses the
# cached tables without calling the engine, and path_sl keeps answering
# from keiro's last routing.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
net=$(it_fabric random-16sw.net)
# OpenSM logs every trap it receives at error level (log_trap_info); this
# test takes links down itself, so trap 128 (link state change) is expected.
IT_KNOWN_OSM_ERRS+=('log_trap_info: Received Generic Notice type:1 num:128 \(Link state change\)')

# 1. Reroute after a link failure.
if it_start reroute "$net" engines=keiro-nue,updn plugin_options=max_vls=4; then
  link=$(it_net_link "$net" switch 1)
  kh_ibsim_cmd "Unlink $link"
  if it_wait_count 'keiro-nue tables configured on all switches' 2 &&
     it_wait_count 'SUBNET UP' 2; then
    it_expect_log 'ERR KE' 0
    it_no_osm_errors
    kh_sa_sls "$IT_OUT/sa-path-sl.dump" || it_fail "SA queries after the reroute failed"
    it_check_installed --lmc 0 --vls 4 && it_log "rerouted around $link; installed tables pass keiro check"
  fi
else
  it_fail "no SUBNET UP before the link failure"
fi
it_stop

# 2. Cached routing: the engine is not called, path_sl still answers.
if it_start cache "$net" engines=keiro-nue,updn plugin_options=max_vls=4 use_ucast_cache=TRUE; then
  kh_sa_sls "$IT_OUT/sa-before.dump" || it_fail "SA queries failed"
  link=$(it_net_link "$net" ca 1)
  kh_ibsim_cmd "Unlink $link"
  it_wait_count 'SUBNET UP' 2
  kh_ibsim_cmd "ReLink $link"
  if it_wait_count 'Configuring switch tables using cached routing' 2 && it_wait_count 'SUBNET UP' 3; then
    it_expect_log 'keiro-nue tables configured on all switches' 1
    it_no_osm_errors
    kh_sa_sls "$IT_OUT/sa-path-sl.dump" || it_fail "SA queries after the cached sweeps failed"
    cmp -s <(grep '^slid' "$IT_OUT/sa-before.dump") <(grep '^slid' "$IT_OUT/sa-path-sl.dump") ||
      it_fail "the SA's SLs changed although the routing was cached"
    it_check_installed --lmc 0 --vls 4 && it_log "cached routing after $link down/up: SLs unchanged, tables pass keiro check"
  fi
else
  it_fail "no SUBNET UP with use_ucast_cache"
fi
it_stop
it_done
