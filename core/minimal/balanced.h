// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Balanced minimal routing: destination-based shortest paths where the
// choice among equal-cost next hops spreads the paths over the links.
//
// The unit routed is one destination LID (per_lid, the default: every
// terminal LID and every LMC offset, and the switch's own LIDs, each on its
// own) or one switch with all its LIDs (per_lid = false, as keiro-loren's
// per-switch tables need). Units are taken switch by switch; per switch d:
//  1. BFS from d over the reversed channels: every switch's hop distance
//     (once for all of d's units);
//  2. per unit, nearest first, every switch s takes, among its channels one
//     hop closer to d, the one that minimizes load(c) + cost(next switch),
//     where load is the number of (source terminal, destination LID) pairs
//     already routed over a channel and cost(d) = 0: the least-loaded
//     *shortest* path, as DFSSSP (Domke, Hoefler, Nagel, IPDPS'11) and Nue
//     do with their edge weights, but restricted to the shortest-path DAG,
//     so every path stays minimal. Ties, per LID: the first such channel
//     (port order), the same rule at every source, so the sources of one LID
//     stay together and its traffic enters the destination switch over one
//     link where the loads allow; a tie-break that differs from source to
//     source (the per-channel tree count, kept for per_lid = false) splits a
//     LID over several links into its switch, and those splits add up
//     unevenly (an 18-ary 3-tree: max EFI 1.95x avg instead of 1.03x);
//  3. the tree's loads (subtree weight of each switch times the unit's
//     weight) are added before the next unit is routed, so the LIDs of one
//     switch spread over equally short paths (on a fat tree: over the
//     up-links, as d-mod-k does, without knowing it is a fat tree).
// LMC: every LMC offset j has a load table of its own (offset j of every
// port is balanced among the offsets j, so the base LIDs -- the routes the
// edge forwarding index counts -- spread as evenly as with LMC 0: one
// shared table put the base LIDs of a 12-ary 3-tree at LMC 2 all on one
// up-link per leaf, max EFI 4.16x avg instead of 1.04x), and at every
// switch the channels fewest of the port's lower offsets leave through come
// first, so the offsets of one port take different links where there are
// equally short ones (as keiro-dl's path selection does).
// Then up to `refine` more passes rip up one unit at a time and route it
// again against the loads of all the others; a pass that changes no tree
// ends them (every further pass would be the same).
// Then up to `polish` passes that aim at the largest load instead of the
// sum (keiro's addition): each unit is ripped up and routed by step 2,
// then its tree is walked again farthest switch first, where the weight
// behind each switch is final, and each switch takes among its channels
// one hop nearer the one whose path to the destination has the smallest
// bottleneck (largest load plus this unit's weight on it, the switch's
// subtree included; then the smallest sum; ties keep step 2's choice). The
// unit keeps the new tree only if its own bottleneck (then sum) over the
// channels it puts weight on is lower than the old one's, so no pass raises
// the largest channel load. Step 2
// alone fixes a switch's next hop before the sources behind it are known
// (nearest first), the same blind spot as Nue's (core/nue/tree_balance.h).
// Unit weights: a terminal LID (any LMC offset) 1, a switch LID 0 (1 in a
// fabric without terminals); per switch: its terminals (or 1).
// Sources weigh their switch's terminals (or 1).
//
// Output: one destination per distinct tree (units of one switch whose
// trees coincide share it; merge_identical() order).
// Time O((1 + refine + polish) * U * (S + C) * (1 + siblings)) for U units
// (LIDs; siblings < 2^LMC), plus O(polish * U * S * a * depth) for the
// bottleneck walks (a: channels one hop nearer per switch), plus
// O((1 + refine + polish) * S * (S + C)) for the BFS. Memory O(S + C * 2^LMC + U) scratch
// plus S next hops per distinct tree (kept distinct while routing: trees
// shared by several units are stored once, freed trees reused).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::minimal {

struct BalancedOptions {
  uint64_t seed = 0;    // 0: destinations in switch-id order; otherwise a seeded shuffle
  int32_t refine = 2;   // rip-up-and-reroute passes after the first one
  int32_t polish = 0;   // bottleneck passes after those (see above); 0: none
  bool per_lid = true;  // false: one tree per switch for all its LIDs
  // Up*/down* mode: one flag per channel (1 = up, e.g. dl::UpDown::up), or
  // empty. When given, the "shortest paths" are the shortest legal
  // up*/down* ones (never a down channel followed by an up channel): per
  // destination, every switch is labelled (hops, rank) in rounds of
  // increasing hops (rank 0: its path goes only down, 1: it starts up; the
  // lower rank among equally short ones), and takes among the channels into
  // a switch one hop nearer those that keep its rank (a down channel only
  // into a rank-0 switch), so every tree is legal and as short as legal
  // paths allow. Paths may then be longer than minimal.
  std::vector<uint8_t> updown;
  // Consistent choices: > 0 makes every switch take, among its channels one
  // hop nearer whose cost is within this many percent of the cheapest (and
  // that no more sibling trees leave through), the first in port order
  // instead of the cheapest. Every destination then prefers the same turns
  // where the loads allow, so the routes of different destinations cross in
  // fewer ways: on a torus the choices follow the port (dimension) order
  // where loads are close, the channel dependencies that VLs must break
  // shrink, and ACRO needs fewer layers (10x10x10 torus with 2 or 4 HCAs
  // per switch: 4 layers instead of 6; 8x8x8: 4 instead of 5). The
  // balance given up is bounded by the tolerance; keiro-acro takes these
  // routes only when ACRO needs fewer layers on them (core/acro/engine.h).
  // 0: the cheapest, ties as above.
  int32_t consistency = 0;
};

// Weights of the switches as sources/destinations of traffic: the number of
// terminals attached, or 1 for every switch when the fabric has no terminals.
std::vector<int64_t> switch_weights(const Fabric &f);

// A LID's weight as a destination unit (see above). O(1).
int64_t lid_weight(const Fabric &f, uint16_t lid);

// Fails (one line in err) when some switch cannot reach another.
bool balanced_routing(const Fabric &f, const BalancedOptions &opt, DestTrees &out,
                      std::string &err);

}  // namespace keiro::minimal
