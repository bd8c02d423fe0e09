// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-nue's balance does not depend on how a fat tree is labelled (issue
// 32, item 1): the 8-ary 3-tree (192 switches, 512 HCAs) written by
// core/topo in structured labellings (top level first as keiro topo writes
// it, leaf level first with the HCAs on the low or the high ports, the
// reversal of those as scripts/relabel-survey.py makes it: node order, GUIDs
// and every switch's ports reversed) and in seeded random ones
// (topo::relabel), read back by io::parse_topology and routed by nue::route
// with 1 and 8 layers. Max EFI over switch-to-switch channels for all CA
// pairs must stay near the leaf bound k^3 - k = 504 (OpenSM ftree's) and
// spread at most 1.15 over the labellings.
//
// Measured (2026-11-27), max EFI in the 8 labellings below:
//   max_vls=1: 520 in all 8 (1.032x the bound);
//   max_vls=8: 536-552 (1.063-1.095x), spread 1.030.
// With the escape trees' old tie-break (parents by fewest children, then arc
// id, no valley rule: graph/spanning_tree.h) the leaf-first labellings (rows
// 2-4) gave 3,776 at max_vls=1 and 3,584-3,712 at max_vls=8 (7.1-7.5x), the
// seeded ones 560-576 at max_vls=1. Bound: 1.12x (the largest measured,
// 1.095x, plus 2.5%: ties among equal candidates still fall to ids where the
// structure cannot tell them apart); spread <= 1.15 (issue 32).
// Runtime (both tests): 1.8 s at -O2, 8.9 s with AddressSanitizer +
// UndefinedBehaviorSanitizer (scripts/build-asan.sh), 2-core VM at load 3-4.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/topo/families.h"
#include "core/topo/net_list.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

constexpr int kK = 8;
constexpr int64_t kLeafBound = kK * kK * kK - kK;  // 504
constexpr double kMaxOverBound = 1.12;
constexpr double kMaxSpread = 1.15;

// relabel-survey.py's reversal: node order, switch and HCA GUIDs and every
// switch's ports reversed.
topo::NetList reversed(const topo::NetList &in) {
  return fixtures::flip(in, fixtures::Flip{.order = true, .guids = true, .ports = true});
}

struct Labelling {
  std::string name;
  topo::NetList net;
};

std::vector<Labelling> labellings() {
  auto tree = [](topo::PortSplit split) {
    return topo::net_list(topo::gen_fat_tree(kK, 3, topo::TopoOptions{.port_split = split}));
  };
  const topo::NetList top = tree(topo::PortSplit::kTopFirst);
  const topo::NetList low = tree(topo::PortSplit::kHcaLow);
  return {{"top-first", top},
          {"top-first reversed", reversed(top)},
          {"hca-low", low},
          {"hca-high", tree(topo::PortSplit::kHcaHigh)},
          {"hca-low reversed", reversed(low)},
          {"top-first seed 1", topo::relabel(top, 1).net},
          {"top-first seed 2", topo::relabel(top, 2).net},
          {"hca-low seed 3", topo::relabel(low, 3).net}};
}

// Routes labelling l with keiro-nue at max_vls and checks its tables; ok is
// false, with the reason in problem, when reading, routing or the check fails.
fixtures::RouteCheck route_nue(const Labelling &l, int max_vls) {
  Fabric f;
  fixtures::RouteCheck rc;
  if (!io::parse_topology(topo::write_net_list(l.net), l.name, f, rc.problem)) {
    rc.ok = false;
    return rc;
  }
  const fixtures::EngineRun run =
      fixtures::run_captured(f, "keiro-nue", fixtures::RunArgs{.max_vls = max_vls});
  if (!run.ok) {
    rc.ok = false;
    rc.problem = run.last_line();
    return rc;
  }
  return fixtures::check_routes(f, run.out);
}

void expect_labelling_free(int max_vls) {
  int64_t lo = 0, hi = 0;
  for (const Labelling &l : labellings()) {
    const fixtures::RouteCheck rc = route_nue(l, max_vls);
    ASSERT_TRUE(rc.ok) << l.name << ": " << rc.problem;
    const int64_t efi = rc.max_efi;
    EXPECT_LE(efi, kMaxOverBound * kLeafBound) << l.name << ", max_vls=" << max_vls;
    lo = lo == 0 ? efi : std::min(lo, efi);
    hi = std::max(hi, efi);
    std::printf("  %-20s max_vls=%d: max EFI %lld\n", l.name.c_str(), max_vls,
                static_cast<long long>(efi));
  }
  EXPECT_LE(static_cast<double>(hi), kMaxSpread * static_cast<double>(lo)) << lo << ".." << hi;
}

