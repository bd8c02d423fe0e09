// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// LOREN's forwarding rule (Sect. V, core/loren/forward.h): the paper's
// Fig. 4 example, livelock freedom on many random LRTs and layouts, and a
// layout with holes that does livelock.
#include <gtest/gtest.h>

#include <numeric>

#include "core/loren/forward.h"
#include "core/loren/loren.h"
#include "core/topo/rng.h"
#include "tests/bench/loren_lrt.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

// LOREN test switches are "L<i>", GUID 0x300 + i (the layouts name them).
const fixtures::Spec kL{.prefix = "L", .guid = 0x300};

// The 4 x 4 grid of the paper's Figs. 1, 3 and 4: node i at (i mod 4, i div 4).
loren::Layout grid4x4() {
  loren::Layout l;
  for (int32_t i = 0; i < 16; ++i) l.x.push_back(i % 4), l.y.push_back(i / 4);
  EXPECT_EQ(l.index(), -1);
  return l;
}

// Entries <dst, next> with their hops; channel holds the next node here.
std::vector<loren::LorenEntry> table(std::initializer_list<std::array<int32_t, 3>> rows) {
  std::vector<loren::LorenEntry> t;
  for (const auto &r : rows) {
    loren::LorenEntry e;
    e.dst = r[0];
    e.channel = r[1];
    e.hops = r[2];
    t.push_back(e);
  }
  return t;
}

TEST(LorenForward, PaperFig4From15To5) {
  const loren::Layout l = grid4x4();
  // Fig. 4a: T15, sorted by hops.
  const auto t15 =
      table({{7, 7, 1}, {10, 10, 1}, {11, 11, 1}, {14, 14, 1}, {2, 7, 2}, {3, 7, 2}, {6, 10, 2}});
  // Fig. 4b: T10.
  const auto t10 =
      table({{6, 6, 1}, {9, 9, 1}, {11, 11, 1}, {15, 15, 1}, {1, 9, 2}, {2, 6, 2}, {14, 11, 2}});
  const int32_t at15 = loren::pick(t15, l, 5);
  ASSERT_GE(at15, 0);
  EXPECT_EQ(t15[at15].dst, 6);       // md(6, 5) = 1, the smallest
  EXPECT_EQ(t15[at15].channel, 10);  // <6, 10>: on to node 10
  const int32_t at10 = loren::pick(t10, l, 5);
  ASSERT_GE(at10, 0);
  // <6,6>, <9,9> and <1,9> are all at Manhattan distance 1 from 5; the
  // table order (hops, then position) picks <6, 6>.
  EXPECT_EQ(t10[at10].dst, 6);
  EXPECT_EQ(t10[at10].channel, 6);
  EXPECT_EQ(at10, 0);
  // An exact entry always wins, and an empty table has no pick.
  EXPECT_EQ(t10[loren::pick(t10, l, 14)].dst, 14);
  EXPECT_EQ(loren::pick({}, l, 5), -1);
}

// Checks what LOREN promises on one routed fabric.
void check_routing(const Fabric &f, const loren::Layout &l, const loren::LorenRouting &r,
                   int32_t tmax) {
  const int32_t S = f.num_switches();
  std::string err;
  ASSERT_TRUE(minimal::validate_trees(f, r.trees, err)) << err;
  const loren::LorenTables &t = r.tables;
  EXPECT_GE(t.tmax, t.required);
  if (tmax > 0) {
    EXPECT_EQ(t.tmax, tmax);
  }
  // Entry of u for v (or nullptr).
  auto entry = [&](int32_t u, int32_t v) -> const loren::LorenEntry * {
    for (const loren::LorenEntry &e : t.table(u))
      if (e.dst == v) return &e;
    return nullptr;
  };
  std::vector<int32_t> dist(S);
  for (int32_t u = 0; u < S; ++u) {
    EXPECT_LE(t.size(u), t.tmax);
    int32_t last = 0;
    for (const loren::LorenEntry &e : t.table(u)) {
      EXPECT_GE(e.hops, last) << "table of " << u << " not sorted by hops";
      last = e.hops;
      // Following the entries for e.dst reaches it in e.hops hops.
      int32_t w = u, h = e.hops;
      while (w != e.dst) {
        const loren::LorenEntry *x = entry(w, e.dst);
        ASSERT_NE(x, nullptr) << "switch " << w << " on the way from " << u << " to " << e.dst;
        ASSERT_EQ(x->hops, h);
        w = f.channel(x->channel).dst;
        --h;
      }
      EXPECT_EQ(h, 0);
    }
    // Mandatory entries: every neighbour and every grid neighbour.
    for (int32_t c = f.out_begin(u); c < f.out_end(u); ++c)
      EXPECT_NE(entry(u, f.channel(c).dst), nullptr);
    for (int32_t v = 0; v < S; ++v)
      if (v != u && l.md(u, v) == 1) {
        EXPECT_NE(entry(u, v), nullptr) << u << " -> " << v;
      }
  }
  // The forwarding rule walked plainly on the tables (the oracle, not the
  // engine's expansion): no livelock, and the same next hop everywhere.
  std::vector<int32_t> next;
  ASSERT_EQ(fixtures::loren_walk(f, l, t, &next), "");
  for (int32_t k = 0; k < r.trees.num_dests(); ++k) {
    const int32_t v = r.trees.root[k];
    for (int32_t u = 0; u < S; ++u)
      if (u != v) {
        EXPECT_EQ(r.trees.hop(k, u), next[static_cast<size_t>(v) * S + u]) << u << " -> " << v;
      }
  }
  // With room for every destination LOREN is shortest-path routing.
  if (t.tmax >= S - 1) {
    EXPECT_DOUBLE_EQ(r.avg_hops, r.avg_min_hops);
    EXPECT_EQ(t.max_size(), S - 1);
  }
  EXPECT_GE(r.avg_hops, r.avg_min_hops);
  EXPECT_GE(r.max_stretch, 1.0);
}

