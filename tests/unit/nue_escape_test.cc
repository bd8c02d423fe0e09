// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Escape paths (Definition 7) on the 5-node ring with shortcut of the Nue
// paper (Fig. 2a, 4 and 5).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/graph/betweenness.h"
#include "core/graph/convex_subgraph.h"
#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"
#include "core/nue/cdg.h"
#include "core/nue/escape_paths.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro::nue {
namespace {

using fixtures::channel_between;

// n1..n5 of the paper are switches 0..4: the ring n1-n2-n3-n4-n5-n1 and the
// shortcut n3-n5.
Fabric fig2() {
  return fixtures::from_links(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {2, 4}}, {.hcas = 1});
}

// True when the used edges of cdg contain no cycle (Kahn's algorithm).
bool used_acyclic(const Fabric &f, const CompleteCdg &cdg) {
  const int32_t n = f.num_channels();
  std::vector<std::vector<int32_t>> out(n);
  std::vector<int32_t> indeg(n, 0);
  for (int32_t a = 0; a < n; ++a)
    for (int32_t b = 0; b < n; ++b) {
      const int32_t e = cdg.edge(a, b);
      if (e >= 0 && cdg.state(e) == CompleteCdg::kUsed) out[a].push_back(b), ++indeg[b];
    }
  std::vector<int32_t> q;
  for (int32_t v = 0; v < n; ++v)
    if (!indeg[v]) q.push_back(v);
  int32_t done = 0;
  while (!q.empty()) {
    const int32_t v = q.back();
    q.pop_back();
    ++done;
    for (int32_t w : out[v])
      if (--indeg[w] == 0) q.push_back(w);
  }
  return done == n;
}

int64_t used_edges(const CompleteCdg &cdg) {
  int64_t n = 0;
  for (int32_t e = 0; e < cdg.num_edges(); ++e) n += cdg.state(e) == CompleteCdg::kUsed;
  return n;
}

struct Escape {
  int64_t marked;
  std::vector<int32_t> parent;
};

Escape build(const Fabric &f, CompleteCdg &cdg, EscapePaths &esc, int32_t root,
             const std::vector<int32_t> &dest_count) {
  const graph::Graph g = graph::switch_graph(f);
  std::vector<int32_t> parent(f.num_switches());
  EXPECT_EQ(graph::min_depth_spanning_tree(g, root, {}, parent), f.num_switches());
  cdg.reset();
  const int64_t marked = esc.build(root, parent, dest_count, cdg);
  return {marked, parent};
}

TEST(NueEscape, Fig4AllDestinationsRootN5) {
  const Fabric f = fig2();
  CompleteCdg cdg(f);
  EscapePaths esc(f);
  const Escape e = build(f, cdg, esc, 4, {1, 1, 1, 1, 1});
  // The tree of Fig. 4 drops n1-n2 (or, equivalently for this count, n2-n3)
  // and n3-n4: every node hangs directly below n5 except n2.
  for (int v : {0, 2, 3}) EXPECT_EQ(f.channel(e.parent[v]).src, 4) << v;
  EXPECT_EQ(e.parent[4], -1);
  // With every node a destination, every turn inside the tree is an escape
  // dependency: n5 has 3 tree neighbours (6 turns), n2's parent 2 (2 turns).
  EXPECT_EQ(e.marked, 8);
  EXPECT_EQ(used_edges(cdg), 8);
  EXPECT_TRUE(used_acyclic(f, cdg));
  // All escape channels and dependencies share one ω.
  const int32_t w = cdg.omega(e.parent[0]);
  EXPECT_NE(w, 0);
  for (int v : {0, 1, 2, 3}) EXPECT_EQ(cdg.omega(e.parent[v]), w);
  // Every tree route towards any destination only uses marked dependencies
  // and reaches the destination.
  std::vector<int32_t> next(5);
  for (int32_t d = 0; d < 5; ++d) {
    esc.route_to(d, next);
    EXPECT_EQ(next[d], -1);
    for (int32_t s = 0; s < 5; ++s) {
      int32_t cur = s, hops = 0;
      while (cur != d && hops < 5) {
        const int32_t c = next[cur];
        ASSERT_GE(c, 0);
        const int32_t nxt = f.channel(c).dst;
        if (nxt != d) {
          const int32_t dep = cdg.edge(c, next[nxt]);
          ASSERT_GE(dep, 0);
          EXPECT_EQ(cdg.state(dep), CompleteCdg::kUsed);
        }
        cur = nxt;
        ++hops;
      }
      EXPECT_EQ(cur, d);
    }
  }
}