TEST(NueLabelling, FatTreeBalanceOnOneVl) {
  expect_labelling_free(1);
}

TEST(NueLabelling, FatTreeBalanceOnEightVls) {
  expect_labelling_free(8);
}

// The 3-level folded Clos of issue 32 item 2: clos3 16 4 (4 pods of 8
// leaves and 8 middles, 16 tops, 256 HCAs; every top has 4 links into
// every pod). Leaf bound: 8 HCAs send to 248 others over 8 up-links, 248,
// which keiro-acro reaches in every labelling (docs/relabelling.md,
// clos3-survey). A top switch picks its middle switch into the
// destination's pod when it settles, before the sources behind it are
// known; the second pass over each tree (core/nue/tree_balance.h)
// re-chooses it farthest first. Measured (2026-11-27), max EFI in the 5
// labellings below: max_vls=1: 272 (1.097x) in all; max_vls=8: 272-280
// (1.13x); without the second pass 296-312 and 304, up to 320 (1.29x)
// over the survey's labellings. Bound 1.16x (the largest plus 2.5%). The
// small fabric has few destinations per leaf to even out; on clos3 32 8
// (bound 2,032) the pass gives 2,112-2,144 here (1.04-1.06x; without it
// 2,304-2,352), bound 1.08x; on clos3 64 8 1.03x (docs/nue.md).
constexpr int64_t kClosLeafBound = 248;
constexpr double kClosMaxOverBound = 1.16;
constexpr int64_t kClos32LeafBound = 2032;
constexpr double kClos32MaxOverBound = 1.08;

void expect_clos3_balance(int max_vls) {
  const topo::NetList top = topo::net_list(topo::gen_clos3(16, 4, topo::TopoOptions{}));
  const topo::NetList high = topo::net_list(
      topo::gen_clos3(16, 4, topo::TopoOptions{.port_split = topo::PortSplit::kHcaHigh}));
  const std::vector<Labelling> labs = {{"top-first", top},
                                       {"top-first reversed", reversed(top)},
                                       {"hca-high", high},
                                       {"top-first seed 1", topo::relabel(top, 1).net},
                                       {"hca-high seed 2", topo::relabel(high, 2).net}};
  for (const Labelling &l : labs) {
    const fixtures::RouteCheck rc = route_nue(l, max_vls);
    ASSERT_TRUE(rc.ok) << l.name << ": " << rc.problem;
    EXPECT_GE(rc.max_efi, kClosLeafBound) << l.name;  // nothing beats the leaf bound
    EXPECT_LE(rc.max_efi, kClosMaxOverBound * kClosLeafBound) << l.name << ", max_vls=" << max_vls;
    std::printf("  clos3 16 4 %-20s max_vls=%d: max EFI %lld\n", l.name.c_str(), max_vls,
                static_cast<long long>(rc.max_efi));
  }
  const topo::NetList big = topo::net_list(topo::gen_clos3(32, 8, topo::TopoOptions{}));
  for (const Labelling &l : std::vector<Labelling>{
           {"clos3 32 8", big}, {"clos3 32 8 seed 1", topo::relabel(big, 1).net}}) {
    const fixtures::RouteCheck rc = route_nue(l, max_vls);
    ASSERT_TRUE(rc.ok) << l.name << ": " << rc.problem;
    EXPECT_GE(rc.max_efi, kClos32LeafBound) << l.name;
    EXPECT_LE(rc.max_efi, kClos32MaxOverBound * kClos32LeafBound)
        << l.name << ", max_vls=" << max_vls;
    std::printf("  %-31s max_vls=%d: max EFI %lld\n", l.name.c_str(), max_vls,
                static_cast<long long>(rc.max_efi));
  }
}

TEST(NueLabelling, Clos3BalanceOnOneVl) {
  expect_clos3_balance(1);
}

TEST(NueLabelling, Clos3BalanceOnEightVls) {
  expect_clos3_balance(8);
}

}  // namespace
}  // namespace keiro
