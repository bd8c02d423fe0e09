// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-nue end to end (nue::kEngine, core/nue/engine.h) and the pure
// nue::route (core/nue/nue.h) on small hand-checked fabrics, its options and
// error paths, and property tests on random fabrics: every (switch, LID) has a
// route, no forwarding loops, and the per-layer CDG induced by the routes is
// acyclic (checked independently by fixtures::check_routes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/io/topology_file.h"
#include "core/nue/engine.h"
#include "core/nue/nue.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/net_list.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

template <class Run>
const nue::NueResult &nue_of(const Run &run) {
  return fixtures::result_of<nue::NueResult>(run);
}

using fixtures::check_routes;

using NueRun = fixtures::EngineRun;

// keiro-nue's route function alone (no self-check: check_routes checks).
void route(const Fabric &f, const std::string &opts, int k, NueRun &run, int max_sls = 16) {
  run = fixtures::run_captured(
      f, "keiro-nue", {.opts = opts, .max_vls = k, .max_sls = max_sls, .self_check = false});
}

Fabric fig2() {
  return fixtures::from_links(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {2, 4}}, {.hcas = 1});
}

TEST(NueRoute, Fig2RingWithShortcutFromThePapersRoot) {
  const Fabric f = fig2();
  NueRun run;
  route(f, "nue_root=S4", 1, run);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  ASSERT_FALSE(nue_of(run).layer.empty());
  EXPECT_EQ(f.sw(nue_of(run).layer[0].root).name, "S4");
  EXPECT_EQ(nue_of(run).layers, 1);
  // Fig. 2 routes without an impasse (PureRouteCountersOnFig2).
  EXPECT_EQ(nue_of(run).escape_fallbacks, 0);
  EXPECT_EQ(nue_of(run).backtracking, 0);
  EXPECT_EQ(nue_of(run).escape_repairs, 0);
  EXPECT_EQ(nue_of(run).shortcuts, 0);
  EXPECT_EQ(nue_of(run).escape_dependencies, 8);  // Fig. 4
  const fixtures::RouteCheck c = check_routes(f, run.out);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.vls, 1);
  // Own LIDs go to port 0, CA LIDs to the CA's port, every SL is 0.
  for (int32_t s = 0; s < 5; ++s) EXPECT_EQ(run.out.out_port(s, f.sw(s).lid), 0);
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    EXPECT_EQ(run.out.out_port(f.terminal(t).sw, f.terminal(t).lid), f.terminal(t).sw_port);
    EXPECT_EQ(run.out.path_sl(0, f.terminal(t).lid), 0);
  }
  EXPECT_EQ(run.log.count(LogLevel::kInfo), 1);
  EXPECT_EQ(run.last_line(),
            "keiro-nue: routed 10 LIDs in 1 of 1 layers (partition metis); 0 of them fell back "
            "to the escape paths; islands reached by backtracking 0, by escape repair 0; 0 "
            "shortcuts");
}

// The impasse handling through the whole engine (pipeline::route: route and
// self-check), one layer: a 5x3x2 torus with 20% of its links failed (found
// by searching random tori with one CA per switch) where LID 47 meets an
// unsolvable impasse and falls back to the escape paths, 12 islands are
// reached by local backtracking and 9 settled switches take shortcuts. The
// tables stay deadlock free by the independent check.
TEST(NueRoute, EscapeFallbackBacktrackingAndShortcutsThroughTheEngine) {
  const Fabric f = fixtures::from_links(30, fixtures::torus_links(5, 3, 2, 0.2, 9), {.hcas = 1});
  const fixtures::EngineRun run = fixtures::run_captured(f, "keiro-nue", {.max_vls = 1});
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  EXPECT_EQ(nue_of(run).layers, 1);
  EXPECT_GT(nue_of(run).escape_fallbacks, 0);
  EXPECT_GT(nue_of(run).backtracking, 0);
  EXPECT_GT(nue_of(run).shortcuts, 0);
  EXPECT_TRUE(run.log.contains("keiro-nue: layer 0: unsolvable impasse for LID"));
  EXPECT_TRUE(run.log.contains("; " + run.rep.get("escape_fallbacks") +
                               " of them fell back to the escape paths; islands "
                               "reached by backtracking " +
                               run.rep.get("backtracking")));
  const fixtures::RouteCheck c = check_routes(f, run.out);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.vls, 1);
  EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
  // The same counters from the pure function, and the fallen-back LIDs.
  nue::NueOptions opt;
  opt.layers = 1;
  nue::NueResult r;
  std::string err;
  Options o = all_options();
  ASSERT_TRUE(nue::read_options(o, f, 1, opt, err)) << err;
  ASSERT_TRUE(nue::route(f, opt, r, err)) << err;
  EXPECT_EQ(std::to_string(r.escape_fallbacks), run.rep.get("escape_fallbacks"));
  ASSERT_EQ(r.layer.size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(r.layer[0].fallback_lids.size()), r.escape_fallbacks);
}

