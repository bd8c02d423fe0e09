// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The layout file of keiro-loren (core/loren/layout.h): good files in every
// spelling, and every bad case with its message naming the line.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace keiro
