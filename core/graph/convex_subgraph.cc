// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/convex_subgraph.h"

#include "core/graph/bfs.h"

namespace keiro::graph {

ConvexSubgraph convex_subgraph(const Graph &g, std::span<const int32_t> terminals) {
  const int32_t n = g.num_nodes();
  ConvexSubgraph h;
  h.node_in.assign(n, 0);
  h.arc_in.assign(g.num_arcs(), 0);

  std::vector<uint8_t> is_terminal(n, 0);
  std::vector<int32_t> tlist;
  for (int32_t t : terminals) {
    if (!is_terminal[t]) tlist.push_back(t);
    is_terminal[t] = 1;
  }
  for (int32_t t : tlist) h.node_in[t] = 1;
  h.num_nodes = static_cast<int32_t>(tlist.size());
  if (h.num_nodes == n) {  // every node is a terminal: the whole graph
    h.arc_in.assign(g.num_arcs(), 1);
    return h;
  }

  std::vector<int32_t> dist(n), order(n), queue(n);
  std::vector<int32_t> seen(n, -1);  // stamp = index of the current source in tlist
  for (size_t xi = 0; xi < tlist.size(); ++xi) {
    const int32_t x = tlist[xi];
    // Forward step: hop distances from x.
    bfs(g, x, dist, order);
    // Backward step: walk the shortest-path DAG from every other terminal
    // back towards x; every node and arc met lies on a shortest x-y path.
    int32_t qt = 0;
    const auto stamp = static_cast<int32_t>(xi);
    for (int32_t y : tlist) {
      if (y == x || dist[y] < 0) continue;
      seen[y] = stamp;
      queue[qt++] = y;
    }
    for (int32_t qh = 0; qh < qt; ++qh) {
      const int32_t v = queue[qh];
      for (int32_t a = g.begin(v); a < g.end(v); ++a) {
        const int32_t u = g.head[a];
        if (dist[u] < 0 || dist[u] + 1 != dist[v]) continue;
        // The edge {u, v} is on a shortest path from x to some terminal.
        h.arc_in[a] = 1;
        if (g.reverse[a] >= 0) h.arc_in[g.reverse[a]] = 1;
        if (!h.node_in[u]) {
          h.node_in[u] = 1;
          ++h.num_nodes;
        }
        if (seen[u] != stamp) {
          seen[u] = stamp;
          queue[qt++] = u;
        }
      }
    }
  }
  return h;
}

}  // namespace keiro::graph
