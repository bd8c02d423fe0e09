// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The realization of per-hop VLs as SLs + SL2VL (core/vlmap/).
#include "core/vlmap/vlmap.h"

#include <gtest/gtest.h>

#include "core/check/verify.h"
#include "core/layers/acro.h"
#include "core/minimal/balanced.h"
#include "core/vlmap/dest_dp.h"
#include "core/vlmap/path_dp.h"
#include "core/vlmap/turn_levels.h"
#include "core/vlmap/turn_table.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

TEST(VlmapPathDp, LowestLabelsWithoutEntries) {
  vlmap::VlDemand d;
  d.rank = {0, 2, 1,   // VL 0: c0 < c2 < c1
            1, 0, 2};  // VL 1: c1 < c0 < c2
  d.rank_rows = 2;
  vlmap::PathDp dp(d, 3, 2);
  std::vector<vlmap::PathDp::Hop> hops = {{1, 0, 1, -1, 0}, {2, 0, 1, -1, 0}, {0, 0, 1, -1, 0}};
  std::vector<uint8_t> v(3);
  EXPECT_EQ(dp.solve(hops, v), 3 * vlmap::PathDp::kNew);
  EXPECT_EQ(v, (std::vector<uint8_t>{0, 0, 0}));
  // Reversed path c0 -> c2 -> c1 must climb: (1, r1(c0)=1) > (0, 2)? yes
  // with c2 in VL 0 below c1? r0(c2)=1 < r0(c1)=2, so c2 needs VL 1 and then
  // c0 needs a label above (1, 2): impossible with 2 VLs, fine with 3.
  std::vector<vlmap::PathDp::Hop> rev = {{0, 0, 1, -1, 0}, {2, 0, 1, -1, 0}, {1, 0, 1, -1, 0}};
  EXPECT_GE(dp.solve(rev, v), vlmap::PathDp::kInfeasible);
  vlmap::PathDp dp3(d, 3, 3);  // rows beyond rank_rows reuse the last row
  for (auto &h : rev) h.hi = 2;
  EXPECT_EQ(dp3.solve(rev, v), 3 * vlmap::PathDp::kNew + 3);
  EXPECT_EQ(v, (std::vector<uint8_t>{2, 1, 0}));
}

TEST(VlmapPathDp, AgreesEvictsOrRaises) {
  vlmap::VlDemand d;
  d.rank = {0, 2, 1, 1, 0, 2};
  d.rank_rows = 2;
  std::vector<uint8_t> v(3);
  // Hop c2's entry holds VL 1 (two users). With 2 VLs agreeing is impossible
  // (c1 would need a label above (1, 2)), so the DP evicts.
  std::vector<vlmap::PathDp::Hop> hops = {{1, 0, 1, -1, 0}, {2, 0, 1, 1, 2}, {0, 0, 1, -1, 0}};
  vlmap::PathDp dp(d, 3, 2);
  EXPECT_EQ(dp.solve(hops, v), 2 * vlmap::PathDp::kEvict + 3 * vlmap::PathDp::kNew);
  EXPECT_EQ(vlmap::PathDp::evictions(2 * vlmap::PathDp::kEvict + 3 * vlmap::PathDp::kNew), 2);
  EXPECT_EQ(v, (std::vector<uint8_t>{0, 0, 0}));
  // With a third VL the first hop rises above and nothing is evicted.
  for (auto &h : hops) h.hi = 2;
  vlmap::PathDp dp3(d, 3, 3);
  EXPECT_EQ(dp3.solve(hops, v), 2 * vlmap::PathDp::kNew + 3);
  EXPECT_EQ(v, (std::vector<uint8_t>{2, 1, 0}));
  // An entry that already holds the lowest VL is simply shared.
  hops[1].entry_vl = 0;
  EXPECT_EQ(dp3.solve(hops, v), 2 * vlmap::PathDp::kNew);
  EXPECT_EQ(v, (std::vector<uint8_t>{0, 0, 0}));
}

TEST(VlmapPathDp, FixedVlsWithoutOrder) {
  vlmap::VlDemand d;  // no rank: only the intervals count
  vlmap::PathDp dp(d, 3, 4);
  std::vector<vlmap::PathDp::Hop> hops = {{0, 1, 1, -1, 0}, {1, 3, 3, -1, 0}};
  std::vector<uint8_t> v(2);
  EXPECT_EQ(dp.solve(hops, v), 2 * vlmap::PathDp::kNew + 4);
  EXPECT_EQ(v, (std::vector<uint8_t>{1, 3}));
  d.non_increasing = true;  // now 1 -> 3 rises: impossible
  vlmap::PathDp mono(d, 3, 4);
  EXPECT_GE(mono.solve(hops, v), vlmap::PathDp::kInfeasible);
}

