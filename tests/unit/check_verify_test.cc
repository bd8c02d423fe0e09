// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "core/check/verify.h"
#include "tests/unit/check_test_fabrics.h"

namespace keiro {
namespace {

using testing::ring;
using testing::route_ring;

TEST(Verify, RingWithOppositeSplitIsDeadlockFree) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, false);
  const CheckResult c = verify_routing(f, r);
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
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, true);
  const CheckResult c = verify_routing(f, r);
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
  const CycleDependency &d = c.cycle_deps[0];
  EXPECT_EQ(d.from, "S1 port 2 VL 0");
  EXPECT_EQ(d.to, "S2 port 2 VL 0");
  // Paths over S1 -> S2 -> S3: from S1 and H1 to the 4 LIDs on S3 and S4, and
  // from S4 and H4 to the 2 LIDs on S3.
  EXPECT_EQ(d.paths, 2 * 4 + 2 * 2);
  const std::vector<std::string> examples = {"'S1' (LID 1) -> LID 3 ('S3') SL 0",
                                             "'H1' (LID 5) -> LID 3 ('S3') SL 0",
                                             "'S4' (LID 4) -> LID 3 ('S3') SL 0"};
  EXPECT_EQ(d.examples, examples);
  for (const CycleDependency &dep : c.cycle_deps) EXPECT_EQ(dep.paths, 12);
}

// Clockwise ring, each source switch's paths on its own SL: acyclic with 4
// VLs, or with 2 when SLs {0,1} and {2,3} share a VL, cyclic when all share one.
TEST(Verify, SlToVlMappingDecides) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, true, Routing::SlScope::kPerSourceSwitch);
  for (int s = 0; s < 4; ++s)
    for (const uint16_t lid : f.lids()) r.set_path_sl(s, lid, static_cast<uint8_t>(s));
  for (int sl = 0; sl < 4; ++sl)
    r.set_uniform_sl2vl(static_cast<uint8_t>(sl), static_cast<uint8_t>(sl));
  CheckResult c = verify_routing(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.vls_used, 4);
  EXPECT_EQ(c.sls_used, 4);
  EXPECT_EQ(c.sl_mask, 0xFu);

  for (int sl = 0; sl < 4; ++sl)
    r.set_uniform_sl2vl(static_cast<uint8_t>(sl), static_cast<uint8_t>(sl / 2));
  c = verify_routing(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.vls_used, 2);
  EXPECT_EQ(c.sls_used, 4);

  for (int sl = 0; sl < 4; ++sl) r.set_uniform_sl2vl(static_cast<uint8_t>(sl), 0);
  c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  EXPECT_EQ(c.vls_used, 1);
}

// The VL of a hop depends on the port the packet came in on: S1 puts the
// traffic that arrives from S4 on VL 1. One SL cannot tell S2 whether a packet
// from S1 crossed S4 -> S1, so S2 maps it back to VL 0 and the loop remains,
// now through (S1 port 2, VL 1).
TEST(Verify, InPortSelectsTheVl) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, true);
  r.set_vl(0, 3, 2, 0, 1);
  const CheckResult c = verify_routing(f, r);
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
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, false);
  // H3 is LID 7. S1 sends it to S2 (port 2); make S2 send it back (port 3).
  r.set_out_port(1, 7, 3);
  const CheckResult c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.loops, 4);  // S1, H1, S2, H2
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.first_problem, "LID 7 ('H3') is in a forwarding loop: 'S1' -> 'S2' -> 'S1'");
}

TEST(Verify, BlackHoles) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, false);
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
    const CheckResult c = verify_routing(f, bad);
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
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, false);
  r.set_out_port(2, 3, 1);  // S3 sends its own LID to H3
  const CheckResult c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.wrong_delivery, 7);  // every other source LID
  EXPECT_EQ(c.first_problem,
            "LID 3 ('S3') is delivered by switch 'S3' port 1 to 'H3', which does not own it");
}

