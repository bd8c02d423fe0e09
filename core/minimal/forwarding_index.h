// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Edge forwarding index of a destination-based routing: how many (source
// terminal, destination terminal) routes cross each switch-to-switch channel.
// A destination's weight is the number of terminals whose base LID it holds
// (LMC offsets are not counted again); a switch's weight as a source is its
// number of terminals. Fabrics without terminals count switches instead.
//
// Time O(K * S), memory O(S + C).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::minimal {

struct ForwardingIndex {
  std::vector<int64_t> load;  // per channel
  int64_t min = 0, max = 0;
  double avg = 0;
};

ForwardingIndex forwarding_index(const Fabric &f, const DestTrees &t);

// The destinations tree k's LIDs stand for, as forwarding_index() weighs
// them: its terminals' base LIDs, or the switch base LID in a fabric without
// terminals. O(LIDs of k).
int64_t dest_weight(const Fabric &f, const DestTrees &t, int32_t k);

// A lower bound of the max forwarding index of every routing of f, minimal
// or not: the terminals of a switch of weight w send w * (T - w) routes out
// over its channels (T: all terminals) and receive as many in, so one of
// its channels out and one in carry at least that divided by their count,
// rounded up. (A leaf of a k-ary 3-tree: k (k^3 - k) / k, the leaf bound.)
// 0 for a fabric of one switch. O(S + C).
int64_t forwarding_index_bound(const Fabric &f);

}  // namespace keiro::minimal
