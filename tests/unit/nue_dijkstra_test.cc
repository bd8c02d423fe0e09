// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The modified Dijkstra (Algorithm 1) with local backtracking into islands
// (Section 4.6.2) and islands as shortcuts (4.6.3), on the island of Fig. 7.
#include <gtest/gtest.h>

#include <vector>

#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"
#include "core/nue/cdg.h"
#include "core/nue/dijkstra.h"
#include "core/nue/escape_paths.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro::nue {
namespace {

using fixtures::channel_between;

// Switch 0 (R) is the destination and stands for "the rest of the network";
// switches 1..7 are n1..n7 of Fig. 7a: n4 sits between n3 and n5, n3 hangs
// off n1 and n2, n5 off n6 and n7.
class NueFig7 : public ::testing::Test {
 protected:
  enum { R = 0, N1, N2, N3, N4, N5, N6, N7 };
  NueFig7()
      : f(fixtures::from_links(
            8,
            {{R, N1}, {R, N2}, {R, N7}, {N1, N3}, {N2, N3}, {N3, N4}, {N4, N5}, {N5, N6}, {N5, N7}},
            {.hcas = 1})),
        cdg(f),
        dijkstra(f, cdg),
        weight(f.num_channels(), 10) {
    weight[ch(N7, R)] = 100;  // n5 is far from the destination
    weight[ch(N3, N2)] = 20;  // n3 prefers n1
  }
  int32_t ch(int a, int b) const { return channel_between(f, a, b); }
  int32_t dep(int a, int b, int c) const { return cdg.edge(ch(a, b), ch(b, c)); }
  // Earlier routing decisions blocked n4's way out over n1 and over n7.
  void block_island() {
    cdg.set_state(dep(N4, N3, N1), CompleteCdg::kBlocked);
    cdg.set_state(dep(N4, N5, N7), CompleteCdg::kBlocked);
  }
  Fabric f;
  CompleteCdg cdg;
  CdgDijkstra dijkstra;
  std::vector<int64_t> weight;
};

TEST_F(NueFig7, ShortestPathsWithoutRestrictions) {
  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, nullptr);
  EXPECT_TRUE(o.reached_all);
  EXPECT_EQ(o.backtracks, 0);
  const auto next = dijkstra.next();
  EXPECT_EQ(next[R], -1);
  EXPECT_EQ(next[N3], ch(N3, N1));
  EXPECT_EQ(next[N4], ch(N4, N3));
  EXPECT_EQ(next[N5], ch(N5, N4));  // 40 via n4 beats 110 via n7
  dijkstra.commit();
  EXPECT_EQ(cdg.state(dep(N4, N3, N1)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N5, N4, N3)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N3, N1, R)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N3, N2, R)), CompleteCdg::kUnused);  // n2 is not n3's next hop
}

TEST_F(NueFig7, BacktrackingReachesTheIslandAndItBecomesAShortcut) {
  block_island();
  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, nullptr);
  ASSERT_TRUE(o.reached_all);
  EXPECT_EQ(o.backtracks, 1);  // n4 reached over n3's alternative c(n3,n2)
  // n5 then goes over n4 (50 instead of 110), and n5's shorter distance
  // moves n7 too (60 over n5 instead of 100 over R).
  EXPECT_EQ(o.shortcuts, 2);
  const auto next = dijkstra.next();
  EXPECT_EQ(next[N3], ch(N3, N2));
  EXPECT_EQ(next[N4], ch(N4, N3));
  EXPECT_EQ(next[N5], ch(N5, N4));
  EXPECT_EQ(next[N6], ch(N6, N5));  // n6 keeps its route, now via the shortcut
  EXPECT_EQ(next[N7], ch(N7, N5));
  dijkstra.commit();
  // The final tree's dependencies are used, the abandoned ones are not.
  EXPECT_EQ(cdg.state(dep(N4, N3, N2)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N3, N2, R)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N3, N1, R)), CompleteCdg::kUnused);  // n3's first choice, dropped
  EXPECT_EQ(cdg.state(dep(N5, N4, N3)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N6, N5, N4)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N6, N5, N7)), CompleteCdg::kUnused);
  EXPECT_EQ(cdg.state(dep(N7, N5, N4)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N4, N3, N1)), CompleteCdg::kBlocked);
  EXPECT_EQ(cdg.state(dep(N4, N5, N7)), CompleteCdg::kBlocked);
  EXPECT_EQ(cdg.log_mark(), 0u);
}

