// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/options.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/registry/registry.h"

namespace keiro {
namespace {

TEST(Options, ParsesAndDefaults) {
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse("max_vls=4  nue_partition=random", o, err)) << err;
  EXPECT_EQ(o.get_int("max_vls"), 4);
  EXPECT_EQ(o.get("nue_partition"), "random");
  EXPECT_EQ(o.get_int("max_sls"), 16);
}

TEST(Options, RejectsUnknownAndMalformed) {
  Options o = all_options();
  std::string err;
  EXPECT_FALSE(Options::parse("max_vl=4", o, err));
  EXPECT_NE(err.find("unknown option 'max_vl'"), std::string::npos);
  EXPECT_FALSE(Options::parse("max_vls=0", o, err));
  EXPECT_NE(err.find("from 1 to 15"), std::string::npos);
  EXPECT_FALSE(Options::parse("max_vls=4x", o, err));
  EXPECT_FALSE(Options::parse("max_vls", o, err));
  EXPECT_NE(err.find("expected key=value"), std::string::npos);
  EXPECT_FALSE(Options::parse("nue_partition=best", o, err));
}

TEST(Options, ConfigFile) {
  char path[] = "/tmp/keiro-opt-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  {
    std::ofstream out(path);
    out << "# comment\nmax_vls 2\nnue_root = 0x0002c9000000abcd  # root\n";
  }
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse(std::string("config=") + path, o, err)) << err;
  EXPECT_EQ(o.get_int("max_vls"), 2);
  EXPECT_EQ(o.get("nue_root"), "0x0002c9000000abcd");
  {
    std::ofstream out(path);
    out << "max_vls 2\nbogus 1\n";
  }
  EXPECT_FALSE(Options::parse(std::string("config=") + path, o, err));
  EXPECT_NE(err.find(":2: unknown option 'bogus'"), std::string::npos) << err;
  std::remove(path);
  EXPECT_FALSE(Options::parse("config=/nonexistent/keiro.conf", o, err));
  EXPECT_NE(err.find("cannot read config file"), std::string::npos);
}

TEST(Options, Guid) {
  uint64_t g = 0;
  EXPECT_TRUE(parse_guid("0x0002c9000000abcd", g));
  EXPECT_EQ(g, 0x0002c9000000abcdull);
  EXPECT_FALSE(parse_guid("0xzz", g));
  EXPECT_FALSE(parse_guid("", g));
}

}  // namespace
}  // namespace keiro
