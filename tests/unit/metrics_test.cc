// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "core/metrics/distances.h"
#include "core/metrics/path_stats.h"
#include "core/metrics/traffic.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using fixtures::route_ring;

TEST(Metrics, Distances) {
  const Fabric f = fixtures::ca_ring(5);
  const metrics::SwitchDistances d(f);
  EXPECT_EQ(d(0, 0), 0);
  EXPECT_EQ(d(0, 1), 1);
  EXPECT_EQ(d(0, 2), 2);
  EXPECT_EQ(d(0, 3), 2);
  EXPECT_EQ(d(4, 1), 2);
}

// Ring of 4, one CA per switch, opposite switches reached over 2 hops: all
// 12 routes minimal, every channel carries 2 routes.
TEST(Metrics, RingMinimal) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  const metrics::PathStats st = metrics::path_stats(f, r);
  EXPECT_EQ(st.pairs, 12);
  EXPECT_EQ(st.undelivered, 0);
  EXPECT_DOUBLE_EQ(st.avg_hops, 40.0 / 12);  // 8 routes of 3 links, 4 of 4
  EXPECT_EQ(st.max_hops, 4);
  const std::vector<int64_t> hist = {0, 0, 0, 8, 4};
  EXPECT_EQ(st.hop_histogram, hist);
  EXPECT_DOUBLE_EQ(st.avg_stretch, 1.0);
  EXPECT_DOUBLE_EQ(st.max_stretch, 1.0);
  EXPECT_EQ(st.nonminimal, 0);
  for (const int64_t e : st.efi) EXPECT_EQ(e, 2);
  EXPECT_DOUBLE_EQ(st.efi_summary.min, 2);
  EXPECT_DOUBLE_EQ(st.efi_summary.max, 2);
  EXPECT_DOUBLE_EQ(st.efi_summary.stddev, 0);
  EXPECT_EQ(st.efi_summary.count, 8);
}

// Everything clockwise: routes of 1, 2 and 3 switch hops from every CA.
TEST(Metrics, RingClockwise) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);
  const metrics::PathStats st = metrics::path_stats(f, r);
  EXPECT_EQ(st.pairs, 12);
  EXPECT_DOUBLE_EQ(st.avg_hops, 4.0);
  EXPECT_EQ(st.max_hops, 5);
  // Per source: 3/3, 4/4, 5/3.
  EXPECT_NEAR(st.avg_stretch, (1 + 1 + 5.0 / 3) / 3, 1e-12);
  EXPECT_NEAR(st.max_stretch, 5.0 / 3, 1e-12);
  EXPECT_EQ(st.nonminimal, 4);
  // Each clockwise channel: 3 routes of length 3, 2 of length 2 and 1 of
  // length 1 cross it = 6; counter-clockwise channels carry nothing.
  for (int32_t c = 0; c < f.num_channels(); ++c)
    EXPECT_EQ(st.efi[c], f.channel(c).src_port == 2 ? 6 : 0);
  EXPECT_DOUBLE_EQ(st.efi_summary.min, 0);
  EXPECT_DOUBLE_EQ(st.efi_summary.avg, 3);
  EXPECT_DOUBLE_EQ(st.efi_summary.max, 6);
  EXPECT_DOUBLE_EQ(st.efi_summary.stddev, 3);
}

TEST(Metrics, AllLidsCountsLmcRoutes) {
  const Fabric f = fixtures::ca_ring(4, 1);
  Routing r = route_ring(f, false);
  metrics::PathStatsOptions o;
  EXPECT_EQ(metrics::path_stats(f, r, o).pairs, 12);
  o.all_lids = true;
  EXPECT_EQ(metrics::path_stats(f, r, o).pairs, 24);
}

TEST(Metrics, UndeliveredRoutesAreLeftOut) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  r.set_out_port(1, 7, kNoPort);  // S2 drops H3: H1 and H2 cannot reach it
  const metrics::PathStats st = metrics::path_stats(f, r);
  EXPECT_EQ(st.undelivered, 2);
  EXPECT_EQ(st.pairs, 10);
}

