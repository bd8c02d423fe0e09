// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The complete CDG, the ω labels and the cycle search of Algorithm 3
// (conditions a-d).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "core/nue/cdg.h"
#include "core/nue/omega.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro::nue {
namespace {

using fixtures::channel_between;

TEST(NueOmega, FreshMergeAndFind) {
  OmegaLabels w;
  w.reset(6, 8);
  EXPECT_EQ(w.of(0), 0);
  const int32_t a = w.fresh(), b = w.fresh(), c = w.fresh();
  EXPECT_NE(a, b);
  EXPECT_GE(a, 1);
  w.assign(0, a);
  w.assign(1, b);
  w.assign(2, c);
  EXPECT_NE(w.of(0), w.of(1));
  EXPECT_EQ(w.merge(a, b), w.of(0));
  EXPECT_EQ(w.of(0), w.of(1));
  EXPECT_NE(w.of(0), w.of(2));
  EXPECT_EQ(w.merge(b, a), w.of(1));  // already one subgraph: no merge
  EXPECT_EQ(w.merges(), 1);
  w.merge(c, a);
  EXPECT_EQ(w.of(2), w.of(0));
  EXPECT_EQ(w.of(3), 0);
  EXPECT_EQ(w.merges(), 2);
}

TEST(NueCdg, EdgesAreAllTurnsButUTurns) {
  // Triangle 0-1-2 plus a second (parallel) link 0-1.
  const Fabric f = fixtures::from_links(3, {{0, 1}, {1, 2}, {2, 0}, {0, 1}});
  CompleteCdg cdg(f);
  int64_t expect = 0;
  for (int32_t a = 0; a < f.num_channels(); ++a) expect += f.degree(f.channel(a).dst) - 1;
  EXPECT_EQ(cdg.num_edges(), expect);
  std::set<int32_t> ids;
  int parallel_turns = 0;
  for (int32_t a = 0; a < f.num_channels(); ++a) {
    for (int32_t b = 0; b < f.num_channels(); ++b) {
      const int32_t e = cdg.edge(a, b);
      const bool continues = f.channel(b).src == f.channel(a).dst;
      if (!continues || b == f.channel(a).reverse) {
        EXPECT_EQ(e, -1);
        continue;
      }
      ASSERT_GE(e, 0);
      ASSERT_LT(e, cdg.num_edges());
      EXPECT_TRUE(ids.insert(e).second) << "duplicate edge id";
      if (f.channel(b).dst == f.channel(a).src) ++parallel_turns;  // back over the other link
      EXPECT_EQ(cdg.state(e), CompleteCdg::kUnused);
    }
  }
  EXPECT_EQ(static_cast<int64_t>(ids.size()), expect);
  EXPECT_EQ(parallel_turns, 4);  // 0->1->0 and 1->0->1, over either link first
}

class NueCdgRing : public ::testing::Test {
 protected:
  // Ring 0-1-2-3-0; c[i] = channel i -> i+1.
  NueCdgRing() : f(fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}})), cdg(f) {
    for (int i = 0; i < 4; ++i) c[i] = channel_between(f, i, (i + 1) % 4);
  }
  bool use(int i, int j, bool block = true) {
    return cdg.try_use(c[i], c[j], cdg.edge(c[i], c[j]), block);
  }
  CompleteCdg::State state(int i, int j) { return cdg.state(cdg.edge(c[i], c[j])); }
  Fabric f;
  CompleteCdg cdg;
  int32_t c[4];
};

TEST_F(NueCdgRing, ConditionsAToD) {
  // (c) two unused channels: a fresh subgraph, no search.
  EXPECT_TRUE(use(0, 1));
  EXPECT_EQ(state(0, 1), CompleteCdg::kTentative);
  EXPECT_NE(cdg.omega(c[0]), 0);
  EXPECT_EQ(cdg.omega(c[0]), cdg.omega(c[1]));
  // (c) another disjoint subgraph.
  EXPECT_TRUE(use(2, 3));
  EXPECT_NE(cdg.omega(c[2]), cdg.omega(c[0]));
  // (c) joining the two: merge, no search.
  EXPECT_TRUE(use(1, 2));
  EXPECT_EQ(cdg.omega(c[0]), cdg.omega(c[3]));
  EXPECT_EQ(cdg.stats().merges, 1);
  EXPECT_EQ(cdg.stats().cycle_searches, 0);
  // (d) same subgraph: the DFS from c0 finds c3 -> the ring closes: blocked.
  EXPECT_FALSE(use(3, 0));
  EXPECT_EQ(state(3, 0), CompleteCdg::kBlocked);
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
  EXPECT_EQ(cdg.stats().blocked, 1);
  EXPECT_GE(cdg.stats().dfs_visits, 3);
  // (a) blocked: known without a search.
  EXPECT_FALSE(use(3, 0));
  // (b) used: known without a search.
  EXPECT_TRUE(use(0, 1));
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
}

