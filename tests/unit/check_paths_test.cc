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

}  // namespace
}  // namespace keiro
