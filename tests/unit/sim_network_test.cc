// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro simulate's network model (core/sim/network.h) on cases whose answer
// is known by hand: zero-load latency, a shared bottleneck link, a ring that
// deadlocks with one VL and does not with a dateline VL change, repeatability;
// deadlocks found in the cycle they close at any run length, partial
// deadlocks, stalls that are not deadlocks, the sweep's plateau and the
// throughput per active source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/metrics/svg.h"
#include "core/sim/network.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using sim::Config;
using sim::Traffic;

// One message at cycle 0 and nothing else.
Config single(int32_t src, int32_t dst, int32_t bytes) {
  Config c;
  c.traffic = Traffic::kFixed;
  c.load = 0;
  c.messages = {{0, src, dst, bytes}};
  return c;
}

TEST(SimNetwork, ZeroLoadLatencyIsHopsTimesSwitchDelayPlusPacket) {
  const Fabric f = fixtures::ca_ring(5);
  const Routing r = fixtures::route_ring(f, true);
  // H1 (switch 0) -> H3 (switch 2) clockwise: 3 switches. Each switch: 1 cycle
  // for the header to arrive + 20 cycles switch latency; then the 32-credit
  // packet's tail arrives 32 cycles after the last grant: 3 * 21 + 32 = 95.
  sim::Result res = sim::simulate(f, r, single(0, 2, 2048));
  EXPECT_TRUE(res.completed);
  EXPECT_FALSE(res.deadlock);
  EXPECT_EQ(res.packets_measured, 1);
  EXPECT_DOUBLE_EQ(res.latency_avg, 95);
  EXPECT_DOUBLE_EQ(res.latency_max, 95);
  // 100 bytes = 2 credits: 63 + 2.
  res = sim::simulate(f, r, single(0, 2, 100));
  EXPECT_DOUBLE_EQ(res.latency_avg, 65);
  // Two packets (4096 bytes): the second waits 32 cycles for the injection
  // link, then flows behind the first without stalling: (95 + 127) / 2.
  res = sim::simulate(f, r, single(0, 2, 4096));
  EXPECT_EQ(res.packets_measured, 2);
  EXPECT_DOUBLE_EQ(res.latency_avg, 111);
  EXPECT_DOUBLE_EQ(res.latency_max, 127);
  // Switch latency 5: 3 * 6 + 32.
  Config c = single(0, 2, 2048);
  c.switch_latency = 5;
  EXPECT_DOUBLE_EQ(sim::simulate(f, r, c).latency_avg, 50);
  EXPECT_NEAR(c.cycle_ns(), 5.12, 1e-12);  // 64 B at 12.5 GB/s
}

TEST(SimNetwork, IdleCyclesBetweenMessagesChangeNothing) {
  // The loop skips cycles in which nothing is scheduled: a message a million
  // cycles after the first sees the same empty fabric, so the same
  // zero-load latency (3 * 21 + 32 = 95). The run ends when the last tail
  // has arrived, 95 cycles after the second message's creation (before
  // the all-to-all slice it ended in the cycle after the ejection grant,
  // 63 + 1, which let short runs report a throughput above 1).
  const Fabric f = fixtures::ca_ring(5);
  const Routing r = fixtures::route_ring(f, true);
  Config c = single(0, 2, 2048);
  c.messages.push_back({1000000, 3, 0, 2048});  // H4 -> H1 clockwise: 3 switches too
  const sim::Result res = sim::simulate(f, r, c);
  EXPECT_TRUE(res.completed);
  EXPECT_EQ(res.packets_measured, 2);
  EXPECT_DOUBLE_EQ(res.latency_avg, 95);
  EXPECT_DOUBLE_EQ(res.latency_max, 95);
  EXPECT_EQ(res.cycles, 1000000 + 95);
}

TEST(SimNetwork, DroppedPacketLeavesTheOthersOnTime) {
  // Switch 1 has no LFT entry for H3: H1's packet to H3 is dropped at switch
  // 1 when it becomes routable there (cycle 21 + 21 = 42). H1's second
  // packet, to H2 (switch 1), waits for the injection link until cycle 32,
  // is routable at switch 0 at 53, when the first one's tail has left (21 +
  // 32), reaches switch 1 routable at 74 and its tail arrives at 74 + 32 =
  // 106 cycles after both were created.
  const Fabric f = fixtures::ca_ring(5);
  Routing r = fixtures::route_ring(f, true);
  r.set_out_port(1, f.terminal(2).lid, kNoPort);
  Config c = single(0, 2, 2048);
  c.messages.push_back({0, 0, 1, 2048});
  const sim::Result res = sim::simulate(f, r, c);
  EXPECT_TRUE(res.completed);
  EXPECT_EQ(res.packets_dropped, 1);
  EXPECT_EQ(res.packets_measured, 1);
  EXPECT_DOUBLE_EQ(res.latency_max, 106);
  EXPECT_NE(res.first_drop.find("no LFT port"), std::string::npos) << res.first_drop;
}

