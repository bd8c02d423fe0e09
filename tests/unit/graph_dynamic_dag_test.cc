// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// graph::DynamicDag (core/graph/dynamic_dag.h): random edge insertions
// against a brute-force oracle written here (reachability by DFS over the
// accepted edges): an edge is refused exactly when its head already reaches
// its tail, and the order kept is topological after every step; undoing the
// last edges keeps it so.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "core/graph/dynamic_dag.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

bool reaches(const std::vector<std::vector<int>> &adj, int from, int to) {
  return fixtures::reaches(static_cast<int32_t>(adj.size()), from, to, [&](int32_t x, auto visit) {
    for (int y : adj[x]) visit(y);
  });
}

TEST(DynamicDag, RefusesExactlyTheEdgesThatCloseACycle) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const int n = 30;
    std::mt19937 rng(seed);
    graph::DynamicDag dag(n);
    std::vector<std::vector<int>> adj(n);
    std::vector<std::pair<int, int>> added;
    int refused = 0;
    for (int step = 0; step < 300; ++step) {
      const int u = static_cast<int>(rng() % n), v = static_cast<int>(rng() % n);
      const bool cycle = u == v || reaches(adj, v, u);
      bool fresh = false;
      const bool ok = dag.add_edge(u, v, &fresh);
      ASSERT_EQ(ok, !cycle) << "seed " << seed << " edge " << u << "->" << v;
      if (!ok) {
        ++refused;
        continue;
      }
      const bool existed = std::find(adj[u].begin(), adj[u].end(), v) != adj[u].end();
      ASSERT_EQ(fresh, !existed);
      if (fresh) {
        adj[u].push_back(v);
        added.emplace_back(u, v);
      }
    }
    EXPECT_GT(refused, 0);
    EXPECT_EQ(dag.num_edges(), static_cast<int64_t>(added.size()));
    // Undo the last 50 edges; then an edge refused before may fit again,
    // exactly when the oracle says so.
    for (int k = 0; k < 50 && !added.empty(); ++k) {
      const auto [u, v] = added.back();
      added.pop_back();
      dag.remove_last_edge(u, v);
      adj[u].pop_back();
    }
    for (int step = 0; step < 100; ++step) {
      const int u = static_cast<int>(rng() % n), v = static_cast<int>(rng() % n);
      const bool cycle = u == v || reaches(adj, v, u);
      bool fresh = false;
      ASSERT_EQ(dag.add_edge(u, v, &fresh), !cycle);
      if (!cycle && fresh) adj[u].push_back(v);
    }
  }
}

TEST(DynamicDag, BuildOrderFindsACycleAmongUncheckedEdges) {
  graph::DynamicDag dag(4);
  dag.add_edge_unchecked(0, 1);
  dag.add_edge_unchecked(1, 2);
  dag.add_edge_unchecked(2, 3);
  ASSERT_TRUE(dag.build_order());
  EXPECT_FALSE(dag.add_edge(3, 0));
  EXPECT_TRUE(dag.add_edge(0, 3));
  dag.add_edge_unchecked(3, 1);
  EXPECT_FALSE(dag.build_order());
}

}  // namespace
}  // namespace keiro
