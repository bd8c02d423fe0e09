// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Multicast: the flood check on hand-made masks, a hand-built case where a
// tree plus unicast closes a credit loop that keiro's trees avoid, the
// default OpenSM-style tree (union of unicast paths from a root) looping on
// keiro-nue's torus tables, and keiro's trees on every engine's tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/io/mcast_dump.h"
#include "core/io/topology_file.h"
#include "core/mcast/check.h"
#include "core/mcast/trees.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/net_list.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

using mcast::Group;
using mcast::SwitchMask;
using mcast::Tree;

uint16_t lid_of_terminal(const Fabric &f, int32_t t) {
  return f.terminal(t).lid;
}

// Routes every LID of f at every switch along next[s][target switch].
Routing route_by_next(const Fabric &f, const std::vector<std::vector<int32_t>> &next) {
  Routing r;
  r.reset(f);
  for (uint16_t lid : f.lids()) {
    const int32_t t = f.lid_switch(lid);
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      if (s == t) {
        const LidOwner o = f.lid_owner(lid);
        r.set_out_port(s, lid, o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0);
        continue;
      }
      const int32_t c = fixtures::channel_between(f, s, next[s][t]);
      r.set_out_port(s, lid, f.channel(c).src_port);
    }
  }
  return r;
}

Group all_cas(const Fabric &f, uint16_t mlid = 0xC000) {
  Group g;
  g.mlid = mlid;
  g.terminals.resize(f.num_terminals());
  std::iota(g.terminals.begin(), g.terminals.end(), 0);
  return g;
}

// Masks of a tree over the switches given as links (a, b), plus each
// member CA's port.
Tree tree_of_links(const Fabric &f, const Group &g, const std::vector<std::pair<int, int>> &links) {
  Tree t;
  t.mlid = g.mlid;
  std::vector<mcast::PortMask> m(f.num_switches());
  std::vector<char> used(f.num_switches(), 0);
  for (auto [a, b] : links) {
    const int32_t c = fixtures::channel_between(f, a, b);
    m[a].set(f.channel(c).src_port);
    m[b].set(f.channel(c).dst_port);
    used[a] = used[b] = 1;
  }
  for (int32_t x : g.terminals) {
    m[f.terminal(x).sw].set(f.terminal(x).sw_port);
    used[f.terminal(x).sw] = 1;
  }
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (used[s]) t.masks.push_back(SwitchMask{s, m[s]});
  return t;
}

// A 4-ring 0-1-2-3-0, one CA each. Unicast: neighbours directly; 0 <-> 2
// through 1; 1 <-> 3 through 2; but 2 -> 0 through 3 (and 0 -> 2 through 1).
// One VL. Its dependencies: 01->12, 12->23, 23->30, 32->21: a chain
// 01 -> 12 -> 23 -> 30 that only a turn 30 -> 01 at switch 0 closes, and no
// unicast path makes it.
struct RingCase {
  Fabric f = fixtures::ca_ring(4);
  Routing r;
  RingCase() {
    std::vector<std::vector<int32_t>> next = {
        {0, 1, 1, 3},  // from 0: to 2 through 1
        {0, 1, 2, 2},  // from 1: to 3 through 2
        {3, 1, 2, 3},  // from 2: to 0 through 3
        {0, 2, 2, 3},  // from 3: to 1 through 2
    };
    r = route_by_next(f, next);
  }
};

TEST(McastFlood, PathTreeReachesEveryMemberOnce) {
  RingCase rc;
  const Group g = all_cas(rc.f);
  const Tree t = tree_of_links(rc.f, g, {{0, 1}, {1, 2}, {2, 3}});
  std::vector<check::ExtraDependency> deps;
  const mcast::GroupVerdict v = mcast::flood(rc.f, rc.r, g, t, {}, &deps);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_FALSE(v.loop);
  EXPECT_EQ(v.unreached, 0);
  EXPECT_EQ(v.depth, 3);
  // Turns at 1 and 2, both ways: 01->12, 21->10, 12->23, 32->21.
  EXPECT_EQ(deps.size(), 4u);
}

