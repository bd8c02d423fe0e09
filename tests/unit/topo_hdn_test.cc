// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// HDN(B, k, S) against Li and Chu (NPC 2013): Table 1 node counts, degree
// d0 + k, Table 3 diameters, names, and the total exchange of Algorithm 2
// against Theorem 3's step count.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/topo/graph_metrics.h"
#include "core/topo/hdn.h"
#include "core/topo/hdn_exchange.h"

namespace keiro::topo {
namespace {

constexpr uint64_t kSizes[8] = {1, 2, 3, 5, 6, 10, 15, 30};

GenFabric hdn(const std::string &S, int k) {
  TopoOptions o;
  o.hcas = 0;
  return gen_hdn(parse_hdn("2x3x5", k, S), o);
}

TEST(TopoHdn, Table1LevelOneGeneratedCountsAndDegree) {
  const uint64_t expect[8] = {1800, 900, 600, 360, 300, 180, 120, 60};
  for (int i = 0; i < 8; ++i) {
    const GenFabric g = hdn(std::to_string(kSizes[i]), 1);
    EXPECT_EQ(g.sw.size(), expect[i]) << "s1 = " << kSizes[i];
    const Adjacency adj = adjacency(g);
    for (const auto &nb : adj) ASSERT_EQ(nb.size(), 7u) << "degree d0 + 1 for s1 = " << kSizes[i];
    EXPECT_TRUE(connected(adj));
  }
}

TEST(TopoHdn, Table1LevelTwoCounts) {
  // The paper's Table 1, k = 2, rows s1, columns s2.
  const uint64_t table[8][8] = {
      {6480000, 3240000, 2160000, 1296000, 1080000, 648000, 432000, 216000},
      {1620000, 810000, 540000, 324000, 270000, 162000, 108000, 54000},
      {720000, 360000, 240000, 144000, 120000, 72000, 48000, 24000},
      {259200, 129600, 86400, 51840, 43200, 25920, 17280, 8640},
      {180000, 90000, 60000, 36000, 30000, 18000, 12000, 6000},
      {64800, 32400, 21600, 12960, 10800, 6480, 4320, 2160},
      {28800, 14400, 9600, 5760, 4800, 2880, 1920, 960},
      {7200, 3600, 2400, 1440, 1200, 720, 480, 240}};
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      EXPECT_EQ(hdn_node_count(30, {kSizes[a], kSizes[b]}), table[a][b])
          << "s1 = " << kSizes[a] << " s2 = " << kSizes[b];
  // Generated where small: counts and degree d0 + 2.
  for (const char *S : {"30,30", "30,15", "15,30", "10,30", "30,5"}) {
    const HdnSpec spec = parse_hdn("2x3x5", 2, S);
    const GenFabric g = hdn(S, 2);
    EXPECT_EQ(g.sw.size(), hdn_node_count(30, spec.sizes)) << S;
    const Adjacency adj = adjacency(g);
    for (const auto &nb : adj) ASSERT_EQ(nb.size(), 8u) << S;
    EXPECT_TRUE(connected(adj)) << S;
  }
}

TEST(TopoHdn, Table3Diameters) {
  EXPECT_EQ(diameter(adjacency(hdn("1", 1))), 10);
  EXPECT_EQ(diameter(adjacency(hdn("2", 1))), 9);
  EXPECT_EQ(diameter(adjacency(hdn("3", 1))), 9);
  // Theorem 1's D1 = 2 D(B) - D(SN) + 2 (D(B) = 4) is the length of the
  // routing algorithm's paths, an upper bound: reached for SN = C2 x C3 (8),
  // not for SN = B, where HDN(B, 1, (30)) is B x K2 with diameter 4 + 1.
  EXPECT_EQ(diameter(adjacency(hdn("6", 1))), 8);
  EXPECT_EQ(diameter(adjacency(hdn("30", 1))), 5);
}

// Table 3 for k = 2, HDN(B, 2, (5, 2)) with 129,600 nodes: the paper's diameter
// 17. The HDN is node-symmetric, so the eccentricity of any node is the
// diameter; two nodes far apart in the numbering are checked.
TEST(TopoHdn, Table3LevelTwoEccentricity) {
  const GenFabric g = hdn("5,2", 2);
  ASSERT_EQ(g.sw.size(), 129600u);
  const Adjacency adj = adjacency(g);
  EXPECT_EQ(eccentricity(adj, 0), 17);
  EXPECT_EQ(eccentricity(adj, 129599), 17);
  EXPECT_EQ(eccentricity(adj, 77777), 17);
}

// The node names carry (class, cluster, super-node, node) of level k, and a
// level-k cross-edge joins (C, U, SN, N) with (1 - C, SN, U, N).
TEST(TopoHdn, NamesAndCrossEdges) {
  const HdnSpec spec = parse_hdn("2x3x5", 2, "30,15");
  const HdnIndex idx(spec, 100000);
  TopoOptions o;
  o.hcas = 0;
  const GenFabric g = gen_hdn(spec, o);
  auto parse = [](const std::string &d, unsigned long long out[4]) {
    return std::sscanf(d.c_str(), "hdn c%llu u%llu s%llu n%llu", &out[0], &out[1], &out[2],
                       &out[3]) == 4;
  };
  for (size_t v = 0; v < g.sw.size(); ++v) {
    unsigned long long c[4];
    ASSERT_TRUE(parse(g.sw[v].desc, c)) << g.sw[v].desc;
    const HdnIndex::Coord x = idx.coord(v, 2);
    EXPECT_EQ(c[0], x.c);
    EXPECT_EQ(c[1], x.u);
    EXPECT_EQ(c[2], x.sn);
    EXPECT_EQ(c[3], x.n);
    EXPECT_EQ(idx.partner(idx.partner(v, 1), 1), v);
    EXPECT_EQ(idx.partner(idx.partner(v, 2), 2), v);
  }
  const int cross2 = 2 * 3 + 2;  // ports 1..6 for the rings, 7 level 1, 8 level 2
  int seen = 0;
  for (const GenLink &l : g.links) {
    if (l.pa != cross2) continue;
    unsigned long long a[4], b[4];
    ASSERT_TRUE(parse(g.sw[l.a].desc, a) && parse(g.sw[l.b].desc, b));
    EXPECT_EQ(a[0] + b[0], 1u);
    EXPECT_EQ(a[1], b[2]);
    EXPECT_EQ(a[2], b[1]);
    EXPECT_EQ(a[3], b[3]);
    ++seen;
  }
  EXPECT_EQ(seen, 240);
  EXPECT_EQ(describe(spec),
            "level 1: super-node C2 x C3 x C5 (rings 0,1,2), s1 = 30\n"
            "level 2: super-node C3 x C5 (rings 1,2), s2 = 15\n");
}

TEST(TopoHdn, SuperNodeChoice) {
  // 2 can be ring 0 or ring 1 of 2x2x3: the lower ring index is taken unless named.
  EXPECT_EQ(parse_hdn("2x2x3", 1, "2").masks[0], 1u);
  EXPECT_EQ(parse_hdn("2x2x3", 1, "r1").masks[0], 2u);
  EXPECT_EQ(parse_hdn("2x2x3", 1, "6").masks[0], 5u);
  EXPECT_EQ(parse_hdn("2x2x3", 1, "r1+r2").sizes[0], 6u);
  EXPECT_THROW(parse_hdn("2x3x5", 1, "4"), TopoError);
  EXPECT_THROW(parse_hdn("2x3x5", 2, "6"), TopoError);
  EXPECT_THROW(parse_hdn("2x3x5", 1, "r3"), TopoError);
}

void expect_exchange(const std::string &S, int k, int steps) {
  const HdnSpec spec = parse_hdn("2x3x5", k, S);
  const HdnIndex idx(spec, 100000);
  ExchangeModel m{3.0, 0.25, 2.0};
  const ExchangeReport r = run_total_exchange(idx, adjacency(hdn(S, k)), m);
  EXPECT_EQ(r.error, "") << S;
  EXPECT_TRUE(r.delivered) << S;
  EXPECT_EQ(r.messages, r.nodes * r.nodes);
  EXPECT_EQ(r.steps, steps) << S;
  EXPECT_EQ(r.steps, r.theorem3_steps) << S;
  EXPECT_DOUBLE_EQ(r.time, r.closed_form) << S;
}

TEST(TopoHdn, TotalExchangeLevelOne) {
  // Theorem 3: (2^2 - 2) + 2 * T_0 steps, T_0 = (2-1) + (3-1) + (5-1) = 7.
  for (const char *S : {"1", "2", "3", "5", "6", "10", "15", "30"}) expect_exchange(S, 1, 16);
}

TEST(TopoHdn, TotalExchangeLevelTwo) {
  // (2^3 - 2) + 4 * 7 = 34 steps.
  for (const char *S : {"30,30", "30,15", "15,30"}) expect_exchange(S, 2, 34);
}

TEST(TopoHdn, ExchangeChecksLinksAndPorts) {
  const HdnSpec spec = parse_hdn("2x3x5", 1, "30");
  const HdnIndex idx(spec, 1000);
  Adjacency adj = adjacency(hdn("30", 1));
  // Drop the cross-edges of node 0: the schedule must notice.
  const int32_t p = static_cast<int32_t>(idx.partner(0, 1));
  std::erase(adj[0], p);
  std::erase(adj[p], 0);
  const ExchangeReport r = run_total_exchange(idx, adj, {});
  EXPECT_NE(r.error.find("not a neighbour"), std::string::npos) << r.error;
  EXPECT_FALSE(r.delivered);
}

}  // namespace
}  // namespace keiro::topo