TEST(SimNetwork, TwoSourcesShareOneBottleneckLinkEqually) {
  // Switches 0 and 1, one link; CAs 0, 1 on switch 0 and 2, 3 on switch 1.
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 2});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.traffic = Traffic::kFixed;
  c.fixed_dest = {2, 2, -1, -1};
  c.load = 1.0;
  c.warmup = 2000;
  c.measure = 20000;
  const sim::Result res = sim::simulate(f, r, c);
  ASSERT_FALSE(res.deadlock);
  ASSERT_EQ(res.source_throughput.size(), 4u);
  EXPECT_NEAR(res.source_throughput[0], 0.5, 0.01);
  EXPECT_NEAR(res.source_throughput[1], 0.5, 0.01);
  EXPECT_EQ(res.source_throughput[2], 0);
  EXPECT_NEAR(res.throughput, 0.25, 0.005);  // one link's worth over 4 terminals
  // Per active source: two of the four terminals send.
  EXPECT_EQ(res.active_sources, 2);
  EXPECT_DOUBLE_EQ(res.throughput_per_source, res.throughput * 4 / 2);
  EXPECT_NEAR(res.throughput_per_source, 0.5, 0.01);
  EXPECT_DOUBLE_EQ(res.offered_per_source, res.offered * 2);
  // One source alone gets the whole link.
  c.fixed_dest = {2, -1, -1, -1};
  const sim::Result one = sim::simulate(f, r, c);
  EXPECT_NEAR(one.source_throughput[0], 1.0, 0.02);  // Bernoulli arrivals at load 1
  EXPECT_NEAR(one.source_throughput[0] / 4, one.offered, 0.01);
}

Config full_uniform(uint64_t seed) {
  Config c;
  c.traffic = Traffic::kUniform;
  c.load = 1.0;
  c.seed = seed;
  c.warmup = 1000;
  c.measure = 30000;
  c.stall_cycles = 2000;
  return c;
}

TEST(SimNetwork, RingWithOneVlDeadlocksOnItsChannels) {
  const Fabric f = fixtures::ca_ring(5);
  const Routing r = fixtures::route_ring(f, true);
  const sim::Result res = sim::simulate(f, r, full_uniform(1));
  ASSERT_TRUE(res.deadlock);
  EXPECT_GT(res.packets_stuck, 0);
  // Clockwise channels leave switch i on port 2.
  const std::vector<std::string> want = {"S1 port 2 VL 0", "S2 port 2 VL 0", "S3 port 2 VL 0",
                                         "S4 port 2 VL 0", "S5 port 2 VL 0"};
  EXPECT_EQ(res.deadlock_cycle, want);
  // The static check finds the same credit loop.
  const check::Result chk = check::verify(f, r);
  ASSERT_TRUE(chk.credit_loop);
  EXPECT_EQ(std::set<std::string>(chk.cycle.begin(), chk.cycle.end()),
            std::set<std::string>(want.begin(), want.end()));
}

TEST(SimNetwork, RingWithDatelineVlNeverDeadlocks) {
  const Fabric f = fixtures::ca_ring(5);
  Routing r = fixtures::route_ring(f, true, Routing::SlScope::kPerSourceSwitch);
  // Clockwise paths; the path SL is the source switch s, and switch u maps SL
  // s to VL 1 when u < s: the packet has passed switch 0 (the dateline).
  const int n = f.num_switches();
  for (int s = 0; s < n; ++s)
    for (const uint16_t lid : f.lids()) r.set_path_sl(s, lid, static_cast<uint8_t>(s));
  for (int u = 0; u < n; ++u)
    for (int in = 0; in <= r.switch_ports(u); ++in)
      for (int out = 1; out <= r.switch_ports(u); ++out)
        for (int s = 0; s < n; ++s)
          r.set_vl(u, static_cast<uint8_t>(in), static_cast<uint8_t>(out), static_cast<uint8_t>(s),
                   u < s ? 1 : 0);
  ASSERT_FALSE(check::verify(f, r).credit_loop);
  for (uint64_t seed : {1, 2, 3}) {
    const sim::Result res = sim::simulate(f, r, full_uniform(seed));
    EXPECT_FALSE(res.deadlock) << "seed " << seed;
    EXPECT_TRUE(res.deadlock_cycle.empty());
    EXPECT_GT(res.throughput, 0.2) << "seed " << seed;
    EXPECT_EQ(res.packets_dropped, 0);
  }
}

