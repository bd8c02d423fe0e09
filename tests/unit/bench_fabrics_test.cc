// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fabrics behind docs/nue.md's benchmark table, read from the bundled
// ibsim net files (ibsim-topologies/, found through $srcdir as make check
// sets it), routed by keiro-acro, keiro-dl and keiro-nue through
// pipeline::route() (route + self-check) with 8 VLs, and checked again by the
// independent walker of tests/unit/oracles.h: every (switch, LID) reaches its
// port, no loop, no credit loop over (channel, VL), at most 8 VLs.
// keiro-loren needs a layout and is covered on LRTs (loren_engine_test.cc,
// tests/integration/loren-lrt.sh). Offline, a few seconds in all.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/engine/engine.h"
#include "core/io/topology_file.h"
#include "core/pipeline/pipeline.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

std::string topology_path(const std::string &name) {
  return fixtures::source_path("ibsim-topologies/" + name);
}

struct Case {
  const char *file;
  int32_t switches, cas;  // what the file holds (docs/nue.md)
};

class BenchFabrics : public ::testing::TestWithParam<std::tuple<Case, const char *>> {};

TEST_P(BenchFabrics, RoutedAndChecked) {
  const Case &c = std::get<0>(GetParam());
  const char *engine = std::get<1>(GetParam());
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::read_topology(topology_path(c.file), f, err)) << err << " (is $srcdir set?)";
  ASSERT_EQ(f.num_switches(), c.switches);
  ASSERT_EQ(f.num_terminals(), c.cas);
  fixtures::EngineRun run;
  const fixtures::RouteCheck rc = fixtures::route_and_walk(f, engine, run);
  ASSERT_TRUE(rc.ok);
  std::printf("%s %s: switch hops %.3f, max EFI %lld, VLs %d, route %.3f s, check %.3f s\n", c.file,
              engine, rc.avg_hops, static_cast<long long>(rc.max_efi), rc.vls,
              run.rep.route_seconds, run.rep.check_seconds);
}

INSTANTIATE_TEST_SUITE_P(
    DocsNue, BenchFabrics,
    ::testing::Combine(::testing::Values(Case{"rrg-128-d8-h4.net", 128, 512},
                                         Case{"torus-6x6x6-f1-h2.net", 216, 432}),
                       ::testing::Values("keiro-acro", "keiro-dl", "keiro-nue")),
    [](const ::testing::TestParamInfo<std::tuple<Case, const char *>> &info) {
      std::string name = std::string(std::get<0>(info.param).file).substr(0, 5) + "_" +
                         (std::get<1>(info.param) + 6);
      for (char &ch : name)
        if (ch == '-' || ch == '.') ch = '_';
      return name;
    });

}  // namespace
}  // namespace keiro
