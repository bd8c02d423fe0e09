// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/spanning_tree.h"

#include <vector>

#include "core/graph/bfs.h"

namespace keiro::graph {

int32_t min_depth_spanning_tree(const Graph &g, int32_t root, std::span<const int64_t> arc_cost,
                                std::span<int32_t> parent_arc) {
  const int32_t n = g.num_nodes();
  std::vector<int32_t> dist(n), order(n);
  const int32_t reached = bfs(g, root, dist, order);
  for (int32_t &p : parent_arc) p = -1;
  auto cost = [&](int32_t a) { return arc_cost.empty() ? 0 : arc_cost[a]; };
  std::vector<int32_t> children(n, 0);
  // Every node picks the cheapest arc from the previous level, then the
  // parent with the fewest children so far (a bushy tree spreads the load of
  // its root paths), then the smallest arc id. Scanning the arcs leaving v
  // and using their reverses keeps this O(m).
  for (int32_t i = 1; i < reached; ++i) {
    const int32_t v = order[i];
    int32_t best = -1;
    for (int32_t a = g.begin(v); a < g.end(v); ++a) {
      const int32_t u = g.head[a];
      if (dist[u] != dist[v] - 1) continue;
      const int32_t in = g.reverse[a];  // arc u -> v
      if (in < 0) continue;
      if (best < 0 || cost(in) < cost(best) ||
          (cost(in) == cost(best) && (children[u] < children[g.tail[best]] ||
                                      (children[u] == children[g.tail[best]] && in < best))))
        best = in;
    }
    parent_arc[v] = best;
    if (best >= 0) ++children[g.tail[best]];
  }
  return reached;
}

}  // namespace keiro::graph
