// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// LOREN's forwarding rule (Kawano et al., Sect. V) and its expansion into
// destination-based next hops for every switch.
//
// At switch u, a packet for switch v takes the entry <v_dst, v_next> of u's
// table whose v_dst is closest to v in Manhattan distance md(v_dst, v); ties
// go to the entry that comes first in the table, which is sorted by
// h(u, v_dst) (core/loren/tables.h). The rule depends on (u, v) only, so it
// is a destination-based routing: expanding it for every pair gives one
// next hop per (destination switch, switch), i.e. DestTrees, which
// write_lfts() turns into LFT entries for every LID (the switch's own LIDs
// and those of the terminals behind it, every LMC offset).
//
// Livelock freedom (Sect. V's proof) holds when every switch has grid
// neighbours towards every other switch, e.g. on a full rectangular grid.
// The expansion checks it anyway: following the picks from every switch
// must reach every destination without revisiting a switch.
//
// Time: O(S^2 * t) for the picks (t entries per table) plus O(S^2) for the
// livelock check. Memory: the S^2 next-hop table plus O(S) scratch.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/fabric.h"
#include "core/loren/layout.h"
#include "core/loren/tables.h"
#include "core/minimal/dest_trees.h"

namespace keiro::loren {

// Index in table of the entry the rule picks for destination switch v (the
// first entry with the smallest md(v_dst, v)); -1 for an empty table.
// table must be sorted by hops. O(t).
int32_t pick(std::span<const LorenEntry> table, const Layout &layout, int32_t v);

// Expands the rule: out gets the destinations (roots and LIDs) of shortest
// (one per switch, destination k at switch k) and next(k, u) = the channel
// of the entry u picks for k. Fails with one line in err, naming the source
// and destination switches, when a walk loops (livelock) or a table is empty.
bool forwarding(const Fabric &f, const Layout &layout, const LorenTables &tables,
                const minimal::DestTrees &shortest, minimal::DestTrees &out, std::string &err);

}  // namespace keiro::loren