TEST(VlmapTurnTable, AttachDetach) {
  const Fabric f = fixtures::ring(4, {.hcas = 1});
  vlmap::TurnTable tt(f, 2, 8);
  const int32_t a0 = 0, a1 = 2;  // 0->1, 1->2
  const int32_t t_src = tt.turn(-1, a1), t_transit = tt.turn(a0, a1);
  EXPECT_NE(t_src, t_transit);
  EXPECT_EQ(tt.turn_switch(t_transit), 1);
  EXPECT_EQ(tt.turn_in(t_transit), a0);
  EXPECT_EQ(tt.turn_out(t_transit), a1);
  EXPECT_EQ(tt.turn_in(t_src), -1);
  EXPECT_EQ(tt.turn_out(t_src), a1);
  const int64_t e = tt.entry(t_transit, 1);
  EXPECT_EQ(tt.vl(e), -1);
  tt.attach(e, 3, 2, 5);
  tt.attach(e, 4, 2, 1);
  EXPECT_EQ(tt.vl(e), 2);
  EXPECT_EQ(tt.users(e), 2);
  EXPECT_EQ(tt.weight(e), 6);
  EXPECT_EQ(tt.first_hop(e), 4);
  EXPECT_EQ(tt.next_hop(4), 3);
  tt.detach(e, 4, 1);
  EXPECT_EQ(tt.first_hop(e), 3);
  EXPECT_EQ(tt.vl(e), 2);
  tt.detach(e, 3, 5);
  EXPECT_EQ(tt.vl(e), -1);
  EXPECT_EQ(tt.users(e), 0);
  EXPECT_EQ(tt.weight(e), 0);
  EXPECT_EQ(tt.first_hop(e), -1);
  EXPECT_EQ(tt.vl(tt.entry(t_transit, 0)), -1);  // the other SL is untouched
}

// Line 0-1-2-3-4 with one HCA per switch; destinations 3 and 4. The demand
// fixes every hop's VL: 0 everywhere except the hop of destination 4 that
// leaves switch 2, which must use VL 1. Paths to 3 and to 4 make the same
// turns at switch 2 (from 1 to 3, and from its own ports to 3), so they
// cannot share an SL.
struct LineCase {
  Fabric f;
  minimal::DestTrees t;
  vlmap::VlDemand d;
  LineCase() {
    f = fixtures::hand_wired(5, {{0, 1, 1, 2}, {1, 1, 2, 2}, {2, 1, 3, 2}, {3, 1, 4, 2}});
    t = fixtures::trees_from_next_switch(f, {3, 4}, {{1, 2, 3, -1, 3}, {1, 2, 3, 4, -1}});
    d.lo.assign(2 * 5, 0);
    d.hi.assign(2 * 5, 0);
    d.lo[1 * 5 + 2] = d.hi[1 * 5 + 2] = 1;
  }
};

// Every hop of every path of x (routed r) gets exactly the VL its demand
// fixes (LineCase: lo = hi everywhere): read from r's SL2VL tables, the
// first hop from every in port of the source slot (port 0 and the CAs').
void expect_demanded_vls(const LineCase &x, const Routing &r) {
  for (int32_t k = 0; k < 2; ++k)
    for (uint16_t lid : x.t.dest_lids(k))
      for (int32_t src = 0; src < 5; ++src) {
        if (src == x.t.root[k]) continue;
        const uint8_t sl = r.path_sl(src, lid);
        int32_t prev = -1;
        for (int32_t s = src; s != x.t.root[k];) {
          const int32_t c = x.t.hop(k, s);
          const uint8_t out = x.f.channel(c).src_port;
          std::vector<uint8_t> ins;
          if (prev < 0) {
            ins.push_back(0);
            for (int32_t term : x.f.terminals_of(s)) ins.push_back(x.f.terminal(term).sw_port);
          } else {
            ins.push_back(x.f.channel(prev).dst_port);
          }
          for (uint8_t in : ins)
            EXPECT_EQ(r.vl(s, in, out, sl), x.d.lo[k * 5 + s])
                << "destination " << k << " from switch " << src << " at switch " << s;
          prev = c;
          s = x.f.channel(c).dst;
        }
      }
}

TEST(VlmapRealize, ConflictingTurnsNeedTwoSls) {
  LineCase x;
  std::string err;
  ASSERT_TRUE(minimal::validate_trees(x.f, x.t, err)) << err;
  vlmap::VlMapOptions o;
  o.max_vls = 2;
  o.max_sls = 1;
  Routing r;
  r.reset(x.f, Routing::SlScope::kPerSourceSwitch);
  vlmap::VlMapStats st;
  EXPECT_FALSE(vlmap::realize(x.f, x.t, x.d, o, r, st, err));
  EXPECT_NE(err.find("got no SL with 1 SLs and 2 VLs"), std::string::npos) << err;
  EXPECT_GT(st.unplaced, 0);
  EXPECT_EQ(st.paths, 8);

  o.max_sls = 2;
  ASSERT_TRUE(vlmap::realize(x.f, x.t, x.d, o, r, st, err)) << err;
  EXPECT_EQ(st.unplaced, 0);
  EXPECT_EQ(st.sls_used, 2);
  EXPECT_EQ(st.vls_used, 2);
  const uint16_t lid3 = x.f.terminal(3).lid, lid4 = x.f.terminal(4).lid;
  for (int src : {0, 1, 2}) EXPECT_NE(r.path_sl(src, lid3), r.path_sl(src, lid4));
  // Every path of every source gets exactly the demanded VL on every hop.
  expect_demanded_vls(x, r);
}

