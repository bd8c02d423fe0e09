// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "core/check/verify.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

using fixtures::route_ring;

// The clockwise ring's routing with SL 1 mapped to VL 1 on every port (SL 0
// stays on VL 0): the setup of the per-source-LID SL tests.
Routing clockwise_sl1_on_vl1(const Fabric &f) {
  Routing r = route_ring(f, true);
  r.set_uniform_sl2vl(1, 1);
  return r;
}

// A per-source-LID SL table sized for f with no pair set.
check::SourceLidSls no_source_sls(const Fabric &f) {
  check::SourceLidSls sls;
  sls.reset(f.max_lid());
  return sls;
}

TEST(Verify, RingWithOppositeSplitIsDeadlockFree) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  const check::Result c = check::verify(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, 8 * 7);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_FALSE(c.credit_loop);
  EXPECT_EQ(c.vls_used, 1);
  EXPECT_EQ(c.sls_used, 1);
  EXPECT_TRUE(c.problems.empty());
  // 4 dependencies: S1->S2->S3, S3->S4->S1, S2->S1->S4, S4->S3->S2.
  EXPECT_EQ(c.dependency_edges, 4);
  EXPECT_EQ(c.dependency_nodes, 8);
}

TEST(Verify, ClockwiseRingHasTheExactCreditLoop) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);
  const check::Result c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  const std::vector<std::string> want = {"S1 port 2 VL 0", "S2 port 2 VL 0", "S3 port 2 VL 0",
                                         "S4 port 2 VL 0"};
  EXPECT_EQ(c.cycle, want);
  EXPECT_EQ(c.first_problem,
            "credit loop over 4 (channel, VL) pairs: S1 port 2 VL 0 -> S2 port 2 VL 0 -> S3 port "
            "2 VL 0 -> S4 port 2 VL 0 -> S1 port 2 VL 0");
  ASSERT_EQ(c.cycle_deps.size(), 4u);
  const check::CycleDependency &d = c.cycle_deps[0];
  EXPECT_EQ(d.from, "S1 port 2 VL 0");
  EXPECT_EQ(d.to, "S2 port 2 VL 0");
  // Paths over S1 -> S2 -> S3: from S1 and H1 to the 4 LIDs on S3 and S4, and
  // from S4 and H4 to the 2 LIDs on S3.
  EXPECT_EQ(d.paths, 2 * 4 + 2 * 2);
  const std::vector<std::string> examples = {"'S1' (LID 1) -> LID 3 ('S3') SL 0",
                                             "'H1' (LID 5) -> LID 3 ('S3') SL 0",
                                             "'S4' (LID 4) -> LID 3 ('S3') SL 0"};
  EXPECT_EQ(d.examples, examples);
  for (const check::CycleDependency &dep : c.cycle_deps) EXPECT_EQ(dep.paths, 12);
}

// Clockwise ring, each source switch's paths on its own SL: acyclic with 4
// VLs, or with 2 when SLs {0,1} and {2,3} share a VL, cyclic when all share one.
TEST(Verify, SlToVlMappingDecides) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true, Routing::SlScope::kPerSourceSwitch);
  for (int s = 0; s < 4; ++s)
    for (const uint16_t lid : f.lids()) r.set_path_sl(s, lid, static_cast<uint8_t>(s));
  for (int sl = 0; sl < 4; ++sl)
    r.set_uniform_sl2vl(static_cast<uint8_t>(sl), static_cast<uint8_t>(sl));
  check::Result c = check::verify(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.vls_used, 4);
  EXPECT_EQ(c.sls_used, 4);
  EXPECT_EQ(c.sl_mask, 0xFu);

  for (int sl = 0; sl < 4; ++sl)
    r.set_uniform_sl2vl(static_cast<uint8_t>(sl), static_cast<uint8_t>(sl / 2));
  c = check::verify(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.vls_used, 2);
  EXPECT_EQ(c.sls_used, 4);

  for (int sl = 0; sl < 4; ++sl) r.set_uniform_sl2vl(static_cast<uint8_t>(sl), 0);
  c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.vls_used, 1);
}

// The VL of a hop depends on the port the packet came in on: S1 puts the
// traffic that arrives from S4 on VL 1. One SL cannot tell S2 whether a packet
// from S1 crossed S4 -> S1, so S2 maps it back to VL 0 and the loop remains,
// now through (S1 port 2, VL 1).
TEST(Verify, InPortSelectsTheVl) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);
  r.set_vl(0, 3, 2, 0, 1);
  const check::Result c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.vl_mask, 3u);
  const std::vector<std::string> want = {"S1 port 2 VL 1", "S2 port 2 VL 0", "S3 port 2 VL 0",
                                         "S4 port 2 VL 0"};
  EXPECT_EQ(c.cycle, want);
  // Only paths that came from S4 and go on past S2 create S1 port 2 VL 1 ->
  // S2 port 2 VL 0: S4 and H4 to the 2 LIDs on S3 (S4 -> S1 -> S2 -> S3).
  ASSERT_EQ(c.cycle_deps.size(), 4u);
  EXPECT_EQ(c.cycle_deps[0].paths, 4);
}

