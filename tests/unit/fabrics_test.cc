// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fixture library's own rule (tests/unit/fabrics.h): port numbers, GUIDs,
// names and LIDs of from_links() and ring(), and its reference routings.
#include "tests/unit/fabrics.h"

#include <gtest/gtest.h>

namespace keiro {
namespace {

TEST(Fixtures, FromLinksNumbersPortsInListOrderThenCas) {
  // Links 0-1 twice (parallel = 2 doubles each), 1-2 once with explicit port 7 on 2.
  const Fabric f = fixtures::from_links(3, {{0, 1}, {1, 2, 0, 7}},
                                        {.hcas = 2, .lmc = 1, .parallel = 2, .first = 1});
  ASSERT_EQ(f.num_channels(), 8);
  EXPECT_EQ(f.peer(0, 1).kind, PortPeer::kSwitch);
  EXPECT_EQ(f.channel(f.peer(0, 1).id).dst_port, 1);  // 0:1 - 1:1
  EXPECT_EQ(f.channel(f.peer(0, 2).id).dst_port, 2);  // 0:2 - 1:2 (the parallel copy)
  EXPECT_EQ(f.channel(f.peer(1, 3).id).dst, 2);
  EXPECT_EQ(f.channel(f.peer(1, 3).id).dst_port, 7);  // explicit
  EXPECT_EQ(f.channel(f.peer(1, 4).id).dst_port, 1);  // the copy takes 2's first free port
  // CAs on the lowest free ports: 0:3,4; 1:5,6; 2:2,3.
  EXPECT_EQ(f.terminal(0).sw_port, 3);
  EXPECT_EQ(f.terminal(3).sw_port, 6);
  EXPECT_EQ(f.terminal(4).sw_port, 2);
  EXPECT_EQ(f.terminal(5).sw_port, 3);
  EXPECT_EQ(f.sw(2).name, "S3");
  EXPECT_EQ(f.sw(2).guid, 0x1002u);
  EXPECT_EQ(f.sw(2).num_ports, 8);
  EXPECT_EQ(f.terminal(5).name, "H6");
  EXPECT_EQ(f.terminal(5).node_guid, 0x10000au);
  EXPECT_EQ(f.terminal(5).port_guid, 0x10000bu);
  // Switches first (1..3), then the CAs in aligned blocks of 2 (LMC 1).
  EXPECT_EQ(f.sw(0).lid, 1);
  EXPECT_EQ(f.terminal(0).lid, 4);
  EXPECT_EQ(f.lids().size(), 3u + 6 * 2);
}

TEST(Fixtures, CaRingAndItsReferenceRouting) {
  const Fabric f = fixtures::ca_ring(4);
  EXPECT_EQ(f.sw(0).name, "S1");
  EXPECT_EQ(f.terminal(1).name, "H2");
  EXPECT_EQ(f.terminal(1).port_guid, 0x2003u);
  EXPECT_EQ(f.terminal(1).sw_port, 1);
  EXPECT_EQ(f.channel(f.peer(0, 2).id).dst, 1);  // port 2 clockwise
  EXPECT_EQ(f.channel(f.peer(0, 3).id).dst, 3);  // port 3 counter-clockwise
  EXPECT_EQ(fixtures::channel_between(f, 1, 2), 2);
  EXPECT_EQ(fixtures::channel_between(f, 1, 0), 3);
  const std::vector<int32_t> d = fixtures::distances(f);
  EXPECT_EQ(d[0 * 4 + 2], 2);
  EXPECT_EQ(d[3 * 4 + 0], 1);
  const Routing r = fixtures::min_hop(f);
  const uint16_t h3 = f.terminal(2).lid;
  EXPECT_EQ(r.out_port(0, h3), 2);  // both ways are 2 hops: the lowest port
  EXPECT_EQ(r.out_port(2, h3), 1);  // its own CA
  EXPECT_EQ(r.out_port(1, f.sw(1).lid), 0);
}

TEST(Fixtures, RandomRegularIsCoreTopoGraph) {
  const fixtures::Links a = fixtures::random_regular_links(16, 3, 5);
  const fixtures::Links b = fixtures::random_regular_links(16, 3, 5);
  ASSERT_EQ(a.size(), 24u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].a * 100 + a[i].b, b[i].a * 100 + b[i].b);
  const Fabric f = fixtures::random_regular(16, 3, 5, {.hcas = 1});
  for (int32_t s = 0; s < 16; ++s) EXPECT_EQ(f.degree(s), 3);
}

}  // namespace
}  // namespace keiro
