// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "core/check/paths.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using fixtures::route_ring;

TEST(Paths, WalkResolvesEverySwitch) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  check::DestinationWalk w(f, r);
  w.run(7);  // H3 on S3
  EXPECT_EQ(w.dest_switch(), 2);
  EXPECT_EQ(w.fate(2), check::Fate::kDelivered);
  EXPECT_EQ(w.hops(2), 1);
  EXPECT_EQ(w.hops(1), 2);
  EXPECT_EQ(w.hops(0), 3);  // S1 goes clockwise through S2
  EXPECT_EQ(w.hops(3), 2);
  EXPECT_EQ(w.next_channel(2), -1);
  EXPECT_EQ(f.channel(w.next_channel(0)).dst, 1);
  const auto order = w.delivered_by_distance();
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0], 2);
  EXPECT_EQ(order[3], 0);
}

TEST(Paths, LoopAndCulprit) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  r.set_out_port(1, 7, 3);  // S2 sends H3 back to S1, which sends it to S2
  check::DestinationWalk w(f, r);
  w.run(7);
  EXPECT_EQ(w.fate(0), check::Fate::kLoop);
  EXPECT_EQ(w.fate(1), check::Fate::kLoop);
  EXPECT_EQ(w.culprit(1), 0);
  EXPECT_EQ(w.fate(3), check::Fate::kDelivered);
  r.set_out_port(1, 7, kNoPort);
  w.run(7);
  EXPECT_EQ(w.fate(0), check::Fate::kDropped);
  EXPECT_EQ(w.culprit(0), 1);
}

TEST(Paths, HopCounts) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  const std::vector<uint8_t> h = check::hop_counts(f, r);
  const size_t stride = f.max_lid() + 1u;
  ASSERT_EQ(h.size(), 4 * stride);
  EXPECT_EQ(h[0 * stride + 0], 0xFF);  // LID 0 unused
  EXPECT_EQ(h[0 * stride + 1], 0);     // own LID
  EXPECT_EQ(h[0 * stride + 5], 1);     // H1
  EXPECT_EQ(h[0 * stride + 2], 1);     // S2
  EXPECT_EQ(h[0 * stride + 6], 2);     // H2
  EXPECT_EQ(h[0 * stride + 3], 2);     // S3
  EXPECT_EQ(h[0 * stride + 7], 3);     // H3
  EXPECT_EQ(h[3 * stride + 6], 3);     // S4 to H2 counter-clockwise
  r.set_out_port(1, 7, kNoPort);
  EXPECT_EQ(check::hop_counts(f, r)[0 * stride + 7], 0xFF);
}

// Workers over the LIDs (the plugin's install): the same table, checked
// against BFS distances (min-hop tables: every path is a shortest one).
TEST(Paths, HopCountsSameForEveryThreadCount) {
  const Fabric f = fixtures::random_regular(64, 4, 5, {.hcas = 3});
  const Routing r = fixtures::min_hop(f);
  const std::vector<uint8_t> one = check::hop_counts(f, r, 1);
  const std::vector<int32_t> dist = fixtures::distances(f);
  const size_t stride = r.max_lid() + 1u;
  const int32_t S = f.num_switches();
  int64_t checked = 0;
  for (int32_t s = 0; s < S; ++s)
    for (const uint16_t lid : f.lids()) {
      const int32_t t = f.lid_switch(lid);
      const bool own = f.lid_owner(lid).kind == LidOwner::kSwitch;
      ASSERT_EQ(one[s * stride + lid], dist[s * S + t] + (own ? 0 : 1)) << s << " " << lid;
      ++checked;
    }
  EXPECT_EQ(checked, int64_t{S} * 256);  // 8 workers at most: 32 LIDs each
  for (const int threads : {2, 3, 8}) EXPECT_EQ(check::hop_counts(f, r, threads), one) << threads;
}

}  // namespace
}  // namespace keiro
