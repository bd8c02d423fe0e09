// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl building blocks: the hop ranks of the three restrictions against
// a brute-force reading of the paper's rules, the up/down directions and the
// default root, and the per-layer channel order handed to the VL
// realization (strictly descending on every allowed turn).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/dl/dl.h"
#include "core/dl/restriction.h"
#include "core/dl/updown.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

using dl::Ranks;
using dl::Restriction;

const char *kRestrictions[] = {"ud", "ud-du", "ud-dudu"};

Restriction parse(const std::string &s) {
  Restriction r{};
  EXPECT_TRUE(dl::parse_restriction(s, r)) << s;
  return r;
}

// Brute force: the lowest layer a path with these hop directions can start
// in, over every layer sequence that obeys the paper's rules; -1 if none.
int lowest_start_layer(const std::string &restriction, int layers, const std::vector<bool> &up) {
  const size_t L = up.size();
  // feasible[j][v][u]: hops j.. can be routed given hop j-1 was in layer v with direction u
  int best = -1;
  std::vector<int> layer(L, 0);
  for (;;) {
    bool ok = true;
    for (size_t j = 1; j < L && ok; ++j) {
      if (layer[j] > layer[j - 1])
        ok = false;
      else if (layer[j] == layer[j - 1])
        ok = fixtures::turn_ok(fixtures::layer_ud(restriction, layer[j]), up[j - 1], up[j]);
    }
    if (ok && (best < 0 || layer[0] < best)) best = layer[0];
    size_t j = 0;
    while (j < L && ++layer[j] == layers) layer[j++] = 0;
    if (j == L) break;
  }
  return best;
}

TEST(DlRanks, MatchTheRulesOfThePaperOnEveryShortPath) {
  for (const char *rs : kRestrictions)
    for (int layers = 1; layers <= 4; ++layers) {
      const Ranks ranks(parse(rs), layers);
      ASSERT_EQ(ranks.num_ranks(), 2 * layers);
      for (int len = 1; len <= 6; ++len)
        for (int bits = 0; bits < (1 << len); ++bits) {
          std::vector<bool> up(len);
          for (int j = 0; j < len; ++j) up[j] = (bits >> j) & 1;
          // Lowest legal ranks, last hop first.
          int r = -1;
          for (int j = len - 1; j >= 0 && r < ranks.num_ranks(); --j) r = ranks.first(up[j], r);
          const int expect = lowest_start_layer(rs, layers, up);
          if (expect < 0) {
            EXPECT_EQ(r, ranks.num_ranks()) << rs << " " << layers << " bits " << bits;
          } else {
            ASSERT_LT(r, ranks.num_ranks()) << rs << " " << layers << " bits " << bits;
            EXPECT_EQ(Ranks::layer_of(r), expect) << rs << " " << layers << " bits " << bits;
            EXPECT_EQ(ranks.rank_is_up(r), up[0]);
          }
        }
    }
}

TEST(DlRanks, FirstOfUdTwoLayers) {
  const Ranks r(Restriction::kUD, 2);  // 0 down L0, 1 up L0, 2 down L1, 3 up L1
  EXPECT_EQ(r.first(false, -1), 0);
  EXPECT_EQ(r.first(true, -1), 1);
  EXPECT_EQ(r.first(true, 0), 1);   // up then down: stays in layer 0
  EXPECT_EQ(r.first(false, 1), 2);  // down then up: needs layer 1
  EXPECT_EQ(r.first(true, 3), 3);
  EXPECT_EQ(r.first(false, 3), 4);            // beyond the budget
  const Ranks du(Restriction::kUDThenDU, 2);  // 2 up L1, 3 down L1
  EXPECT_TRUE(du.rank_is_up(2));
  EXPECT_FALSE(du.rank_is_up(3));
  EXPECT_EQ(du.first(false, 1), 3);  // down then up in layer 1 is allowed in DU
  EXPECT_EQ(du.first(true, 2), 2);
}

