// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Hand-checked h, w, H_c and f (ACRO paper Sect. 3.3) and the first layers
// of Algorithm 1 on small cases.
#include "core/layers/acro_weights.h"

#include <gtest/gtest.h>

#include "core/layers/acro.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// 0 - 1 - 2 - 3 with 5 hanging off 1 and 4 off 2; destinations 3 and 0.
//   T_3: 0->1 -> 1->2 -> 2->3 (root), 5->1 -> 1->2, 4->2 -> 2->3
//   T_0: 3->2 -> 2->1 -> 1->0 (root), 4->2 -> 2->1, 5->1 -> 1->0
struct TwoTrees {
  Fabric f = fixtures::from_links(6, {{0, 1}, {1, 2}, {2, 3}, {4, 2}, {5, 1}});
  minimal::DestTrees t =
      fixtures::trees_from_next_switch(f, {3, 0}, {{1, 2, 3, -1, 2, 1}, {-1, 0, 1, 2, 2, 1}});
  int32_t c(int32_t a, int32_t b) const { return fixtures::channel_between(f, a, b); }
};

TEST(AcroWeights, HeightsWidthsHashesFitnessByHand) {
  TwoTrees x;
  std::string err;
  ASSERT_TRUE(minimal::validate_trees(x.f, x.t, err)) << err;
  acro::AcroWeights w;
  acro::compute_weights(x.f, x.t, w);
  EXPECT_EQ(w.D, 3);
  // Destination 3 (k = 0): leaves 0->1, 5->1, 4->2; 1->2 has two height-0
  // children; 2->3 has children 1->2 (h 1) and 4->2 (h 0): only 1->2 counts.
  EXPECT_EQ(w.height(0, 0), 0);
  EXPECT_EQ(w.height(0, 5), 0);
  EXPECT_EQ(w.height(0, 4), 0);
  EXPECT_EQ(w.height(0, 1), 1);
  EXPECT_EQ(w.height(0, 2), 2);
  EXPECT_EQ(w.width(0, 0), 1u);
  EXPECT_EQ(w.width(0, 1), 2u);
  EXPECT_EQ(w.width(0, 2), 2u);
  // Destination 0 (k = 1): 1->0 has children 2->1 (h 1, w 2) and 5->1 (h 0).
  EXPECT_EQ(w.height(1, 3), 0);
  EXPECT_EQ(w.height(1, 2), 1);
  EXPECT_EQ(w.width(1, 2), 2u);
  EXPECT_EQ(w.height(1, 1), 2);
  EXPECT_EQ(w.width(1, 1), 2u);
  // H_c sums w over the destinations where c has a parent.
  EXPECT_EQ(w.hash(x.c(1, 2), 1), 2);
  EXPECT_EQ(w.hash(x.c(2, 1), 1), 2);
  EXPECT_EQ(w.hash(x.c(4, 2), 0), 2);  // a leaf in both trees
  EXPECT_EQ(w.hash(x.c(5, 1), 0), 2);
  EXPECT_EQ(w.hash(x.c(0, 1), 0), 1);
  EXPECT_EQ(w.hash(x.c(3, 2), 0), 1);
  for (int d = 0; d < 3; ++d) {  // roots never count
    EXPECT_EQ(w.hash(x.c(2, 3), d), 0);
    EXPECT_EQ(w.hash(x.c(1, 0), d), 0);
  }
  EXPECT_EQ(w.f[x.c(1, 2)], 1);
  EXPECT_EQ(w.f[x.c(2, 1)], 1);
  EXPECT_EQ(w.f[x.c(4, 2)], 0);
  EXPECT_EQ(w.f[x.c(2, 3)], 0);
  // Without a cycle in the union of the CDGs one layer is enough.
  acro::AcroResult r;
  ASSERT_TRUE(acro::assign(x.f, x.t, {}, r, err)) << err;
  EXPECT_EQ(r.num_layers, 1);
}

// Ring 0-1-2-3. For destination d the neighbours go straight, switch d+2
// goes clockwise: a_{d+2} -> a_{d+3}. The clockwise channels a_i = 2i form
// a dependency cycle; the anticlockwise b_i = 2i+1 are only roots.
struct Ring4 {
  Fabric f = fixtures::ring(4);
  minimal::DestTrees t = fixtures::trees_from_next_switch(
      f, {0, 1, 2, 3}, {{-1, 0, 3, 0}, {1, -1, 1, 0}, {1, 2, -1, 2}, {3, 2, 3, -1}});
  static int32_t a(int i) { return 2 * (i % 4); }
  static int32_t b(int i) { return 2 * (i % 4) + 1; }
};

TEST(AcroWeights, RingByHand) {
  Ring4 x;
  std::string err;
  ASSERT_TRUE(minimal::validate_trees(x.f, x.t, err)) << err;
  ASSERT_EQ(x.f.channel(Ring4::a(1)).src, 1);
  ASSERT_EQ(x.f.channel(Ring4::a(1)).dst, 2);
  ASSERT_EQ(x.f.channel(Ring4::b(1)).dst, 0);
  acro::AcroWeights w;
  acro::compute_weights(x.f, x.t, w);
  EXPECT_EQ(w.D, 2);
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(w.height(d, (d + 2) % 4), 0);  // a_{d+2}: leaf
    EXPECT_EQ(w.height(d, (d + 3) % 4), 1);  // a_{d+3}: root with one child
    EXPECT_EQ(w.width(d, (d + 3) % 4), 1u);
    EXPECT_EQ(w.height(d, (d + 1) % 4), 0);  // b_{d+1}: root without child
  }
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(w.hash(Ring4::a(i), 0), 1);
    EXPECT_EQ(w.hash(Ring4::a(i), 1), 0);
    EXPECT_EQ(w.hash(Ring4::b(i), 0), 0);
    EXPECT_EQ(w.f[Ring4::a(i)], 0);
  }
}

TEST(AcroLayers, RingPicksByHand) {
  // Layer 0: the b_i (key (0, 0)) first in id order, then a_0 (key (0, 1),
  // lowest id). Reaching a_0 for destination 1 removes the edge from its
  // child a_3 (H_{a_3}[0] -> 0), so a_3 comes next, which frees a_2, which
  // frees a_1. The hop a_0 of destination 2 was picked before its parent a_1
  // and is reached only in layer 1.
  Ring4 x;
  acro::AcroResult r;
  std::string err;
  ASSERT_TRUE(acro::assign(x.f, x.t, {}, r, err)) << err;
  ASSERT_EQ(r.num_layers, 2);
  const int32_t expect_rank[8] = {/*a0*/ 4, /*b0*/ 0, /*a1*/ 7, /*b1*/ 1,
                                  /*a2*/ 6, /*b2*/ 2, /*a3*/ 5, /*b3*/ 3};
  for (int c = 0; c < 8; ++c) EXPECT_EQ(r.channel_rank(0, c), expect_rank[c]) << "channel " << c;
  for (int d = 0; d < 4; ++d)
    for (int s = 0; s < 4; ++s) {
      if (s == d) {
        EXPECT_EQ(r.hop_layer(d, s), acro::AcroResult::kNone);
        continue;
      }
      EXPECT_EQ(r.hop_layer(d, s), d == 2 && s == 0 ? 1 : 0) << "dest " << d << " switch " << s;
    }
  // In layer 1 every key is (0, 0): plain channel-id order.
  for (int c = 0; c < 8; ++c) EXPECT_EQ(r.channel_rank(1, c), c);
}

}  // namespace
}  // namespace keiro
