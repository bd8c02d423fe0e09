// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Property: relabelling a fabric does not change an engine's quality beyond
// noise (issue 32, item 1). Every engine that can route a family routes the
// same fabric in at least 8 labellings -- structured ones (node order, GUIDs
// or ports reversed; for fat trees top level or leaf level first, HCAs on
// the low ports, the high ports or the odd ones, and their reversals) and
// seeded random ones (topo::relabel) -- and the independent walker
// (fixtures::check_routes) measures every result: max EFI over
// switch-to-switch channels for all CA pairs, average hops, VLs.
//
// Asserted per (family, engine, VL budget): max EFI spread max/min over the
// labellings, average hops spread, VL count range, and on the intact fat
// tree every labelling's max EFI within 1.10x of k^3 - k (OpenSM ftree's).
// The bounds, and how they come from measurement, are in kBounds below and
// in docs/relabelling.md ("The property test").
//
// keiro-loren needs a layout file: only the LRT family has one (the file
// follows each labelling's GUIDs, topo::write_layout), so keiro-loren runs
// there only.
//
// Runtime (2026-11-27, all 8 tests): 3.8 s of CPU time at -O2 (13.6 s on
// the clock, 2-core VM at load 6-10). Not measured under AddressSanitizer;
// nue_labelling_test.cc's ratio (about 5x) puts it near 20 s there.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/hdn.h"
#include "core/topo/net_list.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

struct Labelling {
  std::string name;
  topo::NetList net;
  std::string layout;  // layout text (LRT), empty without
};

struct Family {
  std::string name;
  topo::GenFabric gen;  // as generated (layout coordinates)
  std::vector<Labelling> labellings;
  int64_t leaf_bound = 0;  // k^3 - k on a k-ary 3-tree, else 0
  bool intact_tree = false;
};

Labelling labelled(const topo::GenFabric &g, std::string name, topo::NetList net) {
  std::string layout = g.sw.empty() || g.sw[0].x < 0 ? "" : topo::write_layout(g, net);
  return {std::move(name), std::move(net), std::move(layout)};
}

// Any family: as written, three structured reversals, four seeds.
std::vector<Labelling> generic_labellings(const topo::GenFabric &g) {
  const topo::NetList plain = topo::net_list(g);
  std::vector<Labelling> out = {
      labelled(g, "as-written", plain),
      labelled(g, "reversed", fixtures::flip(plain, {true, true, true})),
      labelled(g, "guids reversed", fixtures::flip(plain, {.guids = true})),
      labelled(g, "ports reversed", fixtures::flip(plain, {.ports = true})),
      labelled(g, "order reversed", fixtures::flip(plain, {.order = true}))};
  for (uint64_t seed : {1, 2, 3, 4})
    out.push_back(labelled(g, "seed " + std::to_string(seed), topo::relabel(plain, seed).net));
  return out;
}

// A k-ary 3-tree (fail > 0: with that fraction of its links failed, the
// same links in every port split since the generator lists the links in
// one order): GUIDs ascending from the top or from the leaves, HCAs on the
// low, high or odd ports, the reversal of three of them (GUIDs from the
// other end, node order reversed, ports reversed), three seeds.
Family fat_tree(int k, double fail) {
  auto tree = [&](topo::PortSplit split) {
    topo::GenFabric g = topo::gen_fat_tree(k, 3, topo::TopoOptions{.port_split = split});
    if (fail > 0) topo::fail_links(g, fail, 1);
    return topo::net_list(g);
  };
  const topo::NetList top = tree(topo::PortSplit::kTopFirst);
  const topo::NetList low = tree(topo::PortSplit::kHcaLow);
  const topo::NetList alt = tree(topo::PortSplit::kInterleaved);
  const fixtures::Flip all{true, true, true};
  Family f{std::to_string(k) + "-ary 3-tree" + (fail > 0 ? " 2% failed" : ""),
           {},
           {{"top-first", top, ""},
            {"top-first reversed", fixtures::flip(top, all), ""},
            {"hca-low", low, ""},
            {"hca-high", tree(topo::PortSplit::kHcaHigh), ""},
            {"interleaved", alt, ""},
            {"hca-low reversed", fixtures::flip(low, all), ""},
            {"interleaved reversed", fixtures::flip(alt, all), ""},
            {"top-first seed 1", topo::relabel(top, 1).net, ""},
            {"hca-low seed 2", topo::relabel(low, 2).net, ""},
            {"interleaved seed 3", topo::relabel(alt, 3).net, ""}},
           int64_t{k} * k * k - k,
           fail == 0};
  return f;
}

Family generic(std::string name, topo::GenFabric g) {
  Family f{std::move(name), std::move(g), {}, 0, false};
  f.labellings = generic_labellings(f.gen);
  return f;
}

// What one labelling of one (family, engine, budget) gave.
struct Figures {
  int64_t max_efi = 0;
  double avg_hops = 0;
  int vls = 0;
};