TEST(Verify, ForwardingLoop) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  // H3 is LID 7. S1 sends it to S2 (port 2); make S2 send it back (port 3).
  r.set_out_port(1, 7, 3);
  const check::Result c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.loops, 4);  // S1, H1, S2, H2
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.first_problem, "LID 7 ('H3') is in a forwarding loop: 'S1' -> 'S2' -> 'S1'");
}

TEST(Verify, BlackHoles) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  struct Case {
    uint8_t port;
    const char *want;
    bool wrong_delivery;
  };
  const Case cases[] = {
      {kNoPort, "LID 7 ('H3') is dropped at switch 'S2' (LFT entry 0xFF)", false},
      {12, "LID 7 ('H3') is dropped at switch 'S2' (LFT entry port 12, the switch has 8)", false},
      {5, "LID 7 ('H3') is sent out of switch 'S2' port 5, which has no link", false},
      {1, "LID 7 ('H3') is delivered by switch 'S2' port 1 to 'H2', which does not own it", true},
      {0, "LID 7 ('H3') is sent to port 0 of switch 'S2', which does not own it", true},
  };
  for (const Case &k : cases) {
    Routing bad = r;
    bad.set_out_port(1, 7, k.port);  // S2's entry for H3
    const check::Result c = check::verify(f, bad);
    EXPECT_FALSE(c.ok);
    // S2 and H2, and S1 and H1 (S1 reaches S3 clockwise through S2).
    EXPECT_EQ(c.unreachable, 4) << k.want;
    EXPECT_EQ(k.wrong_delivery ? c.wrong_delivery : c.black_holes, 4) << k.want;
    EXPECT_EQ(c.loops, 0);
    EXPECT_EQ(c.first_problem, k.want);
    EXPECT_EQ(c.problems.size(), 1u);
  }
}

TEST(Verify, OwnSwitchLidMustBePortZero) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  r.set_out_port(2, 3, 1);  // S3 sends its own LID to H3
  const check::Result c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.wrong_delivery, 7);  // every other source LID
  EXPECT_EQ(c.first_problem,
            "LID 3 ('S3') is delivered by switch 'S3' port 1 to 'H3', which does not own it");
}

TEST(Verify, LmcPairsAndSwitchLids) {
  const Fabric f = fixtures::ca_ring(4, 1);
  Routing r = route_ring(f, false);
  const check::Result c = check::verify(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  // 4 switch LIDs + 4 CAs x 2 LIDs; same-port pairs excluded.
  EXPECT_EQ(c.pairs_checked, 12 * 12 - (4 * 1 + 4 * 4));
}

TEST(Verify, Vl15AndVlsBeyondTheLink) {
  const Fabric f = fixtures::ca_ring(4, 0, 4);
  Routing r = route_ring(f, false);
  r.set_vl(0, 1, 2, 0, 15);  // S1: from H1 out to S2 on VL 15
  check::Result c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_GT(c.vl_errors, 0);
  EXPECT_EQ(c.first_problem,
            "path 'H1' (LID 5) -> LID 2 ('S2') SL 0: switch 'S1' maps it from port 1 to port 2 "
            "onto VL 15 (drop)");
  r = route_ring(f, false);
  r.set_vl(0, 0, 2, 0, 5);  // S1's own traffic on VL 5, the links have 4
  c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem,
            "path 'S1' (LID 1) -> LID 2 ('S2') SL 0: hop from switch 'S1' port 2 (in port 0) on "
            "VL 5, but the port operates 4 data VLs (VL 0..3)");
  r = route_ring(f, false);
  r.set_terminal_vl(0, 0, 15);
  c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem, "'H1' maps SL 0 to VL 15 (drop) on its own port");
}

// Options::stale_sls: VL 15 on a switch hop is a drop set on purpose
// (counted in stale_drops, not an error); credit loops still fail. A
// clockwise ring on one VL has a credit loop; S2 dropping the SL 0 traffic
// it would pass on from S1 to S3 breaks it (and loses that traffic).
TEST(Verify, StaleSlsCountDropsButNotCreditLoops) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);
  check::Options opt;
  opt.stale_sls = true;
  check::Result c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.stale_drops, 0);
  r.set_vl(1, 3, 2, 0, 15);  // S2: in from S1, out to S3
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_FALSE(c.credit_loop);
  EXPECT_EQ(c.vl_errors, 0);
  EXPECT_EQ(c.vls_used, 1);  // VL 15 is not a VL in use
  // Without stale_sls the same drops are VL errors, one per hop: the
  // destinations S3, H3, S4, H4 behind the turn (each dropped once, from
  // whichever source of S1 or S4 reaches it first).
  const int64_t drops = c.stale_drops;
  EXPECT_EQ(drops, 4);
  c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.vl_errors, drops);
  EXPECT_EQ(c.stale_drops, 0);
}

