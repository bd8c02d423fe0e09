#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# With OpenSM's QoS off no SL2VL table reaches the switches, so keiro-nue
# says so in one line and routes with one VL (every path on SL 0); the
# installed tables must still be deadlock free.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
net=$(it_fabric random-16sw.net)
if it_run qos-off "$net" -s -q FALSE -e keiro-nue,updn -p "max_vls=4"; then
  it_expect_qos_off keiro-nue
  [ "$(it_summary_field "SLs used")" = 1 ] || it_fail "SLs used: $(it_summary_field "SLs used"), expected 1"
  it_check_installed --lmc 0 --vls 1  # QoS off: one VL
else
  it_fail "no SUBNET UP with qos FALSE"
fi
it_done
