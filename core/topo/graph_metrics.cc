// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/graph_metrics.h"

#include <algorithm>

#include "core/graph/bfs.h"

namespace keiro::topo {

Adjacency adjacency(const GenFabric &g) {
  return adjacency(g, {});
}

Adjacency adjacency(const GenFabric &g, const std::vector<char> &skip) {
  Adjacency adj(g.sw.size());
  for (size_t i = 0; i < g.links.size(); ++i) {
    if (i < skip.size() && skip[i]) continue;
    adj[g.links[i].a].push_back(g.links[i].b);
    adj[g.links[i].b].push_back(g.links[i].a);
  }
  return adj;
}

void bfs(const Adjacency &adj, int32_t src, std::vector<int32_t> &dist) {
  dist.resize(adj.size());
  std::vector<int32_t> order(adj.size());
  graph::bfs_over(src, dist, order, [&](int32_t u, auto &&visit) {
    for (int32_t v : adj[u]) visit(v);
  });
}

bool connected(const Adjacency &adj) {
  if (adj.empty()) return true;
  std::vector<int32_t> d;
  bfs(adj, 0, d);
  return std::find(d.begin(), d.end(), -1) == d.end();
}

int32_t eccentricity(const Adjacency &adj, int32_t src) {
  std::vector<int32_t> d;
  bfs(adj, src, d);
  return *std::max_element(d.begin(), d.end());
}

int32_t diameter(const Adjacency &adj) {
  std::vector<int32_t> d;
  int32_t best = 0;
  for (size_t s = 0; s < adj.size(); ++s) {
    bfs(adj, static_cast<int32_t>(s), d);
    for (int32_t x : d) {
      if (x < 0) return -1;
      best = std::max(best, x);
    }
  }
  return best;
}

}  // namespace keiro::topo