// SL-stable re-routing (VlMapOptions::pins). On LineCase the paths to 3 and
// to 4 from switches 0, 1, 2 cannot share an SL and nothing else conflicts,
// so pins that give the two destinations different SLs can all be kept --
// in either naming, whatever first fit would choose -- and pins that give
// them the same SL cannot: destination 4 (the harder one, placed first)
// keeps SL 0 and the three pins of destination 3 are dropped (SL 1 then).
// Realizes case x (its fabric f, trees t and demand d) with o into r, reset
// first for SLs per source switch.
template <typename Case>
bool realize_case(const Case &x, const vlmap::VlMapOptions &o, Routing &r, vlmap::VlMapStats &st,
                  std::string &err) {
  r.reset(x.f, Routing::SlScope::kPerSourceSwitch);
  return vlmap::realize(x.f, x.t, x.d, o, r, st, err);
}

// LineCase's pins [k * 5 + s]: SL sl3 for the paths of sources 0..2 to
// destination 3 (k 0), SL sl4 for those to destination 4 (k 1).
std::vector<int8_t> line_pins(int sl3, int sl4) {
  std::vector<int8_t> pins(2 * 5, -1);
  for (int s : {0, 1, 2}) {
    pins[0 * 5 + s] = static_cast<int8_t>(sl3);
    pins[1 * 5 + s] = static_cast<int8_t>(sl4);
  }
  return pins;
}

TEST(VlmapRealize, PinnedSlsAreKeptOrDroppedAndCounted) {
  LineCase x;
  vlmap::VlMapOptions o;
  o.max_vls = 2;
  o.max_sls = 2;
  const uint16_t lid3 = x.f.terminal(3).lid, lid4 = x.f.terminal(4).lid;
  // Realized with pins line_pins(pin3, pin4): dropped of the 6 pins dropped,
  // the paths from switches 0..2 on SLs sl3 (to destination 3) and sl4.
  Routing r;
  vlmap::VlMapStats st;
  std::string err;
  auto expect_pinned = [&](int pin3, int pin4, int dropped, int sl3, int sl4) {
    const std::vector<int8_t> pins = line_pins(pin3, pin4);
    o.pins = pins;
    ASSERT_TRUE(realize_case(x, o, r, st, err)) << err;
    EXPECT_EQ(st.pins, 6);
    EXPECT_EQ(st.pins_dropped, dropped);
    EXPECT_FALSE(st.pins_fallback);
    for (int s : {0, 1, 2}) {
      EXPECT_EQ(r.path_sl(s, lid3), sl3);
      EXPECT_EQ(r.path_sl(s, lid4), sl4);
    }
    expect_demanded_vls(x, r);
  };
  for (int sl3 : {0, 1}) {
    SCOPED_TRACE(sl3);
    expect_pinned(sl3, 1 - sl3, 0, sl3, 1 - sl3);
  }
  // Both destinations pinned to SL 0: three pins must go.
  expect_pinned(0, 0, 3, 1, 0);
  const std::vector<int8_t> same = line_pins(0, 0);
  o.pins = same;
  // With one SL no realization fits, pinned or not: it fails as before.
  o.max_sls = 1;
  EXPECT_FALSE(realize_case(x, o, r, st, err));
  EXPECT_EQ(st.pins_dropped, 6);
  EXPECT_TRUE(st.pins_fallback);
  // Pins beyond max_sls are dropped: SL 5 with 2 SLs.
  o.max_sls = 2;
  std::vector<int8_t> high(2 * 5, -1);
  high[1 * 5 + 0] = 5;
  high[0 * 5 + 0] = 1;
  o.pins = high;
  ASSERT_TRUE(realize_case(x, o, r, st, err)) << err;
  EXPECT_EQ(st.pins, 2);
  EXPECT_EQ(st.pins_dropped, 1);
  EXPECT_EQ(r.path_sl(0, lid3), 1);
  expect_demanded_vls(x, r);
  // Wrongly sized pins are an error, not ignored.
  const std::vector<int8_t> short_pins(3, 0);
  o.pins = short_pins;
  EXPECT_FALSE(vlmap::realize(x.f, x.t, x.d, o, r, st, err));
  EXPECT_EQ(err, "VL realization: pins do not match the destinations");
}

