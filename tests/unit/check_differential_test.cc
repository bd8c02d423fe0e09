// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Differential tests of check::verify's per-switch shortcuts (verify.h):
// on random small fabrics with keiro-acro / keiro-dl style tables (path SLs
// per (source switch, destination), SL2VL entries that depend on the in
// port, so the VL changes along the path) and injected faults, the Result
// with the shortcuts (any thread count) must equal the one of
// Options::shortcuts = false, which follows every source LID on its own.
// The reference itself is pinned by the hand-computed cases of
// check_verify_test.cc; here a few values are asserted directly as well,
// so that a test whose faults do not show up fails.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/check/verify.h"
#include "core/log.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// Every field of the Result but the time.
void expect_same(const check::Result &a, const check::Result &b, const std::string &what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.pairs_checked, b.pairs_checked);
  EXPECT_EQ(a.unreachable, b.unreachable);
  EXPECT_EQ(a.black_holes, b.black_holes);
  EXPECT_EQ(a.wrong_delivery, b.wrong_delivery);
  EXPECT_EQ(a.loops, b.loops);
  EXPECT_EQ(a.vl_errors, b.vl_errors);
  EXPECT_EQ(a.pairs_without_sl, b.pairs_without_sl);
  EXPECT_EQ(a.pairs_assumed_sl, b.pairs_assumed_sl);
  EXPECT_EQ(a.pairs_sl_free, b.pairs_sl_free);
  EXPECT_EQ(a.credit_loop, b.credit_loop);
  EXPECT_EQ(a.cycle, b.cycle);
  ASSERT_EQ(a.cycle_deps.size(), b.cycle_deps.size());
  for (size_t i = 0; i < a.cycle_deps.size(); ++i) {
    EXPECT_EQ(a.cycle_deps[i].from, b.cycle_deps[i].from);
    EXPECT_EQ(a.cycle_deps[i].to, b.cycle_deps[i].to);
    EXPECT_EQ(a.cycle_deps[i].paths, b.cycle_deps[i].paths);
    EXPECT_EQ(a.cycle_deps[i].examples, b.cycle_deps[i].examples);
  }
  EXPECT_EQ(a.first_problem, b.first_problem);
  EXPECT_EQ(a.problems, b.problems);
  EXPECT_EQ(a.vls_used, b.vls_used);
  EXPECT_EQ(a.sls_used, b.sls_used);
  EXPECT_EQ(a.vl_mask, b.vl_mask);
  EXPECT_EQ(a.sl_mask, b.sl_mask);
  EXPECT_EQ(a.dependency_nodes, b.dependency_nodes);
  EXPECT_EQ(a.dependency_edges, b.dependency_edges);
}

// Reference (no shortcuts, 1 thread) against the shortcuts with 1 and 3
// threads; returns the reference.
check::Result compare(const Fabric &f, const Routing &r, check::Options opt,
                      const std::string &what) {
  opt.shortcuts = false;
  opt.threads = 1;
  const check::Result ref = check::verify(f, r, opt);
  opt.shortcuts = true;
  for (const int t : {1, 3}) {
    opt.threads = t;
    expect_same(check::verify(f, r, opt), ref, what + strprintf(", %d threads", t));
  }
  return ref;
}

enum class Base { kMinHop, kTree };

// LFTs of min_hop (credit loops likely) or route_tree (up*/down*: acyclic
// whatever the VLs) on a random regular graph, copied into a Routing with
// per-source-switch path SLs 0..nsl-1 and random in-port-dependent SL2VL
// entries 0..nvl-1.
Routing acro_like(const Fabric &f, Base base, uint64_t seed, int nsl, int nvl) {
  const Routing lft = base == Base::kMinHop ? fixtures::min_hop(f) : fixtures::route_tree(f);
  Routing r;
  r.reset(f, Routing::SlScope::kPerSourceSwitch);
  std::mt19937_64 rng(seed);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    for (uint32_t lid = 1; lid <= f.max_lid(); ++lid) {
      r.set_out_port(s, static_cast<uint16_t>(lid), lft.out_port(s, static_cast<uint16_t>(lid)));
      r.set_path_sl(s, static_cast<uint16_t>(lid), static_cast<uint8_t>(rng() % nsl));
    }
    const unsigned n = f.sw(s).num_ports;
    for (unsigned in = 0; in <= n; ++in)
      for (unsigned out = 1; out <= n; ++out)
        for (int sl = 0; sl < kNumSls; ++sl)
          r.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out), static_cast<uint8_t>(sl),
                   static_cast<uint8_t>(rng() % nvl));
  }
  return r;
}