// A smaller one without a fallback: a random 3-regular fabric of 14
// switches (seed 6, one CA each, found by the same search) where one layer
// needs 9 islands reached by backtracking and 2 shortcuts; no LID falls back.
TEST(NueRoute, BacktrackingAndShortcutsOnFourteenSwitches) {
  const Fabric f = fixtures::random_regular(14, 3, 6, {.hcas = 1});
  const fixtures::EngineRun run = fixtures::run_captured(f, "keiro-nue", {.max_vls = 1});
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(nue_of(run).escape_fallbacks, 0);
  EXPECT_GT(nue_of(run).backtracking, 0);
  EXPECT_GT(nue_of(run).shortcuts, 0);
  const fixtures::RouteCheck c = check_routes(f, run.out);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.vls, 1);
}

TEST(NueRoute, RootByGuidAndBadRoot) {
  const Fabric f = fig2();
  NueRun by_guid;
  route(f, "nue_root=0x1002", 1, by_guid);
  ASSERT_TRUE(by_guid.ok);
  ASSERT_FALSE(nue_of(by_guid).layer.empty());
  EXPECT_EQ(f.sw(nue_of(by_guid).layer[0].root).name, "S2");
  NueRun bad;
  route(f, "nue_root=no-such-switch", 2, bad);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(bad.log.contains("nue_root 'no-such-switch'"));
  NueRun bad_guid;
  route(f, "nue_root=0xdead", 1, bad_guid);
  EXPECT_FALSE(bad_guid.ok);
  EXPECT_EQ(bad_guid.log.count(LogLevel::kError), 1);
}

// Two switches share the node description "twin": nue_root=twin is
// ambiguous and must be refused (one ERROR line naming the problem), not
// resolved to the first match; the GUID of either one works.
TEST(NueRoute, AmbiguousRootDescriptionIsOneError) {
  Fabric f;
  for (int i = 0; i < 3; ++i) {
    SwitchInfo si;
    si.guid = 0x1000 + static_cast<uint64_t>(i);
    si.name = i < 2 ? "twin" : "other";
    si.num_ports = 4;
    f.add_switch(si);
  }
  f.add_link(0, 1, 1, 1);
  f.add_link(1, 2, 2, 1);
  f.add_link(2, 2, 0, 2);
  assign_lids(f, 0);
  f.finalize();
  NueRun run;
  route(f, "nue_root=twin", 1, run);
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(run.log.contains("keiro-nue: nue_root 'twin' is the node description of 2 switches"))
      << run.log.lines[0].text;
  EXPECT_TRUE(run.log.contains("GUID"));
  EXPECT_EQ(run.log.count(LogLevel::kInfo), 0);
  NueRun by_guid;
  route(f, "nue_root=0x1001", 1, by_guid);
  ASSERT_TRUE(by_guid.ok);
  EXPECT_EQ(by_guid.rep.get("root_layer0"), "'twin' (0x0000000000001001)");
  // The same refusal from read_options, without the engine around it.
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse("nue_root=twin", o, err)) << err;
  nue::NueOptions opt;
  EXPECT_FALSE(nue::read_options(o, f, 1, opt, err));
  EXPECT_NE(err.find("2 switches"), std::string::npos) << err;
}

