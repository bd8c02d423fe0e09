// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The keiro tool's argument walker (tool/args.h): values, integer and number
// ranges, choices, and the one-line usage errors with exit status 2.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tool/args.h"

namespace keiro::tool {
namespace {

TEST(ArgWalker, WalksOptionsAndValues) {
  const std::vector<std::string> args = {"--lmc", "3", "DIR", "--name", "x", "--beta", "0.25"};
  uint8_t lmc = 0;
  std::string name, dir;
  double beta = 0;
  for (ArgWalker w("t", args); w.next();) {
    if (w.arg() == "--lmc") {
      ASSERT_TRUE(w.int_value(0, 7, lmc));
    } else if (w.arg() == "--name") {
      ASSERT_TRUE(w.value(name));
    } else if (w.arg() == "--beta") {
      ASSERT_TRUE(w.num_value(0, 1, beta));
    } else {
      EXPECT_FALSE(w.is_option());
      dir = w.arg();
    }
  }
  EXPECT_EQ(lmc, 3);
  EXPECT_EQ(name, "x");
  EXPECT_EQ(dir, "DIR");
  EXPECT_DOUBLE_EQ(beta, 0.25);
}

TEST(ArgWalker, StartsAtFirst) {
  const std::vector<std::string> args = {"random", "16", "4"};
  std::vector<std::string> seen;
  for (ArgWalker w("t", args, 1); w.next();) seen.push_back(w.arg());
  EXPECT_EQ(seen, (std::vector<std::string>{"16", "4"}));
}

// Runs one option with value v through int_value(lo, hi) and returns what
// it printed on stderr ("" when it accepted the value).
std::string int_error(const std::string &v, long lo, long hi, long *out = nullptr) {
  const std::vector<std::string> args = {"--n", v};
  ArgWalker w("cmd", args);
  EXPECT_TRUE(w.next());
  long n = -99;
  testing::internal::CaptureStderr();
  const bool ok = w.int_value(lo, hi, n);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(ok, err.empty());
  if (out) *out = n;
  return err;
}

TEST(ArgWalker, IntegersOnly) {
  long n = 0;
  EXPECT_EQ(int_error("7", 0, 7, &n), "");
  EXPECT_EQ(n, 7);
  EXPECT_EQ(int_error("1.5", 0, 7), "keiro cmd: --n needs 0..7, not '1.5'\n");
  EXPECT_EQ(int_error("8", 0, 7), "keiro cmd: --n needs 0..7, not '8'\n");
  EXPECT_EQ(int_error("", 0, 7), "keiro cmd: --n needs 0..7, not ''\n");
  EXPECT_EQ(int_error("3x", 0, 7), "keiro cmd: --n needs 0..7, not '3x'\n");
  EXPECT_EQ(int_error("-1", 0, INT_MAX), "keiro cmd: --n needs an integer >= 0, not '-1'\n");
}

TEST(ArgWalker, MissingValueChoiceAndUnknown) {
  const std::vector<std::string> args = {"--pairs", "some", "--bogus", "stray", "--last"};
  ArgWalker w("cmd", args);
  std::string v = "unchanged";
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_FALSE(w.choice_value({"all", "ca-sources", "ca"}, v));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "keiro cmd: --pairs is all, ca-sources or ca\n");
  EXPECT_EQ(v, "unchanged");
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_EQ(w.unknown("usage: cmd\n"), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "keiro cmd: unknown option '--bogus'\n\nusage: cmd\n");
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_EQ(w.unknown(""), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "keiro cmd: unexpected argument 'stray'\n");
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_FALSE(w.value(v));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "keiro cmd: --last needs a value\n");
  EXPECT_FALSE(w.next());
}

TEST(ArgWalker, Numbers) {
  const std::vector<std::string> args = {"--x", "2", "--y", "-1"};
  ArgWalker w("cmd", args);
  double x = 0;
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_FALSE(w.num_value(0, 1, x));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "keiro cmd: --x needs a number in 0..1, not '2'\n");
  ASSERT_TRUE(w.next());
  testing::internal::CaptureStderr();
  EXPECT_FALSE(w.num_value(0, 1e308, x));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "keiro cmd: --y needs a number >= 0, not '-1'\n");
}

}  // namespace
}  // namespace keiro::tool