Fabric small(uint64_t seed, uint8_t lmc = 0) {
  return fixtures::random_regular(12 + static_cast<int32_t>(seed % 5) * 2, 4, seed,
                                  {.hcas = 3, .lmc = lmc});
}

TEST(VerifyDifferential, CleanAcroLikeTablesAreDeadlockFree) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Fabric f = small(seed);
    const Routing r = acro_like(f, Base::kTree, seed, 4, 4);
    const check::Result c = compare(f, r, {}, "tree seed " + std::to_string(seed));
    EXPECT_TRUE(c.ok) << c.first_problem;
    EXPECT_FALSE(c.credit_loop);
    EXPECT_GT(c.dependency_edges, 0);
    EXPECT_EQ(c.vl_mask, 0xFu);
  }
}

TEST(VerifyDifferential, MinHopAcroLikeTablesSameCycle) {
  int loops = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Fabric f = small(seed);
    const Routing r = acro_like(f, Base::kMinHop, seed * 7, 3, 2);
    const check::Result c = compare(f, r, {}, "minhop seed " + std::to_string(seed));
    loops += c.credit_loop;
    if (c.credit_loop) {
      EXPECT_FALSE(c.cycle_deps.empty());
      EXPECT_GT(c.cycle_deps[0].paths, 0);
    }
  }
  EXPECT_GT(loops, 0);  // the cycle report is compared on some of them
}

TEST(VerifyDifferential, InjectedFaults) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Fabric f = small(seed);
    Routing r = acro_like(f, Base::kTree, seed, 4, 4);
    const std::string tag = " seed " + std::to_string(seed);
    std::mt19937_64 rng(seed + 100);
    const int32_t S = f.num_switches();
    const auto lid = [&] { return static_cast<uint16_t>(1 + rng() % f.max_lid()); };
    // A dropped LFT entry.
    Routing drop = r;
    drop.set_out_port(static_cast<int32_t>(rng() % S), lid(), kNoPort);
    compare(f, drop, {}, "drop" + tag);
    // A forwarding loop: switch a sends LID x to neighbour b, b sends it back.
    Routing loop = r;
    {
      const int32_t c = static_cast<int32_t>(rng() % f.num_channels());
      const Channel &ch = f.channel(c);
      const uint16_t x = lid();
      loop.set_out_port(ch.src, x, ch.src_port);
      loop.set_out_port(ch.dst, x, ch.dst_port);
      const check::Result res = compare(f, loop, {}, "loop" + tag);
      EXPECT_GT(res.loops, 0);
    }
    // VLs above the ports' operational VLs: Options::vls and per-port.
    {
      check::Options o;
      o.vls = 3;
      const check::Result res = compare(f, r, o, "vls 3" + tag);
      EXPECT_GT(res.vl_errors, 0);
      std::vector<std::vector<uint8_t>> pv(S);
      for (int32_t s = 0; s < S; ++s) pv[s].assign(f.sw(s).num_ports + 1u, 0);
      pv[rng() % S][1 + rng() % 4] = 2;
      pv[rng() % S][1 + rng() % 4] = 1;
      check::Options p;
      p.port_vls = &pv;
      compare(f, r, p, "port vls" + tag);
    }
    // VL 15 (drop) on some hops, and at a CA's own port.
    Routing v15 = r;
    v15.set_vl(static_cast<int32_t>(rng() % S), 1 + rng() % 4, 1 + rng() % 4, 2, 15);
    v15.set_terminal_vl(static_cast<int32_t>(rng() % f.num_terminals()), 1, 15);
    {
      const check::Result res = compare(f, v15, {}, "vl15" + tag);
      EXPECT_GT(res.vl_errors, 0);
    }
    // Path SLs above 15 and missing path SLs (with and without assume_sl).
    Routing sls = r;
    sls.set_path_sl(static_cast<int32_t>(rng() % S), lid(), 20);
    sls.set_path_sl(static_cast<int32_t>(rng() % S), lid(), check::kNoPathSl);
    sls.set_path_sl(static_cast<int32_t>(rng() % S), lid(), check::kNoPathSl);
    compare(f, sls, {}, "sls" + tag);
    check::Options assume;
    assume.assume_sl = 1;
    compare(f, sls, assume, "assume_sl" + tag);
    // A credit loop: the min-hop tables with few VLs, plus every fault.
    Routing all = acro_like(f, Base::kMinHop, seed, 2, 2);
    all.set_out_port(static_cast<int32_t>(rng() % S), lid(), kNoPort);
    all.set_vl(static_cast<int32_t>(rng() % S), 1 + rng() % 4, 1 + rng() % 4, 1, 15);
    all.set_terminal_vl(static_cast<int32_t>(rng() % f.num_terminals()), 0, 15);
    check::Options few;
    few.vls = 1;
    few.max_problems = 6;
    compare(f, all, few, "everything" + tag);
  }
}