// The typed counters of the pure function on the paper's Fig. 2 fabric
// (5 switches, one CA each, root S4, one layer). Fig. 4 of the paper gives
// the 8 escape dependencies; 10 LIDs (5 switch LIDs, 5 CA LIDs) in one
// layer. The work counters are this implementation's on this input (a
// change in them means a change in the algorithm's path through the CDG).
TEST(NueRoute, PureRouteCountersOnFig2) {
  const Fabric f = fig2();
  nue::NueOptions opt;
  opt.layers = 1;
  opt.root = 4;
  nue::NueResult r;
  std::string err;
  ASSERT_TRUE(nue::route(f, opt, r, err)) << err;
  EXPECT_EQ(r.layers, 1);
  ASSERT_EQ(r.layer.size(), 1u);
  EXPECT_EQ(r.layer[0].root, 4);
  EXPECT_EQ(r.layer[0].ports, 10);
  EXPECT_EQ(r.layer[0].switches, 5);
  EXPECT_EQ(r.layer[0].convex_subgraph, 0);  // root given: no H_i
  EXPECT_EQ(r.lids, 10);
  EXPECT_EQ(r.layer[0].lids, 10);
  EXPECT_EQ(r.escape_dependencies, 8);  // Fig. 4
  EXPECT_EQ(r.escape_fallbacks, 0);
  EXPECT_TRUE(r.layer[0].fallback_lids.empty());
  EXPECT_EQ(r.backtracking, 0);
  EXPECT_EQ(r.escape_repairs, 0);
  EXPECT_EQ(r.shortcuts, 0);
  EXPECT_EQ(r.order_attempts, 1);  // balanced enough: no second order
  EXPECT_EQ(r.cycle_searches, 1);
  EXPECT_EQ(r.cycle_search_visits, 3);
  EXPECT_EQ(r.blocked_dependencies, 1);
  // The tables: one column per LID, own LIDs on port 0, CA LIDs on the CA's
  // port (links take the first ports: S2 and S4 have three, the others
  // two), every column in layer 0.
  const int ca_port[5] = {3, 3, 4, 3, 4};
  ASSERT_EQ(r.num_columns(), 10);
  EXPECT_EQ(r.num_switches, 5);
  for (int32_t j = 0; j < r.num_columns(); ++j) {
    EXPECT_EQ(r.column_layer[j], 0);
    const int32_t owner = f.lid_switch(r.column_lid[j]);
    for (int32_t s = 0; s < 5; ++s) EXPECT_NE(r.port(s, j), kNoPort);
    const bool own = f.sw(owner).lid == r.column_lid[j];
    EXPECT_EQ(r.port(owner, j), own ? 0 : ca_port[owner]);
  }
}

TEST(NueRoute, DisconnectedFabricIsOneError) {
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}}, {.hcas = 1});
  NueRun run;
  route(f, "", 2, run);
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(run.log.contains("disconnected"));
}

TEST(NueRoute, LayersSlsAndSl2vl) {
  const Fabric f = fixtures::from_links(24, fixtures::random_regular_links(24, 4, 5), {.hcas = 2});
  NueRun run;
  route(f, "", 4, run);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(nue_of(run).layers, 4);
  const fixtures::RouteCheck c = check_routes(f, run.out);
  ASSERT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.vls, 4);
  EXPECT_EQ(run.out.vls_used, 4);
  std::vector<int> per_sl(16, 0);
  for (uint16_t lid : f.lids()) {
    const uint8_t sl = run.out.path_sl(0, lid);
    ASSERT_LT(sl, 4);
    ++per_sl[sl];
    // A switch's own LIDs and its CAs' LIDs share the switch's layer (METIS
    // partitions switches).
    EXPECT_EQ(sl, run.out.path_sl(0, f.sw(f.lid_switch(lid)).lid));
  }
  for (int sl = 0; sl < 4; ++sl) EXPECT_GT(per_sl[sl], 0);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (uint8_t sl = 0; sl < 4; ++sl) EXPECT_EQ(run.out.vl(s, 1, 2, sl), sl);
  for (int32_t t = 0; t < f.num_terminals(); ++t) EXPECT_EQ(run.out.terminal_vl(t, 3), 3);
}

TEST(NueRoute, SlBudgetLimitsLayers) {
  const Fabric f = fixtures::from_links(16, fixtures::random_regular_links(16, 4, 2), {.hcas = 1});
  NueRun run;
  route(f, "", 8, run, /*max_sls=*/2);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(nue_of(run).layers, 2);
  EXPECT_LE(check_routes(f, run.out).vls, 2);
}