TEST(Verify, SourceLidSlsOverrideTheRouting) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = clockwise_sl1_on_vl1(f);
  // Every path that starts on S3 or S4 uses SL 1 (-> VL 1), the rest SL 0.
  check::SourceLidSls sls = no_source_sls(f);
  for (const uint16_t s : f.lids())
    for (const uint16_t d : f.lids())
      if (f.lid_switch(s) >= 2) sls.set(s, d, 1);
  check::Options opt;
  opt.source_sls = &sls;
  check::Result c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.sls_used, 2);
  EXPECT_EQ(c.vls_used, 2);
  // Now H1 alone switches to SL 1: its 3-hop path S1->S2->S3->S4 joins the
  // VL 1 paths S3->S4->S1->S2 and S4->S1->S2->S3: a cycle in VL 1.
  for (const uint16_t d : f.lids()) sls.set(5, d, 1);
  c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  bool named = false;
  for (const check::CycleDependency &dep : c.cycle_deps)
    for (const std::string &e : dep.examples) named |= e.rfind("'H1' (LID 5)", 0) == 0;
  EXPECT_TRUE(named);
}

// Clockwise ring; CAs on S1, S2 use SL 0 (VL 0), CAs on S3, S4 SL 1 (VL 1):
// acyclic. The switches' own traffic all on SL 0 closes a loop in VL 0, as
// with OpenSM's dfsssp, which leaves switch-sourced paths out of its
// dependency graph. Checking CA-sourced traffic only passes.
TEST(Verify, SwitchSourcedTrafficCanBeLeftOut) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = clockwise_sl1_on_vl1(f);
  check::SourceLidSls sls = no_source_sls(f);
  for (const uint16_t d : f.lids()) {
    sls.set(7, d, 1);  // H3
    sls.set(8, d, 1);  // H4
  }
  check::Options opt;
  opt.source_sls = &sls;
  check::Result c = check::verify(f, r, opt);
  EXPECT_TRUE(c.credit_loop);
  bool switch_path = false;
  for (const check::CycleDependency &dep : c.cycle_deps)
    for (const std::string &e : dep.examples) switch_path |= e.rfind("'S3' (LID 3)", 0) == 0;
  EXPECT_TRUE(switch_path);
  opt.switch_sources = false;
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, 4 * 7);
  opt.switch_destinations = false;
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, 4 * 3);
}

TEST(Verify, TablesOfAnotherFabricAreRejected) {
  const Fabric f = fixtures::ca_ring(4);
  const Fabric g = fixtures::ca_ring(5);
  Routing r = route_ring(f, false);
  const check::Result c = check::verify(g, r);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.first_problem.find("do not match"), std::string::npos);
}