TEST_F(NueCdgRing, ConditionDWithoutCycle) {
  // Channels in the same subgraph with no used path between them.
  const int32_t l = cdg.fresh_label();
  for (int i = 0; i < 4; ++i) cdg.assign_omega(c[i], l);
  // Against the topological order: a search, no cycle, and the order moves.
  ASSERT_GT(cdg.order_of(c[3]), cdg.order_of(c[0]));
  EXPECT_TRUE(use(3, 0));
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
  EXPECT_EQ(cdg.stats().blocked, 0);
  EXPECT_EQ(state(3, 0), CompleteCdg::kTentative);
  EXPECT_LT(cdg.order_of(c[3]), cdg.order_of(c[0]));
  // Along the order: known acyclic without any search.
  ASSERT_LT(cdg.order_of(c[1]), cdg.order_of(c[2]));
  EXPECT_TRUE(use(1, 2));
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
}

TEST_F(NueCdgRing, UsedEdgesFromEarlierDestinationsCount) {
  const int32_t l = cdg.fresh_label();
  cdg.mark_used(c[0], c[1], l);
  cdg.mark_used(c[1], c[2], l);
  EXPECT_EQ(state(0, 1), CompleteCdg::kUsed);
  EXPECT_EQ(cdg.omega(c[2]), cdg.omega(c[0]));
  EXPECT_TRUE(use(2, 3));          // (c): c3 was unused
  EXPECT_FALSE(use(3, 0, false));  // (d) cycle, but not blocked on request
  EXPECT_EQ(state(3, 0), CompleteCdg::kUnused);
  EXPECT_EQ(cdg.stats().blocked, 0);
}

TEST_F(NueCdgRing, CycleOfUsedEdgesBlocksEvenOnRequest) {
  const int32_t l = cdg.fresh_label();
  cdg.mark_used(c[0], c[1], l);
  cdg.mark_used(c[1], c[2], l);
  cdg.mark_used(c[2], c[3], l);
  // (d) the cycle closes over used edges only: it is permanent for the
  // layer, so (3, 0) is blocked although the caller asked not to block.
  EXPECT_FALSE(use(3, 0, false));
  EXPECT_EQ(state(3, 0), CompleteCdg::kBlocked);
  EXPECT_EQ(cdg.stats().blocked, 1);
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
  EXPECT_FALSE(use(3, 0, false));  // (a): no second search
  EXPECT_EQ(cdg.stats().cycle_searches, 1);
}

TEST_F(NueCdgRing, RollbackAndCommit) {
  EXPECT_TRUE(use(0, 1));
  const size_t mark = cdg.log_mark();
  EXPECT_TRUE(use(1, 2));
  EXPECT_TRUE(use(2, 3));
  cdg.rollback(mark);
  EXPECT_EQ(state(0, 1), CompleteCdg::kTentative);
  EXPECT_EQ(state(1, 2), CompleteCdg::kUnused);
  EXPECT_EQ(state(2, 3), CompleteCdg::kUnused);
  // Released edges no longer take part in cycles: 3->0 is fine now.
  EXPECT_TRUE(use(2, 3));
  EXPECT_TRUE(use(3, 0));
  const int32_t keep[] = {cdg.edge(c[0], c[1]), cdg.edge(c[3], c[0])};
  cdg.commit(keep);
  EXPECT_EQ(state(0, 1), CompleteCdg::kUsed);
  EXPECT_EQ(state(3, 0), CompleteCdg::kUsed);
  EXPECT_EQ(state(2, 3), CompleteCdg::kUnused);
  EXPECT_EQ(cdg.log_mark(), 0u);
  // reset() starts a new layer.
  cdg.reset();
  EXPECT_EQ(state(0, 1), CompleteCdg::kUnused);
  EXPECT_EQ(cdg.omega(c[0]), 0);
}

