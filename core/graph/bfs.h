// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Breadth-first search: hop distances from one node. One implementation,
// bfs_over(), generic over how the neighbours of a node are listed; the
// variants below only say that:
//  - bfs():        a graph::Graph, optionally restricted to the nodes and
//                  arcs of a subgraph given as masks;
//  - switch_bfs(): a finalized Fabric's switch-to-switch channels. Links are
//                  duplex (Fabric::add_link adds both channels), so the hop
//                  distances from src are also the distances to src.
// core/topo/graph_metrics.h (adjacency lists) and core/metrics/distances.h
// (all-pairs switch distances) use the same function.
//
// Nodes are visited in FIFO order and each node's neighbours in the order
// the adjacency lists them, so order[] is the same on every run.
//
// Time O(n' + m') over the reached part; no allocation (the caller passes
// the distance array and a queue of n entries).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <span>

#include "core/fabric.h"
#include "core/graph/graph.h"

namespace keiro::graph {

// dist[v] = hops from src, -1 when unreachable; order receives the reached
// nodes in BFS order (non-decreasing distance). for_each_neighbour(v, visit)
// must call visit(w) for every neighbour w of v that may be used. Returns
// the number of nodes reached (including src). dist and order need one
// entry per node.
template <class ForEachNeighbour>
int32_t bfs_over(int32_t src, std::span<int32_t> dist, std::span<int32_t> order,
                 ForEachNeighbour &&for_each_neighbour) {
  assert(src >= 0 && static_cast<size_t>(src) < dist.size() && "bfs: source out of range");
  assert(order.size() >= dist.size() && "bfs: the queue needs one entry per node");
  std::fill(dist.begin(), dist.end(), -1);
  int32_t tail = 0;
  dist[src] = 0;
  order[tail++] = src;
  // Invariant: order[0, tail) are the nodes reached so far, in non-decreasing
  // distance; those before head have had all their neighbours visited.
  for (int32_t head = 0; head < tail; ++head) {
    const int32_t v = order[head];
    const int32_t next = dist[v] + 1;
    for_each_neighbour(v, [&](int32_t w) {
      if (dist[w] >= 0) return;
      dist[w] = next;
      order[tail++] = w;
    });
  }
  return tail;
}

// node_in / arc_in, when not null, hold 1 for the nodes / arcs of g that
// may be used.
inline int32_t bfs(const Graph &g, int32_t src, std::span<int32_t> dist, std::span<int32_t> order,
                   const uint8_t *node_in = nullptr, const uint8_t *arc_in = nullptr) {
  return bfs_over(src, dist, order, [&](int32_t v, auto &&visit) {
    for (int32_t a = g.begin(v); a < g.end(v); ++a) {
      const int32_t w = g.head[a];
      if ((arc_in && !arc_in[a]) || (node_in && !node_in[w])) continue;
      visit(w);
    }
  });
}

// dist[s] = hops between src and s, -1 when unreachable; order receives the
// reached switches in BFS order. Returns the number reached (including src).
inline int32_t switch_bfs(const Fabric &f, int32_t src, std::span<int32_t> dist,
                          std::span<int32_t> order) {
  return bfs_over(src, dist, order, [&](int32_t s, auto &&visit) {
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) visit(f.channel(c).dst);
  });
}

}  // namespace keiro::graph
