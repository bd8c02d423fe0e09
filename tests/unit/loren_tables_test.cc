// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Algorithm 1 of the LOREN paper (core/loren/tables.h) on small hand-drawn
// LRT-like fabrics whose tables were worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/loren/tables.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// LOREN test switches are "L<i>", GUID 0x300 + i (the layouts name them).
const fixtures::Spec kL{.prefix = "L", .guid = 0x300};

using fixtures::dump_table;

// 3 x 2 grid, ids i = x + 3y:   0 1 2
//                               3 4 5
// Links (port order): 0-1 0-2 0-4 1-3 1-5 2-4 3-5 4-5. Grid neighbours
// without a link: {1,2} {3,4} {0,3} {1,4} {2,5}.
class LorenTablesGrid : public ::testing::Test {
 protected:
  const Fabric f =
      fixtures::from_links(6, {{0, 1}, {0, 2}, {0, 4}, {1, 3}, {1, 5}, {2, 4}, {3, 5}, {4, 5}}, kL);
  const loren::Layout l = fixtures::layout(f, {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}});
  loren::LorenTableOptions o;
  loren::LorenTables t;
};

// Builds t for f and l from f's min-hop trees; a refusal fails the test
// with the builder's message.
void build_ok(const Fabric &f, const loren::Layout &l, const loren::LorenTableOptions &o,
              loren::LorenTables &t) {
  std::string err;
  ASSERT_TRUE(loren::build_tables(f, l, fixtures::min_hop_trees(f), o, t, err)) << err;
}

// Each listed switch's table, dumped (fixtures::dump_table), is as given;
// a mismatch names the switch.
void expect_tables(const Fabric &f, const loren::LorenTables &t,
                   const std::vector<std::pair<int32_t, std::string>> &want) {
  for (const auto &[u, dump] : want) EXPECT_EQ(dump_table(f, t, u), dump) << "switch " << u;
}

TEST_F(LorenTablesGrid, MandatoryEntriesOfAHandDrawnGrid) {
  o.mandatory_only = true;
  ASSERT_NO_FATAL_FAILURE(build_ok(f, l, o, t));
  // (1) the links, then (2) the grid-neighbour paths, sorted by hops.
  expect_tables(f, t,
                {{0, "1>1@1 2>2@1 4>4@1 3>1@2"},
                 {1, "0>0@1 3>3@1 5>5@1 2>0@2 4>0@2"},
                 {2, "0>0@1 4>4@1 1>0@2 5>4@2"},
                 {3, "1>1@1 5>5@1 0>1@2 4>5@2"},
                 {4, "0>0@1 2>2@1 5>5@1 1>0@2 3>5@2"},
                 {5, "1>1@1 3>3@1 4>4@1 2>4@2"}});
  EXPECT_EQ(t.required, 5);
  EXPECT_EQ(t.required_switch, 1);
  EXPECT_EQ(t.adjacent, 16);
  EXPECT_EQ(t.grid_neighbour, 10);
  EXPECT_EQ(t.distant, 0);
}

TEST_F(LorenTablesGrid, DistantEntriesFillTheTablesBreadthFirst) {
  o.tmax = 5;
  ASSERT_NO_FATAL_FAILURE(build_ok(f, l, o, t));
  expect_tables(f, t,
                {{0, "1>1@1 2>2@1 4>4@1 3>1@2 5>1@2"},
                 {1, "0>0@1 3>3@1 5>5@1 2>0@2 4>0@2"},
                 {2, "0>0@1 4>4@1 1>0@2 5>4@2 3>0@3"},
                 {3, "1>1@1 5>5@1 0>1@2 4>5@2 2>1@3"},
                 {4, "0>0@1 2>2@1 5>5@1 1>0@2 3>5@2"},
                 {5, "1>1@1 3>3@1 4>4@1 2>4@2 0>1@2"}});
  EXPECT_EQ(t.distant, 4);
  EXPECT_EQ(t.tmax, 5);
}

TEST_F(LorenTablesGrid, TmaxBelowTheMandatoryEntriesFails) {
  o.tmax = 4;
  std::string err;
  EXPECT_FALSE(loren::build_tables(f, l, fixtures::min_hop_trees(f), o, t, err));
  EXPECT_NE(err.find("t_max 4 is below the 5 entries that switch 'L1' needs"), std::string::npos)
      << err;
  EXPECT_EQ(t.required, 5);
}

