// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Incremental re-route for engines whose SL is per (source switch,
// destination) -- keiro-acro, keiro-dl, keiro-loren (docs/rerouting.md,
// issue 16): keep the previous routing wherever the fault left it intact
// and re-route only what it broke, so that every (source, destination)
// pair still connected keeps its SL *and* its previous tables stay a valid
// description of its traffic.
//
// A fresh routing after a fault moves many routes (balance is global), and
// ACRO's or DL's VL patterns are then recomputed for the new routes: old
// SLs pinned onto them conflict (core/vlmap/vlmap.h, pins). The incremental
// route avoids that by construction:
//  1. LFTs, per destination LID d that survives (same owner GUID): switch s
//     keeps its previous out port when its whole previous path to d is
//     intact (every hop's port still leads to the same GUID); every other
//     switch takes the fresh routing's port. Loop free: intact paths end at
//     d through intact switches only, and the fresh hops form a loop-free
//     routing that either reaches d or meets an intact path. New LIDs take
//     the fresh routing's ports everywhere.
//  2. SL2VL: the previous entries, copied per (switch GUID, in port, out
//     port, SL); the entries used by intact paths with their previous SL
//     are frozen.
//  3. The (channel, VL) dependency graph of the intact paths (a subgraph of
//     the previous, checked one: acyclic) gets a topological order; then the
//     paths that changed are added one by one (graph::DynamicDag): a pair
//     that existed keeps its previous SL, a new pair (new source switch or
//     destination LID) takes the first SL below max_sls that fits; a hop
//     over a frozen or already chosen entry takes its VL, an unused entry
//     is set to the first VL among (its previous value, the VL the packet
//     arrives on, higher, lower) whose dependency closes no cycle. A path
//     that fits no allowed SL ends the attempt (false, with the reason).
// Paths are walked per (destination LID, SL, channel) once: the suffix of a
// destination-based route from a channel on is shared.
//
// The result still goes through the caller's self-check (run_engine()); a
// restored link or switch is not used by the kept routes until a routing
// from scratch (the fresh routing is preferred whenever it keeps every SL
// itself, core/previous_sls.h).
//
// Time: O(L * (S + C * σ)) for L LIDs, S switches, C channels and σ SLs in
// use, plus the Pearce-Kelly searches of the changed paths' new
// dependencies (usually a few windows). Memory: the dependency graph
// O(C * V + E), S * (P + 1)^2 * 16 bytes of entry states, O(S + C * 16) per
// destination, reused (no allocation per destination).
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/previous_sls.h"
#include "core/routing.h"

namespace keiro {

struct IncrementalStats {
  int64_t kept_entries = 0;      // (switch, LID) LFT entries kept from the previous routing
  int64_t repaired_entries = 0;  // ... taken from the fresh routing (broken paths, new LIDs)
  int64_t changed_paths = 0;     // (source switch, LID) paths that are not intact
  int64_t new_pairs = 0;         // ... of them with no previous SL (new ends)
  int64_t new_dependencies = 0;  // (channel, VL) dependencies they added
  std::string why;               // on failure: one sentence
  double seconds = 0;
};

// The incremental routing of f into out (reset here, kPerSourceSwitch), from
// prev (per source switch, with tables) and the engine's fresh routing of f
// (same scope; its LFTs repair broken paths, its CA SL2VL is copied).
// max_vls / max_sls: the budget. False (st.why set) when prev has no tables
// or a changed path fits no allowed SL.
bool incremental_reroute(const Fabric &f, const PreviousSls &prev, const Routing &fresh,
                         int max_vls, int max_sls, Routing &out, IncrementalStats &st);

}  // namespace keiro