// The optimized check against a plain one on random fabrics with random
// per-source-switch SLs and random, partly in-port dependent SL2VL tables:
// every (source LID, destination LID) path walked hop by hop, every
// dependency put in a set, cycles found by a recursive DFS.
TEST(Verify, AgreesWithPlainCheck) {
  int cyclic_runs = 0, acyclic_runs = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const Fabric f = fixtures::random_regular(12, 3, seed, {.hcas = 2});
    Routing r;
    if (seed % 2)
      r = fixtures::min_hop(f);
    else
      r = fixtures::route_tree(f);  // acyclic whatever the SL2VL tables
    Routing t;
    t.reset(f, Routing::SlScope::kPerSourceSwitch);
    for (int32_t s = 0; s < f.num_switches(); ++s)
      for (uint16_t lid = 0; lid <= f.max_lid(); ++lid) t.set_out_port(s, lid, r.out_port(s, lid));
    std::mt19937 rng(seed);
    const int sls = 1 + static_cast<int>(seed % 4), vls = 1 + static_cast<int>(seed % 3);
    for (int32_t s = 0; s < f.num_switches(); ++s)
      for (const uint16_t lid : f.lids()) t.set_path_sl(s, lid, static_cast<uint8_t>(rng() % sls));
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      const bool by_in_port = rng() % 2;
      const unsigned n = f.sw(s).num_ports;
      for (unsigned out = 1; out <= n; ++out)
        for (int sl = 0; sl < sls; ++sl) {
          const auto base = static_cast<uint8_t>(rng() % vls);
          for (unsigned in = 0; in <= n; ++in)
            t.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out),
                     static_cast<uint8_t>(sl),
                     by_in_port ? static_cast<uint8_t>(rng() % vls) : base);
        }
    }
    // Plain check.
    std::set<std::tuple<int, int, int, int>> deps;
    uint32_t vl_mask = 0, sl_mask = 0;
    int64_t pairs = 0;
    for (const uint16_t slid : f.lids())
      for (const uint16_t dlid : f.lids()) {
        const LidOwner so = f.lid_owner(slid), d_o = f.lid_owner(dlid);
        if (so.kind == d_o.kind && so.id == d_o.id) continue;
        ++pairs;
        int32_t u = f.lid_switch(slid);
        uint8_t in = so.kind == LidOwner::kSwitch ? 0 : f.terminal(so.id).sw_port;
        const uint8_t sl = t.path_sl(u, dlid);
        sl_mask |= 1u << sl;
        int prev_c = -1, prev_v = -1;
        while (u != f.lid_switch(dlid)) {
          const uint8_t out = t.out_port(u, dlid);
          const int32_t c = f.peer(u, out).id;
          const int v = t.vl(u, in, out, sl);
          vl_mask |= 1u << v;
          if (prev_c >= 0) deps.insert({prev_c, prev_v, c, v});
          prev_c = c;
          prev_v = v;
          in = f.channel(c).dst_port;
          u = f.channel(c).dst;
        }
      }
    std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> adj;
    for (const auto &[c, v, c2, v2] : deps) adj[{c, v}].push_back({c2, v2});
    std::map<std::pair<int, int>, int> color;
    std::function<bool(std::pair<int, int>)> dfs = [&](std::pair<int, int> x) {
      color[x] = 1;
      for (const auto &y : adj[x]) {
        if (color[y] == 1) return true;
        if (color[y] == 0 && dfs(y)) return true;
      }
      color[x] = 2;
      return false;
    };
    bool cyclic = false;
    for (const auto &[x, ys] : adj)
      if (!color[x] && dfs(x)) cyclic = true;

    const check::Result c = check::verify(f, t);
    (cyclic ? cyclic_runs : acyclic_runs)++;
    if (seed % 2 == 0) {
      EXPECT_FALSE(cyclic) << "seed " << seed;
    }
    EXPECT_EQ(c.pairs_checked, pairs) << "seed " << seed;
    EXPECT_EQ(c.dependency_edges, static_cast<int64_t>(deps.size())) << "seed " << seed;
    EXPECT_EQ(c.credit_loop, cyclic) << "seed " << seed;
    EXPECT_EQ(c.vl_mask, vl_mask) << "seed " << seed;
    EXPECT_EQ(c.sl_mask, sl_mask) << "seed " << seed;
    EXPECT_EQ(c.unreachable + c.loops, 0) << "seed " << seed;
    if (c.credit_loop) {
      // Every dependency of the reported cycle is named with paths.
      for (const check::CycleDependency &d : c.cycle_deps) EXPECT_GT(d.paths, 0) << "seed " << seed;
    }
  }
  // The random cases cover both outcomes.
  EXPECT_GT(cyclic_runs, 3);
  EXPECT_GT(acyclic_runs, 3);
}

// 1,000 switches, 4,000 CAs (5,000 LIDs): min-hop tables have credit loops on
// a random fabric; the check must find one and name its paths quickly.
TEST(Verify, ScalesToThousandSwitches) {
  const Fabric f = fixtures::random_regular(1000, 8, 7, {.hcas = 4});
  Routing r;
  r = fixtures::min_hop(f);
  const check::Result c = check::verify(f, r);
  EXPECT_EQ(c.pairs_checked, 5000LL * 4999);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_TRUE(c.credit_loop);
  ASSERT_FALSE(c.cycle_deps.empty());
  for (const check::CycleDependency &d : c.cycle_deps) EXPECT_GT(d.paths, 0);
  EXPECT_LT(c.seconds, 30.0);
  std::printf("verify: 1000 switches, 5000 LIDs: %.2f s, %lld dependency edges, cycle of %zu\n",
              c.seconds, static_cast<long long>(c.dependency_edges), c.cycle.size());
}

// Every path SL of r unknown, as io::load_dump_dir leaves pairs no SL source covers.
void forget_sls(const Fabric &f, Routing &r) {
  for (const uint16_t d : f.lids()) r.set_dest_sl(d, check::kNoPathSl);
}