TEST(SimNetwork, SameSeedSameResult) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = fixtures::route_ring(f, false);  // deadlock free with one VL
  Config c;
  c.load = 0.5;
  c.seed = 7;
  c.warmup = 500;
  c.measure = 5000;
  const sim::Result a = sim::simulate(f, r, c), b = sim::simulate(f, r, c);
  EXPECT_GT(a.packets_delivered, 100);
  EXPECT_EQ(a.packets_delivered, b.packets_delivered);
  EXPECT_EQ(a.throughput, b.throughput);
  EXPECT_EQ(a.latency_avg, b.latency_avg);
  EXPECT_EQ(a.latency_p99, b.latency_p99);
  EXPECT_EQ(a.source_throughput, b.source_throughput);
  c.seed = 8;
  const sim::Result d = sim::simulate(f, r, c);
  EXPECT_NE(a.latency_avg, d.latency_avg);
  EXPECT_FALSE(a.deadlock);
}

TEST(SimNetwork, PartialDeadlockIsFoundWhileTheRestMoves) {
  // A 5-ring (switches 0-4) routed clockwise with one VL, and a tail 0 - 5 -
  // 6 beside it, one CA per switch. The ring's CAs send three hops clockwise
  // (t -> t + 3): a credit loop over the five clockwise channels that fills
  // at full load (two hops, t -> t + 2, did not fill it with two packets per
  // buffer). CAs 5 and 6 send to each other over the link 5 - 6, which
  // no ring packet uses: they keep delivering after the ring has locked up.
  const Fabric f = fixtures::from_links(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {5, 6}},
                                        {.hcas = 1});
  Routing r = fixtures::min_hop(f);
  for (int32_t s = 0; s < 5; ++s) {
    uint8_t clockwise = 0;
    for (int32_t ch = f.out_begin(s); ch < f.out_end(s); ++ch)
      if (f.channel(ch).dst == (s + 1) % 5) clockwise = f.channel(ch).src_port;
    for (int32_t t = 0; t < 5; ++t)
      if (f.terminal(t).sw != s) r.set_out_port(s, f.terminal(t).lid, clockwise);
  }
  ASSERT_TRUE(check::verify(f, r).credit_loop);
  Config c = full_uniform(3);
  c.traffic = Traffic::kFixed;
  c.fixed_dest = {3, 4, 0, 1, 2, 6, 5};
  const sim::Result res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.deadlock);
  EXPECT_FALSE(res.stall);
  ASSERT_EQ(res.deadlock_cycle.size(), 5u);
  // Every buffer of the cycle is a clockwise (channel, VL 0) of the ring.
  for (const std::string &h : res.deadlock_cycle)
    EXPECT_NE(h.find(" VL 0"), std::string::npos) << h;
  EXPECT_GT(res.deadlock_packets, 0);
  // The rest moves: the run went on to its end (the fabric never stood still
  // for stall_cycles), and after the cycle closed CAs 5 and 6 kept
  // delivering at line rate (one 32-credit packet each per 32 cycles, less
  // the Bernoulli gaps), while no ring CA delivered anything more than the
  // packets already past the ring then.
  EXPECT_EQ(res.cycles, c.warmup + c.measure);
  ASSERT_LT(res.deadlock_at, res.cycles - 10000) << "closed late: too little left to see";
  const double after = static_cast<double>(res.cycles - res.deadlock_at) / 32;
  EXPECT_GT(res.delivered_after_deadlock, 2 * 0.9 * after) << "closed at " << res.deadlock_at;
  EXPECT_NEAR(res.source_throughput[5], 1.0, 0.05);
  EXPECT_NEAR(res.source_throughput[6], 1.0, 0.05);
}

// OpenSM's minhop tables of the 5-ring (tests/unit/data/ring5-minhop), all
// traffic on SL 0.
class SimRing5Minhop : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(io::load_dump_dir(fixtures::unit_data("ring5-minhop"), {}, lr, err)) << err;
    c.assume_sl = 0;
  }
  io::LoadedRouting lr;
  Config c;
};

