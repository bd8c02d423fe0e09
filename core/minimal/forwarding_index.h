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

}  // namespace keiro::minimal