// The clockwise ring with SL 1 -> VL 1: paths from S3 and S4 on SL 1 and the
// rest on SL 0 are deadlock free, but H1 on SL 1 closes a cycle in VL 1. When
// H1's SLs are missing, assuming SL 0 (what keiro check did) finds no cycle.
TEST(Verify, CreditLoopOnlyWithTheRightSlsAndNoGuess) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = clockwise_sl1_on_vl1(f);
  forget_sls(f, r);
  check::SourceLidSls sls = no_source_sls(f);
  for (const uint16_t s : f.lids())
    for (const uint16_t d : f.lids())
      if (s != 5) sls.set(s, d, f.lid_switch(s) >= 2 ? 1 : 0);
  check::Options opt;
  opt.source_sls = &sls;
  // H1 (LID 5) has no SLs: its 7 pairs depend on the SL (SL2VL SL 1 -> VL 1).
  check::Result c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_FALSE(c.credit_loop);
  EXPECT_EQ(c.pairs_without_sl, 7);
  EXPECT_EQ(c.pairs_assumed_sl, 0);
  EXPECT_EQ(c.first_problem,
            "no verdict: 7 (source, destination) pairs have no path SL and their paths depend on "
            "it (SL2VL maps SLs to different VLs on them)");
  EXPECT_TRUE(check::holds_without_missing_sls(c));
  // An explicit SL 0 for them: checked, counted, no cycle.
  opt.assume_sl = 0;
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_assumed_sl, 7);
  EXPECT_EQ(c.pairs_without_sl, 0);
  // The right SLs (H1 on SL 1): the cycle in VL 1.
  for (const uint16_t d : f.lids()) sls.set(5, d, 1);
  opt.assume_sl = -1;
  c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.pairs_without_sl, 0);
  EXPECT_EQ(c.cycle.front().substr(c.cycle.front().size() - 4), "VL 1");
}

// Tables that map every SL to one VL need no SLs: checked exactly, counted.
TEST(Verify, SlIndependentPathsNeedNoSl) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);  // clockwise: a credit loop whatever the SL
  forget_sls(f, r);
  check::Result c = check::verify(f, r);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.pairs_sl_free, 8 * 7);
  EXPECT_EQ(c.pairs_without_sl, 0);
  r = route_ring(f, false);
  forget_sls(f, r);
  c = check::verify(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_sl_free, 8 * 7);
  // One SL2VL entry that depends on the SL (S1, from H1 out to S2, SL 3 ->
  // VL 1): exactly H1's pairs that leave S1 on port 2 need an SL now.
  r.set_vl(0, 1, 2, 3, 1);
  int64_t via_port2 = 0;
  for (const uint16_t d : f.lids()) via_port2 += d != 5 && r.out_port(0, d) == 2;
  ASSERT_GT(via_port2, 0);
  c = check::verify(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.pairs_without_sl, via_port2);
  EXPECT_EQ(c.pairs_sl_free, 8 * 7 - via_port2);
}

// --vls N (Options::vls) and per-port operational VLs (Options::port_vls).
TEST(Verify, VlBudgetNamesThePath) {
  const Fabric f = fixtures::ca_ring(4, 0, 8);
  Routing r = route_ring(f, false);
  r.set_vl(0, 0, 2, 0, 4);  // S1's own traffic to S2 on VL 4; the links have 8
  check::Options opt;
  check::Result c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  opt.vls = 5;
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  opt.vls = 4;
  c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_GT(c.vl_errors, 0);
  EXPECT_EQ(c.first_problem,
            "path 'S1' (LID 1) -> LID 2 ('S2') SL 0: hop from switch 'S1' port 2 (in port 0) on "
            "VL 4, but the port operates 4 data VLs (VL 0..3)");
  // Per port: only S1 port 2 operates 4 VLs.
  opt.vls = kMaxDataVls;
  std::vector<std::vector<uint8_t>> ports(f.num_switches(), std::vector<uint8_t>(9, 0));
  ports[0][3] = 4;  // the other ring port: not used by VL 4
  opt.port_vls = &ports;
  c = check::verify(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  ports[0][2] = 4;
  c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem.rfind("path 'S1' (LID 1) -> LID 2 ('S2') SL 0: hop from switch 'S1' "
                                  "port 2 (in port 0) on VL 4",
                                  0),
            0u);
  // The hop to a CA counts: H2 hangs off S2 port 1.
  ports[0][2] = 0;
  r = route_ring(f, false);
  r.set_vl(1, 3, 1, 0, 6);  // S2: from S1 to H2 on VL 6
  ports[1][1] = 2;
  c = check::verify(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.first_problem.find("hop from switch 'S2' port 1 (in port 3) on VL 6, but the port "
                                 "operates 2 data VLs (VL 0..1)"),
            std::string::npos)
      << c.first_problem;
}