// No pins, or only -1 pins: exactly the realization without them.
TEST(VlmapRealize, EmptyPinsChangeNothing) {
  LineCase x;
  vlmap::VlMapOptions o;
  o.max_vls = 2;
  o.max_sls = 2;
  Routing a, b;
  a.reset(x.f, Routing::SlScope::kPerSourceSwitch);
  b.reset(x.f, Routing::SlScope::kPerSourceSwitch);
  vlmap::VlMapStats st;
  std::string err;
  ASSERT_TRUE(vlmap::realize(x.f, x.t, x.d, o, a, st, err)) << err;
  const std::vector<int8_t> none(2 * 5, -1);
  o.pins = none;
  ASSERT_TRUE(vlmap::realize(x.f, x.t, x.d, o, b, st, err)) << err;
  EXPECT_EQ(st.pins, 0);
  for (int32_t s = 0; s < 5; ++s)
    for (uint16_t lid : x.f.lids()) {
      EXPECT_EQ(a.path_sl(s, lid), b.path_sl(s, lid));
      for (uint8_t in = 0; in <= x.f.sw(s).num_ports; ++in)
        for (uint8_t out = 0; out <= x.f.sw(s).num_ports; ++out)
          for (uint8_t sl = 0; sl < 2; ++sl) EXPECT_EQ(a.vl(s, in, out, sl), b.vl(s, in, out, sl));
    }
}

TEST(VlmapRealize, DemandBeyondTheVlBudgetFails) {
  LineCase x;
  vlmap::VlMapOptions o;
  o.max_vls = 1;  // the hop demanding VL 1 cannot be served
  Routing r;
  vlmap::VlMapStats st;
  std::string err;
  EXPECT_FALSE(realize_case(x, o, r, st, err));
  EXPECT_EQ(st.unplaceable, 3);  // from switches 0, 1 and 2 to destination 4
  EXPECT_NE(err.find("within 1 VLs"), std::string::npos) << err;
}

struct AcroCase {
  Fabric f;
  minimal::DestTrees t;
  vlmap::VlDemand d;
  int layers = 0;
  AcroCase(int n, int deg, int hcas, uint64_t seed)
      : f(fixtures::random_regular(n, deg, seed, {.hcas = hcas})) {
    std::string err;
    minimal::BalancedOptions bo;
    bo.per_lid = false;  // one tree per switch: the cases below were sized for it
    EXPECT_TRUE(minimal::balanced_routing(f, bo, t, err)) << err;
    acro::AcroResult a;
    EXPECT_TRUE(acro::assign(f, t, {}, a, err)) << err;
    layers = a.num_layers;
    d.rank = a.rank;
    d.rank_rows = a.num_layers;
  }
  bool run(vlmap::VlMapOptions::Method m, int sls, int vls, Routing &r, vlmap::VlMapStats &st,
           std::string &err) {
    vlmap::VlMapOptions o;
    o.method = m;
    o.max_sls = sls;
    o.max_vls = vls;
    r.reset(f, Routing::SlScope::kPerSourceSwitch);
    minimal::write_lfts(f, t, r);
    return vlmap::realize(f, t, d, o, r, st, err);
  }
};

// Checks the tables a realization wrote: the self-check, an independent
// credit-loop search, the SL and VL budgets, the first hop's entries equal for
// port 0 and every terminal port, and descending labels on every path.
void check_tables(const AcroCase &x, const Routing &r, int sls, int vls) {
  const check::Result cr = check::verify(x.f, r);
  EXPECT_TRUE(cr.ok) << cr.first_problem;
  EXPECT_EQ(fixtures::credit_loop_problem(x.f, r), "");
  const int32_t S = x.f.num_switches(), C = x.f.num_channels();
  auto label = [&](int v, int32_t c) {
    const int row = std::min(v, x.d.rank_rows - 1);
    return static_cast<int64_t>(v) * C + x.d.rank[static_cast<size_t>(row) * C + c];
  };
  for (int32_t k = 0; k < x.t.num_dests(); ++k)
    for (uint16_t lid : x.t.dest_lids(k))
      for (int32_t src = 0; src < S; ++src) {
        const uint8_t sl = r.path_sl(src, lid);
        EXPECT_LT(sl, sls);
        int32_t prev = -1;
        int64_t last = INT64_MAX;
        for (int32_t s = src; s != x.t.root[k];) {
          const int32_t c = x.t.hop(k, s);
          const uint8_t out = x.f.channel(c).src_port;
          const uint8_t v = r.vl(s, prev < 0 ? 0 : x.f.channel(prev).dst_port, out, sl);
          EXPECT_LT(v, vls);
          if (prev < 0) {
            for (int32_t term : x.f.terminals_of(s))
              EXPECT_EQ(r.vl(s, x.f.terminal(term).sw_port, out, sl), v);
          }
          EXPECT_LT(label(v, c), last);
          last = label(v, c);
          prev = c;
          s = x.f.channel(c).dst;
        }
      }
}

