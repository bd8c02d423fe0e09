// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl on a 2-level fat tree (issue 14): the default root is a leaf
// (the most central switch is a spine), and the per-LID path selection
// balances the links exactly as well as d-mod-k, with one VL and with the
// default VL budget. With LMC 1 the two LIDs of every CA leave every other
// leaf on different up-links. Expected loads are counted by hand below; the
// loads of the routing are counted here by walking the LFTs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/dl/dl.h"
#include "core/dl/engine.h"
#include "core/dl/updown.h"
#include "core/fabric.h"
#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/net_list.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

template <class Run>
const dl::EngineResult &dl_of(const Run &run) {
  return fixtures::result_of<dl::EngineResult>(run);
}

// 4 leaves L0..L3 (switches 0..3), 3 spines P0..P2 (switches 4..6), every
// leaf linked to every spine (leaf port 4 + p to spine port 1 + leaf); 3 CAs
// per leaf on ports 1..3, none on the spines.
constexpr int kLeaves = 4, kSpines = 3, kHcas = 3;

Fabric two_level(uint8_t lmc) {
  Fabric f;
  for (int i = 0; i < kLeaves + kSpines; ++i) {
    SwitchInfo s;
    s.guid = 0x1000 + static_cast<uint64_t>(i);
    s.name = (i < kLeaves ? "L" : "P") + std::to_string(i < kLeaves ? i : i - kLeaves);
    s.num_ports = 8;
    f.add_switch(s);
  }
  for (int l = 0; l < kLeaves; ++l)
    for (int h = 0; h < kHcas; ++h) {
      TerminalInfo t;
      t.node_guid = 0x100000 + 2 * static_cast<uint64_t>(l * kHcas + h);
      t.port_guid = t.node_guid + 1;
      t.name = "H" + std::to_string(l) + "-" + std::to_string(h);
      t.sw = l;
      t.sw_port = static_cast<uint8_t>(1 + h);
      f.add_terminal(t);
    }
  for (int l = 0; l < kLeaves; ++l)
    for (int p = 0; p < kSpines; ++p)
      f.add_link(l, static_cast<uint8_t>(4 + p), kLeaves + p, static_cast<uint8_t>(1 + l));
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

// Routes per directed switch-to-switch link over every (source CA,
// destination CA base LID) pair on different leaves, walking the LFTs.
std::map<std::pair<int32_t, int32_t>, int64_t> link_loads(const Fabric &f, const Routing &r) {
  std::map<std::pair<int32_t, int32_t>, int64_t> load;
  for (int32_t a = 0; a < f.num_terminals(); ++a)
    for (int32_t b = 0; b < f.num_terminals(); ++b) {
      const TerminalInfo &src = f.terminal(a), &dst = f.terminal(b);
      if (src.sw == dst.sw) continue;
      int32_t s = src.sw;
      for (int hops = 0; s != dst.sw; ++hops) {
        EXPECT_LT(hops, 2) << src.name << " -> " << dst.name;
        if (hops >= 2) break;
        const PortPeer p = f.peer(s, r.out_port(s, dst.lid));
        EXPECT_EQ(p.kind, PortPeer::kSwitch);
        if (p.kind != PortPeer::kSwitch) break;
        const int32_t t = f.channel(p.id).dst;
        ++load[{s, t}];
        s = t;
      }
    }
  return load;
}

// Perfect balance, by hand: a leaf's 3 CAs send to the 9 CAs of the other
// three leaves, 27 routes per leaf, 9 on each of its 3 up-links; a leaf
// receives 27 routes (9 sources x 3 CAs), 9 on each of its 3 down-links.
// Every one of the 2 * 4 * 3 = 24 directed links carries exactly 9.
constexpr int64_t kPerLink = kHcas * (kLeaves - 1) * kHcas / kSpines;
static_assert(kPerLink == 9);

TEST(DlFatTree, RootIsALeafNotTheMostCentralSpine) {
  const Fabric f = two_level(0);
  // Closeness by hand: a leaf has 3 spines at 1 and 3 leaves at 2 (9), a
  // spine 4 leaves at 1 and 2 spines at 2 (8).
  EXPECT_GE(dl::central_root(f), kLeaves);
  EXPECT_LT(dl::default_root(f), kLeaves);
}

// The two-level tree's tests, with 1 VL and with 8 (GetParam()).
class DlFatTreeVls : public ::testing::TestWithParam<int> {
 protected:
  // keiro-dl on f with GetParam() VLs.
  fixtures::EngineRun run_dl(const Fabric &f) {
    return fixtures::run_captured(f, "dl", {.max_vls = GetParam()});
  }
};
INSTANTIATE_TEST_SUITE_P(Vls, DlFatTreeVls, ::testing::Values(1, 8));

TEST_P(DlFatTreeVls, PerLidSpreadingIsPerfect) {
  const Fabric f = two_level(0);
  const fixtures::EngineRun run = run_dl(f);
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(f.sw(dl_of(run).root).name.rfind("L", 0), 0u) << f.describe(dl_of(run).root);
  EXPECT_EQ(dl_of(run).vls_used, 1);
  const auto load = link_loads(f, run.out);
  EXPECT_EQ(load.size(), static_cast<size_t>(2 * kLeaves * kSpines));
  for (const auto &[link, n] : load)
    EXPECT_EQ(n, kPerLink) << f.sw(link.first).name << " -> " << f.sw(link.second).name;
  EXPECT_EQ(dl_of(run).max_efi, kPerLink);
}

// LMC 1: the two LIDs of a CA take different up-links from every other leaf
// (there are three), and the base LIDs stay perfectly balanced.
TEST_P(DlFatTreeVls, LmcOffsetsTakeDifferentUplinks) {
  const Fabric f = two_level(1);
  const fixtures::EngineRun run = run_dl(f);
  ASSERT_TRUE(run.ok) << run.last_line();
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ca = f.terminal(t);
    ASSERT_EQ(ca.lmc, 1);
    for (int32_t l = 0; l < kLeaves; ++l) {
      if (l == ca.sw) continue;
      const uint8_t p0 = run.out.out_port(l, ca.lid), p1 = run.out.out_port(l, ca.lid + 1);
      EXPECT_GE(p0, 4);
      EXPECT_GE(p1, 4);
      EXPECT_NE(p0, p1) << ca.name << " from " << f.sw(l).name;
    }
  }
  for (const auto &[link, n] : link_loads(f, run.out))
    EXPECT_EQ(n, kPerLink) << f.sw(link.first).name << " -> " << f.sw(link.second).name;
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

// keiro topo fattree 4 3 (16 leaves of 4 CAs, 16 middle, 16 top switches),
// 4 VLs: the CAs' trees stay in sub-network 0 from the leaf root and are
// spread per LID on SL 0 with VL 0; the middle and top switches' own LIDs
// need sub-network 1 for their minimal switch-to-switch paths and go to the
// realization on SLs 1.. By hand, perfect balance: a leaf's 4 CAs send to
// the 60 others over 4 up-links (60 each, and 60 on each down-link into a
// leaf); a middle switch carries its pod's 16 CAs to the 48 outside over 4
// top links (48 each). Max 60.
TEST(DlFatTree, ThreeLevelsSpreadOnSlZeroOthersRealized) {
  const topo::GenFabric g = topo::gen_fat_tree(4, 3, topo::TopoOptions{});
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(topo::write_net(g), "fattree-4-3", f, err)) << err;
  // dl_subnets=4: with dl_subnets 0 one layer is taken here (see below).
  // spread_sls=0: the SLs as DL placed them (spare SLs, core/pipeline/sl_spread.h,
  // would move CA paths to copies of SL 0).
  const fixtures::EngineRun run =
      fixtures::run_captured(f, "dl", {.opts = "dl_subnets=4 spread_sls=0", .max_vls = 4});
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_FALSE(dl_of(run).one_layer);
  EXPECT_EQ(dl_of(run).layers_needed, 2);
  // Within 10% of the perfect 60 (issue 14's bound against d-mod-k;
  // measured 64: the greedy does not reach d-mod-k's exact pattern here).
  EXPECT_LE(dl_of(run).max_efi, 66);
  EXPECT_GE(dl_of(run).sls_used, 2);
  EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (int32_t t = 0; t < f.num_terminals(); ++t) {
      const uint16_t lid = f.terminal(t).lid;
      EXPECT_EQ(run.out.path_sl(s, lid), 0) << f.sw(s).name << " -> " << f.terminal(t).name;
    }
  // SL 0 is VL 0 on every switch-to-switch hop (from a CA, the switch itself
  // or another switch).
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
      const uint8_t out = f.channel(c).src_port;
      EXPECT_EQ(run.out.vl(s, 0, out, 0), 0);
      for (int32_t t : f.terminals_of(s))
        EXPECT_EQ(run.out.vl(s, f.terminal(t).sw_port, out, 0), 0);
      for (int32_t in : f.in_channels(s))
        EXPECT_EQ(run.out.vl(s, f.channel(in).dst_port, out, 0), 0);
    }
  bool upper = false;  // some switch LID's path uses an SL above 0
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (int32_t d = 0; d < f.num_switches(); ++d)
      upper = upper || run.out.path_sl(s, f.sw(d).lid) > 0;
  EXPECT_TRUE(upper);
}