// The result of check::verify with threads = 1, the reference of the
// thread-count tests.
// Every field of a check::Result, as one tuple (gtest prints both sides).
auto fields(const check::Result &r) {
  return std::tie(r.ok, r.pairs_checked, r.unreachable, r.black_holes, r.wrong_delivery, r.loops,
                  r.vl_errors, r.pairs_without_sl, r.pairs_assumed_sl, r.pairs_sl_free,
                  r.credit_loop, r.cycle, r.first_problem, r.problems, r.vl_mask, r.sl_mask,
                  r.dependency_nodes, r.dependency_edges);
}

void expect_same_result(const check::Result &a, const check::Result &b, int threads) {
  SCOPED_TRACE(testing::Message() << "threads=" << threads);
  EXPECT_EQ(fields(a), fields(b));
  ASSERT_EQ(a.cycle_deps.size(), b.cycle_deps.size());
  for (size_t i = 0; i < a.cycle_deps.size(); ++i) {
    const check::CycleDependency &x = a.cycle_deps[i], &y = b.cycle_deps[i];
    EXPECT_EQ(std::tie(x.from, x.to, x.paths, x.examples),
              std::tie(y.from, y.to, y.paths, y.examples))
        << "cycle dependency " << i;
  }
}

check::Result verify_with_threads(const Fabric &f, const Routing &r, int threads,
                                  int max_problems = 20) {
  check::Options o;
  o.threads = threads;
  o.max_problems = max_problems;
  return check::verify(f, r, o);
}

TEST(VerifyThreads, NueRoutingSameForEveryThreadCount) {
  const Fabric f = fixtures::random_regular(64, 6, 3, {.hcas = 3});
  ASSERT_GT(f.lids().size(), 3 * 64u);  // several blocks of destinations
  fixtures::EngineRun run = fixtures::run_captured(f, "keiro-nue", {.max_vls = 2});
  ASSERT_TRUE(run.ok) << run.last_line();
  const check::Result one = verify_with_threads(f, run.out, 1);
  EXPECT_TRUE(one.ok) << one.first_problem;
  EXPECT_EQ(one.pairs_checked, static_cast<int64_t>(f.lids().size() * (f.lids().size() - 1)));
  EXPECT_GT(one.dependency_edges, 0);
  for (const int n : {2, 3, 8}) expect_same_result(one, verify_with_threads(f, run.out, n), n);
}

TEST(VerifyThreads, EngineOptionThreads) {
  const Fabric f = fixtures::random_regular(16, 4, 3, {.hcas = 2});
  const fixtures::EngineRun run =
      fixtures::run_captured(f, "keiro-nue", {.opts = "threads=3", .max_vls = 2});
  EXPECT_TRUE(run.ok) << run.last_line();
  EXPECT_THROW(fixtures::run_captured(f, "keiro-nue", {.opts = "threads=257"}),
               std::invalid_argument);
  EXPECT_THROW(fixtures::run_captured(f, "keiro-nue", {.opts = "threads=-1"}),
               std::invalid_argument);
}

