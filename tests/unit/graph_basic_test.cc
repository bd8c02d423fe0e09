// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Graph container, BFS (Graph and Fabric variants) and the indexed heap.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/fabric.h"
#include "core/graph/bfs.h"
#include "core/graph/graph.h"
#include "core/graph/indexed_heap.h"

namespace keiro::graph {
namespace {

using Edges = std::vector<std::pair<int32_t, int32_t>>;

TEST(GraphBasic, FromEdgesBuildsReverseArcs) {
  const Edges e = {{0, 1}, {1, 2}, {0, 1}};  // a parallel edge
  const Graph g = graph_from_edges(3, e);
  ASSERT_EQ(g.num_nodes(), 3);
  ASSERT_EQ(g.num_arcs(), 6);
  EXPECT_EQ(g.degree(0), 2);
  EXPECT_EQ(g.degree(1), 3);
  EXPECT_EQ(g.degree(2), 1);
  for (int32_t a = 0; a < g.num_arcs(); ++a) {
    const int32_t r = g.reverse[a];
    ASSERT_GE(r, 0);
    EXPECT_EQ(g.reverse[r], a);
    EXPECT_EQ(g.tail[r], g.head[a]);
    EXPECT_EQ(g.head[r], g.tail[a]);
    EXPECT_GE(a, g.begin(g.tail[a]));
    EXPECT_LT(a, g.end(g.tail[a]));
  }
}

TEST(GraphBasic, SwitchGraphUsesChannelIds) {
  Fabric f;
  for (int i = 0; i < 3; ++i) f.add_switch({static_cast<uint64_t>(0x10 + i), "s", 4});
  f.add_link(0, 1, 1, 1);
  f.add_link(1, 2, 2, 1);
  f.add_link(2, 2, 0, 2);
  f.finalize();
  const Graph g = switch_graph(f);
  ASSERT_EQ(g.num_arcs(), f.num_channels());
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    EXPECT_EQ(g.tail[c], f.channel(c).src);
    EXPECT_EQ(g.head[c], f.channel(c).dst);
    EXPECT_EQ(g.reverse[c], f.channel(c).reverse);
  }
  for (int32_t s = 0; s < 3; ++s) {
    EXPECT_EQ(g.begin(s), f.out_begin(s));
    EXPECT_EQ(g.end(s), f.out_end(s));
  }
}

TEST(GraphBasic, BfsDistancesAndMasks) {
  // 0-1-2-3 path plus 0-4-3 shortcut of length 2.
  const Graph g = graph_from_edges(5, Edges{{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}});
  std::vector<int32_t> dist(5), order(5);
  EXPECT_EQ(bfs(g, 0, dist, order), 5);
  EXPECT_EQ(dist, (std::vector<int32_t>{0, 1, 2, 2, 1}));
  for (int i = 1; i < 5; ++i) EXPECT_LE(dist[order[i - 1]], dist[order[i]]);
  // Without node 4 the shortcut is gone.
  std::vector<uint8_t> node_in = {1, 1, 1, 1, 0};
  EXPECT_EQ(bfs(g, 0, dist, order, node_in.data()), 4);
  EXPECT_EQ(dist[3], 3);
  EXPECT_EQ(dist[4], -1);
  // Without the arcs of edge {1,2} (both directions) node 2 is reached via 3.
  std::vector<uint8_t> arc_in(g.num_arcs(), 1);
  for (int32_t a = 0; a < g.num_arcs(); ++a)
    if ((g.tail[a] == 1 && g.head[a] == 2) || (g.tail[a] == 2 && g.head[a] == 1)) arc_in[a] = 0;
  EXPECT_EQ(bfs(g, 0, dist, order, nullptr, arc_in.data()), 5);
  EXPECT_EQ(dist[2], 3);
}

TEST(IndexedHeap, PopsInKeyOrderWithDecreaseKey) {
  IndexedHeap<StoredKeys<int64_t>> h;
  h.resize(100);
  std::mt19937 rng(7);
  std::vector<int64_t> key(100);
  for (int i = 0; i < 100; ++i) {
    key[i] = rng() % 1000;
    h.push_or_decrease(i, key[i]);
  }
  for (int i = 0; i < 100; i += 3) {
    key[i] -= 500;
    h.push_or_decrease(i, key[i]);
  }
  h.push_or_decrease(5, key[5] + 10);  // a larger key is ignored
  int64_t last = -1000000;
  int32_t last_item = -1;
  std::vector<char> popped(100, 0);
  for (int i = 0; i < 100; ++i) {
    ASSERT_FALSE(h.empty());
    const int32_t item = h.pop();
    EXPECT_FALSE(popped[item]);
    popped[item] = 1;
    EXPECT_GE(key[item], last);
    if (key[item] == last) {
      EXPECT_GT(item, last_item);  // ties by id
    }
    last = key[item];
    last_item = item;
    EXPECT_FALSE(h.contains(item));
  }
  EXPECT_TRUE(h.empty());
}

TEST(IndexedHeap, ClearEmptiesAndAllowsReuse) {
  IndexedHeap<StoredKeys<int64_t>> h;
  h.resize(4);
  h.push_or_decrease(2, 5);
  h.push_or_decrease(3, 1);
  EXPECT_EQ(h.size(), 2);
  h.clear();
  EXPECT_TRUE(h.empty());
  EXPECT_FALSE(h.contains(2));
  h.push_or_decrease(2, 9);
  h.push_or_decrease(1, 9);
  EXPECT_EQ(h.pop(), 1);
  EXPECT_EQ(h.pop(), 2);
}

// Keys kept by the caller (ACRO's use): a compound key (a, b) with ties by
// a priority permutation; every item starts in the heap and keys only fall.
TEST(IndexedHeap, CallerKeysPopInCompoundKeyOrder) {
  const int n = 50;
  std::mt19937 rng(11);
  std::vector<int32_t> a(n), b(n), prio(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(rng() % 4);
    b[i] = static_cast<int32_t>(rng() % 5);
    prio[i] = n - 1 - i;
  }
  auto less = [&](int32_t x, int32_t y) {
    if (a[x] != a[y]) return a[x] < a[y];
    if (b[x] != b[y]) return b[x] < b[y];
    return prio[x] < prio[y];
  };
  IndexedHeap<CallerKeys<decltype(less)>> h({less});
  h.build(n);
  EXPECT_EQ(h.size(), n);
  // Lower some keys while they are in the heap.
  for (int i = 0; i < n; i += 7) {
    if (a[i] > 0) --a[i];
    b[i] = 0;
    h.decreased(i);
  }
  std::vector<int32_t> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = i;
  std::sort(expected.begin(), expected.end(), less);
  std::vector<int32_t> popped;
  while (!h.empty()) {
    EXPECT_EQ(h.top(), expected[popped.size()]);
    popped.push_back(h.pop());
    EXPECT_FALSE(h.contains(popped.back()));
  }
  EXPECT_EQ(popped, expected);
  // build() refills the heap for another round.
  h.build(3);
  EXPECT_EQ(h.size(), 3);
  EXPECT_TRUE(h.contains(2));
}

// The Fabric variant and the Graph variant of the one BFS agree, visiting
// order included (switch_graph keeps the channel ids as arc ids).
TEST(GraphBasic, SwitchBfsEqualsGraphBfs) {
  Fabric f;
  for (int i = 0; i < 6; ++i) f.add_switch({static_cast<uint64_t>(0x10 + i), "s", 8});
  const Edges links = {{0, 3}, {0, 1}, {1, 2}, {3, 4}, {4, 5}, {2, 5}, {0, 3}};
  std::vector<uint8_t> next_port(6, 1);
  for (const auto &[u, v] : links) f.add_link(u, next_port[u]++, v, next_port[v]++);
  f.finalize();
  const Graph g = switch_graph(f);
  std::vector<int32_t> d1(6), o1(6), d2(6), o2(6);
  for (int32_t src = 0; src < 6; ++src) {
    EXPECT_EQ(switch_bfs(f, src, d1, o1), 6);
    EXPECT_EQ(bfs(g, src, d2, o2), 6);
    EXPECT_EQ(d1, d2);
    EXPECT_EQ(o1, o2);
  }
  EXPECT_EQ(d1, (std::vector<int32_t>{3, 2, 1, 2, 1, 0}));  // from switch 5
  EXPECT_EQ(o1, (std::vector<int32_t>{5, 4, 2, 3, 1, 0}));
}

}  // namespace
}  // namespace keiro::graph