TEST(DlRanks, OptionNames) {
  Restriction r{};
  EXPECT_TRUE(dl::parse_restriction("ud-du", r));
  EXPECT_EQ(r, Restriction::kUDDU);
  EXPECT_STREQ(dl::restriction_name(r), "(UD-DU)*");
  EXPECT_TRUE(dl::parse_restriction("ud-dudu", r));
  EXPECT_STREQ(dl::restriction_name(r), "UD-(DU)*");
  EXPECT_STREQ(dl::restriction_option(r), "ud-dudu");
  EXPECT_FALSE(dl::parse_restriction("lturn", r));
  dl::Policy p{};
  EXPECT_TRUE(dl::parse_policy("lowport", p));
  EXPECT_EQ(p, dl::Policy::kLowPort);
  EXPECT_FALSE(dl::parse_policy("sancho", p));
}

TEST(DlUpDown, LevelsAndGuidTieBreak) {
  // 0 - 1, 0 - 2, 1 - 2 (same level), 2 - 3
  const Fabric f = fixtures::from_links(4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}}, {.hcas = 1});
  dl::UpDown ud;
  std::string err;
  ASSERT_TRUE(dl::build_updown(f, 0, ud, err)) << err;
  EXPECT_EQ(ud.level, (std::vector<int32_t>{0, 1, 1, 2}));
  EXPECT_EQ(ud.pos[0], 0);
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    const bool expect = (ch.src == 1 && ch.dst == 0) || (ch.src == 2 && ch.dst == 0) ||
                        (ch.src == 2 && ch.dst == 1) || (ch.src == 3 && ch.dst == 2);
    EXPECT_EQ(ud.up[c] != 0, expect) << ch.src << "->" << ch.dst;
  }
  EXPECT_EQ(fixtures::reference_up(f, 0), ud.up);
}

TEST(DlUpDown, CentralRootAndLookup) {
  // A path 0-1-2-3-4: the middle switch is the most central.
  const Fabric path5 = fixtures::from_links(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  EXPECT_EQ(dl::central_root(path5), 2);
  // A path of 4: switches 1 and 2 tie; the lower GUID (switch 1) wins.
  const Fabric path4 = fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(dl::central_root(path4), 1);
  std::string err;
  EXPECT_EQ(path4.find_switch("S3", err), 3);
  EXPECT_EQ(path4.find_switch("0x1002", err), 2);
  EXPECT_EQ(path4.find_switch("nope", err), -1);
  EXPECT_EQ(err, "'nope' names no switch (neither a switch GUID nor a node description)");
}

TEST(DlUpDown, DisconnectedFabricFails) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}}, {.hcas = 1});
  dl::UpDown ud;
  std::string err;
  EXPECT_FALSE(dl::build_updown(f, 0, ud, err));
  EXPECT_NE(err.find("not connected"), std::string::npos) << err;
}

// The channel order of every layer strictly descends across each turn the
// layer allows and rises across the one it forbids, so labels (layer, order)
// descend along every legal path.
TEST(DlVlDemand, ChannelOrderFollowsEveryLayerRule) {
  const Fabric f =
      fixtures::from_links(24, fixtures::random_irregular_links(24, 4, 7), {.hcas = 1});
  for (const char *rs : kRestrictions) {
    dl::DlOptions o;
    o.restriction = parse(rs);
    o.layers = 4;
    dl::DlResult r;
    std::string err;
    ASSERT_TRUE(dl::route(f, o, r, err)) << err;
    vlmap::VlDemand d;
    dl::vl_demand(f, r, false, d);
    ASSERT_EQ(d.rank_rows, 4);
    EXPECT_TRUE(d.lo.empty());
    const int32_t C = f.num_channels();
    for (int v = 0; v < 4; ++v)
      for (int32_t c1 = 0; c1 < C; ++c1)
        for (int32_t c2 = f.out_begin(f.channel(c1).dst); c2 < f.out_end(f.channel(c1).dst); ++c2) {
          const bool ok =
              fixtures::turn_ok(fixtures::layer_ud(rs, v), r.updown.up[c1], r.updown.up[c2]);
          const int32_t a = d.rank[v * C + c1], b = d.rank[v * C + c2];
          EXPECT_EQ(a > b, ok) << rs << " layer " << v << " " << c1 << "->" << c2;
        }
    dl::vl_demand(f, r, true, d);
    ASSERT_EQ(d.lo.size(), r.rank.size());
    for (size_t i = 0; i < r.rank.size(); ++i) {
      EXPECT_EQ(d.lo[i], d.hi[i]);
      EXPECT_EQ(d.lo[i], r.rank[i] < 0 ? 0 : r.rank[i] / 2);
    }
  }
}

}  // namespace
}  // namespace keiro
