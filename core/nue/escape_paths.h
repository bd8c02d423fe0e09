// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue's escape paths (Domke et al. 2016, Section 4.2, Definition 7): a
// spanning tree S of the switch graph, rooted at the layer's central switch,
// whose tree routes from every switch to every destination switch of the
// layer are put into the complete CDG as used dependencies before any
// destination is routed. They guarantee a deadlock-free fallback route for
// every destination of the layer (the whole destination falls back, which
// keeps the routing destination-based; Section 4.6.2).
//
// The dependencies of tree routing are exactly the turns (a->x, x->b) with a
// and b tree neighbours of x, a != b, where the side of the tree behind b
// holds a destination of the layer. Tree routes are never cyclic in the CDG
// (a closed walk without U-turns does not exist in a tree), so they can be
// marked without a cycle check.
//
// build(): O(sum over x of deg_S(x)^2) <= O(S * Δ^2). route_to(): O(S), no
// allocation. Memory O(S).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace keiro {
class Fabric;
}

namespace keiro::nue {

class CompleteCdg;

// Heights for reserve_monotone_turns(): height[v] = hops from switch v to the
// nearest switch with end ports. Returns true (and fills height) only when
// the fabric is layered by them: some switch has end ports, some has none,
// and every switch-to-switch link joins heights that differ by exactly one
// (fat trees, intact or with failed links; not tori, random or dragonfly
// fabrics, which have end ports on every switch). O(S + C).
bool layered_heights(const Fabric &f, std::vector<int32_t> &height);

// Marks used, before any destination is routed, every turn (a -> x, x -> b)
// that is not a valley (x lower than both a's tail and b's head) and does
// not close a cycle with what is used already (the escape paths): the
// up-down turns that every minimal route between end ports of a layered
// fabric needs. Without valleys no cycle exists (heights change by one per
// hop, so a closed walk enters its lowest switch from above and leaves it
// upwards), so these turns can only conflict with the escape paths' own
// valleys; reserving them first keeps the later valleys (routes of switches
// around failed links, switch LIDs) from blocking them one by one. Returns
// how many were marked. O(S * Δ^2) turns plus their cycle checks; memory
// O(S) per call.
int64_t reserve_monotone_turns(std::span<const int32_t> height, CompleteCdg &cdg);

class EscapePaths {
 public:
  explicit EscapePaths(const Fabric &f);

  // parent_channel[v] = channel (parent -> v) of the tree, -1 for the root.
  // dest_count[v] > 0 marks the destination switches of the layer. Marks the
  // escape dependencies used in cdg under one fresh ω label and returns how
  // many were marked. all_turns: every turn between tree neighbours, also
  // towards sides without a destination of the layer -- the tree is then a
  // multicast tree that fits the layer's routes whatever its members
  // (core/mcast/trees.h, docs/multicast.md).
  int64_t build(int32_t root, std::span<const int32_t> parent_channel,
                std::span<const int32_t> dest_count, CompleteCdg &cdg, bool all_turns = false);

  // next[v] = channel from v towards d along the tree; next[d] = -1.
  void route_to(int32_t d, std::span<int32_t> next);

  int32_t root() const { return root_; }

 private:
  std::vector<int32_t> dst_, rev_;   // per channel
  std::vector<int32_t> tree_first_;  // per switch + 1
  std::vector<int32_t> tree_out_;    // tree channels leaving each switch
  std::vector<int32_t> queue_;
  std::vector<uint32_t> seen_;
  uint32_t epoch_ = 0;
  int32_t root_ = -1;
};

}  // namespace keiro::nue