TEST(NueRoute, LmcGivesEveryLidItsOwnRouteInOneLayer) {
  const Fabric f =
      fixtures::from_links(12, fixtures::random_regular_links(12, 4, 9), {.hcas = 2, .lmc = 2});
  NueRun run;
  route(f, "", 2, run);
  ASSERT_TRUE(run.ok);
  const fixtures::RouteCheck c = check_routes(f, run.out);
  ASSERT_TRUE(c.ok) << c.problem;
  int differing = 0;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const uint16_t base = f.terminal(t).lid;
    for (uint16_t i = 1; i < 4; ++i) {
      EXPECT_EQ(run.out.path_sl(0, base + i), run.out.path_sl(0, base));
      for (int32_t s = 0; s < f.num_switches(); ++s)
        differing += run.out.out_port(s, base + i) != run.out.out_port(s, base);
    }
  }
  EXPECT_GT(differing, 0);  // the weights spread the LIDs of a port
}

// With several layers, a switch's own LID takes the tree of the first CA
// port on the switch in the same layer (METIS layers: every port of a
// switch shares it): the same port at every other switch, port 0 at its
// own, and the same SL. The tables pass the independent check.
TEST(NueRoute, SwitchLidsShareTheTreeOfACaOnTheirSwitch) {
  // A 6x6 torus with 3 HCAs on every switch.
  const Fabric f = fixtures::from_links(36, fixtures::torus_links(6, 6), {.hcas = 3});
  NueRun run;
  route(f, "", 4, run);
  ASSERT_TRUE(run.ok) << run.log.lines.back().text;
  const fixtures::RouteCheck c = check_routes(f, run.out);
  ASSERT_TRUE(c.ok) << c.problem;
  int shared = 0;
  for (int32_t d = 0; d < f.num_switches(); ++d) {
    const uint16_t own = f.sw(d).lid;
    ASSERT_NE(own, 0);
    EXPECT_EQ(run.out.out_port(d, own), 0);
    const auto cas = f.terminals_of(d);
    ASSERT_FALSE(cas.empty());
    const uint16_t ca = f.terminal(cas.front()).lid;
    EXPECT_EQ(run.out.path_sl(0, own), run.out.path_sl(0, ca));
    int same = 0;
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (s != d) same += run.out.out_port(s, own) == run.out.out_port(s, ca);
    shared += same == f.num_switches() - 1;
  }
  EXPECT_EQ(shared, f.num_switches());
}

TEST(NueRoute, ParallelLinksSingleSwitchAndTinyFabrics) {
  // Parallel links: both are used by some route.
  const Fabric par = fixtures::from_links(3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}, {2, 0}}, {.hcas = 3});
  NueRun run;
  route(par, "", 2, run);
  ASSERT_TRUE(run.ok);
  ASSERT_TRUE(check_routes(par, run.out).ok) << check_routes(par, run.out).problem;
  std::vector<int> used_port(16, 0);
  for (uint16_t lid : par.lids()) ++used_port[run.out.out_port(0, lid)];
  int links_used = 0;
  for (int32_t c = par.out_begin(0); c < par.out_end(0); ++c)
    links_used += used_port[par.channel(c).src_port] > 0;
  EXPECT_EQ(links_used, 3);
  // One switch: only local deliveries.
  const Fabric one = fixtures::from_links(1, {}, {.hcas = 3});
  NueRun single;
  route(one, "", 4, single);
  ASSERT_TRUE(single.ok);
  EXPECT_TRUE(check_routes(one, single.out).ok);
  EXPECT_EQ(nue_of(single).layers, 1);
  // More layers than switches.
  const Fabric two = fixtures::from_links(2, {{0, 1}}, {.hcas = 1});
  NueRun small;
  route(two, "", 8, small);
  ASSERT_TRUE(small.ok);
  EXPECT_EQ(nue_of(small).layers, 2);
  EXPECT_TRUE(check_routes(two, small.out).ok);
}

