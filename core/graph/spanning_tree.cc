// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/spanning_tree.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "core/graph/bfs.h"

namespace keiro::graph {

namespace {

// Within each BFS level of order[1, reached), the nodes with fewer candidate
// parents (arcs from the previous level) first, BFS order among equals: the
// constrained nodes choose before the others fill their parents' child
// counts, so the fewest-children rule depends less on the order of the ids.
void fewest_candidates_first(const Graph &g, const std::vector<int32_t> &dist, int32_t reached,
                             std::vector<int32_t> &order) {
  std::vector<int32_t> candidates(g.num_nodes(), 0);
  for (int32_t i = 1; i < reached; ++i)
    for (int32_t a = g.begin(order[i]); a < g.end(order[i]); ++a)
      candidates[order[i]] += dist[g.head[a]] == dist[order[i]] - 1;
  for (int32_t i = 1; i < reached;) {
    int32_t j = i;
    while (j < reached && dist[order[j]] == dist[order[i]]) ++j;
    std::stable_sort(order.begin() + i, order.begin() + j,
                     [&](int32_t a, int32_t b) { return candidates[a] < candidates[b]; });
    i = j;
  }
}

}  // namespace

int32_t min_depth_spanning_tree(const Graph &g, int32_t root, std::span<const int64_t> arc_cost,
                                std::span<int32_t> parent_arc, std::span<const int32_t> height,
                                std::span<const int64_t> valley_weight) {
  const int32_t n = g.num_nodes();
  std::vector<int32_t> dist(n), order(n);
  const int32_t reached = bfs(g, root, dist, order);
  for (int32_t &p : parent_arc) p = -1;
  std::vector<int32_t> children(n, 0);
  if (!height.empty()) fewest_candidates_first(g, dist, reached, order);
  // 1 when hanging v below u makes u a valley of the tree path (u lower than
  // its own parent and than v); 0 without heights.
  auto valley = [&](int32_t u, int32_t v) {
    if (height.empty() || parent_arc[u] < 0) return 0;
    return height[u] < height[g.tail[parent_arc[u]]] && height[u] < height[v] ? 1 : 0;
  };
  // Every node picks the cheapest arc from the previous level, then a parent
  // that is no valley, then, among valleys, the lightest one (valley_weight),
  // then the parent with the fewest children so far (a bushy tree spreads
  // the load of its root paths), then the smallest arc id.
  // Scanning the arcs leaving v and using their reverses keeps this O(m).
  for (int32_t i = 1; i < reached; ++i) {
    const int32_t v = order[i];
    int32_t best = -1;
    std::tuple<int64_t, int, int64_t, int32_t, int32_t> best_key;
    for (int32_t a = g.begin(v); a < g.end(v); ++a) {
      const int32_t u = g.head[a];
      if (dist[u] != dist[v] - 1) continue;
      const int32_t in = g.reverse[a];  // arc u -> v
      if (in < 0) continue;
      const int is_valley = valley(u, v);
      const int64_t weight = is_valley && !valley_weight.empty() ? valley_weight[u] : 0;
      const std::tuple<int64_t, int, int64_t, int32_t, int32_t> key{
          arc_cost.empty() ? 0 : arc_cost[in], is_valley, weight, children[u], in};
      if (best < 0 || key < best_key) {
        best = in;
        best_key = key;
      }
    }
    parent_arc[v] = best;
    if (best >= 0) ++children[g.tail[best]];
  }
  return reached;
}

}  // namespace keiro::graph