TEST_F(SimRing5Minhop, LateDeadlockIsFoundAtAnyRunLengthInTheCycleItCloses) {
  // OpenSM's minhop on the 5-ring (dumps), SL 0, one 2 KiB packet per (port,
  // VL), uniform load 1: the clockwise credit loop closes at cycle 111,121,
  // after which almost nothing moves. A run that ends before then sees no
  // deadlock; every run that ends after it reports the same cycle, closed in
  // the same cycle, whether it ends 4,879 cycles later (measured 114,000:
  // the old check, every 5,000 cycles among packets that waited 5,000, missed
  // it), 10,879 or 90,879 cycles later.
  c.buffer_credits = 32;
  const std::vector<std::string> want = {"S1 port 2 VL 0", "S2 port 2 VL 0", "S3 port 2 VL 0",
                                         "S4 port 2 VL 0", "S5 port 2 VL 0"};
  c.measure = 100000;
  const sim::Result early = sim::simulate(lr.fabric, lr.routing, c);
  EXPECT_FALSE(early.deadlock);
  EXPECT_FALSE(early.stall);
  for (const int64_t measure : {114000, 120000, 200000}) {
    c.measure = measure;
    const sim::Result res = sim::simulate(lr.fabric, lr.routing, c);
    ASSERT_TRUE(res.deadlock) << measure;
    EXPECT_FALSE(res.stall);
    EXPECT_EQ(res.deadlock_at, 111121) << measure;
    EXPECT_EQ(res.deadlock_cycle, want) << measure;
    EXPECT_EQ(res.deadlocks, 1);
    EXPECT_EQ(res.deadlock_packets, 5) << "one 2 KiB packet per full buffer";
    EXPECT_GE(res.packets_stuck, res.deadlock_packets);
    EXPECT_LE(res.cycles, c.warmup + measure);
  }
}

TEST_F(SimRing5Minhop, CreditsOnTheirWayBackAreNoDeadlock) {
  // The same minhop ring with 4 KiB buffers (two packets) does not lock up
  // within 30,000 cycles at load 1 with seeds 1, 3 and 8: it delivers to
  // the end. Its buffers often look full for a moment while a packet's
  // credits are still on their way back upstream; counting those as missing
  // (the free credits instead of the credits minus the packets queued)
  // closes false cycles there, at cycles 16,345, 28,507 and 6,575.
  c.measure = 30000;
  for (const uint64_t seed : {1, 3, 8}) {
    c.seed = seed;
    const sim::Result res = sim::simulate(lr.fabric, lr.routing, c);
    EXPECT_FALSE(res.deadlock) << "seed " << seed << ": closed at " << res.deadlock_at;
    EXPECT_FALSE(res.stall) << "seed " << seed;
    EXPECT_EQ(res.cycles, c.warmup + c.measure);
    EXPECT_GT(res.throughput, 0.2) << "seed " << seed;
  }
}

// A ring of 4 switches with one CA each and 30 us switches (5,860 cycles),
// all-to-all traffic.
struct SlowSwitchRing {
  Fabric f = fixtures::ca_ring(4);
  Routing r = fixtures::route_ring(f, false);
  Config c;
  SlowSwitchRing() {
    c.traffic = Traffic::kAlltoall;
    c.switch_latency = 5860;
  }
};

TEST(SimDeadlock, LongSwitchLatencyIsNoDeadlockAndNoStall) {
  // A 30 us switch (5,860 cycles, longer than the 5,000-cycle stall time
  // before the default grew with it): every packet sits out the latency at
  // each switch with nothing else moving. The old rule called that a
  // deadlock at cycle 5,000; the tables are deadlock free.
  SlowSwitchRing x;
  const Fabric &f = x.f;
  const Routing &r = x.r;
  Config &c = x.c;
  EXPECT_EQ(sim::min_stall_cycles(c), 1 + 5860 + 32);
  EXPECT_EQ(sim::stall_cycles(c), 1 + 5860 + 32);
  const sim::Result res = sim::simulate(f, r, c);
  EXPECT_TRUE(res.completed);
  EXPECT_FALSE(res.deadlock);
  EXPECT_FALSE(res.stall);
  EXPECT_TRUE(res.deadlock_cycle.empty());
  EXPECT_EQ(res.packets_delivered, 4 * 3);
  // Rate traffic too.
  c.traffic = Traffic::kUniform;
  c.measure = 50000;
  const sim::Result rate = sim::simulate(f, r, c);
  EXPECT_FALSE(rate.deadlock);
  EXPECT_FALSE(rate.stall);
  EXPECT_GT(rate.packets_delivered, 0);
}

TEST(SimDeadlock, StallWithoutCycleIsAStallNotADeadlock) {
  // The same 30 us switch with the stall time set below one hop (5,000 <
  // 5,893 cycles): the first packets wait out the switch latency with nothing
  // moving, the run ends at 5,000 cycles without a cycle of full buffers, and
  // the verdict is a stall.
  SlowSwitchRing x;
  x.c.stall_cycles = 5000;
  const sim::Result res = sim::simulate(x.f, x.r, x.c);
  EXPECT_FALSE(res.completed);
  EXPECT_FALSE(res.deadlock);
  EXPECT_TRUE(res.deadlock_cycle.empty());
  ASSERT_TRUE(res.stall);
  // The four first packets are injected at 0 and last move then.
  EXPECT_EQ(res.stall_since, 0);
  EXPECT_EQ(res.stall_at, 5000);
  EXPECT_EQ(res.packets_stuck, 4);
  EXPECT_EQ(res.cycles, 5000);
}