// dl_subnets 0 (the default): one sub-network gives every CA route of the
// 4-ary 3-tree the hops of 4 (all minimal from the leaf root), so keiro-dl
// takes one layer -- one VL, every CA LID spread -- and only the middle and
// top switches' own routes get longer. The same with 2% of the links failed
// (a degraded fat tree keeps its CA routes minimal from a leaf). Max EFI at
// most 10% above the perfect 60 (64 measured; the intact tree's CA routes
// are those of dl_subnets=4 above).
TEST(DlFatTree, DefaultBudgetTakesOneLayerWhenItIsAsShort) {
  for (const double fail : {0.0, 0.02}) {
    SCOPED_TRACE("failed links " + std::to_string(fail));
    topo::TopoOptions o;
    topo::GenFabric g = topo::gen_fat_tree(4, 3, o);
    if (fail > 0) topo::fail_links(g, fail, 1);
    Fabric f;
    std::string err;
    ASSERT_TRUE(io::parse_topology(topo::write_net(g), "fattree-4-3", f, err)) << err;
    const fixtures::EngineRun run = fixtures::run_captured(f, "dl", {.max_vls = 8});
    ASSERT_TRUE(run.ok) << run.last_line();
    EXPECT_TRUE(dl_of(run).one_layer);
    EXPECT_EQ(dl_of(run).options.dl.layers, 1);
    EXPECT_EQ(dl_of(run).vls_used, 1);
    EXPECT_EQ(run.out.vls_used, 1);
    EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
    const fixtures::RouteCheck c = fixtures::check_routes(f, run.out);
    EXPECT_TRUE(c.ok) << c.problem;
    if (fail == 0) {
      EXPECT_LE(dl_of(run).max_efi, 66);
    }
    // The same CA hops as with 8 sub-networks.
    const fixtures::EngineRun eight =
        fixtures::run_captured(f, "dl", {.opts = "dl_subnets=8", .max_vls = 8});
    ASSERT_TRUE(eight.ok) << eight.last_line();
    EXPECT_FALSE(dl_of(eight).one_layer);
    EXPECT_EQ(dl_of(run).avg_hops, dl_of(eight).avg_hops);
    EXPECT_GT(dl_of(eight).vls_used, 1);
  }
}

}  // namespace
}  // namespace keiro
