// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Realization of per-hop VLs on InfiniBand tables (InfiniBand Architecture
// Specification Vol. 1, the SLtoVLMappingTable of switch ports; docs/acro.md
// section 3). IB switches do not see the VL a packet arrived on:
// the VL of hop j is SL2VL[s_j][in_j][out_j][SL], and the SL is one per
// path. This module picks
//   - one SL per (source switch, destination): Routing::set_path_sl for every
//     LID of the destination (Routing scope kPerSourceSwitch), and
//   - the SL2VL entries per (switch, in port, out port, SL),
// so that every path gets VLs its VlDemand accepts, within max_vls VLs and
// max_sls SLs.
//
// Table key: (switch, in, out, SL). Transit hops use the in port of the
// previous channel. The first hop of a path is shared by all of its sources
// on the switch -- every attached terminal (in = its port) and the switch
// itself (in = 0) -- which all use the same SL, so these in ports form one
// "source" slot whose entries are written to all of them. Hops into
// terminals or port 0 and the CA's own SL2VL are not switch-to-switch
// channels (never in a credit loop) and use VL 0.
//
// Method (kRepair, the default):
//  1. paths hardest first (most distinct VLs in their lowest acceptable VL
//     vector, then longest);
//  2. for a path and each SL, a dynamic program over the hops finds the VL
//     vector that (a) evicts the fewest placed paths (paths whose entry holds
//     another VL), then (b) sets the fewest new entries (best fit: agree with
//     what is there), then (c) uses the lowest VLs; O(L * V) per SL;
//  3. best fit: the SL with no eviction and most agreement;
//  4. if every SL needs evictions (min-conflicts repair): take the SL with
//     the smallest eviction weight, evict those paths (re-queued; a short
//     tabu keeps each from going straight back to the SL it was evicted
//     from), place the path. Every eviction raises the evicted path's weight
//     (breakout), so paths that keep being pushed out become expensive to
//     evict and the search moves on to others instead of cycling.
// Stops when every path is placed or after max_moves placements.
// kBestFit stops at step 3 and kFirstFit takes the lowest SL without
// eviction instead (paths that do not fit stay unplaced): the greedy
// baselines.
//
// With fewest_vls (default) short runs first try the fewest VLs the lowest
// acceptable vectors need, then one more, ..., before a full run with
// max_vls.
//
// Time: O(P * L) to list the P paths (average length L), O(M * max_sls * L *
// V) for M placements (M >= P; evictions add placements) plus O(P * L) per
// eviction burst. Memory: O(P * L) for the hops (about 20 bytes each) and
// 17 bytes per entry for T * max_sls entries, T = sum over switches of
// (in channels + 1) * out channels.
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vl_demand.h"

namespace keiro::vlmap {

struct VlMapOptions {
  enum Method { kFirstFit, kBestFit, kRepair };
  Method method = kRepair;
  int max_vls = 8;
  int max_sls = 16;
  uint64_t seed = 1;        // random order of equally hard paths and of equal repair moves
  int64_t max_moves = 0;    // placements allowed; 0: 40 * paths + 100000
  int32_t tabu_tenure = 0;  // moves an evicted path stays away from its SL; 0: 10
  // Try the fewest VLs first: short runs (4 moves per path) with the VLs the
  // lowest acceptable vectors need, then one more, ..., then max_vls with
  // the whole budget.
  bool fewest_vls = true;
};

struct VlMapStats {
  int64_t paths = 0;                 // (source switch, destination) pairs with at least one hop
  int64_t first_pass_misfits = 0;    // paths that found no conflict-free SL on their first
                                     // try (in the last run)
  int64_t evictions = 0, moves = 0;  // over all runs
  int64_t unplaced = 0;              // paths without an SL at the end (0 on success)
  int64_t unplaceable = 0;           // paths no VL vector within max_vls accepts at all
  int sls_used = 0, vls_used = 0;
  int min_vls = 0;  // VLs the lowest acceptable vectors need (a lower bound)
  double seconds = 0;
};

// out must have been reset for f with SlScope::kPerSourceSwitch; its LFTs
// are not touched (write_lfts() does that). On failure returns false with
// one line in err saying how many paths stayed unplaced and what was
// allowed; stats are filled either way.
bool realize(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
             const VlMapOptions &opt, Routing &out, VlMapStats &stats, std::string &err);

}  // namespace keiro::vlmap