TEST(SimNetwork, AlltoallDeliversEveryMessage) {
  const Fabric f = fixtures::ca_ring(4);
  const Routing r = fixtures::route_ring(f, false);
  Config c;
  c.traffic = Traffic::kAlltoall;
  c.size = 4096;
  const sim::Result res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.completed);
  EXPECT_FALSE(res.deadlock);
  EXPECT_EQ(res.packets_delivered, 4 * 3 * 2);
  EXPECT_EQ(res.packets_dropped, 0);  // 2 packets per message
  EXPECT_GT(res.throughput, 0);
  EXPECT_LE(res.throughput, 1.0);
}

// Three CAs on one switch: phase 1 sends t -> t + 1, phase 2 t -> t + 2.
sim::Result alltoall_on_one_switch(sim::AlltoallSync sync, int window) {
  const Fabric f = fixtures::from_links(1, {}, {.hcas = 3});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.traffic = Traffic::kAlltoall;
  c.alltoall_sync = sync;
  c.alltoall_window = window;
  return sim::simulate(f, r, c);
}

TEST(SimNetwork, PairwiseAlltoallStartsAPhaseWhenThePreviousArrived) {
  // Every phase is a permutation through one switch, so nothing contends.
  // Phase 1: injected at 0, routable at 21, ejected 21..53. Pairwise with a
  // window of 1: t's message to t + 1 and the one from t - 1 have arrived
  // at 53, so phase 2 is injected at 53, routable at 74, tail at 106.
  sim::Result res = alltoall_on_one_switch(sim::AlltoallSync::kPairwise, 1);
  ASSERT_TRUE(res.completed);
  EXPECT_EQ(res.packets_delivered, 6);
  EXPECT_EQ(res.cycles, 106);
  EXPECT_DOUBLE_EQ(res.throughput, 6.0 * 32 / (3 * 106));
  // Free: phase 2 is queued once phase 1 has left the source queue and
  // injected when the link frees at 32; routable at 53, when the output to
  // t + 2 (phase 1's packet from t + 1) frees: tail at 85.
  res = alltoall_on_one_switch(sim::AlltoallSync::kFree, 1);
  ASSERT_TRUE(res.completed);
  EXPECT_EQ(res.cycles, 85);
  EXPECT_DOUBLE_EQ(res.throughput, 6.0 * 32 / (3 * 85));
  // A window of 2 phases: both are queued at 0, the same timing as free.
  res = alltoall_on_one_switch(sim::AlltoallSync::kPairwise, 2);
  EXPECT_EQ(res.cycles, 85);
}

TEST(SimNetwork, PairwiseAlltoallWaitsForTheSlowestPartner) {
  // Two switches with 2 CAs each (0, 1 on S0; 2, 3 on S1), one VL, window 1.
  //  - phase 1: 0->1 and 2->3 stay local (tails at 53), 1->2 and 3->0 cross
  //    the link (S0 at 21, S1 at 42, tails at 74): every CA has sent and
  //    received by 74.
  //  - phase 2 (0->2, 1->3, 2->0, 3->1) all cross; each link serves 0 (2)
  //    at 95, then 1 (3) at 127 (round robin after phase 1's 1 (3)): tails
  //    at 148 for 0 <-> 2 and 180 for 1 <-> 3.
  //  - phase 3: 0 and 2 start at 148 (0->3, 2->1 cross; they reach the
  //    ejection ports at 190, free since 180: tails at 222), 1 and 3 wait
  //    for their phase 2 until 180 (1->0, 3->2 local: tails at 233).
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 2});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.traffic = Traffic::kAlltoall;
  c.alltoall_window = 1;
  const sim::Result res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.completed);
  EXPECT_EQ(res.packets_delivered, 12);
  EXPECT_EQ(res.cycles, 233);
  EXPECT_DOUBLE_EQ(res.throughput, 12.0 * 32 / (4 * 233));
  // Latency from creation: phase 1: 53, 74, 53, 74; phase 2: 74, 106, 74,
  // 106 (created at 74); phase 3: 74, 74, 53, 53.
  EXPECT_DOUBLE_EQ(res.latency_avg, (254 + 360 + 254) / 12.0);
  EXPECT_DOUBLE_EQ(res.latency_max, 106);
}