TEST(VerifyThreads, CreditLoopBlackHolesAndLoopsSameForEveryThreadCount) {
  const Fabric f = fixtures::random_regular(96, 4, 7, {.hcas = 2});
  Routing r = fixtures::min_hop(f);  // one VL: credit loops on this graph
  const std::vector<uint16_t> lids(f.lids().begin(), f.lids().end());
  ASSERT_GT(lids.size(), 256u);
  // Black holes (LFT 0xFF) and dead ports for every 7th LID, a forwarding
  // loop between two neighbours for every 11th, at switches spread over the
  // fabric so that every block of destinations has some.
  int holes = 0, loops = 0;
  for (size_t i = 0; i < lids.size(); ++i) {
    const int32_t d = f.lid_switch(lids[i]);
    const int32_t a = static_cast<int32_t>((i * 13 + 5) % f.num_switches());
    if (a == d) continue;
    if (i % 7 == 0) {
      r.set_out_port(a, lids[i], i % 14 ? kNoPort : static_cast<uint8_t>(f.sw(a).num_ports));
      ++holes;
    } else if (i % 11 == 0) {
      const Channel &c = f.channel(f.out_begin(a));
      if (c.dst == d) continue;
      r.set_out_port(a, lids[i], c.src_port);
      r.set_out_port(c.dst, lids[i], f.channel(c.reverse).src_port);
      ++loops;
    }
  }
  // SL 3 for some destinations, mapped to VL 15 on one switch: VL errors.
  for (size_t i = 5; i < lids.size(); i += 17) r.set_dest_sl(lids[i], 3);
  for (uint8_t in = 0; in <= f.sw(10).num_ports; ++in)
    for (uint8_t out = 1; out <= f.sw(10).num_ports; ++out) r.set_vl(10, in, out, 3, 15);
  ASSERT_GT(holes, 10);
  ASSERT_GT(loops, 5);
  std::vector<std::string> all_problems;
  for (const int max_problems : {200, 5}) {
    const check::Result one = verify_with_threads(f, r, 1, max_problems);
    EXPECT_FALSE(one.ok);
    EXPECT_TRUE(one.credit_loop);
    EXPECT_GT(one.black_holes, 0);
    EXPECT_GT(one.loops, 0);
    EXPECT_GT(one.vl_errors, 0);
    // The first max_problems lines in destination order, whatever the cap.
    if (max_problems == 200) {
      all_problems = one.problems;
      EXPECT_GT(all_problems.size(), 20u);
    } else {
      EXPECT_EQ(one.problems,
                std::vector<std::string>(all_problems.begin(), all_problems.begin() + 5));
    }
    EXPECT_FALSE(one.cycle_deps.empty());
    for (const int n : {2, 3, 8})
      expect_same_result(one, verify_with_threads(f, r, n, max_problems), n);
  }
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

using fixtures::route_ring;

// ---- fixed-SL traffic (Options::fixed_sl, keiro check --fixed-sl/--mixed-sl)

// The clockwise 4-ring made deadlock free with a dateline on 2 SLs: paths
// that wrap from S4 to S1 get SL 1, the others SL 0. SL 0 is VL 0 on every
// hop; SL 1 is VL 0 on the first hop and on transit hops of S3 and S4, and
// VL 1 on transit hops of S1 and S2 (those can only come over the dateline
// S4 -> S1: an SL-1 path through S1 or S2 that did not wrap would have to
// start before S1). The VL change needs the in port.
Routing dateline_ring(const Fabric &f) {
  Routing r = route_ring(f, true, Routing::SlScope::kPerSourceSwitch);
  const int n = f.num_switches();
  for (int s = 0; s < n; ++s)
    for (const uint16_t lid : f.lids()) r.set_path_sl(s, lid, f.lid_switch(lid) < s ? 1 : 0);
  // Port 3 of a ca_ring switch is the link from its counter-clockwise
  // neighbour: the transit in port of clockwise traffic.
  r.set_vl(0, 3, 2, 1, 1);
  r.set_vl(1, 3, 2, 1, 1);
  return r;
}

TEST(VerifyFixedSl, DatelineRingIsSafeOnlyWithItsOwnSls) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = dateline_ring(f);
  const check::Result own = check::verify(f, r);
  EXPECT_TRUE(own.ok) << own.first_problem;
  EXPECT_EQ(own.vls_used, 2);
  EXPECT_EQ(own.sls_used, 2);

  check::Options o;
  o.fixed_sl = 0;  // every path on SL 0: all on VL 0, the plain clockwise ring
  const check::Result c0 = check::verify(f, r, o);
  EXPECT_FALSE(c0.ok);
  EXPECT_TRUE(c0.credit_loop);
  EXPECT_EQ(c0.unreachable, 0);
  EXPECT_EQ(c0.pairs_without_sl, 0);
  EXPECT_EQ(c0.pairs_checked, own.pairs_checked);
  EXPECT_EQ(c0.sls_used, 1);
  EXPECT_EQ(c0.sl_mask, 1u);
  EXPECT_EQ(c0.vls_used, 1);
  const std::vector<std::string> want = {"S1 port 2 VL 0", "S2 port 2 VL 0", "S3 port 2 VL 0",
                                         "S4 port 2 VL 0"};
  EXPECT_EQ(c0.cycle, want);
  // The example paths name SL 0, whatever their own SL.
  ASSERT_EQ(c0.cycle_deps.size(), 4u);
  for (const check::CycleDependency &d : c0.cycle_deps) {
    ASSERT_FALSE(d.examples.empty());
    EXPECT_NE(d.examples[0].find(" SL 0"), std::string::npos) << d.examples[0];
  }

  // Every path on SL 1: transit hops of S1 and S2 on VL 1, the rest on
  // VL 0. Without the SA's SL 0 for the short paths, 0 -> 1 -> 2 -> 3 also
  // runs on SL 1 and ties VL 1 back to VL 0 at S3: S1 port 2 VL 1 (a path
  // S4 -> S1 -> S2) -> S2 port 2 VL 1 (S1 -> S2 -> S3 entering S1 from S4,
  // or S4 -> S1 -> S2 -> S3) -> S3 port 2 VL 0 (S1 -> S2 -> S3 -> S4) ->
  // S4 port 2 VL 0 (S2 -> S3 -> S4 -> S1) -> S1 port 2 VL 1.
  o.fixed_sl = 1;
  const check::Result c1 = check::verify(f, r, o);
  EXPECT_FALSE(c1.ok);
  EXPECT_TRUE(c1.credit_loop);
  EXPECT_EQ(c1.sl_mask, 2u);
  EXPECT_EQ(c1.vls_used, 2);
  const std::set<std::string> want1 = {"S1 port 2 VL 1", "S2 port 2 VL 1", "S3 port 2 VL 0",
                                       "S4 port 2 VL 0"};
  EXPECT_EQ(std::set<std::string>(c1.cycle.begin(), c1.cycle.end()), want1);

  // Without naming the paths: the same cycle, no dependencies listed.
  check::Options quick = o;
  quick.fixed_sl = 0;
  quick.name_cycle_paths = false;
  const check::Result q = check::verify(f, r, quick);
  EXPECT_EQ(q.cycle, want);
  EXPECT_TRUE(q.cycle_deps.empty());

  // A path SL file (SourceLidSls) is not used with fixed_sl.
  check::SourceLidSls sls = no_source_sls(f);
  for (const uint16_t s : f.lids())
    for (const uint16_t d : f.lids()) sls.set(s, d, 1);
  o.fixed_sl = 0;
  o.source_sls = &sls;
  EXPECT_EQ(check::verify(f, r, o).cycle, want);
}

