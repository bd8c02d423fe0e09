// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The choice of VLs for one path inside one SL (core/vlmap/vlmap.h, step 2):
// a dynamic program over the hops, last hop first. State: the VL of a hop.
// A hop's cost for VL v is
//   - 0 when its table entry already holds v (agreement),
//   - kNew when the entry is unset (a new entry is set),
//   - weight * kEvict + kNew when the entry holds another VL (its users are
//     evicted; weight = the sum of their repair weights, >= their number),
// plus v (prefer low VLs). Transitions follow the VlDemand: v_j in
// [lo_j, hi_j] and descending labels (or non-increasing VLs). With the label
// order, hop j may keep the next hop's VL only if its channel ranks higher in
// that VL, and may take any higher VL, so the minimum over the next hop's
// states is a prefix minimum: O(L * V) per path and SL.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/vlmap/vl_demand.h"

namespace keiro::vlmap {

class PathDp {
 public:
  static constexpr int64_t kEvict = int64_t{1} << 32;
  static constexpr int64_t kNew = int64_t{1} << 12;
  static constexpr int64_t kInfeasible = INT64_MAX / 4;

  struct Hop {
    int32_t channel;
    uint8_t lo, hi;   // allowed VLs (already capped to max_vls - 1)
    int8_t entry_vl;  // -1: entry unset
    int64_t weight;   // eviction weight of the entry's users (0 when unset)
  };

  PathDp(const VlDemand &d, int32_t num_channels, int max_vls);
  // Returns the cost of the best vector (kInfeasible if none) and writes it
  // to vls (hops.size() entries) when feasible.
  int64_t solve(std::span<const Hop> hops, std::span<uint8_t> vls);
  // The weighted eviction part of a cost (0: the vector fits without eviction).
  static int64_t evictions(int64_t cost) { return cost / kEvict; }

 private:
  int32_t rank(int v, int32_t c) const {
    const int32_t row = v < d_.rank_rows ? v : d_.rank_rows - 1;
    return d_.rank[static_cast<size_t>(row) * C_ + c];
  }
  const VlDemand &d_;
  int32_t C_;
  int V_;
  std::vector<int64_t> best_;  // [j * V + v]
  std::vector<int8_t> arg_;    // VL of hop j+1 chosen from (j, v)
};

}  // namespace keiro::vlmap