TEST(SimNetwork, PairwiseAlltoallCountsADroppedMessageAsDone) {
  // Switch 1 has no LFT entry for CA 2: CA 1's message of phase 1 is dropped
  // at its own switch. Its phase still completes (else CAs 1 and 2 would
  // wait for it forever), and every other message is delivered.
  const Fabric f = fixtures::ca_ring(4);
  Routing r = fixtures::route_ring(f, false);
  r.set_out_port(1, f.terminal(2).lid, kNoPort);
  Config c;
  c.traffic = Traffic::kAlltoall;
  const sim::Result res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.completed);
  EXPECT_FALSE(res.deadlock);
  EXPECT_GE(res.packets_dropped, 1);
  EXPECT_EQ(res.packets_delivered + res.packets_dropped, 4 * 3);
}

TEST(SimNetwork, PacketBlockedOnOneVlDoesNotHoldAnotherVl) {
  // CA 0 on S0 sends 2 packets to CA 2 (SL 0 -> VL 0) and then 1 packet to
  // CA 3 (SL 1 -> VL 1), both on S1; buffers of one packet (32 credits).
  // Packet 1 (VL 0): injected 0, granted S0 -> S1 at 21; its credits in
  // S0's VL 0 buffer come back at 21 + 32 = 53, so packet 2 (VL 0) cannot
  // go when the link frees at 32.
  //  - per-VL source queues: packet 3 (VL 1) goes at 32: routable at S0 at
  //    53 (output and input port free again at 53), at S1 at 74, tail at
  //    106. Packet 2 goes at 64 (link): S0 at 85 (output busy until 85),
  //    S1 at 106, tail 138. Packet 1: S1 at 42, tail 74.
  //  - one FIFO: packet 2 goes at 53, S0 at 74, S1 at 95, tail 127;
  //    packet 3 at 85, S0 at 106, S1 at 127, tail 159.
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 2});
  Routing r = fixtures::min_hop(f);
  r.set_dest_sl(f.terminal(3).lid, 1);
  r.set_uniform_sl2vl(1, 1);
  Config c = single(0, 2, 4096);
  c.messages.push_back({0, 0, 3, 2048});
  c.buffer_credits = 32;
  sim::Result res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.completed);
  EXPECT_EQ(res.vls, 2);
  EXPECT_EQ(res.packets_measured, 3);
  EXPECT_DOUBLE_EQ(res.latency_avg, (74 + 138 + 106) / 3.0);
  EXPECT_DOUBLE_EQ(res.latency_max, 138);
  EXPECT_EQ(res.cycles, 138);
  c.vl_source_queues = false;
  res = sim::simulate(f, r, c);
  ASSERT_TRUE(res.completed);
  EXPECT_DOUBLE_EQ(res.latency_avg, (74 + 127 + 159) / 3.0);
  EXPECT_DOUBLE_EQ(res.latency_max, 159);
  EXPECT_EQ(res.cycles, 159);
}

TEST(SimSweep, LoadsFromLoToHi) {
  EXPECT_EQ(sim::sweep_loads(0.1, 1.0, 0.1),
            (std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}));
  EXPECT_EQ(sim::sweep_loads(0.05, 0.95, 0.1).size(), 10u);
  EXPECT_EQ(sim::sweep_loads(0.5, 0.5, 0.1), (std::vector<double>{0.5}));
  EXPECT_TRUE(sim::sweep_loads(0.6, 0.5, 0.1).empty());
  EXPECT_TRUE(sim::sweep_loads(0.1, 0.5, 0).empty());
}

