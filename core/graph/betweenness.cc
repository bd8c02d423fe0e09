// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/betweenness.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/graph/bfs.h"

namespace keiro::graph {

std::vector<double> betweenness(const Graph &g, const uint8_t *node_in, const uint8_t *arc_in,
                                std::span<const double> weight) {
  const int32_t n = g.num_nodes();
  std::vector<double> c(n, 0.0);
  auto in = [&](int32_t v) { return !node_in || node_in[v]; };
  auto w = [&](int32_t v) { return weight.empty() ? 1.0 : weight[v]; };

  std::vector<int32_t> dist(n, -1), order(n);
  std::vector<double> sigma(n, 0.0), delta(n, 0.0);
  for (int32_t s = 0; s < n; ++s) {
    if (!in(s) || w(s) == 0.0) continue;
    // Forward: BFS from s counting shortest paths.
    int32_t tail = 0;
    dist[s] = 0;
    sigma[s] = 1.0;
    order[tail++] = s;
    for (int32_t h = 0; h < tail; ++h) {
      const int32_t v = order[h];
      for (int32_t a = g.begin(v); a < g.end(v); ++a) {
        const int32_t u = g.head[a];
        if ((arc_in && !arc_in[a]) || !in(u)) continue;
        if (dist[u] < 0) {
          dist[u] = dist[v] + 1;
          order[tail++] = u;
        }
        if (dist[u] == dist[v] + 1) sigma[u] += sigma[v];
      }
    }
    // Backward: accumulate dependencies in order of decreasing distance.
    // delta[v] = sum over successors u of sigma[v]/sigma[u] * (w(u) + delta[u]).
    for (int32_t i = tail - 1; i >= 0; --i) {
      const int32_t v = order[i];
      for (int32_t a = g.begin(v); a < g.end(v); ++a) {
        const int32_t u = g.head[a];
        if ((arc_in && !arc_in[a]) || !in(u) || dist[u] != dist[v] + 1) continue;
        delta[v] += sigma[v] / sigma[u] * (w(u) + delta[u]);
      }
      if (v != s) c[v] += w(s) * delta[v];
    }
    for (int32_t i = 0; i < tail; ++i) {
      const int32_t v = order[i];
      dist[v] = -1;
      sigma[v] = 0.0;
      delta[v] = 0.0;
    }
  }
  return c;
}

int32_t most_central(std::span<const double> centrality, const uint8_t *node_in) {
  int32_t best = -1;
  for (int32_t v = 0; v < static_cast<int32_t>(centrality.size()); ++v) {
    if (node_in && !node_in[v]) continue;
    if (best < 0) {
      best = v;
      continue;
    }
    const double a = centrality[v], b = centrality[best];
    if (a > b && a - b > 1e-9 * std::max(std::fabs(a), std::fabs(b))) best = v;
  }
  return best;
}

namespace {

// (weighted distance sum, eccentricity) of v over the nodes of nonzero weight
// in the subgraph.
std::tuple<double, int32_t> spread_from(const Graph &g, int32_t v, const uint8_t *node_in,
                                        const uint8_t *arc_in, std::span<const double> weight,
                                        std::vector<int32_t> &dist, std::vector<int32_t> &order) {
  const int32_t reached = bfs(g, v, dist, order, node_in, arc_in);
  double sum = 0;
  int32_t ecc = 0;
  for (int32_t i = 0; i < reached; ++i) {
    const int32_t t = order[i];
    const double w = weight.empty() ? 1.0 : weight[t];
    if (w == 0.0) continue;
    sum += w * dist[t];
    ecc = std::max(ecc, dist[t]);
  }
  return {sum, ecc};
}

}  // namespace

int32_t most_central(const Graph &g, std::span<const double> centrality, const uint8_t *node_in,
                     const uint8_t *arc_in, std::span<const double> weight) {
  const int32_t first = most_central(centrality, node_in);
  if (first < 0) return first;
  const double top = centrality[first];
  const int32_t n = static_cast<int32_t>(centrality.size());
  std::vector<int32_t> dist(n), order(n);
  int32_t best = first;
  auto best_key = spread_from(g, first, node_in, arc_in, weight, dist, order);
  for (int32_t v = 0; v < n; ++v) {
    if (v == first || (node_in && !node_in[v])) continue;
    if (top - centrality[v] > 1e-9 * std::max(std::fabs(top), std::fabs(centrality[v]))) continue;
    const auto key = spread_from(g, v, node_in, arc_in, weight, dist, order);
    if (key < best_key || (key == best_key && v < best)) {
      best = v;
      best_key = key;
    }
  }
  return best;
}

}  // namespace keiro::graph