Figures route_one(const Labelling &l, const std::string &engine, int max_vls) {
  Fabric f;
  std::string err;
  EXPECT_TRUE(io::parse_topology(topo::write_net_list(l.net), l.name, f, err)) << err;
  std::string opts;
  if (engine == "keiro-loren")
    opts = "loren_layout=" + fixtures::temp_file("labelling.layout", l.layout);
  const fixtures::EngineRun run =
      fixtures::run_captured(f, engine, fixtures::RunArgs{.opts = opts, .max_vls = max_vls});
  EXPECT_TRUE(run.ok) << l.name << ": " << run.last_line();
  if (!run.ok) return {};
  const fixtures::RouteCheck rc = fixtures::check_routes(f, run.out);
  EXPECT_TRUE(rc.ok) << l.name << ": " << rc.problem;
  return {rc.max_efi, rc.avg_hops, rc.vls};
}

// The bounds. kDefault holds for every (family, engine, budget) not in
// kKnown: max EFI spread <= 1.15 (issue 32's target; the largest spread
// measured under it is 1.105, dragonfly keiro-dl and the 6-ary 3-tree's
// keiro-nue at max_vls=8), average hops spread <= 1.01 (measured at most
// 1.0026: keiro-nue's paths are not always minimal), VLs used differing by
// at most 1 (measured: 3..4 keiro-dl, 2..3 keiro-acro, 4..5 keiro-nue), and
// on the intact tree every labelling within 1.10x of k^3 - k (issue 32).
// kKnown: the measured cases outside kDefault, each with its measured value
// (2026-11-27) and a bound a little above it, so that they cannot get worse
// unnoticed; docs/relabelling.md ("The property test") says why each is
// there. Degraded fat trees: issue 14's bounds (docs/balance.md, ft12x3-f2:
// keiro-nue and keiro-dl at most dfsssp's max EFI, keiro-acro at most 1.10x
// it; dfsssp reached 1.87x k^3 - k there) as multiples of k^3 - k.
struct Bound {
  double efi_spread;   // max EFI max/min over the labellings
  double hops_spread;  // average hops max/min
  int vl_range;        // VLs used, max - min
  double over_leaf;    // every max EFI / (k^3 - k) on a fat tree
};
constexpr Bound kDefault{1.15, 1.01, 1, 1.10};

struct Known {
  const char *family, *engine;
  int max_vls;
  Bound bound;
};
const Known kKnown[] = {
    // Measured 1.200x: k^3 - k is 210 here, one HCA's 5 routes are 2.4% of
    // it; the 12-ary and 18-ary 3-trees stay within 1.10x
    // (scripts/relabel-survey.py --fattree-check).
    {"6-ary 3-tree", "keiro-nue", 8, {1.15, 1.01, 1, 1.25}},
    // Issue 14: measured 1.29x, 1.94x and 1.23x k^3 - k; keiro-acro 1.20x
    // since its polished routes (docs/acro.md).
    {"6-ary 3-tree 2% failed", "keiro-nue", 8, {1.15, 1.01, 1, 1.40}},
    {"6-ary 3-tree 2% failed", "keiro-acro", 8, {1.15, 1.01, 1, 1.25}},
    {"6-ary 3-tree 2% failed", "keiro-dl", 8, {1.15, 1.01, 1, 1.40}},
    // Measured spread 1.380 (max EFI 368..508), hops spread 1.062: LOREN's
    // tables follow the switch and port order (Algorithm 1's loops, the
    // search of (3) capped at t_max, ties between entries by insertion
    // order). Building them in layout order made max EFI the same in all
    // nine labellings (384) but on the bundled 25-switch LRT it stayed at
    // the worst of the old range (576 against 468..576) and fixed_sl=0 no
    // longer fitted: open (docs/relabelling.md).
    {"lrt 36 4 2", "keiro-loren", 8, {1.45, 1.07, 1, 0}},
    // Measured spread 1.214 (max EFI 252..306, two sub-networks in every
    // labelling) since keiro-dl spreads every LID where that balances better
    // (DlOptions::spread_upper) and its one-layer guard compares with those
    // routes; 2.056 before (648..666 on one sub-network in the structured
    // labellings: one up*/down* root sends all traffic between line chips
    // through one spine chip). Open at 1.15 (docs/relabelling.md).
    {"director 1 12", "keiro-dl", 8, {1.25, 1.01, 1, 0}},
};

Bound bound_of(const std::string &family, const std::string &engine, int max_vls) {
  for (const Known &k : kKnown)
    if (family == k.family && engine == k.engine && max_vls == k.max_vls) return k.bound;
  return kDefault;
}

