// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-acro through the engine registry and run_engine()'s self-check.
#include <gtest/gtest.h>

#include "core/engine.h"
#include "core/io/topology_file.h"
#include "core/topo/families.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

fixtures::EngineRun acro(const Fabric &f, int max_vls, int max_sls = 16, bool qos = true) {
  EXPECT_NE(find_engine("keiro-acro"), nullptr);
  EXPECT_EQ(find_engine("acro"), find_engine("keiro-acro"));
  return fixtures::run_captured(f, "keiro-acro",
                                {.max_vls = max_vls, .max_sls = max_sls, .qos = qos});
}

TEST(AcroEngine, RoutesEveryLidMinimallyWithoutCreditLoops) {
  // 32 switches, degree 4, 2 HCAs each, LMC 1: every LID, switch LIDs too.
  const Fabric f = fixtures::random_regular(32, 4, 3, {.hcas = 2, .lmc = 1, .vls = 8});
  fixtures::EngineRun run = acro(f, 8);
  ASSERT_TRUE(run.ok) << (run.log.lines.empty() ? "" : run.log.lines.back().text);
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  EXPECT_EQ(run.out.engine, "keiro-acro");
  EXPECT_EQ(run.out.sl_scope(), Routing::SlScope::kPerSourceSwitch);
  const std::vector<int32_t> dist = fixtures::distances(f);
  const int32_t S = f.num_switches();
  for (uint16_t lid : f.lids()) {
    const int32_t d = f.lid_switch(lid);
    for (int32_t src = 0; src < S; ++src) {
      int32_t s = src, hops = 0;
      while (s != d && hops <= S) {
        const PortPeer p = f.peer(s, run.out.out_port(s, lid));
        ASSERT_EQ(p.kind, PortPeer::kSwitch) << "LID " << lid << " from " << src;
        s = f.channel(p.id).dst;
        ++hops;
      }
      EXPECT_EQ(hops, dist[static_cast<size_t>(src) * S + d]) << "path not minimal";
      const LidOwner o = f.lid_owner(lid);
      EXPECT_EQ(run.out.out_port(d, lid),
                o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0);
    }
  }
  EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
  EXPECT_FALSE(run.rep.get("layers").empty());
  EXPECT_GE(std::stoi(run.rep.get("vls_used")), std::stoi(run.rep.get("layers")));
  EXPECT_LE(run.out.vls_used, 8);
  EXPECT_LE(run.out.sls_used, 16);
  // One path per (source switch, distinct destination tree): at least one
  // tree per switch, at most one per LID.
  const int64_t paths = std::stoll(run.rep.get("paths"));
  EXPECT_GE(paths, 32 * 31);
  EXPECT_LE(paths, static_cast<int64_t>(31) * static_cast<int64_t>(f.lids().size()));
}

TEST(AcroEngine, PerLidRoutesArePerfectlyEvenOnTwoLevelFatTree) {
  // keiro topo fattree 4 2: 4 leaves with 4 HCAs, each linked to 4 spines.
  // By hand: a leaf sends (and receives) 4 * 12 CA routes over its 4 links,
  // so every switch-to-switch channel carries 12 when spread evenly.
  const topo::GenFabric g = topo::gen_fat_tree(4, 2, topo::TopoOptions{});
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(topo::write_net(g), "fattree-4-2", f, err)) << err;
  fixtures::EngineRun run = acro(f, 8);
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(run.rep.get("max_efi"), std::to_string(4 * 12 / 4));
  // Up/down routes between CAs; every spine-to-spine route turns at the same
  // (first) leaf, so one layer suffices and ACRO finds it.
  EXPECT_EQ(run.rep.get("layers"), "1");
  EXPECT_EQ(run.out.vls_used, 1);
  EXPECT_EQ(run.rep.get("per_switch_trees"), "0");
  EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
}

TEST(AcroEngine, TooFewVlsFailsWithOneErrorLine) {
  const Fabric f = fixtures::ring(6, {.hcas = 1});  // minimal routing on a 6-ring needs 2 layers
  fixtures::EngineRun run = acro(f, 1);
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(run.log.contains("ACRO needs 2 VLs")) << run.log.lines.back().text;
  EXPECT_TRUE(run.log.contains("only 1 allowed"));
  const fixtures::EngineRun noqos = acro(f, 1, 16, false);
  EXPECT_FALSE(noqos.ok);
  ASSERT_EQ(noqos.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(noqos.log.contains("QoS is off"));
  const fixtures::EngineRun two = acro(f, 2);
  EXPECT_TRUE(two.ok);
}

TEST(AcroEngine, TooFewSlsFailsWithOneErrorLineSayingWhat16Would) {
  // 64/4 with 1 HCA: 3 layers. One SL cannot hold the layer transitions
  // within 3 VLs; the line says how many paths stayed unplaced and that 16 SLs fit.
  const Fabric f = fixtures::random_regular(64, 4, 1, {.hcas = 1});
  fixtures::EngineRun run = acro(f, 3, 1);
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(run.log.contains("got no SL with 1 SLs and 3 VLs"));
  EXPECT_TRUE(run.log.contains("with 16 SLs it fits"));
}

TEST(AcroEngine, DisconnectedFabricFailsWithOneErrorLine) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}});
  fixtures::EngineRun run = acro(f, 8);
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(run.log.contains("not connected"));
}

}  // namespace
}  // namespace keiro