TEST(NueEscape, Fig5CentralRootInducesFewerDependencies) {
  const Fabric f = fig2();
  const std::vector<int32_t> dests = {1, 1, 1, 0, 0};  // N^d = {n1, n2, n3}
  // Section 4.3: the most central node w.r.t. {n1, n2, n3} on the convex
  // subgraph is n2.
  const graph::Graph g = graph::switch_graph(f);
  const graph::ConvexSubgraph h = graph::convex_subgraph(g, std::vector<int32_t>{0, 1, 2});
  EXPECT_EQ(h.node_in, (std::vector<uint8_t>{1, 1, 1, 0, 1}));  // n1-n5-n3 is shortest too
  const std::vector<double> w(dests.begin(), dests.end());
  const std::vector<double> c = graph::betweenness(g, h.node_in.data(), h.arc_in.data(), w);
  EXPECT_EQ(graph::most_central(c, h.node_in.data()), 1);

  CompleteCdg cdg(f);
  EscapePaths esc(f);
  // Root n2: four initial channel dependencies (Fig. 5, right).
  const Escape central = build(f, cdg, esc, 1, dests);
  EXPECT_EQ(central.marked, 4);
  EXPECT_TRUE(used_acyclic(f, cdg));
  // Root n5 needs more (Fig. 5, left): the routes of n4 and n5 into the
  // destinations add turns at n5 and n3.
  const Escape far = build(f, cdg, esc, 4, dests);
  EXPECT_GT(far.marked, central.marked);
  EXPECT_EQ(far.marked, 6);
  EXPECT_TRUE(used_acyclic(f, cdg));
}

TEST(NueEscape, NoDestinationsBehindALeafMeansNoTurnIntoIt) {
  // Path 0-1-2 with the destination at 0 only: traffic never turns towards 2.
  const Fabric f = fixtures::from_links(3, {{0, 1}, {1, 2}});
  CompleteCdg cdg(f);
  EscapePaths esc(f);
  const Escape e = build(f, cdg, esc, 1, {1, 0, 0});
  EXPECT_EQ(e.marked, 1);  // only 2->1->0
  const int32_t dep = cdg.edge(channel_between(f, 2, 1), channel_between(f, 1, 0));
  EXPECT_EQ(cdg.state(dep), CompleteCdg::kUsed);
  const int32_t other = cdg.edge(channel_between(f, 0, 1), channel_between(f, 1, 2));
  EXPECT_EQ(cdg.state(other), CompleteCdg::kUnused);
}

// A k-ary 2-tree: tops 0..k-1 (no CAs), leaves k..2k-1 with one CA each;
// leaf j's port p + 1 goes to top p.
Fabric two_level(int k) {
  Fabric f;
  for (int i = 0; i < 2 * k; ++i)
    f.add_switch({0x7000 + static_cast<uint64_t>(i), (i < k ? "T" : "L") + std::to_string(i % k),
                  static_cast<uint8_t>(k + 1)});
  for (int j = 0; j < k; ++j)
    for (int p = 0; p < k; ++p)
      f.add_link(k + j, static_cast<uint8_t>(p + 1), p, static_cast<uint8_t>(j + 1));
  for (int j = 0; j < k; ++j) {
    TerminalInfo t;
    t.node_guid = 0xa00000 + 2 * static_cast<uint64_t>(j);
    t.port_guid = t.node_guid + 1;
    t.name = "H" + std::to_string(j);
    t.sw = k + j;
    t.sw_port = static_cast<uint8_t>(k + 1);
    f.add_terminal(t);
  }
  assign_lids(f, 0);
  f.finalize();
  return f;
}

TEST(NueReserve, HeightsOnlyForLayeredFabrics) {
  std::vector<int32_t> h;
  const Fabric ft = two_level(3);
  ASSERT_TRUE(layered_heights(ft, h));
  EXPECT_EQ(h, (std::vector<int32_t>{1, 1, 1, 0, 0, 0}));
  // CAs on every switch: nothing is above anything.
  EXPECT_FALSE(layered_heights(fixtures::ring(4, {.hcas = 1}), h));
  // No CAs at all: no heights.
  EXPECT_FALSE(layered_heights(fixtures::from_links(3, {{0, 1}, {1, 2}, {2, 0}}), h));
}

TEST(NueReserve, TwoLevelFatTreeReservesEveryPeakAndNoValley) {
  // By hand: a top has k in- and k out-channels, and every turn leaf a ->
  // top -> leaf b (a != b) is a peak: k * (k - 1) per top, k^2 (k - 1) in
  // all. A leaf's turns all go top -> leaf -> top: valleys, none reserved.
  for (const int k : {2, 3, 5}) {
    const Fabric f = two_level(k);
    std::vector<int32_t> h;
    ASSERT_TRUE(layered_heights(f, h));
    CompleteCdg cdg(f);
    cdg.reset();
    EXPECT_EQ(reserve_monotone_turns(h, cdg), static_cast<int64_t>(k) * k * (k - 1)) << k;
    EXPECT_EQ(used_edges(cdg), static_cast<int64_t>(k) * k * (k - 1)) << k;
    for (int32_t a = 0; a < f.num_channels(); ++a)
      for (int32_t b = 0; b < f.num_channels(); ++b) {
        const int32_t e = cdg.edge(a, b);
        if (e < 0) continue;
        const bool peak = f.channel(a).dst < k;  // turns at a top
        EXPECT_EQ(cdg.state(e), peak ? CompleteCdg::kUsed : CompleteCdg::kUnused)
            << k << ": " << f.describe(f.channel(a).src) << " -> " << f.describe(f.channel(a).dst)
            << " -> " << f.describe(f.channel(b).dst);
      }
    EXPECT_TRUE(used_acyclic(f, cdg)) << k;
  }
}

}  // namespace
}  // namespace keiro::nue
