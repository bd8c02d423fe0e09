// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Stages a Routing in OpenSM's switch objects: every switch's new_lft for LIDs
// 1..max_lid_ho (OpenSM sends the blocks that changed), the port-profile path
// counters, and hop rows (osm_switch_set_hops on the port the LFT uses, with
// the hop count of that path; own LIDs port 0, 0 hops). keiro builds the
// multicast trees itself (plugin/mcast_trees.h); only with mcast_trees=0
// does OpenSM's builder read the rows of switch LIDs (the members' switches:
// osm_mcast_mgr.c, osm_switch_recommend_mcast_path), and there, following
// keiro's routes, it installs forwarding loops (docs/multicast.md). The SA
// walks the LFTs. Rows go to the switch LIDs at every switch and to a CA's
// or router's LIDs at its own switch, as in OpenSM's own min-hop matrix
// (osm_ucast_mgr_build_lid_matrices).
// all_hops: a row for every LID at every switch, for the opensm.fdbs and
// opensm-lid-matrix.dump that OpenSM writes with the ROUTING log flag
// (osm_dump_all): with rows for one port only, the fdbs fallback through the
// CA's switch LID would find no hop count where keiro routes the CA's LID
// on another port than its switch's. OpenSM allocates one row per (switch,
// LID), a 32- or 48-byte heap chunk: all of them would be about 4.3 GB at
// 1,900 switches of 36 ports and 47,500 LIDs, the switch LIDs' ~175 MB.
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
                    const std::vector<struct osm_switch *> &osm_switch, int threads = 1,
                    bool all_hops = true);

// Undoes install_tables: new_lft all OSM_NO_PATH, hop tables and port-profile
// path counters cleared, as OpenSM leaves them before any engine runs.
void withdraw_tables(const std::vector<struct osm_switch *> &osm_switch);

}  // namespace keiro::plugin
