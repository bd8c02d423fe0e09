// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A second pass over one destination's routing tree (keiro's addition to
// Nue, Algorithm 2 after line 10; docs/nue.md, "3-level folded Clos").
//
// Nue's Dijkstra fixes a switch's next hop when the switch settles, before
// the sources behind it are known: on a 3-level folded Clos a top switch
// picks its way down into the destination's pod at distance 2, and the
// leaves of the other pods, which carry the traffic, settle last and find
// those choices made. The in-run balance cannot see the subtree a choice
// will carry, so a destination often reaches its leaf over part of the
// leaf's down-links only.
//
// The pass re-chooses the next hops of switches with children in the tree
// (the others carry only their own sources, which the settle-time balance
// saw), farthest switch first, when the subtree behind each switch is
// final: among the channels to a switch one hop
// closer in the tree (the path length stays the same, the tree stays a
// tree), whose dependencies with the switch's children and with the next
// hop's own channel the layer's CDG holds already as used (no new
// dependency, so no cycle search and no cycle), it takes the one whose path
// to the destination has the smallest bottleneck: the largest channel
// weight plus this destination's load on it (the switch's subtree added).
// Ties keep the Dijkstra's choice. Deterministic; ids break no tie.
//
// Time per destination O(S + sum over switches of candidates x (children +
// tree depth)); memory O(S + C).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/nue/cdg.h"

namespace keiro {
class Fabric;
}

namespace keiro::nue {

class TreeBalance {
 public:
  // ch: the channel arrays of the layer's CDG (CompleteCdg::channels()).
  TreeBalance(const Fabric &f, const ChannelIndex &ch);

  // next: per switch the channel towards destination switch d (-1 at d),
  // every switch reached; rewritten in place. weight: channel weights of
  // the layer (Nue's line 11); cdg: the layer's CDG after the destination
  // was committed. Fills top_down with every switch, d first, each after
  // its next hop (for ChannelLoad::add_tree). Returns the switches moved.
  int64_t run(int32_t d, std::span<int32_t> next, std::span<const int64_t> weight,
              const CompleteCdg &cdg, std::vector<int32_t> &top_down);

 private:
  // The best channel for v (its current one on ties or when no other fits).
  int32_t choose(int32_t v, std::span<const int32_t> next, std::span<const int64_t> weight,
                 const CompleteCdg &cdg) const;
  // Adds delta to the subtree load of every switch on v's path after v.
  void add_path(int32_t v, std::span<const int32_t> next, int64_t delta);

  const std::vector<int32_t> &dst_, &out_begin_;  // ChannelIndex: channel heads, CSR
  std::vector<int64_t> sources_;                  // per switch: 1 + end ports (as ChannelLoad)
  std::vector<int64_t> sub_;                      // per switch: subtree sources
  std::vector<int32_t> depth_, child_first_, child_list_;
};

}  // namespace keiro::nue