TEST(VlmapRealize, RepairSucceedsWhereGreedyFails) {
  // 64 switches, degree 4: 3 ACRO layers; with 4 VLs and only 3 SLs first
  // fit and best fit leave paths unplaced, min-conflicts repair places all.
  // Seed 2 of core/topo's generator: best fit leaves fewer unplaced than
  // first fit (not so on every instance; seeds 1, 4 and 10 are the exceptions
  // among 1..12).
  AcroCase x(64, 4, 1, 2);
  ASSERT_EQ(x.layers, 3);
  Routing r;
  vlmap::VlMapStats ff, bf, rp;
  std::string err;
  EXPECT_FALSE(x.run(vlmap::VlMapOptions::kFirstFit, 3, 4, r, ff, err));
  EXPECT_GT(ff.unplaced, 0);
  EXPECT_FALSE(x.run(vlmap::VlMapOptions::kBestFit, 3, 4, r, bf, err));
  EXPECT_GT(bf.unplaced, 0);
  EXPECT_LE(bf.unplaced, ff.unplaced);
  ASSERT_TRUE(x.run(vlmap::VlMapOptions::kRepair, 3, 4, r, rp, err)) << err;
  EXPECT_GT(rp.evictions, 0);
  EXPECT_EQ(rp.unplaced, 0);
  EXPECT_EQ(rp.paths, 64 * 63);
  EXPECT_LE(rp.sls_used, 3);
  check_tables(x, r, 3, 4);
}

TEST(VlmapRealize, RandomFabricsPassTheChecks) {
  struct Case {
    int n, d, hcas, sls, vls;
  };
  for (const Case c : {Case{32, 3, 2, 16, 8}, Case{48, 5, 1, 6, 4}, Case{40, 4, 3, 16, 3}}) {
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      AcroCase x(c.n, c.d, c.hcas, seed);
      if (x.layers > c.vls) continue;
      Routing r;
      vlmap::VlMapStats st;
      std::string err;
      ASSERT_TRUE(x.run(vlmap::VlMapOptions::kRepair, c.sls, c.vls, r, st, err))
          << c.n << "/" << c.d << ": " << err;
      EXPECT_GE(st.vls_used, x.layers);
      EXPECT_EQ(st.min_vls, x.layers);
      check_tables(x, r, c.sls, c.vls);
    }
  }
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

