// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "plugin/routed_state.h"

namespace keiro::plugin {
namespace {

// A -- B, CA ha (LMC 1) on A port 1, CA hb on B port 1.
// LIDs: A=1, B=2, ha=4..5, hb=6..7.
Fabric two_switches() {
  Fabric f;
  const int a = f.add_switch({0x10, "A", 4});
  const int b = f.add_switch({0x20, "B", 4});
  f.add_link(a, 3, b, 3, 4);
  f.add_terminal({0x100, 0x101, "ha", 1, false, 0, 0, a, 1});
  f.add_terminal({0x200, 0x201, "hb", 1, false, 0, 0, b, 1});
  assign_lids(f, 1);
  f.finalize();
  return f;
}

// path_sl(slid, dlid, hint) answers want for each case; a mismatch names
// the case.
struct PathSlCase {
  uint16_t slid, dlid;
  uint8_t hint, want;
};
void expect_path_sls(const RoutedState &s, const std::vector<PathSlCase> &cases) {
  for (const PathSlCase &c : cases)
    EXPECT_EQ(int{s.path_sl(c.slid, c.dlid, c.hint)}, int{c.want})
        << "path_sl(" << c.slid << ", " << c.dlid << ", " << int{c.hint} << ")";
}

TEST(RoutedState, PathSlPerSourceSwitch) {
  Fabric f = two_switches();
  ASSERT_EQ(f.terminal(0).lid, 4);
  ASSERT_EQ(f.terminal(1).lid, 6);
  Routing r;
  r.reset(f, Routing::SlScope::kPerSourceSwitch);
  r.set_path_sl(0, 6, 3);  // from A to hb's first LID
  r.set_path_sl(0, 7, 5);  // from A to hb's second LID
  r.set_path_sl(1, 4, 2);  // from B to ha
  auto s = RoutedState::build(std::move(f), std::move(r));
  // Sources: the switch LID itself or a CA attached to it.
  expect_path_sls(*s, {{1, 6, 9, 3},
                       {4, 6, 9, 3},
                       {5, 7, 9, 5},
                       {6, 4, 9, 2},
                       {2, 4, 9, 2},
                       {2, 5, 9, 0},
                       // Unknown LIDs get the hint: unused LID 3, beyond the top, LID 0.
                       {3, 6, 9, 9},
                       {4, 3, 9, 9},
                       {4, 8, 11, 11},
                       {0, 6, 12, 12},
                       {0xBFFF, 0xFFFF, 13, 13}});
}

TEST(RoutedState, PathSlPerDestination) {
  Fabric f = two_switches();
  Routing r;
  r.reset(f, Routing::SlScope::kPerDestination);
  r.set_dest_sl(6, 1);
  r.set_dest_sl(2, 4);
  auto s = RoutedState::build(std::move(f), std::move(r));
  expect_path_sls(*s, {{4, 6, 9, 1}, {1, 2, 9, 4}, {5, 7, 9, 0}});
}

TEST(RoutedState, Sl2VlLookups) {
  Fabric f = two_switches();
  Routing r;
  r.reset(f);
  r.set_vl(1, 3, 1, 2, 6);  // B: in 3 -> out 1, SL 2 -> VL 6
  r.set_vl(1, 0, 3, 15, 1);
  r.set_terminal_vl(0, 7, 3);
  auto s = RoutedState::build(std::move(f), std::move(r));
  uint8_t vl[kNumSls];
  ASSERT_TRUE(s->switch_sl2vl(0x20, 3, 1, vl));
  EXPECT_EQ(vl[2], 6);
  EXPECT_EQ(vl[1], 0);
  ASSERT_TRUE(s->switch_sl2vl(0x20, 0, 3, vl));
  EXPECT_EQ(vl[15], 1);
  ASSERT_TRUE(s->terminal_sl2vl(0x101, vl));
  EXPECT_EQ(vl[7], 3);
  EXPECT_EQ(vl[6], 0);
  // Unknown switch, port beyond the switch, unknown CA port (node GUID is not
  // a port GUID): untouched.
  uint8_t keep[kNumSls];
  for (int i = 0; i < kNumSls; ++i) keep[i] = vl[i] = 0xAA;
  EXPECT_FALSE(s->switch_sl2vl(0x30, 1, 1, vl));
  EXPECT_FALSE(s->switch_sl2vl(0x20, 5, 1, vl));
  EXPECT_FALSE(s->switch_sl2vl(0x20, 1, 5, vl));
  EXPECT_FALSE(s->terminal_sl2vl(0x100, vl));
  EXPECT_EQ(0, std::memcmp(vl, keep, sizeof vl));
}

}  // namespace
}  // namespace keiro::plugin
