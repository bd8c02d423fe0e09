// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What an engine asks of the VL realization (core/vlmap/vlmap.h): which VLs
// each hop of each path may use. Engine independent; keiro-acro, keiro-dl
// and keiro-loren fill it from their own per-hop layers.
//
// A path is (source switch, destination k of the DestTrees); its hops are
// the channels next(k, s) from the source to root(k). The VLs v_0..v_{L-1}
// of a path's hops are acceptable when
//  - every v_j lies in the hop's interval [lo(k, s_j), hi(k, s_j)] (both
//    given per (destination, switch); empty vectors mean [0, max_vls - 1]),
//  - and, with `rank` given, the labels (v_j, rank_{v_j}(c_j)) strictly
//    descend along the path (lexicographically: a higher VL is a higher
//    label; inside one VL the channel order rank decides). One fixed label
//    per (channel, VL) with strictly descending labels on every path makes
//    the (channel, VL) dependency graph acyclic, whatever VLs the
//    realization picks. Rows of rank beyond rank_rows reuse the last row.
//  - or, without rank, v_j >= v_{j+1} when non_increasing is set (nothing
//    more: the caller guarantees deadlock freedom of every allowed choice).
// A fixed VL per hop is lo = hi.
// Memory: 2 * K * S bytes + rank_rows * C ints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keiro::vlmap {

struct VlDemand {
  std::vector<uint8_t> lo, hi;  // [k * S + s], or empty
  std::vector<int32_t> rank;    // [v * C + c] for v < rank_rows, or empty
  int32_t rank_rows = 0;
  bool non_increasing = false;

  bool ranked() const { return !rank.empty() && rank_rows > 0; }

  // The VLs v < V (bit v) on which a path may go from channel in on to
  // channel out without changing VL: with rank, those where rank_v(in) >
  // rank_v(out) (the label still descends); without rank, every one.
  // C: the fabric's channel count (the row length of rank). O(V).
  uint16_t same_vl_mask(int32_t in, int32_t out, int V, int32_t C) const {
    uint16_t ok = 0;
    for (int v = 0; v < V; ++v) {
      bool same = true;
      if (ranked()) {
        const int32_t row = v < rank_rows ? v : rank_rows - 1;
        const int32_t *r = rank.data() + static_cast<size_t>(row) * C;
        same = r[in] > r[out];
      }
      if (same) ok |= static_cast<uint16_t>(1u << v);
    }
    return ok;
  }
};

}  // namespace keiro::vlmap