TEST(VerifyDifferential, FixedSlMixedLmcAndPairSelections) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Fabric f = small(seed, static_cast<uint8_t>(seed % 3));
    Routing r = acro_like(f, seed % 2 ? Base::kTree : Base::kMinHop, seed, 4, 3);
    r.set_terminal_vl(static_cast<int32_t>(seed % f.num_terminals()), 3, 15);
    const std::string tag = " seed " + std::to_string(seed);
    for (const int fixed : {-1, 0, 3, 5}) {
      for (const bool mixed : {false, true}) {
        for (const char *pairs : {"all", "ca-sources", "ca"}) {
          check::Options o;
          o.fixed_sl = fixed;
          o.fixed_sl_mixed = mixed;
          ASSERT_TRUE(check::parse_pairs(pairs, o));
          compare(f, r, o,
                  strprintf("fixed %d mixed %d %s", fixed, static_cast<int>(mixed), pairs) + tag);
        }
      }
    }
  }
}

// Tables as keiro-acro and keiro-dl make them: one LFT tree per destination
// switch (min_hop and route_tree give that) and one path SL per (source
// switch, destination switch), the same for every LID of that switch; SL2VL
// entries that depend on the in port. The check then walks the first LID of
// a switch and reuses its tree for the others (Checker::reuse_tree): the
// result must still equal the reference's.
Routing switch_scoped(const Fabric &f, Base base, uint64_t seed, int nsl, int nvl) {
  Routing r = acro_like(f, base, seed, nsl, nvl);
  const int32_t S = f.num_switches();
  std::mt19937_64 rng(seed * 31 + 5);
  std::vector<uint8_t> sl(static_cast<size_t>(S) * S);
  for (uint8_t &x : sl) x = static_cast<uint8_t>(rng() % nsl);
  for (int32_t s = 0; s < S; ++s)
    for (uint32_t lid = 1; lid <= f.max_lid(); ++lid) {
      const int32_t d = f.lid_switch(static_cast<uint16_t>(lid));
      if (d >= 0) r.set_path_sl(s, static_cast<uint16_t>(lid), sl[static_cast<size_t>(s) * S + d]);
    }
  return r;
}

