// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The layout file of keiro-loren (core/loren/layout.h): good files in every
// spelling, and every bad case with its message naming the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/loren/auto_layout.h"
#include "core/loren/layout.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

Fabric four() {
  return fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, {.prefix = "L", .guid = 0x300});
}

std::string parse_err(const std::string &text, const Fabric &f) {
  loren::Layout l;
  std::string err;
  EXPECT_FALSE(loren::parse_layout(text, "lay.txt", f, l, err)) << text;
  return err;
}

TEST(LorenLayout, GuidsNamesQuotesCommentsAndTrailingText) {
  const Fabric f = four();
  const std::string text =
      "# keiro layout: GUID X Y NAME\n"
      "\n"
      "0x0000000000000300 0 0 L0 with a description\n"
      "  0x301\t1 0\n"
      "L2 1 1\n"
      "\"L3\" 0 1   # comment after the fields\n";
  loren::Layout l;
  std::string err;
  ASSERT_TRUE(loren::parse_layout(text, "lay.txt", f, l, err)) << err;
  EXPECT_EQ(l.x, (std::vector<int32_t>{0, 1, 1, 0}));
  EXPECT_EQ(l.y, (std::vector<int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(l.width, 2);
  EXPECT_EQ(l.height, 2);
  EXPECT_EQ(l.at(1, 1), 2);
  EXPECT_EQ(l.at(2, 1), -1);
  EXPECT_EQ(l.md(0, 2), 2);
}

TEST(LorenLayout, QuotedDescriptionWithBlanks) {
  Fabric f;
  f.add_switch({0x10, "lrt x=0 y=0", 4});
  f.add_switch({0x11, "lrt x=1 y=0", 4});
  f.add_link(0, 1, 1, 1);
  assign_lids(f, 0);
  f.finalize();
  loren::Layout l;
  std::string err;
  ASSERT_TRUE(loren::parse_layout("\"lrt x=1 y=0\" 1 0\n\"lrt x=0 y=0\" 0 0", "lay.txt", f, l, err))
      << err;
  EXPECT_EQ(l.x, (std::vector<int32_t>{0, 1}));
  // Unquoted, the name ends at the blank: 'lrt' is no switch (skipped) and
  // 'x=0' no X.
  EXPECT_EQ(parse_err("lrt x=0 y=0 0 0\n", f), "lay.txt:1: X 'x=0' is not a whole number 0..65535");
}

TEST(LorenLayout, MissingSwitch) {
  const std::string err = parse_err("0x300 0 0\n0x301 1 0\n", four());
  EXPECT_EQ(err,
            "lay.txt: switch 'L2' (0x0000000000000302) has no position "
            "(2 switches are missing)");
  EXPECT_EQ(parse_err("0x300 0 0\n0x301 1 0\n0x302 1 1\n", four()),
            "lay.txt: switch 'L3' (0x0000000000000303) has no position");
}

TEST(LorenLayout, DuplicatePosition) {
  EXPECT_EQ(parse_err("0x300 0 0\n0x301 1 0\n# c\n0x302 0 0\n0x303 1 1\n", four()),
            "lay.txt:4: position (0,0) is already taken on line 1");
}

TEST(LorenLayout, SwitchesNotInTheFabricAreSkipped) {
  // A switch that failed keeps its line in the admin's file: skipped, counted.
  const Fabric f = four();
  loren::Layout l;
  std::string err;
  ASSERT_TRUE(
      loren::parse_layout("0x300 0 0\n0x999 2 0\n0x301 1 0\nspine7 1 0\n0x302 0 1\n"
                          "0x303 1 1\n",
                          "lay.txt", f, l, err))
      << err;
  EXPECT_EQ(l.absent, 2);
  EXPECT_EQ(l.first_absent, "0x999");
  EXPECT_EQ(l.x, (std::vector<int32_t>{0, 1, 0, 1}));
  EXPECT_EQ(l.y, (std::vector<int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(l.at(2, 0), -1);  // the skipped switch's position is a hole
  // Fabric switches missing from the layout are still an error.
  EXPECT_EQ(parse_err("0x300 0 0\n0x999 1 0\n0x301 1 0\n0x302 1 1\n", f),
            "lay.txt: switch 'L3' (0x0000000000000303) has no position");
  // A skipped line must still be well formed.
  EXPECT_EQ(parse_err("0x300 0 0\n0x999 one 0\n", f),
            "lay.txt:2: X 'one' is not a whole number 0..65535");
  EXPECT_EQ(parse_err("0xZZ 1 0\n", f), "lay.txt:1: malformed GUID '0xZZ'");
}

TEST(LorenLayout, NonNumericFields) {
  EXPECT_EQ(parse_err("0x300 0 0\n0x301 one 0\n", four()),
            "lay.txt:2: X 'one' is not a whole number 0..65535");
  EXPECT_EQ(parse_err("0x300 0 0\n0x301 1 0.5\n", four()),
            "lay.txt:2: Y '0.5' is not a whole number 0..65535");
  EXPECT_EQ(parse_err("0x300 -1 0\n", four()), "lay.txt:1: X '-1' is not a whole number 0..65535");
  EXPECT_EQ(parse_err("0x300 0 70000\n", four()),
            "lay.txt:1: Y '70000' is not a whole number 0..65535");
  EXPECT_EQ(parse_err("0x300 0\n", four()),
            "lay.txt:1: expected 'SWITCH X Y' (SWITCH: 0x GUID or node description)");
}

TEST(LorenLayout, SwitchTwiceQuotesAndAmbiguousNames) {
  EXPECT_EQ(parse_err("0x300 0 0\nL0 1 0\n", four()),
            "lay.txt:2: switch 'L0' (0x0000000000000300) is already placed on line 1");
  EXPECT_EQ(parse_err("\"L0 0 0\n", four()), "lay.txt:1: unterminated '\"' in the switch name");
  Fabric f;
  f.add_switch({0x10, "twin", 4});
  f.add_switch({0x11, "twin", 4});
  f.add_link(0, 1, 1, 1);
  assign_lids(f, 0);
  f.finalize();
  EXPECT_EQ(parse_err("twin 0 0\n", f),
            "lay.txt:1: 'twin' is the node description of 2 switches (e.g. 'twin' "
            "(0x0000000000000010) and another): name the switch by its GUID");
}

TEST(LorenLayout, ReadLayoutNamesTheFile) {
  loren::Layout l;
  std::string err;
  EXPECT_FALSE(loren::read_layout("/nonexistent/lay.txt", four(), l, err));
  EXPECT_EQ(err, "cannot read layout file '/nonexistent/lay.txt'");
}

TEST(LorenLayout, MakeLayoutRejectsSharedPositions) {
  const Fabric f = four();
  loren::Layout l;
  std::string err;
  EXPECT_FALSE(loren::make_layout(f, {0, 1, 0, 1}, {0, 0, 0, 1}, l, err));
  EXPECT_NE(err.find("share position (0,0)"), std::string::npos) << err;
  EXPECT_TRUE(loren::make_layout(f, {0, 1, 0, 1}, {0, 0, 1, 1}, l, err)) << err;
}

// ---- loren_layout=auto: a layout derived from the links (auto_layout.h) ----

// An n x n mesh (grid graph) with switch (x, y) numbered by id[x + n * y].
Fabric mesh(int32_t n, const std::vector<int32_t> &id) {
  fixtures::Links links;
  for (int32_t y = 0; y < n; ++y)
    for (int32_t x = 0; x < n; ++x) {
      if (x + 1 < n) links.push_back({id[x + n * y], id[x + 1 + n * y]});
      if (y + 1 < n) links.push_back({id[x + n * y], id[x + n * (y + 1)]});
    }
  return fixtures::from_links(n * n, links);
}

std::vector<int32_t> numbering(int32_t count, int how) {
  std::vector<int32_t> id(count);
  std::iota(id.begin(), id.end(), 0);
  if (how == 1) std::reverse(id.begin(), id.end());
  if (how >= 2) std::shuffle(id.begin(), id.end(), std::mt19937(how));
  return id;
}

TEST(LorenAutoLayout, RecoversASquareMeshInAnyNumbering) {
  // On a grid graph every link can be one grid step long; the derived layout
  // finds that whatever the switches' numbering (as written, reversed, two
  // random ones).
  for (int32_t n : {3, 4, 6, 9})
    for (int how : {0, 1, 2, 3}) {
      const Fabric f = mesh(n, numbering(n * n, how));
      loren::Layout l;
      loren::AutoLayoutStats st;
      std::string err;
      ASSERT_TRUE(loren::derive_layout(f, l, st, err)) << err;
      EXPECT_EQ(st.width, n);
      EXPECT_EQ(st.height, n);
      EXPECT_EQ(st.links, 2 * n * (n - 1)) << "n " << n << " numbering " << how;
      EXPECT_EQ(st.longest, 1) << "n " << n << " numbering " << how;
      EXPECT_EQ(st.total_length, st.links) << "n " << n << " numbering " << how;
      for (int32_t s = 0; s < f.num_switches(); ++s) EXPECT_EQ(l.at(l.x[s], l.y[s]), s);
      // The landmark placement alone (steps 1-3) is already exact on a mesh.
      loren::Layout l0;
      ASSERT_TRUE(loren::derive_layout(f, l0, st, err, 0)) << err;
      EXPECT_EQ(st.passes, 0);
      EXPECT_EQ(st.longest, 1) << "landmarks only, n " << n << " numbering " << how;
    }
}

TEST(LorenAutoLayout, OddCountsFillAStaircase) {
  // 10 switches on a ring: 4 columns of 3 cells, the last column short, so
  // every cell above the bottom has the cell below it and every column but
  // the last is full (LOREN's forwarding needs no hole inside the grid).
  const Fabric f = fixtures::ring(10);
  loren::Layout l;
  loren::AutoLayoutStats st;
  std::string err;
  ASSERT_TRUE(loren::derive_layout(f, l, st, err)) << err;
  EXPECT_EQ(st.width, 4);
  EXPECT_EQ(st.height, 3);
  for (int32_t s = 0; s < 10; ++s) {
    EXPECT_EQ(l.at(l.x[s], l.y[s]), s);
    if (l.y[s] > 0) {
      EXPECT_GE(l.at(l.x[s], l.y[s] - 1), 0);
    }
    if (l.x[s] < 3) {
      for (int32_t y = 0; y < 3; ++y) EXPECT_GE(l.at(l.x[s], y), 0);
    }
  }
  EXPECT_GE(l.at(3, 0), 0);
  EXPECT_EQ(l.at(3, 1), -1);
  // A ring of 10 laid on a 4 x 3 grid: every link is short.
  EXPECT_LE(st.longest, 2);
}

TEST(LorenAutoLayout, DisconnectedFabricsAreRefused) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}});
  loren::Layout l;
  loren::AutoLayoutStats st;
  std::string err;
  EXPECT_FALSE(loren::derive_layout(f, l, st, err));
  EXPECT_NE(err.find("not connected"), std::string::npos) << err;
}

TEST(LorenAutoLayout, LayoutTextReadsBack) {
  const Fabric f = mesh(4, numbering(16, 2));
  loren::Layout l, back;
  loren::AutoLayoutStats st;
  std::string err;
  ASSERT_TRUE(loren::derive_layout(f, l, st, err)) << err;
  ASSERT_TRUE(loren::parse_layout(loren::layout_text(f, l, "derived"), "auto.layout", f, back, err))
      << err;
  EXPECT_EQ(back.x, l.x);
  EXPECT_EQ(back.y, l.y);
}

}  // namespace
}  // namespace keiro
