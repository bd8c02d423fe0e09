// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Spare SLs (core/pipeline/sl_spread.h): a first routing of keiro-acro, keiro-dl and
// keiro-loren spreads its paths over every SL up to max_sls without moving
// any path to another VL. Oracle: every path walked hop by hop here and its
// VLs compared with the same engine's routing with spread_sls=0, and the
// independent credit-loop oracle (tests/unit/oracles.h).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/engine/engine.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

using fixtures::path_sls;

// The VLs of the path from switch s to lid (first hop from port 0), one per
// switch-to-switch hop.
std::vector<int> path_vls(const Fabric &f, const Routing &r, int32_t s, uint16_t lid) {
  std::vector<int> vls;
  const uint8_t sl = r.path_sl(s, lid);
  uint8_t in = 0;
  for (int32_t x = s, hops = 0; x != f.lid_switch(lid) && hops < 64; ++hops) {
    const uint8_t out = r.out_port(x, lid);
    const PortPeer pp = f.peer(x, out);
    if (pp.kind != PortPeer::kSwitch) break;
    vls.push_back(r.vl(x, in, out, sl));
    in = f.channel(pp.id).dst_port;
    x = f.channel(pp.id).dst;
  }
  return vls;
}

// Same LFTs and, per (source switch, LID), the same VL on every hop and on
// the source CAs' own SL2VL; the paths of one SL into one destination switch
// share one new SL; 16 SLs in use, as the facts, the report and one INFO
// line say; deadlock free.
TEST(SlSpread, EveryPathKeepsItsVlsOnMoreSls) {
  const Fabric torus = fixtures::from_links(25, fixtures::torus_links(5, 5), {.hcas = 2});
  const Fabric irregular =
      fixtures::from_links(32, fixtures::random_irregular_links(32, 4, 11), {.hcas = 2});
  for (const Fabric *f : {&torus, &irregular})
    for (const char *engine : {"acro", "dl"}) {
      SCOPED_TRACE(std::string(engine) + (f == &torus ? " torus" : " irregular"));
      const fixtures::EngineRun plain =
          fixtures::run_captured(*f, engine, {.opts = "spread_sls=0", .max_vls = 4});
      const fixtures::EngineRun spread = fixtures::run_captured(*f, engine, {.max_vls = 4});
      ASSERT_TRUE(plain.ok) << plain.last_line();
      ASSERT_TRUE(spread.ok) << spread.last_line();
      const size_t before = path_sls(*f, plain.out).size();
      ASSERT_LT(before, 16u);
      EXPECT_EQ(path_sls(*f, spread.out).size(), 16u);
      ASSERT_TRUE(spread.stages.spread);
      EXPECT_EQ(spread.stages.sls.sls_after, 16);
      EXPECT_EQ(spread.stages.sls.sls_before, static_cast<int>(before));
      EXPECT_FALSE(plain.stages.spread);
      // The one place that writes facts says the same.
      EXPECT_EQ(spread.rep.get("sls_used"), "16");
      EXPECT_EQ(spread.rep.get("sls_routed"), std::to_string(before));
      EXPECT_EQ(fixtures::count_containing(spread.log, LogLevel::kInfo, "SLs spread over 16"), 1);
      std::map<std::pair<int32_t, int>, int> taken;  // (destination switch, old SL) -> new SL
      for (int32_t s = 0; s < f->num_switches(); ++s)
        for (uint16_t lid : f->lids()) {
          ASSERT_EQ(spread.out.out_port(s, lid), plain.out.out_port(s, lid));
          ASSERT_EQ(path_vls(*f, spread.out, s, lid), path_vls(*f, plain.out, s, lid))
              << f->describe(s) << " to LID " << lid;
          const auto it = taken.try_emplace({f->lid_switch(lid), plain.out.path_sl(s, lid)},
                                            spread.out.path_sl(s, lid));
          EXPECT_EQ(it.first->second, spread.out.path_sl(s, lid));
          for (int32_t t : f->terminals_of(s))
            ASSERT_EQ(spread.out.terminal_vl(t, spread.out.path_sl(s, lid)),
                      plain.out.terminal_vl(t, plain.out.path_sl(s, lid)));
        }
      EXPECT_EQ(fixtures::credit_loop_problem(*f, spread.out), "");
    }
}

// Not spread: with keep_sls=0 or spread_sls=0 (nothing to keep), with QoS
// off (OpenSM leaves the CAs' SL2VL unprogrammed: only SL 0 is safe), with
// one VL (no VL for a detour to choose), for keiro-nue (one SL per
// destination, its layer); within max_sls.
TEST(SlSpread, OnlyWhereItHelpsAndIsSafe) {
  const Fabric f = fixtures::from_links(25, fixtures::torus_links(5, 5), {.hcas = 2});
  const fixtures::EngineRun plain =
      fixtures::run_captured(f, "acro", {.opts = "spread_sls=0", .max_vls = 4});
  ASSERT_TRUE(plain.ok);
  const size_t base = path_sls(f, plain.out).size();
  for (const char *opts : {"keep_sls=0", "spread_sls=0"}) {
    const fixtures::EngineRun r = fixtures::run_captured(f, "acro", {.opts = opts, .max_vls = 4});
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(path_sls(f, r.out).size(), base) << opts;
  }
  const fixtures::EngineRun qos_off = fixtures::run_captured(f, "dl", {.max_vls = 1, .qos = false});
  ASSERT_TRUE(qos_off.ok) << qos_off.last_line();
  EXPECT_EQ(path_sls(f, qos_off.out), std::set<int>{0});
  const fixtures::EngineRun one_vl = fixtures::run_captured(f, "dl", {.max_vls = 1});
  ASSERT_TRUE(one_vl.ok) << one_vl.last_line();
  EXPECT_FALSE(one_vl.stages.spread);
  const fixtures::EngineRun nue = fixtures::run_captured(f, "nue", {.max_vls = 4});
  ASSERT_TRUE(nue.ok);
  EXPECT_EQ(path_sls(f, nue.out).size(), 4u);
  const fixtures::EngineRun few = fixtures::run_captured(f, "acro", {.max_vls = 4, .max_sls = 6});
  ASSERT_TRUE(few.ok) << few.last_line();
  EXPECT_EQ(path_sls(f, few.out).size(), 6u);
  EXPECT_EQ(fixtures::credit_loop_problem(f, few.out), "");
}

}  // namespace
}  // namespace keiro
