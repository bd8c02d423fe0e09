// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Multicast in keiro simulate's model (core/sim/network.h): copies along a
// tree reach every member once (latencies by hand), masks that loop are a
// storm, a tree whose turns close a credit loop with the unicast routes
// deadlocks under load and is found by the wait-for search, and on
// keiro-nue's 4x4x4 torus the union of unicast paths from a root (OpenSM's
// default multicast tables) storms where keiro's own trees (mcast::Router)
// neither storm nor deadlock.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "core/mcast/check.h"
#include "core/mcast/trees.h"
#include "core/sim/network.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using mcast::Group;
using mcast::Tree;
using sim::Config;
using sim::Traffic;

// Every LID at switch s leaves towards switch hop[s][its switch].
Routing next_hop_routing(const Fabric &f, const std::vector<std::vector<int32_t>> &hop) {
  Routing r;
  r.reset(f);
  for (const uint16_t lid : f.lids()) {
    const int32_t home = f.lid_switch(lid);
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      uint8_t port = 0;
      if (s == home) {
        const LidOwner o = f.lid_owner(lid);
        port = o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0;
      } else {
        port = f.channel(fixtures::channel_between(f, s, hop[s][home])).src_port;
      }
      r.set_out_port(s, lid, port);
    }
  }
  return r;
}

// The 4-ring of mcast_test.cc's RingCase: neighbours directly, 0 -> 2
// through 1, 1 -> 3 through 2, 2 -> 0 through 3, 3 -> 1 through 2; one VL.
// Unicast alone is acyclic (01 -> 12 -> 23 -> 30 is a chain); a multicast
// turn 30 -> 01 at switch 0 closes it.
Routing ring_case_routing(const Fabric &f) {
  return next_hop_routing(f, {{0, 1, 1, 3}, {0, 1, 2, 2}, {3, 1, 2, 3}, {0, 2, 2, 3}});
}

Group group_of(const std::vector<int32_t> &terms, uint16_t mlid = 0xC000) {
  Group g;
  g.mlid = mlid;
  g.terminals = terms;
  return g;
}

Group all_terminals(const Fabric &f) {
  std::vector<int32_t> t(f.num_terminals());
  std::iota(t.begin(), t.end(), 0);
  return group_of(t);
}

// Masks joining the switch links (a, b) and each member's CA port.
Tree masks_of(const Fabric &f, const Group &g, const std::vector<std::pair<int, int>> &links) {
  std::vector<mcast::PortMask> m(f.num_switches());
  for (const auto &[a, b] : links) {
    const Channel &ch = f.channel(fixtures::channel_between(f, a, b));
    m[a].set(ch.src_port);
    m[b].set(ch.dst_port);
  }
  for (const int32_t t : g.terminals) m[f.terminal(t).sw].set(f.terminal(t).sw_port);
  Tree t;
  t.mlid = g.mlid;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (m[s].any()) t.masks.push_back({s, m[s]});
  return t;
}

// OpenSM's default tree with keiro's unicast tables: from the root, the
// LFT's port towards every member, the union of those paths.
Tree paths_from_root(const Fabric &f, const Routing &r, const Group &g, int32_t root) {
  std::vector<mcast::PortMask> m(f.num_switches());
  for (const int32_t x : g.terminals) {
    const TerminalInfo &ti = f.terminal(x);
    for (int32_t s = root; s != ti.sw;) {
      const uint8_t p = r.out_port(s, ti.lid);
      const Channel &ch = f.channel(f.peer(s, p).id);
      m[s].set(p);
      m[ch.dst].set(ch.dst_port);
      s = ch.dst;
    }
    m[ti.sw].set(ti.sw_port);
  }
  Tree t;
  t.mlid = g.mlid;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (m[s].any()) t.masks.push_back({s, m[s]});
  return t;
}

Config with_groups(const std::vector<Group> &gs, const std::vector<Tree> &ts) {
  Config c;
  c.traffic = Traffic::kFixed;
  c.load = 0;
  c.groups = &gs;
  c.trees = &ts;
  return c;
}

// A multicast run that completed without a storm: sent packets, copies
// expected and delivered, and the copies each end port received.
void expect_all_delivered(const sim::Result &res, int64_t sent, int64_t copies,
                          const std::vector<int64_t> &received) {
  EXPECT_TRUE(res.completed);
  EXPECT_FALSE(res.storm);
  EXPECT_EQ(res.mcast_sent, sent);
  EXPECT_EQ(res.mcast_expected, copies);
  EXPECT_EQ(res.mcast_delivered, copies);
  EXPECT_EQ(res.mcast_received, received);
}

