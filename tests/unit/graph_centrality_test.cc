// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Convex subgraph, Brandes betweenness and the min-depth spanning tree on
// small graphs with known answers.
#include <gtest/gtest.h>

#include <vector>

#include "core/graph/betweenness.h"
#include "core/graph/convex_subgraph.h"
#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"

namespace keiro::graph {
namespace {

using Edges = std::vector<std::pair<int32_t, int32_t>>;

Graph ring(int n) {
  Edges e;
  for (int i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
  return graph_from_edges(n, e);
}

TEST(Betweenness, PathGraph) {
  // 0-1-2-3-4: node i lies on the shortest paths of i*(4-i) unordered pairs.
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const std::vector<double> c = betweenness(g, nullptr, nullptr);
  const double expect[5] = {0, 6, 8, 6, 0};  // ordered pairs: 2 * i * (4 - i)
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(c[i], expect[i]) << i;
  EXPECT_EQ(most_central(c, nullptr), 2);
}

TEST(Betweenness, StarAndRing) {
  // Star with centre 0 and 4 leaves: the centre is on all 4*3 ordered leaf pairs.
  const Graph star = graph_from_edges(5, Edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  const std::vector<double> cs = betweenness(star, nullptr, nullptr);
  EXPECT_DOUBLE_EQ(cs[0], 12.0);
  for (int i = 1; i < 5; ++i) EXPECT_DOUBLE_EQ(cs[i], 0.0);
  // C5: every node is the unique middle of one pair at distance 2.
  const std::vector<double> c5 = betweenness(ring(5), nullptr, nullptr);
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(c5[i], 2.0);
  EXPECT_EQ(most_central(c5, nullptr), 0);  // ties: smallest id
  // C4: opposite nodes have two shortest paths, each middle gets half.
  const std::vector<double> c4 = betweenness(ring(4), nullptr, nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(c4[i], 1.0);
}

TEST(Betweenness, WeightsAndSubgraph) {
  // Path 0-1-2-3-4 with only the end points weighted: only paths 0<->4
  // count, and every inner node is on both.
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const std::vector<double> w = {1, 0, 0, 0, 1};
  const std::vector<double> c = betweenness(g, nullptr, nullptr, w);
  EXPECT_DOUBLE_EQ(c[0], 0.0);
  EXPECT_DOUBLE_EQ(c[1], 2.0);
  EXPECT_DOUBLE_EQ(c[2], 2.0);
  EXPECT_DOUBLE_EQ(c[3], 2.0);
  // Weight 3 on node 0 triples its pairs.
  const std::vector<double> w3 = {3, 0, 0, 0, 1};
  EXPECT_DOUBLE_EQ(betweenness(g, nullptr, nullptr, w3)[2], 6.0);
  // Restricted to the subgraph {0,1,2}: 1 is the only middle node.
  const std::vector<uint8_t> in = {1, 1, 1, 0, 0};
  const std::vector<double> cs = betweenness(g, in.data(), nullptr);
  EXPECT_DOUBLE_EQ(cs[1], 2.0);
  EXPECT_DOUBLE_EQ(cs[3], 0.0);
  EXPECT_EQ(most_central(cs, in.data()), 1);
}

TEST(Betweenness, ParallelArcsCountAsDistinctPaths) {
  // 0 = 1 (two parallel edges) - 2, and 0 - 3 - 2: sigma_02 = 3, two of
  // them through 1; sigma_13 = 3, two of them through 0.
  const Graph g = graph_from_edges(4, Edges{{0, 1}, {0, 1}, {1, 2}, {0, 3}, {3, 2}});
  const std::vector<double> c = betweenness(g, nullptr, nullptr);
  EXPECT_NEAR(c[1], 4.0 / 3.0, 1e-12);  // ordered pairs (0,2) and (2,0)
  EXPECT_NEAR(c[0], 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(c[3], 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(c[2], 2.0 / 3.0, 1e-12);
}

TEST(ConvexSubgraph, RingAndTree) {
  // C6 with terminals 0 and 2: the only shortest path is 0-1-2.
  ConvexSubgraph h = convex_subgraph(ring(6), std::vector<int32_t>{0, 2});
  EXPECT_EQ(h.num_nodes, 3);
  EXPECT_EQ(h.node_in, (std::vector<uint8_t>{1, 1, 1, 0, 0, 0}));
  // Terminals 0 and 3 are opposite: both halves are shortest.
  h = convex_subgraph(ring(6), std::vector<int32_t>{0, 3});
  EXPECT_EQ(h.num_nodes, 6);
  // A single terminal is its own convex subgraph.
  h = convex_subgraph(ring(6), std::vector<int32_t>{4, 4});
  EXPECT_EQ(h.num_nodes, 1);
  EXPECT_TRUE(h.node_in[4]);
  int arcs = 0;
  for (uint8_t a : h.arc_in) arcs += a;
  EXPECT_EQ(arcs, 0);
  // Tree: 0-1, 1-2, 1-3, 3-4: terminals {2,4} need 1 and 3, not 0.
  const Graph t = graph_from_edges(5, Edges{{0, 1}, {1, 2}, {1, 3}, {3, 4}});
  h = convex_subgraph(t, std::vector<int32_t>{2, 4});
  EXPECT_EQ(h.node_in, (std::vector<uint8_t>{0, 1, 1, 1, 1}));
  for (int32_t a = 0; a < t.num_arcs(); ++a)
    EXPECT_EQ(h.arc_in[a], (t.tail[a] != 0 && t.head[a] != 0) ? 1 : 0) << a;
}

TEST(ConvexSubgraph, AllTerminalsIsWholeGraph) {
  const ConvexSubgraph h = convex_subgraph(ring(5), std::vector<int32_t>{0, 1, 2, 3, 4});
  EXPECT_EQ(h.num_nodes, 5);
  for (uint8_t a : h.arc_in) EXPECT_EQ(a, 1);
}

TEST(SpanningTree, MinDepthAndCheapestParent) {
  // 0-1, 0-2, 1-3, 2-3, 3-4: node 3 can hang below 1 or 2 (depth 2).
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}});
  std::vector<int32_t> parent(5);
  EXPECT_EQ(min_depth_spanning_tree(g, 0, {}, parent), 5);
  EXPECT_EQ(parent[0], -1);
  auto parent_of = [&](int v) { return parent[v] < 0 ? -1 : g.tail[parent[v]]; };
  EXPECT_EQ(parent_of(1), 0);
  EXPECT_EQ(parent_of(2), 0);
  EXPECT_EQ(parent_of(3), 1);  // equal cost: smaller arc id
  EXPECT_EQ(parent_of(4), 3);
  for (int v = 1; v < 5; ++v) EXPECT_EQ(g.head[parent[v]], v);
  // Make the arc 1->3 expensive: 3 moves below 2.
  std::vector<int64_t> cost(g.num_arcs(), 1);
  for (int32_t a = 0; a < g.num_arcs(); ++a)
    if (g.tail[a] == 1 && g.head[a] == 3) cost[a] = 10;
  min_depth_spanning_tree(g, 0, cost, parent);
  EXPECT_EQ(parent_of(3), 2);
  // Equal cost: the parent with fewer children wins (a bushy tree).
  const Graph k = graph_from_edges(5, Edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {1, 4}, {2, 4}});
  min_depth_spanning_tree(k, 0, {}, parent);
  EXPECT_EQ(k.tail[parent[3]], 1);  // tie: smaller arc id
  EXPECT_EQ(k.tail[parent[4]], 2);  // 1 has a child already
  // Unreachable nodes keep -1.
  const Graph two = graph_from_edges(3, Edges{{0, 1}});
  std::vector<int32_t> p2(3);
  EXPECT_EQ(min_depth_spanning_tree(two, 0, {}, p2), 2);
  EXPECT_EQ(p2[2], -1);
}

TEST(SpanningTree, NoValleyParentWithHeights) {
  // Root 0 (height 1) with a lower neighbour 1 (height 0) and a higher one 2
  // (height 2); node 3 (height 1) can hang below either. Below 1 its tree
  // path would turn at a valley (0 -> 1 -> 3 both above 1), below 2 not.
  const Graph g = graph_from_edges(4, Edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  std::vector<int32_t> parent(4);
  min_depth_spanning_tree(g, 0, {}, parent);
  EXPECT_EQ(g.tail[parent[3]], 1);  // no heights: smaller arc id
  const std::vector<int32_t> height = {1, 0, 2, 1};
  min_depth_spanning_tree(g, 0, {}, parent, height);
  EXPECT_EQ(g.tail[parent[3]], 2);
  // Cost still comes first.
  std::vector<int64_t> cost(g.num_arcs(), 1);
  for (int32_t a = 0; a < g.num_arcs(); ++a)
    if (g.tail[a] == 2 && g.head[a] == 3) cost[a] = 10;
  min_depth_spanning_tree(g, 0, cost, parent, height);
  EXPECT_EQ(g.tail[parent[3]], 1);
}

TEST(SpanningTree, ConstrainedNodesChooseFirstWithHeights) {
  // 0-1, 0-2, 1-3, 2-3, 1-4: at depth 2, 3 can hang below 1 or 2, 4 only
  // below 1. In BFS order 3 takes 1 (smaller arc id) and 4 must follow it;
  // with heights (no valleys here) 4 chooses first and 3 then takes 2.
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {1, 4}});
  std::vector<int32_t> parent(5);
  min_depth_spanning_tree(g, 0, {}, parent);
  EXPECT_EQ(g.tail[parent[3]], 1);
  EXPECT_EQ(g.tail[parent[4]], 1);
  const std::vector<int32_t> flat(5, 0);
  min_depth_spanning_tree(g, 0, {}, parent, flat);
  EXPECT_EQ(g.tail[parent[3]], 2);
  EXPECT_EQ(g.tail[parent[4]], 1);
}

TEST(Betweenness, StructuralTieBreak) {
  // Path 0-1-2-3-4 weighted at the ends: 1, 2 and 3 tie (2.0 each) and have
  // the same weighted distance sum (4); 2 has the smallest eccentricity (2).
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  const std::vector<double> w = {1, 0, 0, 0, 1};
  const std::vector<double> c = betweenness(g, nullptr, nullptr, w);
  EXPECT_EQ(most_central(c, nullptr), 1);  // ties by id
  EXPECT_EQ(most_central(g, c, nullptr, nullptr, w), 2);
  // The tree 2-1-5-3-4-0 with 6 on 1: 1 and 5 both lie on 9 unordered
  // pairs (18 ordered), but 5 is closer to the rest (distance sum 11 < 12).
  const Graph t = graph_from_edges(7, Edges{{0, 4}, {1, 2}, {1, 5}, {1, 6}, {3, 4}, {3, 5}});
  const std::vector<double> ct = betweenness(t, nullptr, nullptr);
  EXPECT_DOUBLE_EQ(ct[1], 18.0);
  EXPECT_DOUBLE_EQ(ct[5], 18.0);
  EXPECT_EQ(most_central(ct, nullptr), 1);
  EXPECT_EQ(most_central(t, ct, nullptr, nullptr), 5);
}

}  // namespace
}  // namespace keiro::graph