TEST(McastFlood, RingMasksLoop) {
  RingCase rc;
  const Group g = all_cas(rc.f);
  const Tree t = tree_of_links(rc.f, g, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  const mcast::GroupVerdict v = mcast::flood(rc.f, rc.r, g, t, {}, nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(v.loop);
  EXPECT_NE(v.problem.find("forwarding loop"), std::string::npos) << v.problem;
}

TEST(McastFlood, MissingBranchAndNonMember) {
  RingCase rc;
  Group g = all_cas(rc.f);
  // Switch 3 left out of the masks: the CAs on 0, 1 and 2 each miss the
  // one on 3, and its copies reach none of the three.
  Tree t = tree_of_links(rc.f, g, {{0, 1}, {1, 2}});
  t.masks.pop_back();  // switch 3's entry (its CA's port)
  mcast::GroupVerdict v = mcast::flood(rc.f, rc.r, g, t, {}, nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.unreached, 6);
  // With CA 3 not a member but its port in the mask: a non-member reached.
  g.terminals = {0, 1, 2};
  t = tree_of_links(rc.f, g, {{0, 1}, {1, 2}, {2, 3}});
  t.masks.back().ports.set(rc.f.terminal(3).sw_port);
  v = mcast::flood(rc.f, rc.r, g, t, {}, nullptr);
  EXPECT_EQ(v.non_members, 3);
  EXPECT_EQ(v.unreached, 0);
  // Unknown membership: the mask's CA ports are the members.
  v = mcast::flood(rc.f, rc.r, g, t, {.members_known = false}, nullptr);
  EXPECT_TRUE(v.ok) << v.problem;
}

TEST(McastFlood, Vl15DropsTheGroupsCopies) {
  RingCase rc;
  const Group g = all_cas(rc.f);
  const Tree t = tree_of_links(rc.f, g, {{0, 1}, {1, 2}, {2, 3}});
  const int32_t c12 = fixtures::channel_between(rc.f, 1, 2);
  const int32_t c01 = fixtures::channel_between(rc.f, 0, 1);
  rc.r.set_vl(1, rc.f.channel(c01).dst_port, rc.f.channel(c12).src_port, 0, kDropVl);
  const mcast::GroupVerdict v = mcast::flood(rc.f, rc.r, g, t, {}, nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_GT(v.drops, 0);
  EXPECT_GT(v.unreached, 0);
}

TEST(McastCheck, TreeTurnClosesACreditLoopWithUnicast) {
  RingCase rc;
  ASSERT_TRUE(check::verify(rc.f, rc.r).ok);
  const Group g = all_cas(rc.f);
  // Loop-free tree 3-0-1-2: its turn 30 -> 01 at switch 0 closes the chain.
  const Tree bad = tree_of_links(rc.f, g, {{3, 0}, {0, 1}, {1, 2}});
  mcast::Result res = mcast::verify(rc.f, rc.r, {g}, {bad}, {});
  EXPECT_EQ(res.groups_ok, 1);  // the tree itself is fine
  EXPECT_FALSE(res.ok);
  EXPECT_TRUE(res.combined.credit_loop);
  EXPECT_TRUE(res.combined.cycle_uses_extra);
  EXPECT_EQ(res.combined.cycle.size(), 4u);
  bool named = false;
  for (const check::CycleDependency &d : res.combined.cycle_deps)
    for (const std::string &e : d.examples) named |= e.find("multicast MLID 0xC000") == 0;
  EXPECT_TRUE(named);
  // The path tree 0-1-2-3 makes no such turn.
  const Tree good = tree_of_links(rc.f, g, {{0, 1}, {1, 2}, {2, 3}});
  res = mcast::verify(rc.f, rc.r, {g}, {good}, {});
  EXPECT_TRUE(res.ok) << (res.problems.empty() ? res.combined.first_problem : res.problems[0]);
}

TEST(McastRouter, AvoidsTheTurnThatClosesTheLoop) {
  RingCase rc;
  std::string err;
  auto router = mcast::Router::create(rc.f, rc.r, {}, err);
  ASSERT_TRUE(router) << err;
  EXPECT_EQ(router->unicast_dependencies(), 4);
  const Group g = all_cas(rc.f);
  Tree t;
  ASSERT_TRUE(router->build(g, t, err)) << err;
  const mcast::Result res = mcast::verify(rc.f, rc.r, {g}, {t}, {});
  EXPECT_TRUE(res.ok) << res.combined.first_problem;
  // Switch 0 never turns 3 -> 1 or 1 -> 3: its mask holds one switch link.
  const mcast::PortMask *m0 = t.mask_of(0);
  ASSERT_NE(m0, nullptr);
  EXPECT_FALSE((*m0)[rc.f.channel(fixtures::channel_between(rc.f, 0, 1)).src_port] &&
               (*m0)[rc.f.channel(fixtures::channel_between(rc.f, 0, 3)).src_port]);
  EXPECT_TRUE(router->acyclic());
  // The structure's dependencies are the flood's.
  std::vector<check::ExtraDependency> deps;
  mcast::flood(rc.f, rc.r, g, t, {}, &deps);
  std::vector<uint64_t> flood_keys;
  for (const auto &d : deps)
    flood_keys.push_back(static_cast<uint64_t>(check::dependency_node(d.from_channel, d.from_vl))
                             << 32 |
                         static_cast<uint64_t>(check::dependency_node(d.to_channel, d.to_vl)));
  std::sort(flood_keys.begin(), flood_keys.end());
  EXPECT_EQ(flood_keys, mcast::tree_dependency_keys(rc.f, rc.r, t, g));
}

TEST(McastRouter, OneSwitchAndEmptyGroups) {
  RingCase rc;
  std::string err;
  auto router = mcast::Router::create(rc.f, rc.r, {}, err);
  ASSERT_TRUE(router);
  Group g;
  g.mlid = 0xC005;
  g.terminals = {2};
  Tree t;
  ASSERT_TRUE(router->build(g, t, err));
  ASSERT_EQ(t.masks.size(), 1u);
  EXPECT_EQ(t.masks[0].sw, 2);
  g.terminals.clear();
  ASSERT_TRUE(router->build(g, t, err));
  EXPECT_TRUE(t.masks.empty());
}

// OpenSM's builder with keiro's hop rows follows the LFT port from the root
// to every member switch: the union of the root's unicast paths.
Tree union_of_paths(const Fabric &f, const Routing &r, const Group &g, int32_t root) {
  std::vector<mcast::PortMask> m(f.num_switches());
  std::vector<char> used(f.num_switches(), 0);
  used[root] = 1;
  for (int32_t x : g.terminals) {
    const uint16_t lid = lid_of_terminal(f, x);
    for (int32_t s = root; s != f.terminal(x).sw;) {
      const uint8_t p = r.out_port(s, lid);
      const Channel &ch = f.channel(f.peer(s, p).id);
      m[s].set(p);
      m[ch.dst].set(ch.dst_port);
      used[ch.dst] = 1;
      s = ch.dst;
    }
    m[f.terminal(x).sw].set(f.terminal(x).sw_port);
    used[f.terminal(x).sw] = 1;
  }
  Tree t;
  t.mlid = g.mlid;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (used[s]) t.masks.push_back(SwitchMask{s, m[s]});
  return t;
}

TEST(McastCheck, UnionOfUnicastPathsLoopsOnKeiroNueTorus) {
  const Fabric f = fixtures::generated_torus({4, 4, 4}, 2);
  fixtures::EngineRun run = fixtures::run_captured(f, "nue");
  ASSERT_TRUE(run.ok) << run.last_line();
  const Group g = all_cas(f);
  int loops = 0;
  for (int32_t root = 0; root < f.num_switches(); ++root)
    loops += mcast::flood(f, run.out, g, union_of_paths(f, run.out, g, root), {}, nullptr).loop;
  EXPECT_GT(loops, f.num_switches() / 2) << "the defect the issue measured";
}

struct EngineCase {
  std::string engine;
  std::string fabric;
  std::string opts = "";  // event_plugin_options
  int sl = 0;             // the groups' SL; 15: with max_sls 15 (SL 15 free of unicast)
};

class McastEngines : public ::testing::TestWithParam<EngineCase> {};

Fabric fabric_named(const std::string &name) {
  if (name == "torus") return fixtures::generated_torus({4, 4, 4}, 2);
  return fixtures::random_regular(64, 4, 3, {.hcas = 2});
}

std::vector<Group> survey_groups(const Fabric &f, uint64_t seed, int sl) {
  std::vector<Group> gs = {all_cas(f)};
  gs[0].sl_mask = static_cast<uint16_t>(1u << sl);
  std::mt19937_64 rng(seed);
  for (int i = 1; i <= 4; ++i) {
    Group g;
    g.mlid = static_cast<uint16_t>(0xC000 + i);
    g.sl_mask = static_cast<uint16_t>(1u << sl);
    std::vector<int32_t> all(f.num_terminals());
    std::iota(all.begin(), all.end(), 0);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(8 + rng() % 9);
    std::sort(all.begin(), all.end());
    g.terminals = all;
    gs.push_back(g);
  }
  return gs;
}

TEST_P(McastEngines, TreesAreLoopFreeAndDeadlockFreeWithUnicast) {
  const Fabric f = fabric_named(GetParam().fabric);
  fixtures::EngineRun run = fixtures::run_captured(
      f, GetParam().engine, {.opts = GetParam().opts, .max_sls = GetParam().sl ? 15 : 16});
  ASSERT_TRUE(run.ok) << run.last_line();
  std::string err;
  auto router = mcast::Router::create(f, run.out, {}, err);
  ASSERT_TRUE(router) << err;
  const std::vector<Group> groups = survey_groups(f, 7, GetParam().sl);
  std::vector<Tree> trees;
  for (const Group &g : groups) {
    Tree t;
    ASSERT_TRUE(router->build(g, t, err)) << err;
    trees.push_back(t);
  }
  EXPECT_TRUE(router->acyclic());
  const mcast::Result res = mcast::verify(f, run.out, groups, trees, {});
  EXPECT_EQ(res.groups_ok, 5);
  EXPECT_EQ(res.loops, 0);
  EXPECT_FALSE(res.combined.credit_loop) << res.combined.first_problem;
  EXPECT_TRUE(res.ok);
  // Leaves and joins: dropping every tree frees its links and the
  // dependencies only it made (the master trees' stay); building them again
  // gives the same trees.
  const int64_t deps = router->multicast_dependencies();
  for (const Group &g : groups) router->remove(g.mlid);
  for (int32_t c = 0; c < f.num_channels(); ++c) ASSERT_EQ(router->channel_load(c), 0);
  EXPECT_LE(router->multicast_dependencies(), deps);
  for (size_t i = 0; i < groups.size(); ++i) {
    Tree t;
    ASSERT_TRUE(router->build(groups[i], t, err)) << err;
    EXPECT_EQ(t.root, trees[i].root);
    ASSERT_EQ(t.masks.size(), trees[i].masks.size());
    for (size_t j = 0; j < t.masks.size(); ++j)
      EXPECT_EQ(t.masks[j].ports, trees[i].masks[j].ports);
  }
  EXPECT_EQ(router->multicast_dependencies(), deps);
  EXPECT_TRUE(router->acyclic());
}

INSTANTIATE_TEST_SUITE_P(Fabrics, McastEngines,
                         ::testing::Values(EngineCase{"nue", "torus"}, EngineCase{"acro", "torus"},
                                           EngineCase{"dl", "torus"}, EngineCase{"nue", "random"},
                                           EngineCase{"acro", "random", "mcast_sl=15", 15},
                                           EngineCase{"dl", "random", "mcast_sl=15", 15}),
                         [](const auto &info) {
                           return info.param.engine + "_" + info.param.fabric +
                                  (info.param.sl ? "_sl15" : "");
                         });

// Without a spare VL (keiro-acro on a random fabric needs all 3 VLs of
// max_vls=3) SL 0's column stays as the realization made it, in-port
// dependent, and no tree keeps the graph acyclic: the build says so instead
// of installing one.
TEST(McastRouter, NoTreeWithoutASpareVlRefusesWithOneLine) {
  const Fabric f = fabric_named("random");
  fixtures::EngineRun run = fixtures::run_captured(f, "acro", {.max_vls = 3});
  ASSERT_TRUE(run.ok) << run.last_line();
  ASSERT_TRUE(run.stages.mcast);
  EXPECT_FALSE(run.stages.column.uniform);
  EXPECT_EQ(run.stages.column.vl, -1);  // shared: no VL left
  std::string err;
  auto router = mcast::Router::create(f, run.out, {}, err);
  ASSERT_TRUE(router) << err;
  Tree t;
  EXPECT_FALSE(router->build(all_cas(f), t, err));
  EXPECT_TRUE(t.masks.empty());
  EXPECT_NE(err.find("no tree keeps the dependency graph acyclic"), std::string::npos) << err;
  EXPECT_EQ(router->multicast_dependencies(), 0);
  EXPECT_TRUE(router->acyclic());
}

// The multicast SL's free entries never make all traffic on SL 0 (MPI
// without the SA) less safe: keiro check's verdict with every path on SL 0
// is the same with and without multicast trees, for every engine on a
// torus, a random fabric and a fat tree.
TEST(McastSlColumn, AllTrafficOnSlZeroKeepsItsVerdict) {
  // The dragonfly: keiro-dl at 4 VLs is safe for all traffic on SL 0 with an
  // in-port-dependent SL 0 column, the case where only turns no path takes
  // may change (the others are unsafe before, or uniform).
  Fabric dfly;
  std::string err;
  ASSERT_TRUE(
      io::parse_topology(topo::write_net(topo::gen_dragonfly(4, 2, 2, 5, {})), "dfly", dfly, err))
      << err;
  const std::vector<Fabric> fabrics = {fabric_named("torus"), fabric_named("random"), dfly};
  int kept_safe = 0;
  for (const Fabric &f : fabrics)
    for (const char *e : {"nue", "acro", "dl"}) {
      const fixtures::EngineRun a =
          fixtures::run_captured(f, e, {.opts = "mcast_trees=0", .max_vls = 4});
      const fixtures::EngineRun b = fixtures::run_captured(f, e, {.max_vls = 4});
      ASSERT_TRUE(a.ok && b.ok) << e;
      check::Options co;
      co.fixed_sl = 0;
      const bool before = check::verify(f, a.out, co).ok, after = check::verify(f, b.out, co).ok;
      EXPECT_EQ(before, after) << e << " on " << f.num_switches() << " switches";
      EXPECT_EQ(fixtures::credit_loop_problem(f, b.out, 0).empty(), after) << e;
      kept_safe += after && !b.stages.column.uniform && b.stages.column.vl >= 0;
    }
  EXPECT_GE(kept_safe, 1);  // the case above was met
}

// mcast_sl=15 with max_sls=15: SL 15 carries no unicast path, so every one
// of its entries goes to the spare VL; every other SL's entries are those of
// the same routing without multicast trees (mcast_trees=0).
TEST(McastSlColumn, FreeSlGoesWhollyToTheSpareVl) {
  const Fabric f = fabric_named("random");
  const fixtures::EngineRun plain =
      fixtures::run_captured(f, "acro", {.opts = "mcast_trees=0", .max_sls = 15});
  const fixtures::EngineRun run =
      fixtures::run_captured(f, "acro", {.opts = "mcast_sl=15", .max_sls = 15});
  ASSERT_TRUE(plain.ok && run.ok);
  const int vl = run.stages.column.vl;
  EXPECT_EQ(vl, 3);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
      const uint8_t out = f.channel(c).src_port;
      for (int32_t in : f.in_channels(s)) {
        const uint8_t ip = f.channel(in).dst_port;
        if (ip == out) continue;
        ASSERT_EQ(run.out.vl(s, ip, out, 15), vl);
        for (uint8_t sl = 0; sl < 15; ++sl)
          ASSERT_EQ(run.out.vl(s, ip, out, sl), plain.out.vl(s, ip, out, sl));
      }
    }
}

}  // namespace
}  // namespace keiro