TEST_F(NueFig7, NoShortcutWhenADependantCannotFollow) {
  block_island();
  // n6's traffic could not turn towards n4 at n5: the shortcut is refused.
  cdg.set_state(dep(N6, N5, N4), CompleteCdg::kBlocked);
  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, nullptr);
  ASSERT_TRUE(o.reached_all);
  EXPECT_EQ(o.backtracks, 1);
  EXPECT_EQ(o.shortcuts, 0);
  EXPECT_EQ(dijkstra.next()[N5], ch(N5, N7));
  dijkstra.commit();
  EXPECT_EQ(cdg.state(dep(N5, N4, N3)), CompleteCdg::kUnused);
}

TEST_F(NueFig7, UnsolvableImpasseFailsAndLeavesNoTentativeState) {
  block_island();
  // n3 cannot switch to n2 for n4, and n5's other neighbour n6 leads back.
  cdg.set_state(dep(N4, N3, N2), CompleteCdg::kBlocked);
  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, nullptr);
  EXPECT_FALSE(o.reached_all);
  EXPECT_EQ(dijkstra.next()[N4], -1);
  dijkstra.abandon();
  for (int32_t e = 0; e < cdg.num_edges(); ++e) EXPECT_NE(cdg.state(e), CompleteCdg::kTentative);
  EXPECT_EQ(cdg.state(dep(N3, N1, R)), CompleteCdg::kUnused);
}

TEST_F(NueFig7, CommittedDependenciesRestrictLaterDestinations) {
  // Route towards R, then towards n4: n4's tree must not close a cycle with
  // R's (the union stays acyclic) and every switch still gets a route.
  ASSERT_TRUE(dijkstra.route(R, weight, nullptr).reached_all);
  dijkstra.commit();
  for (int32_t d = 1; d < 8; ++d) {
    const CdgDijkstra::Outcome o = dijkstra.route(d, weight, nullptr);
    ASSERT_TRUE(o.reached_all) << d;
    for (int32_t s = 0; s < 8; ++s) EXPECT_EQ(dijkstra.next()[s] < 0, s == d);
    dijkstra.commit();
  }
}

// A shortcut's shorter distance reaches the switches behind it: Fig. 7
// with an eighth switch n8 hanging off n6 and R. n8 is settled over R
// (100) before the impasse; n6, behind n5, is at 120 then. Once n5 takes
// the shortcut over n4 (50), n6 is at 60 and n8 over n6 at 70 < 100, so n8
// must move onto n6 as well (and n7 onto n5, 60 < 100). When the shorter
// distance of n5 is not passed on (n5 not queued again), n6 stays at 120
// and n8 and n7 at R.
TEST(NueShortcut, ShorterDistancePropagatesBehindTheShortcut) {
  enum { R = 0, N1, N2, N3, N4, N5, N6, N7, N8 };
  const Fabric f = fixtures::from_links(9,
                                        {{R, N1},
                                         {R, N2},
                                         {R, N7},
                                         {N1, N3},
                                         {N2, N3},
                                         {N3, N4},
                                         {N4, N5},
                                         {N5, N6},
                                         {N5, N7},
                                         {N6, N8},
                                         {N8, R}},
                                        {.hcas = 1});
  auto ch = [&](int a, int b) { return channel_between(f, a, b); };
  CompleteCdg cdg(f);
  auto dep = [&](int a, int b, int c) { return cdg.edge(ch(a, b), ch(b, c)); };
  std::vector<int64_t> weight(f.num_channels(), 10);
  weight[ch(N7, R)] = 100;
  weight[ch(N3, N2)] = 20;
  weight[ch(N8, R)] = 100;   // n8 is far from R directly ...
  weight[ch(N6, N8)] = 100;  // ... and n6 does not go over n8
  cdg.set_state(dep(N4, N3, N1), CompleteCdg::kBlocked);
  cdg.set_state(dep(N4, N5, N7), CompleteCdg::kBlocked);
  CdgDijkstra dijkstra(f, cdg);
  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, nullptr);
  ASSERT_TRUE(o.reached_all);
  EXPECT_EQ(o.backtracks, 1);
  const auto next = dijkstra.next();
  EXPECT_EQ(next[N5], ch(N5, N4));  // the first shortcut (50 instead of 110)
  EXPECT_EQ(next[N6], ch(N6, N5));
  EXPECT_EQ(next[N8], ch(N8, N6));  // 70 over n6 instead of 100 over R
  EXPECT_EQ(next[N7], ch(N7, N5));  // 60 over n5 instead of 100 over R
  EXPECT_EQ(o.shortcuts, 3);        // n5, n7, n8
  dijkstra.commit();
  EXPECT_EQ(cdg.state(dep(N8, N6, N5)), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.state(dep(N6, N5, N4)), CompleteCdg::kUsed);
  for (int32_t e = 0; e < cdg.num_edges(); ++e) EXPECT_NE(cdg.state(e), CompleteCdg::kTentative);
}