// Property test: random sequences of try_use / rollback / commit on a random
// fabric. try_use must agree with a brute-force reachability test, the used
// + tentative edges must stay acyclic, and the topological order must hold.
// Returns the number of dependencies that closed a cycle and the number accepted.
std::pair<int, int> exercise_cdg(const Fabric &f, uint32_t seed, int steps) {
  CompleteCdg cdg(f);
  std::mt19937 rng(seed);
  const int32_t nc = f.num_channels();
  auto active = [&](int32_t e) {
    return cdg.state(e) == CompleteCdg::kUsed || cdg.state(e) == CompleteCdg::kTentative;
  };
  // Is `to` reachable from `from` over active edges?
  auto reaches = [&](int32_t from, int32_t to) {
    return fixtures::reaches(nc, from, to, [&](int32_t x, auto visit) {
      for (int32_t y = 0; y < nc; ++y) {
        const int32_t e = cdg.edge(x, y);
        if (e >= 0 && active(e)) visit(y);
      }
    });
  };
  int cycles = 0, accepted = 0;
  for (int step = 0; step < steps; ++step) {
    const int32_t a = static_cast<int32_t>(rng() % nc);
    const int32_t v = f.channel(a).dst;
    const int32_t b = f.out_begin(v) + static_cast<int32_t>(rng() % f.degree(v));
    const int32_t e = cdg.edge(a, b);
    if (e < 0) continue;
    const bool was_active = active(e), was_blocked = cdg.state(e) == CompleteCdg::kBlocked;
    const bool closes = !was_active && reaches(b, a);
    const bool ok = cdg.try_use(a, b, e, rng() % 2);
    if (was_blocked) {
      EXPECT_FALSE(ok);
    } else {
      EXPECT_EQ(ok, was_active || !closes) << "step " << step;
    }
    cycles += closes;
    accepted += ok;
    if (step % 50 == 49) {
      if (rng() % 2) {
        cdg.rollback(cdg.log_mark() / 2);
      } else {
        std::vector<int32_t> keep;
        for (int32_t x = 0; x < cdg.num_edges(); ++x)
          if (cdg.state(x) == CompleteCdg::kTentative && rng() % 3) keep.push_back(x);
        cdg.commit(keep);
      }
    }
    if (step % 500 == 499) {
      for (int32_t x = 0; x < nc; ++x)
        for (int32_t y = 0; y < nc; ++y) {
          const int32_t xy = cdg.edge(x, y);
          if (xy >= 0 && active(xy)) {
            EXPECT_LT(cdg.order_of(x), cdg.order_of(y));
          }
        }
    }
  }
  return {cycles, accepted};
}

TEST(NueCdgProperty, AgreesWithBruteForceAndKeepsTheOrder) {
  const Fabric f = fixtures::from_links(12, fixtures::random_regular_links(12, 4, 3));
  const auto [cycles, accepted] = exercise_cdg(f, 11, 3000);
  EXPECT_GT(cycles, 10);
  EXPECT_GT(accepted, 100);
}

// The two-way search on more seeds and a denser fabric: meeting in the
// middle, either set moving alone, and full swaps all occur.
TEST(NueCdgProperty, TwoWaySearchOnMoreSeeds) {
  const Fabric f = fixtures::from_links(16, fixtures::random_regular_links(16, 6, 5));
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    const auto [cycles, accepted] = exercise_cdg(f, seed, 4000);
    EXPECT_GT(cycles, 10) << "seed " << seed;
    EXPECT_GT(accepted, 100) << "seed " << seed;
  }
}

// Switches with more than 64 out-edges per channel: the active-edge masks
// take two words.
TEST(NueCdgProperty, WideSwitches) {
  fixtures::Links links;
  for (int i = 0; i < 40; ++i) links.push_back({0, 1});
  for (int i = 0; i < 40; ++i) links.push_back({1, 2});
  for (int i = 0; i < 30; ++i) links.push_back({2, 0});
  const Fabric f = fixtures::from_links(3, links);
  ASSERT_GT(f.degree(1), 65);
  const auto [cycles, accepted] = exercise_cdg(f, 7, 3000);
  EXPECT_GT(cycles, 10);
  EXPECT_GT(accepted, 100);
}

}  // namespace
}  // namespace keiro::nue