TEST(VerifyDifferential, SwitchScopedSlsReuseTrees) {
  int loops = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Fabric f = small(seed, static_cast<uint8_t>(seed % 2));
    const std::string tag = " seed " + std::to_string(seed);
    const check::Result clean =
        compare(f, switch_scoped(f, Base::kTree, seed, 4, 4), {}, "tree" + tag);
    EXPECT_TRUE(clean.ok) << clean.first_problem;
    EXPECT_EQ(clean.vl_mask, 0xFu);
    const check::Result mh =
        compare(f, switch_scoped(f, Base::kMinHop, seed, 3, 2), {}, "minhop" + tag);
    loops += mh.credit_loop;
    // Faults that only some LIDs of a switch meet: a last hop on VL 15 into
    // one CA port, a CA port operating one VL, one LID's LFT entry dropped.
    Routing r = switch_scoped(f, Base::kTree, seed, 4, 4);
    std::mt19937_64 rng(seed + 200);
    const TerminalInfo &t = f.terminal(static_cast<int32_t>(rng() % f.num_terminals()));
    const int32_t d = f.lid_switch(t.lid);
    for (unsigned in = 0; in <= f.sw(d).num_ports; ++in)
      r.set_vl(d, static_cast<uint8_t>(in), t.sw_port, 2, 15);
    const check::Result v15 = compare(f, r, {}, "last hop vl15" + tag);
    EXPECT_GT(v15.vl_errors, 0);
    const TerminalInfo &u = f.terminal(static_cast<int32_t>(rng() % f.num_terminals()));
    std::vector<std::vector<uint8_t>> pv(f.num_switches());
    for (int32_t s = 0; s < f.num_switches(); ++s) pv[s].assign(f.sw(s).num_ports + 1u, 0);
    pv[f.lid_switch(u.lid)][u.sw_port] = 1;
    check::Options o;
    o.port_vls = &pv;
    EXPECT_GT(compare(f, r, o, "ca port vls" + tag).vl_errors, v15.vl_errors);
    Routing drop = switch_scoped(f, Base::kTree, seed, 4, 4);
    drop.set_out_port(static_cast<int32_t>(rng() % f.num_switches()), u.lid, kNoPort);
    EXPECT_GT(compare(f, drop, {}, "drop" + tag).black_holes, 0);
    check::Options mixed;
    mixed.fixed_sl = 5;
    mixed.fixed_sl_mixed = true;
    compare(f, switch_scoped(f, Base::kMinHop, seed, 3, 3), mixed, "mixed" + tag);
  }
  EXPECT_GT(loops, 0);
}

// A credit loop that only the entry hop of one CA closes: tables without a
// credit loop, and the same tables with that CA's SL2VL rows (its in port
// at its switch, which only its own traffic uses) mapping every SL to one
// VL, which have one. Found by search over small fabrics; the check with
// the shortcuts and the tree reuse must report it as the reference does.
TEST(VerifyDifferential, CreditLoopClosedByOneCaEntry) {
  int found = 0;
  check::Options quick;
  quick.name_cycle_paths = false;
  for (uint64_t seed = 1; seed <= 60 && found < 2; ++seed) {
    const Fabric f = small(seed);
    const Routing r = switch_scoped(f, Base::kMinHop, seed * 13, 2, 4 + static_cast<int>(seed % 3));
    if (check::verify(f, r, quick).credit_loop) continue;
    for (int32_t t = 0; t < f.num_terminals() && found < 2; ++t) {
      const TerminalInfo &ti = f.terminal(t);
      const int32_t s = f.lid_switch(ti.lid);
      for (uint8_t vl = 0; vl < 4; ++vl) {
        Routing one = r;
        for (unsigned out = 1; out <= f.sw(s).num_ports; ++out)
          for (int sl = 0; sl < kNumSls; ++sl)
            one.set_vl(s, ti.sw_port, static_cast<uint8_t>(out), static_cast<uint8_t>(sl), vl);
        if (!check::verify(f, one, quick).credit_loop) continue;
        const std::string tag =
            strprintf("seed %llu CA %d VL %u", static_cast<unsigned long long>(seed), t, vl);
        EXPECT_FALSE(compare(f, r, {}, tag + " before").credit_loop);
        const check::Result c = compare(f, one, {}, tag);
        EXPECT_TRUE(c.credit_loop) << tag;
        ++found;
        break;
      }
    }
  }
  EXPECT_GT(found, 0);
}

// Per source LID SLs (SourceLidSls) keep the per-source path: the same
// result as the reference, whatever the shortcuts.
TEST(VerifyDifferential, SourceLidSls) {
  const Fabric f = small(3, 1);
  const Routing r = acro_like(f, Base::kTree, 3, 4, 4);
  check::SourceLidSls sls;
  sls.reset(f.max_lid());
  std::mt19937_64 rng(9);
  for (int i = 0; i < 200; ++i)
    sls.set(static_cast<uint16_t>(1 + rng() % f.max_lid()),
            static_cast<uint16_t>(1 + rng() % f.max_lid()), static_cast<uint8_t>(rng() % 6));
  check::Options o;
  o.source_sls = &sls;
  const check::Result c = compare(f, r, o, "source sls");
  EXPECT_TRUE(c.ok) << c.first_problem;
}

