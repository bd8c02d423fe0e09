// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/graph.h"

#include "core/fabric.h"

namespace keiro::graph {

Graph graph_from_edges(int32_t n, std::span<const std::pair<int32_t, int32_t>> edges) {
  Graph g;
  g.first.assign(n + 1, 0);
  for (const auto &[u, v] : edges) {
    ++g.first[u + 1];
    ++g.first[v + 1];
  }
  for (int32_t v = 0; v < n; ++v) g.first[v + 1] += g.first[v];
  const size_t m = 2 * edges.size();
  g.tail.assign(m, 0);
  g.head.assign(m, 0);
  g.reverse.assign(m, -1);
  std::vector<int32_t> fill(g.first.begin(), g.first.end() - 1);
  for (const auto &[u, v] : edges) {
    const int32_t a = fill[u]++, b = fill[v]++;
    g.tail[a] = u;
    g.head[a] = v;
    g.tail[b] = v;
    g.head[b] = u;
    g.reverse[a] = b;
    g.reverse[b] = a;
  }
  return g;
}

Graph switch_graph(const Fabric &f) {
  Graph g;
  const int32_t n = f.num_switches();
  g.first.assign(n + 1, 0);
  for (int32_t s = 0; s <= n; ++s) g.first[s] = s < n ? f.out_begin(s) : f.num_channels();
  const int32_t m = f.num_channels();
  g.tail.resize(m);
  g.head.resize(m);
  g.reverse.resize(m);
  for (int32_t c = 0; c < m; ++c) {
    const Channel &ch = f.channel(c);
    g.tail[c] = ch.src;
    g.head[c] = ch.dst;
    g.reverse[c] = ch.reverse;
  }
  return g;
}

}  // namespace keiro::graph
