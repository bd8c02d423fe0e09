// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl destination trees: a hand-checked example in the style of the
// paper's Fig. 3, the repair of dest_search.h, legality and minimality of
// the trees on random fabrics, and the three path-selection policies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/dl/dl.h"
#include "core/minimal/forwarding_index.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

using dl::Policy;
using dl::Restriction;

// The switches a tree path visits from s to the root of destination k.
std::vector<std::string> path(const Fabric &f, const minimal::DestTrees &t, int32_t k, int32_t s) {
  std::vector<std::string> out{f.sw(s).name};
  while (s != t.root[k]) {
    s = f.channel(t.hop(k, s)).dst;
    out.push_back(f.sw(s).name);
  }
  return out;
}

std::vector<int> layers(const Fabric &f, const dl::DlResult &r, int32_t k, int32_t s) {
  const int32_t S = f.num_switches();
  std::vector<int> out;
  for (; s != r.trees.root[k]; s = f.channel(r.trees.hop(k, s)).dst)
    out.push_back(r.rank[static_cast<size_t>(k) * S + s] / 2);
  return out;
}

int32_t dest_of(const dl::DlResult &r, int32_t sw) {
  for (int32_t k = 0; k < r.trees.num_dests(); ++k)
    if (r.trees.root[k] == sw) return k;
  return -1;
}

// Fig. 3 style: the root R with three branches A, B, Y; S and T sit three
// levels down in different branches. A zig-zag S - x - y - z - T through
// the deeper switches x and z (level 4) and a same-level link Y2 - B2 give
// short paths that up*/down* forbids.
//
//              R                 level 0
//        /     |     \    .
//      A1     Y1      B1         level 1
//      |       |       |
//      A2     Y2 ---- B2         level 2   (Y2 -> B2 is up: lower GUID)
//      |       |       |
//      S       y       T         level 3
//       \    /   \    /
//         x        z             level 4
//
// Up*/down* S -> T: S's only up link goes to A2, so S-A2-A1-R-B1-B2-T, 6 hops.
// x -> T: x-y-Y2-B2-T (up, up, up, down), 4 hops; x-y-z-T turns down -> up at z.
// DL (UD)*, 2 sub-networks: x -(1)- y -(1)- z -(0)- T, 3 hops (the down->up
// turn at z changes from layer 1 to layer 0). S -> T could use
// S -(1)- x -(0)- y -(0)- Y2 -(0)- B2 -(0)- T, 5 hops, but in one tree y
// already forwards to T through z in layer 1 (2 hops), which x (3 hops) also
// uses; S behind x would need y in layer 0. The tree keeps y and x short
// and S at 6 -- the per-pair search of the paper would give S 5, y 3 and x 4.
// With 3 sub-networks: S -(2)- x -(1)- y -(1)- z -(0)- T, 4 hops.
const std::vector<std::string> kFig3Names = {"R", "A1", "A2", "S", "B1", "B2",
                                             "T", "Y1", "Y2", "y", "x",  "z"};
enum { R, A1, A2, S_, B1, B2, T_, Y1, Y2, Y, X, Z };
Fabric fig3() {
  return fixtures::from_links(12,
                              {{R, A1},
                               {A1, A2},
                               {A2, S_},
                               {R, B1},
                               {B1, B2},
                               {B2, T_},
                               {R, Y1},
                               {Y1, Y2},
                               {Y2, Y},
                               {S_, X},
                               {X, Y},
                               {Y, Z},
                               {Z, T_},
                               {Y2, B2}},
                              {.hcas = 1, .names = kFig3Names});
}

TEST(DlFig3, ReferencePairDistances) {
  const Fabric f = fig3();
  const int32_t n = f.num_switches();
  const auto updn = fixtures::pair_distances(f, R, "ud", 1);
  EXPECT_EQ(updn[S_ * n + T_], 6);
  EXPECT_EQ(updn[X * n + T_], 4);
  const auto dl2 = fixtures::pair_distances(f, R, "ud", 2);
  EXPECT_EQ(dl2[S_ * n + T_], 5);
  EXPECT_EQ(dl2[X * n + T_], 3);
  const auto dl3 = fixtures::pair_distances(f, R, "ud", 3);
  EXPECT_EQ(dl3[S_ * n + T_], 4);
}

