// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Breadth-first search: hop distances from one node, optionally restricted to
// the nodes and arcs of a subgraph given as masks.
//
// Time O(n' + m') over the reached part; no allocation (the caller passes the
// distance array and a queue of n entries).
#pragma once

#include <cstdint>
#include <span>

#include "core/graph/graph.h"

namespace keiro::graph {

// dist[v] = hops from src, -1 when unreachable. order receives the reached
// nodes in BFS order (non-decreasing distance). node_in / arc_in, when not
// null, hold 1 for the nodes / arcs that may be used. Returns the number of
// nodes reached (including src).
inline int32_t bfs(const Graph &g, int32_t src, std::span<int32_t> dist, std::span<int32_t> order,
                   const uint8_t *node_in = nullptr, const uint8_t *arc_in = nullptr) {
  for (int32_t &d : dist) d = -1;
  int32_t tail = 0;
  dist[src] = 0;
  order[tail++] = src;
  for (int32_t headpos = 0; headpos < tail; ++headpos) {
    const int32_t v = order[headpos];
    for (int32_t a = g.begin(v); a < g.end(v); ++a) {
      const int32_t w = g.head[a];
      if (dist[w] >= 0 || (arc_in && !arc_in[a]) || (node_in && !node_in[w])) continue;
      dist[w] = dist[v] + 1;
      order[tail++] = w;
    }
  }
  return tail;
}

}  // namespace keiro::graph
