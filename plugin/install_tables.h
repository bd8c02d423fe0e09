// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Stages a Routing in OpenSM's switch objects: every switch's new_lft for LIDs
// 1..max_lid_ho (OpenSM sends the blocks that changed), and the hop matrix
// (osm_switch_set_hops on the port the LFT uses, with the hop count of that
// path; own LIDs port 0, 0 hops) plus the port-profile path counters. The
// hops keep OpenSM's default multicast spanning tree and its opensm.fdbs /
// lid-matrix dumps working, since keiro leaves mcast_build_stree NULL.
// OpenSM sends new_lft to the switches only when the engine returns success;
// the plugin stages while the self-check runs (run_engine) and withdraws if
// the check fails.
// Time O(S * L) (S switches, L = max LID), on `threads` workers (the hop
// table over LIDs, then the switches; 0: the machine's cores, capped; the
// result is the same for every count); memory O(S * L) for the hop table.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

struct osm_switch;

namespace keiro::plugin {

// osm_switch[s] is the OpenSM switch of keiro switch s (read_subnet()).
// Returns the number of LFT entries written that lead somewhere.
long install_tables(const Fabric &f, const Routing &r,
                    const std::vector<struct osm_switch *> &osm_switch, int threads = 1);

// Undoes install_tables: new_lft all OSM_NO_PATH, hop tables and port-profile
// path counters cleared, as OpenSM leaves them before any engine runs.
void withdraw_tables(const std::vector<struct osm_switch *> &osm_switch);

}  // namespace keiro::plugin