TEST(DlFig3, TwoSubnetworks) {
  const Fabric f = fig3();
  dl::DlOptions o;
  o.root = R;
  o.layers = 2;
  o.policy = Policy::kLowPort;
  o.slack = false;
  dl::DlResult r;
  std::string err;
  ASSERT_TRUE(dl::route(f, o, r, err)) << err;
  ASSERT_TRUE(minimal::validate_trees(f, r.trees, err)) << err;
  const int32_t k = dest_of(r, T_);
  EXPECT_EQ(path(f, r.trees, k, X), (std::vector<std::string>{"x", "y", "z", "T"}));
  EXPECT_EQ(layers(f, r, k, X), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(path(f, r.trees, k, S_),
            (std::vector<std::string>{"S", "A2", "A1", "R", "B1", "B2", "T"}));
  EXPECT_EQ(layers(f, r, k, S_), (std::vector<int>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(path(f, r.trees, k, Y1), (std::vector<std::string>{"Y1", "Y2", "B2", "T"}));
  EXPECT_EQ(layers(f, r, k, Y1), (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(r.layers_needed, 2);
  EXPECT_EQ(r.repaired_dests, 0);
}

TEST(DlFig3, ThreeSubnetworks) {
  const Fabric f = fig3();
  dl::DlOptions o;
  o.root = R;
  o.layers = 3;
  o.slack = false;
  dl::DlResult r;
  std::string err;
  ASSERT_TRUE(dl::route(f, o, r, err)) << err;
  const int32_t k = dest_of(r, T_);
  EXPECT_EQ(path(f, r.trees, k, S_), (std::vector<std::string>{"S", "x", "y", "z", "T"}));
  EXPECT_EQ(layers(f, r, k, S_), (std::vector<int>{2, 1, 1, 0}));
  EXPECT_EQ(r.layers_needed, 3);
}

// UD-(DU)* with 2 sub-networks (ranks: 0 down/L0, 1 up/L0, 2 up/L1,
// 3 down/L1), destination d:
//        R            level 0
//       / \   .
//      e   p          level 1
//      |   | \ .
//      d - q  x       level 2 (q -> d is up: d has the lower GUID)
// Greedy labels: e (1 hop, down), q (1 hop, up), R (2, down via e), p (2 hops
// via q: a down hop before an up hop of layer 0 = rank 3, down in layer 1).
// x has only p, and an up hop cannot precede rank 3 in two layers: no label.
// Repair caps x's escape path x-p-R-e-d; p then goes through R (3 hops) and
// x gets x-p-R-e-d.
TEST(DlSearch, RepairWhenAGreedyLabelBlocksALeaf) {
  const std::vector<std::string> names = {"R", "e", "p", "d", "q", "x"};
  const Fabric f = fixtures::from_links(6, {{0, 1}, {0, 2}, {1, 3}, {2, 4}, {4, 3}, {2, 5}},
                                        {.hcas = 1, .names = names});
  dl::DlOptions o;
  o.root = 0;
  o.layers = 2;
  o.restriction = Restriction::kUDThenDU;
  dl::DlResult r;
  std::string err;
  ASSERT_TRUE(dl::route(f, o, r, err)) << err;
  ASSERT_TRUE(minimal::validate_trees(f, r.trees, err)) << err;
  EXPECT_EQ(r.repaired_dests, 1);
  EXPECT_EQ(r.reruns, 1);
  const int32_t k = dest_of(r, 3);
  EXPECT_EQ(path(f, r.trees, k, 5), (std::vector<std::string>{"x", "p", "R", "e", "d"}));
  EXPECT_EQ(path(f, r.trees, k, 4), (std::vector<std::string>{"q", "d"}));
  // Without the second layer nothing needs repair: p simply goes up.
  o.layers = 1;
  ASSERT_TRUE(dl::route(f, o, r, err)) << err;
  EXPECT_EQ(r.repaired_dests, 0);
}

// Every tree on random fabrics: valid, every hop's rank is the lowest legal
// one given the next switch (so the path obeys the restriction), within the
// budget, and no shorter than the per-pair optimum of the paper's search.
TEST(DlSearch, TreesAreLegalAndNearTheBoundOnRandomFabrics) {
  double worst = 1;
  for (const char *rs : {"ud", "ud-du", "ud-dudu"})
    for (int layers = 1; layers <= 3; ++layers)
      for (uint64_t seed = 1; seed <= 4; ++seed) {
        const Fabric f =
            fixtures::from_links(32, fixtures::random_irregular_links(32, 4, seed), {.hcas = 2});
        dl::DlOptions o;
        o.slack = seed % 2 == 0;
        dl::parse_restriction(rs, o.restriction);
        o.layers = layers;
        dl::DlResult r;
        std::string err;
        ASSERT_TRUE(dl::route(f, o, r, err)) << err;
        ASSERT_TRUE(minimal::validate_trees(f, r.trees, err)) << err;
        const dl::Ranks ranks(o.restriction, layers);
        const int32_t S = f.num_switches();
        const auto bound = fixtures::pair_distances(f, r.updown.root, rs, layers);
        std::vector<int32_t> depth(S);
        for (int32_t k = 0; k < r.trees.num_dests(); ++k) {
          minimal::tree_depths(f, r.trees, k, depth);
          for (int32_t s = 0; s < S; ++s) {
            const int rank = r.rank[static_cast<size_t>(k) * S + s];
            if (s == r.trees.root[k]) {
              EXPECT_EQ(rank, -1);
              continue;
            }
            const int32_t c = r.trees.hop(k, s), t = f.channel(c).dst;
            EXPECT_EQ(rank, ranks.first(r.updown.up[c], r.rank[static_cast<size_t>(k) * S + t]));
            EXPECT_LT(rank, 2 * layers);
            EXPECT_GE(depth[s], bound[static_cast<size_t>(s) * S + r.trees.root[k]]);
          }
        }
        const double tree = dl::average_hops(f, r.trees);
        const double pair = fixtures::average_pair_hops(f, bound);
        EXPECT_GE(tree + 1e-9, pair);
        worst = std::max(worst, tree / pair);
        // Worst measured: 1.00195 (2026-11-24, these 36 cases; docs/dl.md's
        // 0.1% is over the 64-switch fabrics, dl_fabrics_test checks it there).
        EXPECT_LE(tree, pair * 1.0025) << rs << " layers " << layers << " seed " << seed;
        // (UD)* never needs the repair: every non-root switch has an up
        // channel, which may precede any rank, and the root reaches d down
        // its BFS tree path.
        if (std::string(rs) == "ud") {
          EXPECT_EQ(r.repaired_dests, 0);
        }
      }
  std::printf("DL trees vs per-pair optimum, worst ratio %.5f\n", worst);
}

struct PolicyRun {
  dl::DlResult r;
  int64_t max_efi = 0;
};

PolicyRun run_policy(const Fabric &f, Policy p, bool slack, uint64_t seed = 1) {
  PolicyRun out;
  dl::DlOptions o;
  o.policy = p;
  o.seed = seed;
  o.layers = 2;
  o.slack = slack;
  std::string err;
  EXPECT_TRUE(dl::route(f, o, out.r, err)) << err;
  EXPECT_TRUE(minimal::validate_trees(f, out.r.trees, err)) << err;
  out.max_efi = minimal::forwarding_index(f, out.r.trees).max;
  return out;
}

// The policies choose among the same equally short legal channels: hop
// counts do not depend on them (nor, with "lowest" choices, the ranks);
// low-port takes the lowest port, random varies with the seed, load-aware
// gives the lowest maximum edge forwarding index, and slack choices lower it
// further.
TEST(DlPolicy, LowPortRandomAndLoad) {
  for (const bool torus : {true, false}) {
    const char *name = torus ? "torus 8x8" : "irregular 64";
    const Fabric f = fixtures::from_links(
        64, torus ? fixtures::torus_links(8, 8) : fixtures::random_irregular_links(64, 4, 3),
        {.hcas = 4});
    const int32_t S = f.num_switches();
    int64_t load_efi[2] = {0, 0};
    for (const bool slack : {false, true}) {
      const PolicyRun low = run_policy(f, Policy::kLowPort, slack);
      const PolicyRun rnd1 = run_policy(f, Policy::kRandom, slack, 1);
      const PolicyRun rnd2 = run_policy(f, Policy::kRandom, slack, 2);
      const PolicyRun load = run_policy(f, Policy::kLoad, slack);
      if (!slack) {
        EXPECT_EQ(low.r.rank, rnd1.r.rank);
        EXPECT_EQ(low.r.rank, load.r.rank);
      }
      EXPECT_NE(rnd1.r.trees.next, rnd2.r.trees.next);
      EXPECT_NEAR(dl::average_hops(f, low.r.trees), dl::average_hops(f, load.r.trees), 1e-12);
      EXPECT_NEAR(dl::average_hops(f, low.r.trees), dl::average_hops(f, rnd1.r.trees), 1e-12);
      std::printf("%s, %s choices: max EFI lowport %lld, random %lld / %lld, load %lld\n", name,
                  slack ? "slack" : "lowest", static_cast<long long>(low.max_efi),
                  static_cast<long long>(rnd1.max_efi), static_cast<long long>(rnd2.max_efi),
                  static_cast<long long>(load.max_efi));
      EXPECT_LT(load.max_efi, low.max_efi) << name;
      EXPECT_LT(load.max_efi, rnd1.max_efi) << name;
      EXPECT_LT(load.max_efi, rnd2.max_efi) << name;
      load_efi[slack] = load.max_efi;
      if (slack) continue;

      // Low-port with lowest choices: no channel that keeps the switch's
      // label (depth, rank) on a lower port than the one taken.
      const dl::Ranks ranks(Restriction::kUD, 2);
      std::vector<int32_t> depth(S);
      int64_t choices = 0;
      for (int32_t k = 0; k < low.r.trees.num_dests(); ++k) {
        minimal::tree_depths(f, low.r.trees, k, depth);
        const int16_t *rank = low.r.rank.data() + static_cast<size_t>(k) * S;
        for (int32_t s = 0; s < S; ++s) {
          if (s == low.r.trees.root[k]) continue;
          const int32_t taken = low.r.trees.hop(k, s);
          for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
            const int32_t t = f.channel(c).dst;
            const bool eligible =
                depth[t] + 1 == depth[s] && ranks.first(low.r.updown.up[c], rank[t]) == rank[s];
            if (eligible && c != taken) ++choices;
            if (eligible) {
              EXPECT_GE(f.channel(c).src_port, f.channel(taken).src_port);
            }
          }
        }
      }
      EXPECT_GT(choices, 0);
    }
    EXPECT_LT(load_efi[1], load_efi[0]) << name;
  }
}

}  // namespace
}  // namespace keiro