// Escape repair: the island z cannot be reached by Dijkstra nor by moving a
// single neighbour, but by moving its whole escape path (b and a) onto the
// escape tree.
//
//   R -- A -- B -- Z      escape tree (root R): R-A, A-B, B-Z, R-C, R-D
//   |\   \    |
//   | D---+   |          A prefers A->D->R (A->R is expensive),
//   C---------+          B prefers B->C->R.
TEST(NueEscapeRepair, MovesTheIslandsEscapePathWhenBacktrackingFails) {
  enum { R = 0, A, B, C, Z, D };
  const Fabric f = fixtures::from_links(6, {{R, A}, {A, B}, {B, Z}, {R, C}, {C, B}, {A, D}, {D, R}},
                                        {.hcas = 1});
  auto ch = [&](int a, int b) { return channel_between(f, a, b); };
  CompleteCdg cdg(f);
  EscapePaths escape(f);
  const graph::Graph g = graph::switch_graph(f);
  std::vector<int32_t> parent(6);
  ASSERT_EQ(graph::min_depth_spanning_tree(g, R, {}, parent), 6);
  ASSERT_EQ(parent[B], ch(A, B));
  ASSERT_EQ(parent[Z], ch(B, Z));
  escape.build(R, parent, std::vector<int32_t>{1, 0, 0, 0, 0, 0}, cdg);
  std::vector<int64_t> weight(f.num_channels(), 10);
  weight[ch(A, R)] = 100;
  // Z cannot turn towards C at B, and B's alternative over A fails because
  // A's own route goes through D.
  cdg.set_state(cdg.edge(ch(Z, B), ch(B, C)), CompleteCdg::kBlocked);
  cdg.set_state(cdg.edge(ch(B, A), ch(A, D)), CompleteCdg::kBlocked);
  CdgDijkstra dijkstra(f, cdg);

  // Without the escape paths the impasse is unsolvable.
  EXPECT_FALSE(dijkstra.route(R, weight, nullptr).reached_all);
  dijkstra.abandon();

  const CdgDijkstra::Outcome o = dijkstra.route(R, weight, &escape);
  ASSERT_TRUE(o.reached_all);
  EXPECT_EQ(o.backtracks, 0);
  EXPECT_EQ(o.repairs, 1);
  const auto next = dijkstra.next();
  EXPECT_EQ(next[Z], ch(Z, B));
  EXPECT_EQ(next[B], ch(B, A));
  EXPECT_EQ(next[A], ch(A, R));
  EXPECT_EQ(next[C], ch(C, R));
  EXPECT_EQ(next[D], ch(D, R));
  dijkstra.commit();
  for (int32_t e = 0; e < cdg.num_edges(); ++e) EXPECT_NE(cdg.state(e), CompleteCdg::kTentative);
}

}  // namespace
}  // namespace keiro::nue
