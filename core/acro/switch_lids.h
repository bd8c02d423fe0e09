// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Switch LIDs on up*/down* paths when every terminal route is up*/down*
// (issue 14: "ACRO finds one layer when one suffices").
//
// A switch's own LIDs (port 0: SMA, performance counters, SA answers) carry
// no CA traffic (weight 0 in the balanced routing, core/minimal/balanced.h),
// yet their minimal routes can need turns no CA route takes -- on a 3-level
// fat tree an aggregation switch reaches a top switch of another group only
// through a leaf (down, then up) -- and such turns close credit loops with
// the CA routes, so ACRO needs a second layer for them alone.
//
// The rule, with no knowledge of the topology: take the up/down directions
// keiro-dl would use (dl::default_root(), core/dl/updown.h). If every tree
// of a destination with a terminal LID is legal up*/down* there (no down
// channel followed by an up channel), route every destination that holds
// only switch LIDs on an up*/down* tree too (the shortest legal path from
// every switch, dl::DestSearch with one (UD) layer, first such channel in
// port order). All routes then lie in the up*/down* channel dependency
// graph, which is acyclic, so ACRO finds one layer (on an acyclic
// dependency graph the channel it takes next always has every successor
// reached: key (0, 0)). The switch-LID routes may be longer than minimal;
// CA routes, and so the edge forwarding index of CA traffic, do not change.
// Otherwise (some terminal route is not up*/down* there, e.g. minimal
// routes on a torus or a random fabric) nothing changes.
//
// Time O(S * (S + C)) for the root (dl::default_root()), O(K * S) for the
// legality check of K destinations, O(C + S) per switch-LID destination.
// Memory O(S + C).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"

namespace keiro::acro {

struct SwitchLidRoutes {
  int32_t root = -1;     // up/down root tried (-1: no destination with only switch LIDs)
  bool legal = false;    // every terminal tree is up*/down* from root
  int32_t rerouted = 0;  // destinations with only switch LIDs given up*/down* trees
};

// When the rule above applies, writes t with the trees of the destinations
// that hold only switch LIDs (each LID of weight 0, minimal::lid_weight())
// rewritten into out, identical trees merged (minimal::merge_identical()),
// and returns true; otherwise returns false (out unspecified; no copy is
// made unless every terminal tree is legal).
// t must be validated trees of f; out is valid too.
bool updown_switch_lids(const Fabric &f, const minimal::DestTrees &t, minimal::DestTrees &out,
                        SwitchLidRoutes &res);

// The second rule, for fabrics where some CA route of the balanced minimal
// routing is not up*/down* (a fat tree with failed links): if from root
// (keiro-dl's default_root()) the shortest legal up*/down* path between
// every two switches with terminals is as short as the shortest path, the
// caller may route every LID with the balanced routing restricted to legal
// up*/down* paths (minimal::BalancedOptions::updown): CA routes stay
// minimal, the routes from and to switches without terminals may get
// longer, and ACRO finds one layer. Writes the channels' up flags into up.
// Time O(S * (S + C)) at most (one BFS and one legal search per switch
// with terminals; stops at the first pair that up*/down* makes longer).
bool updown_keeps_terminal_routes_minimal(const Fabric &f, int32_t root, std::vector<uint8_t> &up);

// Routes for one VL (EngineInput::one_vl_routes, asked by the fixed-SL
// search, docs/fixed-sl.md): the balanced routing bo (its updown and
// consistency replaced) on legal up*/down* paths from keiro-dl's root
// (dl::default_root()). Their channel dependency graph is acyclic, so ACRO
// finds one layer; routes may be longer than minimal. Fails (err) only when
// the fabric is not connected. Time: one balanced routing plus the root's.
bool updown_balanced(const Fabric &f, minimal::BalancedOptions bo, minimal::DestTrees &out,
                     std::string &err);

}  // namespace keiro::acro