// Property test: random fabrics x k x partition methods.
TEST(NueRoute, RandomFabricsAreConnectedLoopFreeAndDeadlockFree) {
  int fabrics = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int n = 6 + static_cast<int>(seed * 7 % 40);
    const int d = 3 + static_cast<int>(seed % 4);
    if ((n * d) % 2) continue;
    auto links = fixtures::random_regular_links(n, d, seed);
    if (seed % 3 == 0) links.push_back(links[seed % links.size()]);  // a parallel link
    const Fabric f = fixtures::from_links(
        n, links,
        {.hcas = static_cast<int>(seed % 4), .lmc = static_cast<uint8_t>(seed % 5 == 0 ? 1 : 0)});
    ++fabrics;
    for (const char *method : {"metis", "cluster", "random"}) {
      for (int k : {1, 2, 4, 8}) {
        NueRun run;
        route(f, std::string("nue_partition=") + method + " nue_seed=" + std::to_string(seed), k,
              run);
        ASSERT_TRUE(run.ok) << "seed " << seed << " " << method << " k=" << k;
        const fixtures::RouteCheck c = check_routes(f, run.out);
        ASSERT_TRUE(c.ok) << "seed " << seed << " " << method << " k=" << k << ": " << c.problem;
        EXPECT_LE(c.vls, k);
        EXPECT_EQ(run.log.count(LogLevel::kError), 0);
      }
    }
  }
  EXPECT_GE(fabrics, 8);
}

TEST(NueRoute, RunEngineSelfCheckPasses) {
  const EngineDesc *e = find_engine("keiro-nue");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(find_engine("nue"), e);
  const Fabric f =
      fixtures::from_links(20, fixtures::random_regular_links(20, 4, 7), {.hcas = 2, .lmc = 1});
  for (int k : {1, 3, 8}) {
    const fixtures::EngineRun run = fixtures::run_captured(f, "keiro-nue", {.max_vls = k});
    const CaptureLogger &log = run.log;
    const Routing &r = run.out;
    EXPECT_TRUE(run.ok) << run.first_line();
    EXPECT_EQ(log.count(LogLevel::kError), 0);
    EXPECT_EQ(r.engine, "keiro-nue");
    EXPECT_LE(r.vls_used, k);
  }
}

// The docs claim 1 to 15 VLs: with 9..15 (ports with 15 data VLs) the
// engine (route + self-check) builds that many layers on 64 switches, every
// one of them used, and the independent check passes with exactly k VLs.
// (On 32 switches METIS leaves some of 9..15 parts empty: fewer layers.)
TEST(NueRoute, NineToFifteenVls) {
  const Fabric f =
      fixtures::from_links(64, fixtures::random_regular_links(64, 4, 1), {.hcas = 1, .vls = 15});
  for (int k = 9; k <= 15; ++k) {
    const fixtures::EngineRun run =
        fixtures::run_captured(f, "keiro-nue", {.max_vls = k, .max_sls = 16});
    ASSERT_TRUE(run.ok) << "k=" << k << ": " << run.last_line();
    EXPECT_EQ(run.log.count(LogLevel::kError), 0);
    EXPECT_EQ(nue_of(run).layers, k);
    const fixtures::RouteCheck c = check_routes(f, run.out);
    ASSERT_TRUE(c.ok) << "k=" << k << ": " << c.problem;
    EXPECT_EQ(c.vls, k);
    EXPECT_EQ(run.out.vls_used, k);
  }
}

TEST(NueRoute, TorusWithFailuresAllK) {
  const Fabric f = fixtures::from_links(27, fixtures::torus_links(3, 3, 3, 0.05, 4), {.hcas = 2});
  for (int k : {1, 2, 4, 8}) {
    NueRun run;
    route(f, "", k, run);
    ASSERT_TRUE(run.ok) << k;
    const fixtures::RouteCheck c = check_routes(f, run.out);
    ASSERT_TRUE(c.ok) << "k=" << k << ": " << c.problem;
  }
}