TEST(SimSweep, BottleneckLinkSaturatesAtHalfLoad) {
  // Two sources on switch 0 send everything to CA 2 on switch 1: the one
  // link (and CA 2's ejection link) carries 2L of one link's bandwidth, so
  // it saturates at L = 0.5, where the four terminals accept 1 / 4 = 0.25 of
  // their injection bandwidth; past it accepted stays 0.25.
  //  - saturation throughput: saturated points keep the link busy every
  //    cycle (both sources always have a packet queued, round robin never
  //    idles), so accepted is 0.25 up to the packet at the window's edges:
  //    32 credits / (4 * 20,000 cycles) = 0.0004; asserted within 0.002.
  //  - saturation load: the grid 0.05, 0.15, ... 0.95 leaves the knee
  //    between 0.45 (demand 0.9 of the link: accepted follows offered, up
  //    to Bernoulli noise of a few percent) and 0.55 (demand 1.1: accepted /
  //    offered = 1 / 1.1 = 0.91 < 0.95), so it is exactly 0.55.
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 2});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.traffic = Traffic::kFixed;
  c.fixed_dest = {2, 2, -1, -1};
  c.warmup = 2000;
  c.measure = 20000;
  const std::vector<double> loads = sim::sweep_loads(0.05, 0.95, 0.1);
  size_t calls = 0;
  const sim::Sweep s = sim::sweep(f, r, c, loads, [&](size_t i, size_t n) {
    EXPECT_EQ(i, calls++);
    EXPECT_EQ(n, 10u);
  });
  EXPECT_EQ(calls, 10u);
  ASSERT_EQ(s.points.size(), 10u);
  EXPECT_FALSE(s.deadlock);
  EXPECT_FALSE(s.stall);
  EXPECT_NEAR(s.saturation_throughput, 0.25, 0.002);
  EXPECT_DOUBLE_EQ(s.saturation_load, 0.55);
  // The plateau is the median of the five points from 0.55 on (the middle
  // one); the maximum is over all ten; per active source (2 of 4) twice it.
  std::vector<double> past, per;
  double highest = 0;
  for (const sim::SweepPoint &p : s.points) {
    highest = std::max(highest, p.result.throughput);
    if (p.load >= 0.5) {
      past.push_back(p.result.throughput);
      per.push_back(p.result.throughput_per_source);
    }
  }
  ASSERT_EQ(past.size(), 5u);
  std::sort(past.begin(), past.end());
  std::sort(per.begin(), per.end());
  EXPECT_EQ(s.plateau_points, 5);
  EXPECT_DOUBLE_EQ(s.saturation_throughput, past[2]);
  EXPECT_DOUBLE_EQ(s.saturation_throughput_per_source, per[2]);
  EXPECT_NEAR(s.saturation_throughput_per_source, 0.5, 0.004);
  EXPECT_DOUBLE_EQ(s.saturation_throughput_max, highest);
  EXPECT_GE(s.saturation_throughput_max, s.saturation_throughput);
  for (const sim::SweepPoint &p : s.points) {
    // Offered: 2 of 4 terminals at load L; Bernoulli arrivals, 2 * 20,000 *
    // L / 32 messages: a few percent of noise.
    EXPECT_NEAR(p.result.offered, p.load / 2, 0.1 * p.load / 2) << p.load;
    if (p.load < 0.5)
      EXPECT_NEAR(p.result.throughput, p.result.offered, 0.05 * p.result.offered) << p.load;
    else
      EXPECT_NEAR(p.result.throughput, 0.25, 0.002) << p.load;
  }
  // Latency grows with the load: zero-load latency is 2 * 21 + 32 = 74
  // cycles; saturated, packets wait in full source queues.
  EXPECT_GE(s.points.front().result.latency_avg, 74);
  EXPECT_LT(s.points.front().result.latency_avg, 90);
  EXPECT_GT(s.points.back().result.latency_avg, 10 * 74);
}

TEST(SimSweep, PlateauIsTheMedianNotTheNoisiestPoint) {
  // Two switches with 4 CAs each and one link, uniform traffic: 4 of a CA's
  // 7 destinations are across the link, so it saturates near load 1 / (4 *
  // 4/7) = 0.4375, and the accepted throughput can at most reach 2 links /
  // (4/7) / 8 CAs = 0.4375. Past saturation (0.45 .. 1 on a 0.05 grid, 4,000
  // cycles each) the accepted throughput scatters between 0.353 and 0.404:
  // the highest point (load 0.65) lies 0.025 above the median of the
  // twelve, which is the plateau.
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 4});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.warmup = 1000;
  c.measure = 4000;
  const sim::Sweep s = sim::sweep(f, r, c, sim::sweep_loads(0.3, 1.0, 0.05));
  ASSERT_EQ(s.points.size(), 15u);
  EXPECT_DOUBLE_EQ(s.saturation_load, 0.45);
  std::vector<double> past;
  for (const sim::SweepPoint &p : s.points)
    if (p.load >= s.saturation_load) past.push_back(p.result.throughput);
  ASSERT_EQ(past.size(), 12u);
  EXPECT_EQ(s.plateau_points, 12);
  std::sort(past.begin(), past.end());
  EXPECT_DOUBLE_EQ(s.saturation_throughput, (past[5] + past[6]) / 2);
  EXPECT_DOUBLE_EQ(s.saturation_throughput_max, past.back());
  EXPECT_GT(s.saturation_throughput_max, s.saturation_throughput + 0.02);
  EXPECT_LT(s.saturation_throughput, 0.4375);
  // Every terminal sends under uniform traffic.
  EXPECT_DOUBLE_EQ(s.saturation_throughput_per_source, s.saturation_throughput);
}

