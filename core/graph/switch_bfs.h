// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Breadth-first search over a fabric's switch-to-switch channels. Links are
// duplex (Fabric::add_link adds both channels), so the hop distances from
// src are also the distances to src.
//
// Time O(S + C) over the reached part; no allocation (the caller passes the
// distance array and a queue of S entries).
#pragma once

#include <cstdint>
#include <span>

#include "core/fabric.h"

namespace keiro::graph {

// dist[s] = hops between src and s, -1 when unreachable; order receives the
// reached switches in BFS order. Returns the number reached (including src).
inline int32_t switch_bfs(const Fabric &f, int32_t src, std::span<int32_t> dist,
                          std::span<int32_t> order) {
  for (int32_t &d : dist) d = -1;
  int32_t tail = 0;
  dist[src] = 0;
  order[tail++] = src;
  for (int32_t head = 0; head < tail; ++head) {
    const int32_t s = order[head];
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
      const int32_t t = f.channel(c).dst;
      if (dist[t] >= 0) continue;
      dist[t] = dist[s] + 1;
      order[tail++] = t;
    }
  }
  return tail;
}

}  // namespace keiro::graph
