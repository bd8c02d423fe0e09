// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Hands a checked Routing to OpenSM: every switch's new_lft for LIDs
// 1..max_lid_ho (OpenSM sends the blocks that changed), and the hop matrix
// (osm_switch_set_hops on the port the LFT uses, with the hop count of that
// path; own LIDs port 0, 0 hops) plus the port-profile path counters. The
// hops keep OpenSM's default multicast spanning tree and its opensm.fdbs /
// lid-matrix dumps working, since keiro leaves mcast_build_stree NULL.
// Time O(S * L) (S switches, L = max LID); memory O(S * L) for the hop table.
#pragma once

#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

struct osm_switch;

namespace keiro::plugin {

// osm_switch[s] is the OpenSM switch of keiro switch s (read_subnet()).
// Returns the number of LFT entries written that lead somewhere.
long install_tables(const Fabric &f, const Routing &r,
                    const std::vector<struct osm_switch *> &osm_switch);

}  // namespace keiro::plugin