TEST(LorenForward, LivelockFreeOnManyRandomLrts) {
  struct Size {
    int n, d, r, seeds;
  };
  int routed = 0;
  for (const Size &z : {Size{4, 4, 2, 60}, Size{6, 4, 2, 40}, Size{8, 4, 2, 25}, Size{10, 4, 3, 10},
                        Size{8, 6, 3, 10}, Size{12, 4, 4, 4}}) {
    for (int seed = 1; seed <= z.seeds; ++seed) {
      const bench::LrtFabric x = bench::make_lrt(z.n, z.d, z.r, 1, seed);
      const Fabric &f = x.f;
      const loren::Layout &l = x.l;
      const int32_t S = f.num_switches();
      for (int32_t tmax : {0, -2, S / 4, S / 2, S}) {
        loren::LorenOptions o;
        loren::LorenRouting r;
        std::string err;
        if (tmax < 0) {  // a little above the minimum
          ASSERT_TRUE(loren::route(f, l, o, r, err)) << err;
          o.tmax = r.tables.required - tmax;
        } else {
          o.tmax = tmax;
        }
        const bool ok = loren::route(f, l, o, r, err);
        if (!ok && o.tmax > 0 && o.tmax < r.tables.required) {
          EXPECT_NE(err.find("is below the"), std::string::npos) << err;
          continue;
        }
        ASSERT_TRUE(ok) << "LRT(" << S << "," << z.d << "," << z.r << ") seed " << seed << " t_max "
                        << o.tmax << ": " << err;
        check_routing(f, l, r, o.tmax);
        ++routed;
      }
    }
  }
  EXPECT_GT(routed, 500);
}

// The proof needs a full grid, not a layout-conscious graph: any connected
// graph with its switches scattered at random over a full grid is routed
// without livelock.
TEST(LorenForward, LivelockFreeOnShuffledFullGrids) {
  for (int seed = 1; seed <= 30; ++seed) {
    const bench::LrtFabric x = bench::make_lrt(6, 3, 10, 1, seed);  // r = 10: any length
    const Fabric &f = x.f;
    topo::Rng rng(seed);
    std::vector<int32_t> perm(36);
    std::iota(perm.begin(), perm.end(), 0);
    rng.shuffle(perm);
    std::vector<std::pair<int32_t, int32_t>> pos;
    for (int32_t s = 0; s < 36; ++s) pos.emplace_back(perm[s] % 6, perm[s] / 6);
    const loren::Layout l = fixtures::layout(f, pos);
    for (int32_t tmax : {0, 12, 35}) {
      loren::LorenOptions o;
      o.tmax = tmax;
      loren::LorenRouting r;
      std::string err;
      const bool ok = loren::route(f, l, o, r, err);
      if (!ok && tmax && tmax < r.tables.required) continue;
      ASSERT_TRUE(ok) << "seed " << seed << " t_max " << tmax << ": " << err;
      check_routing(f, l, r, tmax);
    }
  }
}

// A ring of five whose positions leave holes: no two switches are grid
// neighbours, so only the links are in the tables. Towards L0 (9,2), L2's
// closer entry is L3 (md 11 against 12), and L3's entries L2 and L4 are both
// at md 3, the table order picks L2: the packet bounces. (Towards L2, L0
// and L4 bounce the same way.)
TEST(LorenForward, LayoutWithHolesCanLivelock) {
  const Fabric f = fixtures::from_links(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}, kL);
  const loren::Layout l = fixtures::layout(f, {{9, 2}, {0, 5}, {10, 0}, {0, 0}, {8, 0}});
  loren::LorenOptions o;
  loren::LorenRouting r;
  std::string err;
  EXPECT_FALSE(loren::route(f, l, o, r, err));
  EXPECT_EQ(r.tables.required, 2);
  // The plain walk of the same tables finds it too (first pair in its order).
  EXPECT_EQ(fixtures::loren_walk(f, l, r.tables), "livelock from 'L2' to 'L0' at 'L2'");
  EXPECT_EQ(err,
            "livelock: LOREN's forwarding from switch 'L2' towards switch 'L0' loops through "
            "switch 'L2' (does every grid position between them hold a switch?)");
  // With room for every destination the same layout is fine.
  o.tmax = 4;
  EXPECT_TRUE(loren::route(f, l, o, r, err)) << err;
  EXPECT_EQ(fixtures::loren_walk(f, l, r.tables), "");
}

TEST(LorenForward, SmallerTablesNeverShortenPaths) {
  // Not a theorem for single pairs, but on average over a fabric the hops
  // fall as t_max grows from the minimum to the full table.
  const bench::LrtFabric x = bench::make_lrt(8, 4, 2, 1, 7);
  const Fabric &f = x.f;
  const loren::Layout &l = x.l;
  loren::LorenOptions o;
  loren::LorenRouting lo_r, hi_r;
  std::string err;
  ASSERT_TRUE(loren::route(f, l, o, lo_r, err)) << err;
  o.tmax = 63;
  ASSERT_TRUE(loren::route(f, l, o, hi_r, err)) << err;
  EXPECT_GT(lo_r.avg_hops, hi_r.avg_hops);
  EXPECT_DOUBLE_EQ(hi_r.avg_hops, hi_r.avg_min_hops);
}

}  // namespace
}  // namespace keiro