TEST(SimSweep, DeadlockEndsTheSweep) {
  // The one-VL ring of RingWithOneVlDeadlocksOnItsChannels: at full load it
  // deadlocks; a sweep from 0.9 to 1.0 stops at the first deadlocked load.
  const Fabric f = fixtures::ca_ring(5);
  const Routing r = fixtures::route_ring(f, true);
  const Config c = full_uniform(1);
  const sim::Result at1 = sim::simulate(f, r, c);
  ASSERT_TRUE(at1.deadlock);
  const sim::Sweep s = sim::sweep(f, r, c, {0.95, 1.0, 1.0});
  ASSERT_TRUE(s.deadlock);
  const sim::Result &last = s.points.back().result;
  EXPECT_TRUE(last.deadlock);
  EXPECT_EQ(last.deadlock_cycle.size(), 5u);
  // Ends at the first deadlock: never past the first 1.0 point.
  EXPECT_LE(s.points.size(), 2u);
  EXPECT_DOUBLE_EQ(s.saturation_load, s.points.back().load);
  // No plateau: the first saturated point is the deadlocked one.
  EXPECT_EQ(s.saturation_throughput, -1);
  EXPECT_EQ(s.plateau_points, 0);
  if (s.points.size() == 2) {
    EXPECT_FALSE(s.points[0].result.deadlock);
    EXPECT_DOUBLE_EQ(s.saturation_throughput_max, s.points[0].result.throughput);
  } else {
    EXPECT_EQ(s.saturation_throughput_max, 0);
  }
}

TEST(SimSweep, XyChartHasOnePolylinePerSeries) {
  // keiro simulate --plot's chart: x from 0 to 1 over the 490-pixel plot
  // area starting at x = 70; y from 0 to the rounded-up maximum (0.5 here)
  // over 300 pixels from y = 340 up.
  const std::string svg = metrics::svg_xy_chart(
      {"t", "offered", "accepted"},
      {{"a", {0.1, 0.5, 1.0}, {0.1, 0.5, 0.5}}, {"b", {0.1, 0.2}, {0.1, 0.2}}, {"c", {}, {}}}, 1.0);
  size_t n = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1))
    ++n;
  EXPECT_EQ(n, 2u);  // the empty series has no line
  EXPECT_NE(svg.find("points=\"119.0,280.0 315.0,40.0 560.0,40.0 \""), std::string::npos) << svg;
  EXPECT_NE(svg.find("points=\"119.0,280.0 168.0,220.0 \""), std::string::npos) << svg;
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SimTraffic, PermutationThroughputIsAlsoPerActiveSource) {
  // Transpose on 16 terminals (4 bits, rotated by 2) fixes 0, 5, 10 and 15:
  // 12 terminals send. Uniform traffic: all 16.
  const Fabric f = fixtures::from_links(4, {{0, 1}, {1, 2}, {2, 3}}, {.hcas = 4});
  const Routing r = fixtures::min_hop(f);
  Config c;
  c.traffic = Traffic::kTranspose;
  c.load = 0.2;
  c.measure = 5000;
  const sim::Result t = sim::simulate(f, r, c);
  EXPECT_EQ(t.active_sources, 12);
  EXPECT_DOUBLE_EQ(t.throughput_per_source, t.throughput * 16 / 12);
  EXPECT_DOUBLE_EQ(t.offered_per_source, t.offered * 16 / 12);
  EXPECT_NEAR(t.offered_per_source, 0.2, 0.03);  // the offered load, per sender
  c.traffic = Traffic::kUniform;
  const sim::Result u = sim::simulate(f, r, c);
  EXPECT_EQ(u.active_sources, 16);
  EXPECT_DOUBLE_EQ(u.throughput_per_source, u.throughput);
}

TEST(SimTraffic, PermutationsAreBijections) {
  EXPECT_EQ(sim::permutation_dest(Traffic::kBitrev, 1, 8), 4);
  EXPECT_EQ(sim::permutation_dest(Traffic::kBitrev, 3, 8), 6);
  EXPECT_EQ(sim::permutation_dest(Traffic::kTranspose, 1, 16), 4);  // (0,1) -> (1,0)
  EXPECT_EQ(sim::permutation_dest(Traffic::kShuffle, 5, 8), 3);     // 101 -> 011
  EXPECT_EQ(sim::permutation_dest(Traffic::kReverse, 0, 5), 4);
  // Cycle walking for 6: bitrev(3) = 6 >= 6, bitrev(6) = 3.
  EXPECT_EQ(sim::permutation_dest(Traffic::kBitrev, 3, 6), 3);
  for (const int32_t n : {2, 5, 6, 12, 64, 100})
    for (const Traffic t :
         {Traffic::kTranspose, Traffic::kBitrev, Traffic::kShuffle, Traffic::kReverse}) {
      std::vector<bool> hit(n, false);
      for (int32_t i = 0; i < n; ++i) {
        const int32_t d = sim::permutation_dest(t, i, n);
        ASSERT_GE(d, 0);
        ASSERT_LT(d, n);
        EXPECT_FALSE(hit[d]) << sim::traffic_name(t) << " n " << n;
        hit[d] = true;
      }
    }
}

}  // namespace
}  // namespace keiro