namespace keiro {
namespace {

std::string mcast_data(const std::string &name) {
  return fixtures::unit_data("mcast-torus4x4/" + name);
}

struct McastDumpDir {
  io::LoadedRouting lr;
  std::vector<Group> groups;
  std::vector<Tree> trees;
  McastDumpDir() {
    std::string err;
    io::LoadOptions lo;
    if (!io::load_dump_dir(mcast_data(""), lo, lr, err)) throw std::runtime_error(err);
    io::McastReadReport rep;
    std::ifstream a(mcast_data("opensm.mcfdbs")), b(mcast_data("opensm-sa.dump"));
    if (!io::read_mcfdbs(a, "opensm.mcfdbs", lr.fabric, trees, rep, err) ||
        !io::read_sa_groups(b, "opensm-sa.dump", lr.fabric, groups, rep, err))
      throw std::runtime_error(err);
  }
};

// What OpenSM installed with keiro-nue's trees (tests/unit/data/mcast-torus4x4):
// 7 groups, every one a sound tree, no credit loop with the unicast tables.
TEST(McastDumps, OpenSmInstalledTreesAreSound) {
  McastDumpDir d;
  ASSERT_EQ(d.groups.size(), 7u);
  ASSERT_EQ(d.trees.size(), 7u);
  EXPECT_EQ(d.groups[0].mlid, 0xC000);
  // The broadcast group after the storm: 21 of the 32 CA ports (mcm_port
  // lines under 'MC Group 0xc000' in the file).
  EXPECT_EQ(d.groups[0].terminals.size(), 21u);
  EXPECT_EQ(d.groups[0].sl_mask, 1);
  mcast::Options o;
  const mcast::Result res = mcast::verify(d.lr.fabric, d.lr.routing, d.groups, d.trees, o);
  EXPECT_TRUE(res.ok) << (res.problems.empty() ? res.combined.first_problem : res.problems[0]);
  EXPECT_EQ(res.groups_ok, 7);
  EXPECT_GT(res.dependencies, 0);
}

// One more mask bit at a switch already in the tree, towards another tree
// switch, closes a cycle: the flood finds the loop.
TEST(McastDumps, AnExtraLinkMakesALoop) {
  McastDumpDir d;
  Tree &t = d.trees[0];
  bool made = false;
  for (mcast::SwitchMask &m : t.masks) {
    for (int p = 1; p <= d.lr.fabric.sw(m.sw).num_ports && !made; ++p) {
      const PortPeer pp = d.lr.fabric.peer(m.sw, static_cast<uint8_t>(p));
      if (m.ports[p] || pp.kind != PortPeer::kSwitch) continue;
      const Channel &ch = d.lr.fabric.channel(pp.id);
      mcast::PortMask *other = nullptr;
      for (mcast::SwitchMask &n : t.masks)
        if (n.sw == ch.dst) other = &n.ports;
      if (!other) continue;
      m.ports.set(p);
      other->set(ch.dst_port);
      made = true;
    }
    if (made) break;
  }
  ASSERT_TRUE(made);
  const mcast::GroupVerdict v =
      mcast::flood(d.lr.fabric, d.lr.routing, d.groups[0], t, {}, nullptr);
  EXPECT_TRUE(v.loop);
  EXPECT_FALSE(v.ok);
}

// The writers give what the readers read.
TEST(McastDumps, WritersRoundTrip) {
  McastDumpDir d;
  std::ostringstream a, b;
  io::write_mcfdbs(a, d.lr.fabric, d.trees);
  io::write_sa_groups(b, d.lr.fabric, d.groups);
  std::istringstream ia(a.str()), ib(b.str());
  std::vector<Tree> trees;
  std::vector<Group> groups;
  io::McastReadReport rep;
  std::string err;
  ASSERT_TRUE(io::read_mcfdbs(ia, "w", d.lr.fabric, trees, rep, err)) << err;
  ASSERT_TRUE(io::read_sa_groups(ib, "w", d.lr.fabric, groups, rep, err)) << err;
  ASSERT_EQ(trees.size(), d.trees.size());
  for (size_t i = 0; i < trees.size(); ++i) {
    ASSERT_EQ(trees[i].masks.size(), d.trees[i].masks.size());
    for (size_t j = 0; j < trees[i].masks.size(); ++j)
      EXPECT_EQ(trees[i].masks[j].ports, d.trees[i].masks[j].ports);
  }
  ASSERT_EQ(groups.size(), d.groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    EXPECT_EQ(groups[i].terminals, d.groups[i].terminals);
    EXPECT_EQ(groups[i].sl_mask, d.groups[i].sl_mask);
  }
}

}  // namespace
}  // namespace keiro