TEST(Verify, LmcPairsAndSwitchLids) {
  const Fabric f = ring(4, 1);
  Routing r;
  route_ring(f, r, false);
  const CheckResult c = verify_routing(f, r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  // 4 switch LIDs + 4 CAs x 2 LIDs; same-port pairs excluded.
  EXPECT_EQ(c.pairs_checked, 12 * 12 - (4 * 1 + 4 * 4));
}

TEST(Verify, Vl15AndVlsBeyondTheLink) {
  const Fabric f = ring(4, 0, 4);
  Routing r;
  route_ring(f, r, false);
  r.set_vl(0, 1, 2, 0, 15);  // S1: from H1 out to S2 on VL 15
  CheckResult c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_GT(c.vl_errors, 0);
  EXPECT_EQ(c.first_problem, "switch 'S1' maps SL 0 from port 1 to port 2 onto VL 15 (drop)");
  route_ring(f, r, false);
  r.set_vl(0, 0, 2, 0, 5);  // S1's own traffic on VL 5, the links have 4
  c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem,
            "switch 'S1' maps SL 0 from port 0 to port 2 onto VL 5, but the link has 4 data VLs");
  route_ring(f, r, false);
  r.set_terminal_vl(0, 0, 15);
  c = verify_routing(f, r);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_problem, "'H1' maps SL 0 to VL 15 (drop) on its own port");
}

TEST(Verify, SourceLidSlsOverrideTheRouting) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, true);
  r.set_uniform_sl2vl(1, 1);
  // Every path that starts on S3 or S4 uses SL 1 (-> VL 1), the rest SL 0.
  SourceLidSls sls;
  sls.reset(f.max_lid());
  for (const uint16_t s : f.lids())
    for (const uint16_t d : f.lids())
      if (f.lid_switch(s) >= 2) sls.set(s, d, 1);
  CheckOptions opt;
  opt.source_sls = &sls;
  CheckResult c = verify_routing(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.sls_used, 2);
  EXPECT_EQ(c.vls_used, 2);
  // Now H1 alone switches to SL 1: its 3-hop path S1->S2->S3->S4 joins the
  // VL 1 paths S3->S4->S1->S2 and S4->S1->S2->S3: a cycle in VL 1.
  for (const uint16_t d : f.lids()) sls.set(5, d, 1);
  c = verify_routing(f, r, opt);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.credit_loop);
  bool named = false;
  for (const CycleDependency &dep : c.cycle_deps)
    for (const std::string &e : dep.examples) named |= e.rfind("'H1' (LID 5)", 0) == 0;
  EXPECT_TRUE(named);
}

// Clockwise ring; CAs on S1, S2 use SL 0 (VL 0), CAs on S3, S4 SL 1 (VL 1):
// acyclic. The switches' own traffic all on SL 0 closes a loop in VL 0, as
// with OpenSM's dfsssp, which leaves switch-sourced paths out of its
// dependency graph. Checking CA-sourced traffic only passes.
TEST(Verify, SwitchSourcedTrafficCanBeLeftOut) {
  const Fabric f = ring(4);
  Routing r;
  route_ring(f, r, true);
  r.set_uniform_sl2vl(1, 1);
  SourceLidSls sls;
  sls.reset(f.max_lid());
  for (const uint16_t d : f.lids()) {
    sls.set(7, d, 1);  // H3
    sls.set(8, d, 1);  // H4
  }
  CheckOptions opt;
  opt.source_sls = &sls;
  CheckResult c = verify_routing(f, r, opt);
  EXPECT_TRUE(c.credit_loop);
  bool switch_path = false;
  for (const CycleDependency &dep : c.cycle_deps)
    for (const std::string &e : dep.examples) switch_path |= e.rfind("'S3' (LID 3)", 0) == 0;
  EXPECT_TRUE(switch_path);
  opt.switch_sources = false;
  c = verify_routing(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, 4 * 7);
  opt.switch_destinations = false;
  c = verify_routing(f, r, opt);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, 4 * 3);
}

TEST(Verify, TablesOfAnotherFabricAreRejected) {
  const Fabric f = ring(4);
  const Fabric g = ring(5);
  Routing r;
  route_ring(f, r, false);
  const CheckResult c = verify_routing(g, r);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.first_problem.find("do not match"), std::string::npos);
}

// 1,000 switches, 4,000 CAs (5,000 LIDs): min-hop tables have credit loops on
// a random fabric; the check must find one and name its paths quickly.
TEST(Verify, ScalesToThousandSwitches) {
  const Fabric f = testing::random_fabric(1000, 8, 4, 7);
  Routing r;
  testing::route_min_hop(f, r);
  const CheckResult c = verify_routing(f, r);
  EXPECT_EQ(c.pairs_checked, 5000LL * 4999);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_TRUE(c.credit_loop);
  ASSERT_FALSE(c.cycle_deps.empty());
  for (const CycleDependency &d : c.cycle_deps) EXPECT_GT(d.paths, 0);
  EXPECT_LT(c.seconds, 30.0);
  std::printf("verify: 1000 switches, 5000 LIDs: %.2f s, %lld dependency edges, cycle of %zu\n",
              c.seconds, static_cast<long long>(c.dependency_edges), c.cycle.size());
}

}  // namespace
}  // namespace keiro