TEST(SimMcast, TreeGivesEveryMemberOneCopyAtTheUnicastLatency) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = ring_case_routing(f);
  const std::vector<Group> gs = {all_terminals(f)};
  const std::vector<Tree> ts = {masks_of(f, gs[0], {{0, 1}, {1, 2}, {2, 3}})};
  // One packet from H1 (switch 0) at cycle 0: copies reach H2, H3 and H4
  // over 2, 3 and 4 switches, 21 cycles each plus the 32-credit packet:
  // 74, 95 and 116 cycles, as a unicast packet over as many switches.
  Config c = with_groups(gs, ts);
  c.messages = {{0, 0, 0, 2048, 0}};
  sim::Result res = sim::simulate(f, r, c);
  expect_all_delivered(res, 1, 3, {0, 1, 1, 1});
  EXPECT_EQ(res.packets_measured, 3);
  EXPECT_DOUBLE_EQ(res.latency_avg, (74.0 + 95 + 116) / 3);
  EXPECT_DOUBLE_EQ(res.latency_max, 116);
  EXPECT_EQ(res.cycles, 116);
  // Every member sends three 2 KiB packets (one 6 KiB message) at once:
  // each member gets the other three members' nine packets, once each.
  c.messages.clear();
  for (int32_t t = 0; t < 4; ++t) c.messages.push_back({0, t, 0, 6144, 0});
  res = sim::simulate(f, r, c);
  expect_all_delivered(res, 12, 36, {9, 9, 9, 9});
  EXPECT_FALSE(res.deadlock);
  EXPECT_EQ(res.mcast_non_member + res.mcast_dropped, 0);
  // H4 not a member, its port still in switch 3's mask: its copies are
  // counted as reaching a non-member, and it sends nothing.
  const std::vector<Group> three = {group_of({0, 1, 2})};
  std::vector<Tree> ts3 = {masks_of(f, three[0], {{0, 1}, {1, 2}, {2, 3}})};
  ts3[0].masks.back().ports.set(f.terminal(3).sw_port);
  c = with_groups(three, ts3);
  for (int32_t t = 0; t < 3; ++t) c.messages.push_back({100 * t, t, 0, 2048, 0});
  res = sim::simulate(f, r, c);
  EXPECT_EQ(res.mcast_delivered, 6);
  EXPECT_EQ(res.mcast_non_member, 3);
  EXPECT_EQ(res.mcast_received[3], 3);
}

TEST(SimMcast, MasksThatLoopAreAStorm) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = ring_case_routing(f);
  const std::vector<Group> gs = {all_terminals(f)};
  const std::vector<Tree> ts = {masks_of(f, gs[0], {{0, 1}, {1, 2}, {2, 3}, {3, 0}})};
  // One packet from H1: its copies go both ways round the ring and on for
  // ever. Routable at switch 0 in cycle 21, the copies leave on 0 -> 1 and
  // 0 -> 3; after one lap (4 hops of 21 cycles) they are routable at switch
  // 0 again and sent on those channels a second time in cycle 105.
  Config c = with_groups(gs, ts);
  c.messages = {{0, 0, 0, 2048, 0}};
  const sim::Result res = sim::simulate(f, r, c);
  EXPECT_TRUE(res.storm);
  EXPECT_EQ(res.storm_mlid, 0xC000);
  EXPECT_EQ(res.storm_at, 105);
  EXPECT_NE(res.storm_what.find("hold a loop"), std::string::npos) << res.storm_what;
  EXPECT_FALSE(res.completed);
  // Copies counted without end: many more than the three members expected,
  // every member (H1 too, by its own packet's copies) far more than once.
  EXPECT_GT(res.storm_copies, 100);
  EXPECT_EQ(res.mcast_expected, 3);
  for (int32_t t = 0; t < 4; ++t) EXPECT_GT(res.mcast_received[t], 10) << t;
  EXPECT_EQ(res.cycles, res.storm_at + sim::stall_cycles(c));
  // The flood check agrees.
  EXPECT_TRUE(mcast::flood(f, r, gs[0], ts[0], {}, nullptr).loop);
}

// The credit loop of mcast_test.cc's McastCheck.TreeTurnClosesACreditLoop-
// WithUnicast, under load: H1 -> H3, H2 -> H4, H3 -> H1 unicast and H4 to
// the group, all at full load on one VL. Tree 3-0-1-2 turns 30 -> 01 at
// switch 0 and deadlocks; the path tree 0-1-2-3 does not.
sim::Result ring_case_under_load(const std::vector<std::pair<int, int>> &links, uint64_t seed) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = ring_case_routing(f);
  const std::vector<Group> gs = {all_terminals(f)};
  const std::vector<Tree> ts = {masks_of(f, gs[0], links)};
  Config c = with_groups(gs, ts);
  c.fixed_dest = {2, 3, 0, -2};
  c.load = 1;
  c.seed = seed;
  c.warmup = 1000;
  c.measure = 20000;
  return sim::simulate(f, r, c);
}