TEST(VlmapRealize, EndorsesAnotherRoutingsLfts) {
  // What `keiro acro --dumps` does: LFTs of a per-LID routing (minhop-like,
  // so the LIDs of one switch take different routes) are grouped into
  // destination trees, ACRO layers them, the realization makes them deadlock
  // free with the LFTs untouched.
  const Fabric f = fixtures::random_regular(32, 4, 5, {.hcas = 3});
  const Routing mh = fixtures::min_hop(f, fixtures::MinHop::kBalanced);
  EXPECT_NE(fixtures::credit_loop_problem(f, mh), "");  // as installed by minhop: SL 0, VL 0
  minimal::DestTrees t;
  std::string err;
  ASSERT_TRUE(minimal::trees_from_lfts(f, mh, t, err)) << err;
  EXPECT_GT(t.num_dests(), f.num_switches());  // some switches' LIDs are routed apart
  acro::AcroResult a;
  ASSERT_TRUE(acro::assign(f, t, {}, a, err)) << err;
  vlmap::VlDemand d;
  d.rank = a.rank;
  d.rank_rows = a.num_layers;
  Routing r;
  r.reset(f, Routing::SlScope::kPerSourceSwitch);
  minimal::write_lfts(f, t, r);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (uint16_t lid : f.lids()) ASSERT_EQ(r.out_port(s, lid), mh.out_port(s, lid));
  vlmap::VlMapOptions o;
  vlmap::VlMapStats st;
  ASSERT_TRUE(vlmap::realize(f, t, d, o, r, st, err)) << err;
  EXPECT_EQ(st.paths, static_cast<int64_t>(t.num_dests()) * (f.num_switches() - 1));
  EXPECT_EQ(st.vls_used, a.num_layers);
  const check::Result cr = check::verify(f, r);
  EXPECT_TRUE(cr.ok) << cr.first_problem;
  EXPECT_EQ(fixtures::credit_loop_problem(f, r), "");
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

// The per-destination DP (core/vlmap/dest_dp.h) by hand on the line case:
// destination 1 (root 4) demands VL 1 on the hop leaving switch 2, VL 0
// elsewhere; destination 0 (root 3) VL 0 everywhere.
TEST(VlmapDestDp, ServesATreeAndStopsAtConflictingEntries) {
  LineCase x;
  vlmap::TurnTable tt(x.f, 1, 0);
  vlmap::DestDp dp(x.f, x.t, x.d, tt);
  std::vector<int8_t> entries(tt.num_turns(), -1);
  std::vector<int8_t> sl(5, -1);
  int max_vl = 0;
  dp.load(1, 2);
  EXPECT_EQ(dp.serve(entries, sl, 0, max_vl), 4);
  EXPECT_EQ(max_vl, 1);
  for (int s : {0, 1, 2, 3}) EXPECT_EQ(sl[s], 0);
  // Source turns take the hop's VL; the turn at next(x) entered from x takes
  // the VL of the hop leaving next(x).
  const int8_t want_src[4] = {0, 0, 1, 0};
  for (int s = 0; s < 4; ++s) EXPECT_EQ(entries[dp.source_turn(s)], want_src[s]) << s;
  EXPECT_EQ(entries[dp.transit_turn(0)], 0);  // at 1, from 0
  EXPECT_EQ(entries[dp.transit_turn(1)], 1);  // at 2, from 1
  EXPECT_EQ(entries[dp.transit_turn(2)], 0);  // at 3, from 2
  EXPECT_EQ(dp.transit_turn(3), -1);          // 3 -> 4 enters the root
  int set = 0;
  for (int8_t e : entries) set += e >= 0;
  EXPECT_EQ(set, 7);

  // Destination 0 in the same SL: switches 0, 1 and 2 reach 3 over switch
  // 2's turns, which hold VL 1; only switch 4 (4 -> 3) can be served.
  std::vector<int8_t> sl0(5, -1);
  dp.load(0, 2);
  max_vl = 0;
  EXPECT_EQ(dp.serve(entries, sl0, 0, max_vl), 1);
  EXPECT_EQ(sl0[4], 0);
  for (int s : {0, 1, 2}) EXPECT_EQ(sl0[s], -1);
  EXPECT_EQ(entries[dp.source_turn(4)], 0);
  // A fresh SL serves the rest.
  std::vector<int8_t> other(tt.num_turns(), -1);
  EXPECT_EQ(dp.serve(other, sl0, 1, max_vl), 3);
  for (int s : {0, 1, 2}) EXPECT_EQ(sl0[s], 1);
  EXPECT_EQ(max_vl, 0);
}

TEST(VlmapDestDp, LabelOrderForcesADropOrARise) {
  // Line 0-1-2, destination 2. Channel order (one row): 0->1 ranks below
  // 1->2, so a path 0 -> 1 -> 2 cannot stay in one VL: the hop out of 0
  // must take a higher VL than the hop out of 1.
  const Fabric f = fixtures::hand_wired(3, {{0, 1, 1, 2}, {1, 1, 2, 2}});
  const minimal::DestTrees t = fixtures::trees_from_next_switch(f, {2}, {{1, 2, -1}});
  vlmap::VlDemand d;
  d.rank.assign(f.num_channels(), 0);
  const int32_t c01 = t.hop(0, 0), c12 = t.hop(0, 1);
  d.rank[c01] = 0;
  d.rank[c12] = 1;
  d.rank_rows = 1;
  vlmap::TurnTable tt(f, 1, 0);
  vlmap::DestDp dp(f, t, d, tt);
  std::vector<int8_t> entries(tt.num_turns(), -1), sl(3, -1);
  int max_vl = 0;
  dp.load(0, 1);  // one VL: switch 0 cannot be served
  EXPECT_EQ(dp.serve({}, sl, 0, max_vl), 1);
  EXPECT_EQ(sl[0], -1);
  EXPECT_EQ(sl[1], 0);
  std::fill(sl.begin(), sl.end(), -1);
  dp.load(0, 2);
  EXPECT_EQ(dp.serve(entries, sl, 0, max_vl), 2);
  EXPECT_EQ(entries[dp.source_turn(0)], 1);
  EXPECT_EQ(entries[dp.transit_turn(0)], 0);  // at 1, from 0
  EXPECT_EQ(entries[dp.source_turn(1)], 0);
  // With the entry at 1 (from 0) already at VL 1, the hop out of 0 has no
  // VL above it within 2 VLs: switch 0 is left for another SL.
  std::vector<int8_t> high(tt.num_turns(), -1);
  high[dp.transit_turn(0)] = 1;
  std::fill(sl.begin(), sl.end(), -1);
  EXPECT_EQ(dp.serve(high, sl, 0, max_vl), 1);
  EXPECT_EQ(sl[0], -1);
}

// Ring 0 -> 1 -> 2 -> 3 -> 0 (clockwise channels only are used), one
// channel order: c01 = 3, c12 = 1, c23 = 2, c30 = 0. A VL may stay across
// the turn at 1 (c01 -> c12: 3 > 1) and at 3 (c23 -> c30: 2 > 0), not across
// the turn at 2 (1 < 2) or at 0 (0 < 3). Destinations: root 2 (sources 1, 0,
// 3), root 0 (source 1 over 2 and 3), root 3 (source 0 over 1 and 2).
struct RingLevels {
  Fabric f = fixtures::hand_wired(4, {{0, 1, 1, 2}, {1, 1, 2, 2}, {2, 1, 3, 2}, {3, 1, 0, 2}});
  minimal::DestTrees t =
      fixtures::trees_from_next_switch(f, {2, 0, 3}, {{1, 2, -1, 0}, {-1, 2, 3, 0}, {1, 2, 3, -1}});
  int32_t c01 = fixtures::channel_between(f, 0, 1), c12 = fixtures::channel_between(f, 1, 2),
          c23 = fixtures::channel_between(f, 2, 3), c30 = fixtures::channel_between(f, 3, 0);
  vlmap::VlDemand d;
  vlmap::TurnTable tt{f, 1, 0};
  RingLevels() {
    d.rank.assign(f.num_channels(), 0);
    d.rank[c01] = 3;
    d.rank[c12] = 1;
    d.rank[c23] = 2;
    d.rank[c30] = 0;
    d.rank_rows = 1;
  }
  // Destinations 0 and 1 as above, all in SL 0.
  void first_two(vlmap::TurnLevels &lv) {
    std::vector<uint64_t> in(4, 0);
    lv.load(t, 0);
    for (int32_t s : {1, 0, 3}) EXPECT_TRUE(lv.add_source(0, s, in)) << s;
    EXPECT_EQ(in, (std::vector<uint64_t>{1, 1, 0, 1}));
    std::vector<uint64_t> in1(4, 0);
    lv.load(t, 1);
    EXPECT_TRUE(lv.add_source(0, 1, in1));
    EXPECT_EQ(in1, (std::vector<uint64_t>{0, 1, 1, 1}));
  }
};

TEST(VlmapTurnLevels, LaterPathsRaiseEarlierTurns) {
  RingLevels x;
  vlmap::TurnLevels lv(x.f, x.tt, x.d, 2, 2);
  x.first_two(lv);
  // Root 2: 3 -> 0 -> 1 -> 2 needs one drop, at the turn at 0.
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c30)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c30, x.c01)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c01, x.c12)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c01)), 0);
  // Root 0's path 1 -> 2 -> 3 -> 0 drops at the turn at 2: it raised the
  // source turn at 1 that root 2's path from 1 had set to 0 (fixed entries
  // could not have taken it).
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c12)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c12, x.c23)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c23, x.c30)), 0);
  EXPECT_EQ(lv.level(1, x.tt.turn(-1, x.c12)), -1);  // SL 1 untouched
  // Root 3's path 0 -> 1 -> 2 -> 3 would raise the turn at 1 to 1, hence
  // the source turn at 0 and the turn at 0 to 1 (arcs of root 2) and the
  // source turn at 3 to 2: beyond 2 VLs, so it fails and nothing changes.
  std::vector<uint64_t> in(4, 0);
  lv.load(x.t, 2);
  EXPECT_FALSE(lv.add_source(0, 0, in));
  EXPECT_EQ(in, std::vector<uint64_t>(4, 0));
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c01, x.c12)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c01)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c30, x.c01)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c30)), 1);
  // SL 1 takes it: its own drop at the turn at 2 only.
  EXPECT_TRUE(lv.add_source(1, 0, in));
  EXPECT_EQ(lv.level(1, x.tt.turn(-1, x.c01)), 1);
  EXPECT_EQ(lv.level(1, x.tt.turn(x.c01, x.c12)), 1);
  EXPECT_EQ(lv.level(1, x.tt.turn(x.c12, x.c23)), 0);
}