// A 4 x 1 row linked as a path: no grid-neighbour paths are needed, and
// t_max = 2 leaves room for one distant entry on the two end switches only.
TEST(LorenTables, TheLimitStopsTheSearch) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}}, kL);
  const loren::Layout l = fixtures::layout(f, {{0, 0}, {1, 0}, {2, 0}, {3, 0}});
  loren::LorenTableOptions o;
  o.tmax = 2;
  loren::LorenTables t;
  ASSERT_NO_FATAL_FAILURE(build_ok(f, l, o, t));
  EXPECT_EQ(t.required, 2);
  expect_tables(f, t,
                {{0, "1>1@1 2>1@2"}, {1, "0>0@1 2>2@1"}, {2, "1>1@1 3>3@1"}, {3, "2>2@1 1>2@2"}});
  // Without a limit every switch ends with an entry for every other one.
  o.tmax = 100;
  ASSERT_NO_FATAL_FAILURE(build_ok(f, l, o, t));
  expect_tables(f, t, {{0, "1>1@1 2>1@2 3>1@3"}, {3, "2>2@1 1>2@2 0>2@3"}});
  EXPECT_EQ(t.max_size(), 3);
}

// The grid-neighbour path avoids the switch with the fuller table: from 0
// to its grid neighbour 1 both 0-2-4-1 and 0-3-5-1 are shortest; switch 2
// has four links (and the tree prefers it), switch 3 two.
TEST(LorenTables, GridPathKeepsTheLargestTableSmall) {
  const Fabric f =
      fixtures::from_links(8, {{0, 2}, {0, 3}, {2, 4}, {3, 5}, {4, 1}, {5, 1}, {2, 6}, {2, 7}}, kL);
  const loren::Layout l =
      fixtures::layout(f, {{0, 0}, {1, 0}, {0, 1}, {5, 5}, {7, 7}, {9, 9}, {11, 11}, {13, 13}});
  loren::LorenTableOptions o;
  o.mandatory_only = true;
  loren::LorenTables t;
  ASSERT_NO_FATAL_FAILURE(build_ok(f, l, o, t));
  // Destination 0 first: 1 -> 4 -> 2 -> 0 and 1 -> 5 -> 3 -> 0 cost the
  // same, the tree's choice (4) wins.
  expect_tables(f, t, {{1, "4>4@1 5>5@1 0>4@3"}, {4, "2>2@1 1>1@1 0>2@2"}});
  // Destination 1: via 2 would make its table 5 long, via 3 only 3.
  expect_tables(
      f, t, {{0, "2>2@1 3>3@1 1>3@3"}, {3, "0>0@1 5>5@1 1>5@2"}, {2, "0>0@1 4>4@1 6>6@1 7>7@1"}});
  EXPECT_EQ(t.required, 4);
}

TEST(LorenTables, RejectsTreesThatAreNotShortest) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, kL);
  const loren::Layout l = fixtures::layout(f, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  minimal::DestTrees t = fixtures::min_hop_trees(f);
  // Switch 0 towards 3 through 1 and 2: 3 hops instead of 1.
  for (int32_t c = f.out_begin(0); c < f.out_end(0); ++c)
    if (f.channel(c).dst == 1) t.next[3 * 4 + 0] = c;
  loren::LorenTables out;
  std::string err;
  EXPECT_FALSE(loren::build_tables(f, l, t, {}, out, err));
  EXPECT_NE(err.find("not a shortest-path tree"), std::string::npos) << err;
}

TEST(LorenTables, DisconnectedFabricFails) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}}, kL);
  const loren::Layout l = fixtures::layout(f, {{0, 0}, {1, 0}, {2, 0}, {3, 0}});
  minimal::DestTrees t;
  t.reset(4, 4);
  for (int32_t k = 0; k < 4; ++k) t.root[k] = k;
  loren::LorenTables out;
  std::string err;
  EXPECT_FALSE(loren::build_tables(f, l, t, {}, out, err));
  EXPECT_NE(err.find("not connected"), std::string::npos) << err;
}

}  // namespace
}  // namespace keiro