TEST(VerifyFixedSl, OneVlAcyclicRoutingPassesForEveryFixedSl) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = route_ring(f, false);  // opposite split: acyclic on VL 0
  for (int sl : {0, 5, 15}) {
    check::Options o;
    o.fixed_sl = sl;
    const check::Result c = check::verify(f, r, o);
    EXPECT_TRUE(c.ok) << sl << ": " << c.first_problem;
    EXPECT_EQ(c.pairs_checked, 8 * 7);
    EXPECT_EQ(c.sl_mask, 1u << sl);
    EXPECT_EQ(c.dependency_edges, 4);  // the same 4 dependencies as with SL 0
    EXPECT_EQ(c.dependency_nodes, 8);
    o.fixed_sl_mixed = true;
    const check::Result m = check::verify(f, r, o);
    EXPECT_TRUE(m.ok) << sl << ": " << m.first_problem;
    EXPECT_EQ(m.sl_mask, 1u | 1u << sl);
    EXPECT_EQ(m.dependency_edges, 4);
  }
  check::Options bad;
  bad.fixed_sl = 16;
  const check::Result c = check::verify(f, r, bad);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem, "fixed SL 16 is not an SL (0..15)");
}

// A 5-ring routed the short way (at most 2 hops). The SA's SL 0 puts the
// first hop on VL 0 and transit hops on VL 1; fixed SL 1 does the opposite.
// Each alone only has VL-changing dependencies (acyclic), but mixed they
// chain around the ring twice: (c0,0) -> (c1,1) -> (c2,0) -> ... -> (c4,1)
// -> (c0,0). Hence disjoint VL sets for the two kinds of traffic.
TEST(VerifyFixedSl, MixedTrafficCanLoopWhereEachAloneDoesNot) {
  const Fabric f = fixtures::ca_ring(5);
  Routing r = route_ring(f, false);
  for (int s = 0; s < 5; ++s)
    for (uint8_t in : {0, 1, 2, 3})
      for (uint8_t out : {2, 3}) {
        const bool transit = in == 2 || in == 3;
        r.set_vl(s, in, out, 0, transit ? 1 : 0);
        r.set_vl(s, in, out, 1, transit ? 0 : 1);
      }
  EXPECT_TRUE(check::verify(f, r).ok);
  check::Options o;
  o.fixed_sl = 1;
  const check::Result alone = check::verify(f, r, o);
  EXPECT_TRUE(alone.ok) << alone.first_problem;
  o.fixed_sl_mixed = true;
  const check::Result m = check::verify(f, r, o);
  EXPECT_FALSE(m.ok);
  EXPECT_TRUE(m.credit_loop);
  EXPECT_EQ(m.sl_mask, 3u);
  ASSERT_EQ(m.cycle.size(), 10u);
  // Every dependency of the cycle is named with paths of both SLs.
  bool sl0 = false, sl1 = false;
  for (const check::CycleDependency &d : m.cycle_deps)
    for (const std::string &e : d.examples) {
      sl0 = sl0 || e.ends_with(" SL 0");
      sl1 = sl1 || e.ends_with(" SL 1");
    }
  EXPECT_TRUE(sl0);
  EXPECT_TRUE(sl1);
  // Half the cycle's hops on each VL, each channel once per VL.
  int vl1 = 0;
  for (const std::string &h : m.cycle) vl1 += h.ends_with("VL 1");
  EXPECT_EQ(vl1, 5);
}

}  // namespace
}  // namespace keiro