TEST(VlmapTurnLevels, RaisesPropagateOverThePresentArcs) {
  RingLevels x;
  vlmap::TurnLevels lv(x.f, x.tt, x.d, 3, 1);
  x.first_two(lv);
  std::vector<uint64_t> in(4, 0);
  lv.load(x.t, 2);
  EXPECT_TRUE(lv.add_source(0, 0, in));
  EXPECT_EQ(in, (std::vector<uint64_t>{1, 1, 1, 0}));
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c12, x.c23)), 0);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c01, x.c12)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c01)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c30, x.c01)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c30)), 2);
  // Not on an arc into the raised turns: unchanged.
  EXPECT_EQ(lv.level(0, x.tt.turn(-1, x.c12)), 1);
  EXPECT_EQ(lv.level(0, x.tt.turn(x.c23, x.c30)), 0);
}

vlmap::VlMapOptions tree_only(int sls, int vls, int threads = 1) {
  vlmap::VlMapOptions o;
  o.method = vlmap::VlMapOptions::kTree;
  o.small_paths = 0;  // the tree method alone
  o.max_sls = sls;
  o.max_vls = vls;
  o.threads = threads;
  return o;
}

TEST(VlmapTree, TooFewSlsSaysWhatItNeeds) {
  LineCase x;
  Routing r;
  vlmap::VlMapStats st;
  std::string err;
  EXPECT_FALSE(realize_case(x, tree_only(1, 2), r, st, err));
  EXPECT_NE(err.find("got no SL with 1 SLs and 2 VLs"), std::string::npos) << err;
  EXPECT_NE(err.find("they need 2 SLs with 2 VLs"), std::string::npos) << err;
  EXPECT_EQ(st.needed_sls, 2);
  EXPECT_GT(st.unplaced, 0);
  // The default (small fabric: both methods) fails with the same line.
  vlmap::VlMapOptions both = tree_only(1, 2);
  both.small_paths = 300000;
  EXPECT_FALSE(vlmap::realize(x.f, x.t, x.d, both, r, st, err));
  EXPECT_NE(err.find("they need 2 SLs with 2 VLs"), std::string::npos) << err;

  ASSERT_TRUE(vlmap::realize(x.f, x.t, x.d, tree_only(2, 2), r, st, err)) << err;
  EXPECT_EQ(st.sls_used, 2);
  EXPECT_EQ(st.vls_used, 2);
  const uint16_t lid3 = x.f.terminal(3).lid, lid4 = x.f.terminal(4).lid;
  for (int src : {0, 1, 2}) EXPECT_NE(r.path_sl(src, lid3), r.path_sl(src, lid4));
}

