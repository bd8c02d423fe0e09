// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Channel weights for Nue's path balancing (Domke et al. 2016, Section 4.4,
// as in DFSSSP): every switch-to-switch channel starts at W0 = L^2 (L = number
// of destination LIDs), large enough that a path with one more hop costs more
// than any load difference, and after each destination LID is routed every
// channel of its routing tree gains the number of source ports (the switch
// itself plus its CA/router ports) whose route to that LID crosses it.
//
// add_tree(): O(S) with no allocation (subtree sums over the routing tree).
// Memory O(S).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace keiro {
class Fabric;
}

namespace keiro::nue {

class ChannelLoad {
 public:
  explicit ChannelLoad(const Fabric &f);

  // The initial weight W0 for num_dest_lids destinations.
  static int64_t initial_weight(int64_t num_dest_lids) {
    const int64_t l = num_dest_lids > 0 ? num_dest_lids : 1;
    return l * l;
  }

  // next: per switch the channel towards destination switch d (-1 at d).
  // Adds to weight[c] the number of source ports whose route uses c.
  // Returns the largest weight among the channels of the tree. top_down,
  // if it lists every switch with each one after its next hop (Dijkstra's
  // settle order), saves building the children lists.
  int64_t add_tree(int32_t d, std::span<const int32_t> next, std::span<int64_t> weight,
                   std::span<const int32_t> top_down = {});

 private:
  std::vector<int32_t> dst_;      // per channel
  std::vector<int64_t> sources_;  // per switch: 1 + attached end ports
  std::vector<int32_t> child_first_, child_list_, order_;
  std::vector<int64_t> load_;
};

}  // namespace keiro::nue
