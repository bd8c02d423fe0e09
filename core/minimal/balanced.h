// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Balanced minimal routing: destination-based shortest paths where the
// choice among equal-cost next hops spreads the paths over the links.
//
// One destination per switch (its own LIDs and those of its terminals, every
// LMC offset). Per destination d:
//  1. BFS from d over the reversed channels: every switch's hop distance;
//  2. nearest first, every switch s takes, among its channels one hop closer
//     to d, the one that minimizes load(c) + cost(next switch), where load is
//     the number of (source, destination) terminal pairs already routed over a
//     channel and cost(d) = 0: the least-loaded *shortest* path, as DFSSSP
//     (Domke, Hoefler, Nagel, IPDPS'11) does with its edge weights, but
//     restricted to the shortest-path DAG, so every path stays minimal;
//  3. the tree's loads (subtree weight of each switch times the destination's
//     weight) are added.
// Then `refine` more passes rip up one destination at a time and route it
// again against the loads of all the others.
//
// Time O((1 + refine) * S * (S + C)); memory O(S + C) scratch allocated once
// per run, plus the S * S next-hop table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::minimal {

struct BalancedOptions {
  uint64_t seed = 0;   // 0: destinations in switch-id order; otherwise a seeded shuffle
  int32_t refine = 2;  // rip-up-and-reroute passes after the first one
};

// Weights of the switches as sources/destinations of traffic: the number of
// terminals attached, or 1 for every switch when the fabric has no terminals.
std::vector<int64_t> switch_weights(const Fabric &f);

// Fails (one line in err) when some switch cannot reach another.
bool balanced_routing(const Fabric &f, const BalancedOptions &opt, DestTrees &out,
                      std::string &err);

}  // namespace keiro::minimal