// Layers take turns (nue.cc): with several layers on a low-diameter fabric
// the METIS layers are compact regions, and routing them one after the other
// left the most loaded link at 1.64 (4 layers) and 1.56 (8 layers) times the
// mean edge forwarding index of this fabric; interleaving them gave 1.28 and
// 1.17 at the same average path length, and 1.217 and 1.130 (switch hops
// 2.560 and 2.536) before the waves; with the waves (a LID misses the
// weight updates of up to k - 1 LIDs of other layers) 1.251 and 1.136
// (switch hops 2.565 and 2.536), measured on 2026-11-24.
TEST(NueRoute, InterleavedLayersBalance) {
  const Fabric f =
      fixtures::from_links(128, fixtures::random_regular_links(128, 8, 3), {.hcas = 4});
  struct Bound {
    int k;
    double efi_ratio, hops;
    const char *opts;
  };
  // Measured 1.251 / 2.565 (k = 4) and 1.136 / 2.536 (k = 8) without
  // multicast trees (mcast_trees=0); with them (the default) layer 0's escape
  // tree keeps every turn for the groups (docs/multicast.md) and the figures
  // are 1.229 / 2.574 and 1.171 / 2.539. Deterministic (METIS and the orders
  // are seeded): about 1% above, so a loss of balance or path length shows.
  for (const Bound b :
       {Bound{4, 1.265, 2.575, "mcast_trees=0"}, Bound{8, 1.15, 2.545, "mcast_trees=0"},
        Bound{4, 1.245, 2.585, ""}, Bound{8, 1.185, 2.55, ""}}) {
    NueRun run;
    route(f, b.opts, b.k, run);
    ASSERT_TRUE(run.ok) << b.k;
    const fixtures::RouteCheck c = check_routes(f, run.out);
    ASSERT_TRUE(c.ok) << "k=" << b.k << ": " << c.problem;
    std::printf("rrg128 k=%d %s: max EFI %lld, mean %.1f (%.3fx), switch hops %.3f\n", b.k, b.opts,
                static_cast<long long>(c.max_efi), c.avg_efi,
                static_cast<double>(c.max_efi) / c.avg_efi, c.avg_hops);
    EXPECT_LE(static_cast<double>(c.max_efi), b.efi_ratio * c.avg_efi) << "k=" << b.k << b.opts;
    EXPECT_LT(c.avg_hops, b.hops) << "k=" << b.k << b.opts;
  }
}

