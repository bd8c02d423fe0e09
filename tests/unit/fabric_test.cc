// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/fabric.h"

#include <gtest/gtest.h>

#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using fixtures::two_switches;

TEST(Fabric, CsrAndPeers) {
  Fabric f = two_switches();
  assign_lids(f, 0);
  f.finalize();
  EXPECT_EQ(f.num_channels(), 4);
  EXPECT_EQ(f.degree(0), 2);
  EXPECT_EQ(f.channel(f.out_begin(0)).src_port, 3);
  EXPECT_EQ(f.channel(f.out_begin(0) + 1).src_port, 5);
  for (int c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    EXPECT_EQ(f.channel(ch.reverse).reverse, c);
    EXPECT_EQ(f.channel(ch.reverse).src, ch.dst);
    EXPECT_EQ(f.peer(ch.src, ch.src_port).id, c);
  }
  EXPECT_EQ(f.in_channels(1).size(), 2u);
  EXPECT_EQ(f.peer(0, 1).kind, PortPeer::kTerminal);
  EXPECT_EQ(f.peer(0, 2).kind, PortPeer::kNone);
  EXPECT_EQ(f.min_switch_vls(), 4);
}

TEST(Fabric, LidsWithLmc) {
  Fabric f = two_switches();
  assign_lids(f, 2);
  f.finalize();
  EXPECT_EQ(f.sw(0).lid, 1);
  EXPECT_EQ(f.sw(1).lid, 2);
  EXPECT_EQ(f.terminal(0).lid, 4);  // aligned block of 4
  EXPECT_EQ(f.terminal(1).lid, 8);
  EXPECT_EQ(f.max_lid(), 11);
  EXPECT_EQ(f.lids().size(), 10u);
  EXPECT_EQ(f.lid_switch(9), 1);
  EXPECT_EQ(f.lid_owner(6).kind, LidOwner::kTerminal);
  EXPECT_EQ(f.lid_switch(3), -1);
}

TEST(Fabric, RejectsPortUsedTwice) {
  Fabric f;
  const int a = f.add_switch({0x10, "A", 4});
  const int b = f.add_switch({0x20, "B", 4});
  f.add_link(a, 1, b, 1);
  f.add_terminal({0x100, 0x101, "h", 1, false, 0, 0, a, 1});
  EXPECT_THROW(f.finalize(), FabricError);
}

TEST(Fabric, RejectsPortBeyondCount) {
  Fabric f;
  const int a = f.add_switch({0x10, "A", 4});
  const int b = f.add_switch({0x20, "B", 4});
  f.add_link(a, 9, b, 1);
  EXPECT_THROW(f.finalize(), FabricError);
}

}  // namespace
}  // namespace keiro