TEST(Traffic, ShiftAllToAll) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, true);
  metrics::TrafficOptions o;
  o.patterns = 5;
  metrics::Traffic m = metrics::traffic(f, r, o);
  EXPECT_EQ(m.hosts, 4);
  EXPECT_EQ(m.shift_phases, 3);
  EXPECT_EQ(m.shift_max_load_sum, 1 + 2 + 3);
  EXPECT_DOUBLE_EQ(m.shift_throughput, 0.5);
  r = route_ring(f, false);
  m = metrics::traffic(f, r, o);
  EXPECT_EQ(m.shift_max_load_sum, 3);
  EXPECT_DOUBLE_EQ(m.shift_throughput, 1.0);
  EXPECT_EQ(m.undelivered_flows, 0);
}

// One switch, four CAs: only the CAs' own links can be shared.
Fabric star(int hosts) {
  Fabric f;
  f.add_switch({0x10, "S", 8});
  for (int i = 0; i < hosts; ++i) {
    TerminalInfo t;
    t.node_guid = 0x100u + 2 * i;
    t.port_guid = t.node_guid + 1;
    t.name = "H" + std::to_string(i + 1);
    t.sw = 0;
    t.sw_port = static_cast<uint8_t>(i + 1);
    f.add_terminal(t);
  }
  assign_lids(f, 0);
  f.finalize();
  return f;
}

void route_star(const Fabric &f, Routing &r) {
  r.reset(f);
  for (const uint16_t lid : f.lids()) {
    const LidOwner o = f.lid_owner(lid);
    r.set_out_port(0, lid, o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port);
  }
}

TEST(Traffic, EffectiveBandwidthHotspot) {
  const Fabric f = star(4);
  Routing r;
  route_star(f, r);
  metrics::TrafficOptions o;
  o.patterns = 20;
  o.hotspot_beta = 1.0;
  const metrics::Traffic m = metrics::traffic(f, r, o);
  // Three flows share the hot spot's link (1/3 each), its own flow is alone.
  EXPECT_DOUBLE_EQ(m.gamma_hotspot, (3 * (1.0 / 3) + 1) / 4);
  EXPECT_GT(m.gamma_uniform, 0.25);
  EXPECT_LE(m.gamma_uniform, 1.0);
  EXPECT_DOUBLE_EQ(m.shift_throughput, 1.0);
}

TEST(Traffic, TwoHostsNeverShare) {
  const Fabric f = star(2);
  Routing r;
  route_star(f, r);
  const metrics::Traffic m = metrics::traffic(f, r);
  EXPECT_DOUBLE_EQ(m.gamma_uniform, 1.0);
  EXPECT_DOUBLE_EQ(m.gamma_hotspot, 1.0);
  EXPECT_DOUBLE_EQ(m.gamma_local, 1.0);
}

// Two switches with two CAs each. local(gamma) with a large gamma sends every
// CA to the other CA on its own switch (2 links away rather than 3): the
// flows never share a link, so Gamma is 1. gamma = 0 is uniform traffic,
// where some destination receives two flows in almost every pattern.
TEST(Traffic, LocalPrefersNearHosts) {
  Fabric f;
  f.add_switch({0x10, "S1", 8});
  f.add_switch({0x11, "S2", 8});
  f.add_link(0, 3, 1, 3);
  for (int i = 0; i < 4; ++i) {
    TerminalInfo t;
    t.node_guid = 0x100u + 2 * i;
    t.port_guid = t.node_guid + 1;
    t.name = "H" + std::to_string(i + 1);
    t.sw = i / 2;
    t.sw_port = static_cast<uint8_t>(i % 2 + 1);
    f.add_terminal(t);
  }
  assign_lids(f, 0);
  f.finalize();
  Routing r;
  r = fixtures::min_hop(f);
  metrics::TrafficOptions near, uniform;
  near.local_gamma = 60;
  uniform.local_gamma = 0;
  near.patterns = uniform.patterns = 200;
  EXPECT_DOUBLE_EQ(metrics::traffic(f, r, near).gamma_local, 1.0);
  const metrics::Traffic u = metrics::traffic(f, r, uniform);
  EXPECT_LT(u.gamma_local, 0.95);
  EXPECT_NEAR(u.gamma_local, u.gamma_uniform, 0.1);
}

}  // namespace
}  // namespace keiro