// Options::project_sl: where an SL maps to one VL everywhere, the verdict for
// all traffic on it comes from the turns of the walk with the path SLs; it
// must equal the walk of Options::fixed_sl (its own pass over every pair),
// problem line included, and leave the rest of the Result alone.
TEST(VerifyDifferential, ProjectedSlEqualsFixedSlWalk) {
  int free = 0, loops = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Fabric f = small(seed, static_cast<uint8_t>(seed % 2));
    Routing r = acro_like(f, seed % 2 ? Base::kTree : Base::kMinHop, seed, 4, 4);
    const int sl = static_cast<int>(seed % 4), v0 = static_cast<int>(seed % 3);
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      const unsigned n = f.sw(s).num_ports;
      for (unsigned in = 0; in <= n; ++in)
        for (unsigned out = 0; out <= n; ++out)
          r.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out), static_cast<uint8_t>(sl),
                   static_cast<uint8_t>(v0));
    }
    for (int32_t t = 0; t < f.num_terminals(); ++t)
      r.set_terminal_vl(t, static_cast<uint8_t>(sl), static_cast<uint8_t>(v0));
    const std::string tag = strprintf("seed %llu", static_cast<unsigned long long>(seed));
    for (const char *pairs : {"all", "ca"}) {
      check::Options o;
      ASSERT_TRUE(check::parse_pairs(pairs, o));
      o.threads = 2;
      const check::Result plain = check::verify(f, r, o);
      if (!plain.ok) continue;  // the projection is only made when everything else holds
      o.project_sl = sl;
      const check::Result proj = check::verify(f, r, o);
      expect_same(proj, plain, tag + " with project_sl");
      check::Options w = o;
      w.project_sl = -1;
      w.fixed_sl = sl;
      w.max_problems = 1;
      w.name_cycle_paths = false;
      const check::Result fixed = check::verify(f, r, w);
      ASSERT_GE(proj.projected_sl_ok, 0) << tag;
      EXPECT_EQ(proj.projected_sl_ok, fixed.ok ? 1 : 0) << tag << " " << pairs;
      EXPECT_EQ(proj.projected_sl_problem, fixed.ok ? "" : fixed.first_problem) << tag;
      (proj.projected_sl_ok ? free : loops) += 1;
      // An SL with two VLs somewhere is not decided.
      Routing mixed = r;
      mixed.set_vl(0, 0, 1, static_cast<uint8_t>(sl), static_cast<uint8_t>(v0 + 1));
      o.threads = 1;
      EXPECT_EQ(check::verify(f, mixed, o).projected_sl_ok, -1) << tag;
    }
  }
  // keiro-nue's tables (VL = layer = SL everywhere): the case it is for;
  // with 2 and 4 layers on a 5x5 torus all traffic on SL 0 has a loop.
  const Fabric t = fixtures::from_links(25, fixtures::torus_links(5, 5), {.hcas = 2});
  for (const int vls : {2, 4}) {
    const fixtures::EngineRun nue = fixtures::run_captured(t, "nue", {.max_vls = vls});
    ASSERT_TRUE(nue.ok) << nue.last_line();
    check::Options o;
    o.project_sl = 0;
    const check::Result proj = check::verify(t, nue.out, o);
    ASSERT_TRUE(proj.ok) << proj.first_problem;
    check::Options w;
    w.fixed_sl = 0;
    w.max_problems = 1;
    w.name_cycle_paths = false;
    const check::Result fixed = check::verify(t, nue.out, w);
    EXPECT_EQ(proj.projected_sl_ok, fixed.ok ? 1 : 0) << vls << " VLs";
    EXPECT_EQ(proj.projected_sl_problem, fixed.first_problem) << vls << " VLs";
    (proj.projected_sl_ok == 1 ? free : loops) += 1;
    EXPECT_EQ(proj.projected_sl_ok, 0) << vls << " VLs";
  }
  EXPECT_GT(free, 0);  // both verdicts are compared
  EXPECT_GT(loops, 0);
}

}  // namespace
}  // namespace keiro