TEST(SimMcast, TreeTurnClosesACreditLoopWithUnicastUnderLoad) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    sim::Result res = ring_case_under_load({{3, 0}, {0, 1}, {1, 2}}, seed);
    EXPECT_TRUE(res.deadlock) << seed;
    EXPECT_FALSE(res.stall) << seed;
    EXPECT_FALSE(res.storm) << seed;
    // The four channels of the chain and the multicast turn closing it.
    EXPECT_EQ(res.deadlock_cycle, (std::vector<std::string>{"S1 port 2 VL 0", "S2 port 2 VL 0",
                                                            "S3 port 2 VL 0", "S4 port 2 VL 0"}))
        << seed;
    res = ring_case_under_load({{0, 1}, {1, 2}, {2, 3}}, seed);
    EXPECT_FALSE(res.deadlock) << seed;
    EXPECT_FALSE(res.stall) << seed;
    EXPECT_FALSE(res.storm) << seed;
    EXPECT_GT(res.mcast_delivered, 500) << seed;
    EXPECT_EQ(res.mcast_non_member + res.mcast_dropped, 0) << seed;
  }
}

// The "done when": on keiro-nue's 4x4x4 torus (2 CAs per switch)
// the union of unicast paths from a root storms in simulation for each root
// whose masks the flood check finds looping, and keiro's trees never storm
// or deadlock, under broadcast alone and mixed with unicast load.
TEST(SimMcast, UnionOfPathsStormsAndKeiroTreesDoNotOnNueTorus) {
  const Fabric f = fixtures::generated_torus({4, 4, 4}, 2);
  fixtures::EngineRun run = fixtures::run_captured(f, "nue");
  ASSERT_TRUE(run.ok) << run.last_line();
  const Routing &r = run.out;
  const std::vector<Group> gs = {all_terminals(f)};
  Config c = with_groups(gs, {});
  // One packet from each CA, 300 cycles apart.
  for (int32_t t = 0; t < f.num_terminals(); ++t) c.messages.push_back({300 * t, t, 0, 2048, 0});
  int storms = 0, loops = 0;
  for (int32_t root = 0; root < f.num_switches(); root += 9) {
    const std::vector<Tree> ts = {paths_from_root(f, r, gs[0], root)};
    c.trees = &ts;
    const bool loop = mcast::flood(f, r, gs[0], ts[0], {}, nullptr).loop;
    const sim::Result res = sim::simulate(f, r, c);
    EXPECT_EQ(res.storm, loop) << "root " << root << ": " << res.storm_what;
    storms += res.storm;
    loops += loop;
  }
  EXPECT_GE(storms, 4);  // 8 roots tried
  EXPECT_EQ(storms, loops);
  std::string err;
  auto router = mcast::Router::create(f, r, {}, err);
  ASSERT_TRUE(router) << err;
  std::vector<Tree> ts(1);
  ASSERT_TRUE(router->build(gs[0], ts[0], err)) << err;
  c.trees = &ts;
  sim::Result res = sim::simulate(f, r, c);
  EXPECT_TRUE(res.completed);
  EXPECT_FALSE(res.storm) << res.storm_what;
  EXPECT_FALSE(res.deadlock);
  EXPECT_EQ(res.mcast_expected, 128 * 127);
  EXPECT_EQ(res.mcast_delivered, 128 * 127);
  EXPECT_EQ(res.mcast_non_member + res.mcast_dropped, 0);
  // Broadcast at load 0.004 (0.5 of every CA's ejection bandwidth), and
  // uniform unicast at load 0.5 with 1% of the messages to the group.
  Config b = with_groups(gs, ts);
  b.traffic = Traffic::kBroadcast;
  b.load = 0.004;
  b.measure = 20000;
  res = sim::simulate(f, r, b);
  EXPECT_FALSE(res.storm || res.deadlock || res.stall);
  EXPECT_NEAR(res.offered, 0.5, 0.1);
  EXPECT_NEAR(res.throughput, res.offered, 0.1 * res.offered);
  EXPECT_DOUBLE_EQ(res.mcast_throughput, res.throughput);
  b.traffic = Traffic::kUniform;
  b.load = 0.5;
  b.mcast_rate = 0.01;
  res = sim::simulate(f, r, b);
  EXPECT_FALSE(res.storm || res.deadlock || res.stall);
  EXPECT_GT(res.mcast_sent, 0);
  EXPECT_GT(res.mcast_throughput, 0);
  EXPECT_LT(res.mcast_throughput, res.throughput);
}

}  // namespace
}  // namespace keiro