// A k-ary 2-tree: k top switches T0..T<k-1> (ids 0..k-1), k leaves (ids
// k..2k-1); port p + 1 of leaf j goes to port j + 1 of top p; k CAs on ports
// k + 1 .. 2k of every leaf. LIDs with LMC lmc.
Fabric two_level_fat_tree(int k, uint8_t lmc) {
  Fabric f;
  for (int i = 0; i < 2 * k; ++i)
    f.add_switch({0x5000 + static_cast<uint64_t>(i), (i < k ? "T" : "L") + std::to_string(i % k),
                  static_cast<uint8_t>(2 * k)});
  for (int j = 0; j < k; ++j)
    for (int p = 0; p < k; ++p)
      f.add_link(k + j, static_cast<uint8_t>(p + 1), p, static_cast<uint8_t>(j + 1));
  for (int j = 0; j < k; ++j)
    for (int h = 0; h < k; ++h) {
      TerminalInfo t;
      t.node_guid = 0x900000 + 2 * static_cast<uint64_t>(j * k + h);
      t.port_guid = t.node_guid + 1;
      t.name = "H" + std::to_string(j * k + h);
      t.sw = k + j;
      t.sw_port = static_cast<uint8_t>(k + 1 + h);
      f.add_terminal(t);
    }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

// The switch-to-switch channels the route from CA src to LID lid crosses,
// walked port by port in the tables (no keiro code but the Fabric's wiring).
std::vector<int32_t> walk(const Fabric &f, const Routing &r, int32_t src, uint16_t lid) {
  std::vector<int32_t> path;
  int32_t s = f.terminal(src).sw;
  for (int hop = 0; hop < 8; ++hop) {
    const PortPeer peer = f.peer(s, r.out_port(s, lid));
    if (peer.kind != PortPeer::kSwitch) return path;
    path.push_back(peer.id);
    s = f.channel(peer.id).dst;
  }
  ADD_FAILURE() << "no delivery within 8 hops";
  return path;
}

TEST(NueRoute, TwoLevelFatTreeIsPerfectlyBalancedOnOneVl) {
  // Every CA pair on different leaves crosses exactly one up-link (leaf ->
  // top) and one down-link. By hand: a leaf's k CAs send to (k - 1) * k CAs
  // on other leaves, k pairs per destination, all over the one up-link the
  // leaf uses for that destination (destination-based). Spread evenly over
  // its k up-links, each carries (k - 1) * k / k destinations * k pairs =
  // k * (k - 1) pairs; the same count for every down-link (a leaf receives
  // k * (k - 1) * k pairs over k down-links). Without balancing inside a
  // destination's run, the k - 1 other leaves all take the same top, so a
  // down-link carries a multiple of (k - 1) * k pairs per destination.
  // keiro-nue reaches that exact balance for k = 3 and 5; for k = 4, 7, 8
  // a few links are one destination (k pairs) off (measured: 4, 10 and 14
  // links): the greedy order is not an exact matching.
  struct Case {
    int k;
    int64_t slack;  // allowed distance from k * (k - 1)
  };
  for (const Case t : {Case{3, 0}, Case{5, 0}, Case{4, 4}, Case{7, 7}, Case{8, 8}}) {
    const int k = t.k;
    const Fabric f = two_level_fat_tree(k, 0);
    NueRun run;
    route(f, "", 1, run);
    ASSERT_TRUE(run.ok) << k;
    ASSERT_TRUE(check_routes(f, run.out).ok) << k;
    std::vector<int64_t> load(f.num_channels(), 0);
    for (int32_t a = 0; a < f.num_terminals(); ++a)
      for (int32_t b = 0; b < f.num_terminals(); ++b) {
        if (f.terminal(a).sw == f.terminal(b).sw) continue;
        const std::vector<int32_t> path = walk(f, run.out, a, f.terminal(b).lid);
        ASSERT_EQ(path.size(), 2u) << "k=" << k << ": not minimal";
        for (int32_t c : path) ++load[c];
      }
    const int64_t expected = static_cast<int64_t>(k) * (k - 1);
    int64_t total = 0;
    for (int32_t c = 0; c < f.num_channels(); ++c) {
      total += load[c];
      EXPECT_LE(std::abs(load[c] - expected), t.slack)
          << "k=" << k << " channel " << f.describe(f.channel(c).src) << " -> "
          << f.describe(f.channel(c).dst) << " carries " << load[c];
    }
    EXPECT_EQ(total, 2 * expected * f.num_channels() / 2) << k;
  }
}

TEST(NueRoute, DegradedThreeLevelFatTreeStaysMinimalAndNearItsBoundOnOneVl) {
  // keiro topo fattree 8 3 --fail-links 0.04 --seed S: 64 leaves of 8 CAs.
  // Every CA route stays minimal (walked in the tables, lengths from a BFS
  // of the switch graph), and no switch-to-switch link carries more than
  // 1.35x the busiest leaf's lower bound: a leaf with u up-links left sends
  // its 8 CAs' pairs to the 504 CAs on other leaves over those u links,
  // 8 * 504 / u on one of them at least. Before the up-down turns were
  // reserved (escape_paths.h) the valleys around the failed links blocked
  // CA turns: seeds 1 and 2 had 1112 and 1848 (bound 672 both), and seed 3
  // routes that were not minimal.
  for (const uint64_t seed : {1u, 2u, 3u}) {
    topo::GenFabric g = topo::gen_fat_tree(8, 3, topo::TopoOptions{.seed = seed});
    topo::fail_links(g, 0.04, seed);
    Fabric f;
    std::string err;
    ASSERT_TRUE(io::parse_topology(topo::write_net(g), "ft8", f, err)) << err;
    NueRun run;
    route(f, "", 1, run);
    ASSERT_TRUE(run.ok) << seed;
    ASSERT_TRUE(check_routes(f, run.out).ok) << seed;
    const std::vector<int32_t> dist = fixtures::distances(f);
    const int32_t n = f.num_switches();
    std::vector<int64_t> load(f.num_channels(), 0);
    double bound = 0;
    for (int32_t s = 0; s < n; ++s) {
      const auto cas = static_cast<double>(f.terminals_of(s).size());
      if (cas == 0) continue;
      bound = std::max(bound, cas * (f.num_terminals() - cas) / (f.out_end(s) - f.out_begin(s)));
    }
    for (int32_t a = 0; a < f.num_terminals(); ++a)
      for (int32_t b = 0; b < f.num_terminals(); ++b) {
        const int32_t sa = f.terminal(a).sw, sb = f.terminal(b).sw;
        if (sa == sb) continue;
        const std::vector<int32_t> path = walk(f, run.out, a, f.terminal(b).lid);
        ASSERT_EQ(static_cast<int32_t>(path.size()), dist[static_cast<size_t>(sa) * n + sb])
            << "seed " << seed << ": " << f.terminal(a).name << " -> " << f.terminal(b).name;
        for (int32_t c : path) ++load[c];
      }
    const int64_t top = *std::max_element(load.begin(), load.end());
    EXPECT_LE(static_cast<double>(top), 1.35 * bound) << "seed " << seed << ": bound " << bound;
  }
}

TEST(NueRoute, LmcOffsetsTakeDifferentTopsOnATwoLevelFatTree) {
  // k = 4 tops, LMC 2: the 4 LIDs of a CA reach it over 4 different tops
  // from every other leaf, since each LID's routes load the down-link the
  // previous LIDs of that CA did not use (every top is a minimal
  // alternative for every leaf).
  const int k = 4;
  const Fabric f = two_level_fat_tree(k, 2);
  NueRun run;
  route(f, "", 1, run);
  ASSERT_TRUE(run.ok);
  ASSERT_TRUE(check_routes(f, run.out).ok);
  for (int32_t b = 0; b < f.num_terminals(); ++b)
    for (int j = 0; j < k; ++j) {
      const int32_t leaf = k + j;
      if (leaf == f.terminal(b).sw) continue;
      std::vector<int> ports;
      for (uint16_t i = 0; i < 4; ++i)
        ports.push_back(run.out.out_port(leaf, static_cast<uint16_t>(f.terminal(b).lid + i)));
      std::sort(ports.begin(), ports.end());
      EXPECT_TRUE(std::adjacent_find(ports.begin(), ports.end()) == ports.end())
          << "leaf L" << j << " to " << f.terminal(b).name << ": the LIDs share up-links";
    }
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

// NueOptions::threads: the layers' preparation and the waves of several
// layers' LIDs run on several workers, and the order attempts of a single
// layer run side by side; the tables, the layers, the roots and the kept
// attempt's counters must not depend on the thread count. The single-layer fabrics are picked so
// that one thread routes more than one order attempt (the side-by-side path decides).
TEST(NueRoute, SameTablesForEveryThreadCount) {
  struct Case {
    Fabric f;
    int layers;
  };
  std::vector<Case> cases;
  cases.push_back({fixtures::random_regular(64, 6, 5, {.hcas = 2}), 1});
  cases.push_back({fixtures::random_regular(96, 5, 9, {.hcas = 3, .lmc = 1}), 1});
  cases.push_back({fixtures::random_regular(96, 6, 2, {.hcas = 2}), 4});
  // Several LIDs per port in several layers: a layer's next LID waits for
  // the next wave (route_waves).
  cases.push_back({fixtures::random_regular(96, 5, 9, {.hcas = 3, .lmc = 2}), 5});
  cases.push_back(
      {fixtures::from_links(64, fixtures::torus_links(4, 4, 4, 0.03, 3), {.hcas = 1}), 8});
  int retried = 0;
  for (size_t c = 0; c < cases.size(); ++c) {
    const Fabric &f = cases[c].f;
    nue::NueOptions opt;
    opt.layers = cases[c].layers;
    opt.threads = 1;
    nue::NueResult one;
    std::string err;
    ASSERT_TRUE(nue::route(f, opt, one, err)) << err;
    if (cases[c].layers == 1 && one.order_attempts > 1) ++retried;
    for (int threads : {2, 3, 4, 0}) {
      opt.threads = threads;
      nue::NueResult r;
      ASSERT_TRUE(nue::route(f, opt, r, err)) << err;
      SCOPED_TRACE("case " + std::to_string(c) + ", threads " + std::to_string(threads));
      EXPECT_EQ(r.layers, one.layers);
      EXPECT_EQ(r.column_lid, one.column_lid);
      EXPECT_EQ(r.column_layer, one.column_layer);
      EXPECT_TRUE(r.out_port == one.out_port);
      ASSERT_EQ(r.layer.size(), one.layer.size());
      for (size_t i = 0; i < r.layer.size(); ++i) {
        EXPECT_EQ(r.layer[i].root, one.layer[i].root);
        EXPECT_EQ(r.layer[i].convex_subgraph, one.layer[i].convex_subgraph);
        EXPECT_EQ(r.layer[i].escape_dependencies, one.layer[i].escape_dependencies);
        EXPECT_EQ(r.layer[i].fallback_lids, one.layer[i].fallback_lids);
      }
      EXPECT_EQ(r.escape_fallbacks, one.escape_fallbacks);
      EXPECT_EQ(r.backtracking, one.backtracking);
      EXPECT_EQ(r.shortcuts, one.shortcuts);
      EXPECT_EQ(r.blocked_dependencies, one.blocked_dependencies);
    }
  }
  EXPECT_GE(retried, 1);  // the attempts' decision in order was exercised
}

}  // namespace
}  // namespace keiro