TEST(VlmapTree, TooFewVlsSaysHowMany) {
  LineCase x;
  Routing r;
  vlmap::VlMapStats st;
  std::string err;
  EXPECT_FALSE(realize_case(x, tree_only(16, 1), r, st, err));
  EXPECT_EQ(st.unplaceable, 3);
  EXPECT_EQ(st.needed_vls, 2);
  EXPECT_NE(err.find("within 1 VLs (they need 2 VLs)"), std::string::npos) << err;
}

TEST(VlmapTree, RandomFabricsPassTheChecks) {
  struct Case {
    int n, d, hcas, sls, vls;
  };
  int levels_won = 0;
  for (const Case c : {Case{32, 3, 2, 16, 8}, Case{48, 5, 1, 6, 4}, Case{64, 4, 2, 16, 8}}) {
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      AcroCase x(c.n, c.d, c.hcas, seed);
      if (x.layers > c.vls) continue;
      Routing r;
      r.reset(x.f, Routing::SlScope::kPerSourceSwitch);
      minimal::write_lfts(x.f, x.t, r);
      vlmap::VlMapStats st;
      std::string err;
      ASSERT_TRUE(vlmap::realize(x.f, x.t, x.d, tree_only(c.sls, c.vls), r, st, err))
          << c.n << "/" << c.d << ": " << err;
      EXPECT_FALSE(st.by_paths);
      levels_won += st.by_levels;
      EXPECT_EQ(st.min_vls, x.layers);
      EXPECT_GE(st.vls_used, x.layers);
      EXPECT_LE(st.sls_used, c.sls);
      check_tables(x, r, c.sls, c.vls);
    }
  }
  // The late-levels run gives fewer SLs on most of them (the tables above
  // are its own then): 5 of these 6 on 2026-11-24.
  EXPECT_GE(levels_won, 3);
}

// Budgets just below and at what a fabric needs: a run that succeeds stays
// within its SL budget (its tables pass the checks), and one that fails
// counts its paths without an SL below the budget. Pins the counting of the
// late-levels run, whose sources may first try SLs beyond the budget.
TEST(VlmapTree, TightSlBudgetsFitOrCountTheirLeftovers) {
  int failures = 0, fits = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    AcroCase x(48, 5, 1, seed);
    for (int vls = x.layers; vls <= x.layers + 1; ++vls)
      for (int sls = 1; sls <= 6; ++sls) {
        Routing r;
        r.reset(x.f, Routing::SlScope::kPerSourceSwitch);
        minimal::write_lfts(x.f, x.t, r);
        vlmap::VlMapStats st;
        std::string err;
        if (vlmap::realize(x.f, x.t, x.d, tree_only(sls, vls), r, st, err)) {
          ++fits;
          EXPECT_LE(st.sls_used, sls);
          check_tables(x, r, sls, vls);
          continue;
        }
        ++failures;
        EXPECT_GT(st.unplaced, 0) << err;
        EXPECT_LT(st.unplaced, st.paths) << err;
        EXPECT_NE(err.find(std::to_string(st.unplaced) + " of " + std::to_string(st.paths)),
                  std::string::npos)
            << err;
        // The budget of the best run at max_vls is above this one.
        if (st.needed_sls) {
          EXPECT_GT(st.needed_sls, sls) << err;
        }
      }
  }
  EXPECT_GT(failures, 0);
  EXPECT_GT(fits, 0);
}

TEST(VlmapTree, SameTablesForEveryThreadCount) {
  AcroCase x(96, 4, 2, 3);
  auto tables = [&](int threads) {
    Routing r;
    r.reset(x.f, Routing::SlScope::kPerSourceSwitch);
    minimal::write_lfts(x.f, x.t, r);
    vlmap::VlMapStats st;
    std::string err;
    EXPECT_TRUE(vlmap::realize(x.f, x.t, x.d, tree_only(16, 8, threads), r, st, err)) << err;
    std::vector<uint8_t> all;
    for (int32_t s = 0; s < x.f.num_switches(); ++s) {
      for (uint16_t lid : x.f.lids()) all.push_back(r.path_sl(s, lid));
      for (unsigned in = 0; in <= r.switch_ports(s); ++in)
        for (unsigned out = 0; out <= r.switch_ports(s); ++out)
          for (unsigned q = 0; q < kNumSls; ++q)
            all.push_back(r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out),
                               static_cast<uint8_t>(q)));
    }
    return all;
  };
  const std::vector<uint8_t> one = tables(1);
  EXPECT_EQ(tables(2), one);
  EXPECT_EQ(tables(3), one);
}

}  // namespace
}  // namespace keiro