// Routes every labelling of fam with engine at max_vls and checks the bounds.
void expect_labelling_free(const Family &fam, const std::string &engine, int max_vls) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Figures> figs;
  for (const Labelling &l : fam.labellings) {
    figs.push_back(route_one(l, engine, max_vls));
    if (figs.back().max_efi == 0) return;  // failed above
  }
  auto lo_hi = [&](auto get) {
    auto [lo, hi] =
        std::minmax_element(figs.begin(), figs.end(),
                            [&](const Figures &a, const Figures &b) { return get(a) < get(b); });
    return std::make_pair(get(*lo), get(*hi));
  };
  const auto [efi_lo, efi_hi] = lo_hi([](const Figures &x) { return x.max_efi; });
  const auto [hops_lo, hops_hi] = lo_hi([](const Figures &x) { return x.avg_hops; });
  const auto [vls_lo, vls_hi] = lo_hi([](const Figures &x) { return x.vls; });
  const double efi_spread = static_cast<double>(efi_hi) / static_cast<double>(efi_lo);
  const double hops_spread = hops_hi / hops_lo;
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "  %-22s %-11s vls=%d: max EFI %lld..%lld (spread %.3f%s), hops %.3f..%.3f (%.4f), VLs "
      "%d..%d, %.0f ms\n",
      fam.name.c_str(), engine.c_str(), max_vls, static_cast<long long>(efi_lo),
      static_cast<long long>(efi_hi), efi_spread,
      fam.leaf_bound
          ? (", " + std::to_string(static_cast<double>(efi_hi) / fam.leaf_bound).substr(0, 5) +
             "x k^3-k")
                .c_str()
          : "",
      hops_lo, hops_hi, hops_spread, vls_lo, vls_hi, ms);
  const Bound b = bound_of(fam.name, engine, max_vls);
  std::string what = fam.name + ", " + engine + ", max_vls=" + std::to_string(max_vls) + " (";
  for (size_t i = 0; i < figs.size(); ++i)
    what += (i ? "; " : "") + fam.labellings[i].name + " " + std::to_string(figs[i].max_efi) + "/" +
            std::to_string(figs[i].avg_hops).substr(0, 5) + "/" + std::to_string(figs[i].vls);
  what += ")";
  EXPECT_LE(efi_spread, b.efi_spread) << what << ": max EFI " << efi_lo << ".." << efi_hi;
  EXPECT_LE(hops_spread, b.hops_spread) << what << ": avg hops " << hops_lo << ".." << hops_hi;
  EXPECT_LE(vls_hi - vls_lo, b.vl_range) << what << ": VLs " << vls_lo << ".." << vls_hi;
  for (size_t i = 0; fam.leaf_bound > 0 && i < figs.size(); ++i) {
    EXPECT_LE(static_cast<double>(figs[i].max_efi),
              b.over_leaf * static_cast<double>(fam.leaf_bound))
        << what << ", " << fam.labellings[i].name;
  }
}

void expect_engines(const Family &fam, bool loren) {
  ASSERT_GE(fam.labellings.size(), 8u);
  for (const char *engine : {"keiro-nue", "keiro-acro", "keiro-dl"})
    expect_labelling_free(fam, engine, 8);
  if (fam.intact_tree) expect_labelling_free(fam, "keiro-nue", 1);  // issue 32: at 1 VL too
  if (loren) expect_labelling_free(fam, "keiro-loren", 8);
}

TEST(LabellingProperty, IntactFatTree) {
  expect_engines(fat_tree(6, 0), false);
}

TEST(LabellingProperty, DegradedFatTree) {
  expect_engines(fat_tree(6, 0.02), false);
}

TEST(LabellingProperty, TorusWithFailedLinks) {
  topo::GenFabric g = topo::gen_torus({4, 4, 4}, false, topo::TopoOptions{.hcas = 2});
  topo::fail_links(g, 0.05, 1);
  expect_engines(generic("4x4x4 torus 5% failed", std::move(g)), false);
}

TEST(LabellingProperty, Random) {
  expect_engines(generic("random 64 6",
                         topo::gen_random_regular(64, 6, topo::TopoOptions{.hcas = 2, .seed = 1})),
                 false);
}

TEST(LabellingProperty, LrtWithLayout) {
  expect_engines(
      generic("lrt 36 4 2", topo::gen_lrt(36, 4, 2, topo::TopoOptions{.hcas = 2, .seed = 1})),
      true);
}

TEST(LabellingProperty, Dragonfly) {
  expect_engines(generic("dragonfly 4 2 2 9", topo::gen_dragonfly(4, 2, 2, 9, topo::TopoOptions{})),
                 false);
}

TEST(LabellingProperty, Hdn) {
  expect_engines(generic("hdn 2x3x5 1 30", topo::gen_hdn(topo::parse_hdn("2x3x5", 1, "30"),
                                                         topo::TopoOptions{.hcas = 2})),
                 false);
}

TEST(LabellingProperty, Director) {
  expect_engines(generic("director 1 12", topo::gen_director(1, 12, topo::TopoOptions{})), false);
}

}  // namespace
}  // namespace keiro
