// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The incremental re-route's LID classes (core/reroute/incremental.h): pass 1
// walks one column per class of LIDs with the same previous routes and SLs
// and writes the LFTs switch by switch; pass 2 copies the choices of a
// class's first LID to the others when that LID took the first choice
// everywhere. Differential: every table, SL and count must equal those of
// the reference passes (incremental_reroute_lid_major: each LID walked on
// its own, as before the classes), after link and switch failures, from
// the last-hop guide of step 0 and from the engine's fresh routing, strict
// and relaxed.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "core/reroute/incremental.h"
#include "core/reroute/previous_sls.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

bool route(const Fabric &f, const char *engine, Routing &r, int max_vls,
           const std::string &opts = "") {
  Options o = all_options();
  std::string err;
  if (!Options::parse(opts, o, err)) return false;
  CaptureLogger log;
  EngineInput in{f, o, log, max_vls, 16, true};
  EngineReport rep;
  return pipeline::route(*find_engine(engine), in, r, rep, pipeline::RouteExtras{});
}

// Step 0's guide: the last hops only.
Routing last_hops(const Fabric &f) {
  Routing g;
  g.reset(f, Routing::SlScope::kPerSourceSwitch);
  for (const uint16_t lid : f.lids()) {
    const LidOwner o = f.lid_owner(lid);
    g.set_out_port(f.lid_switch(lid), lid,
                   o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : uint8_t{0});
  }
  return g;
}

// The first difference between a and b on f ("" when none): LFTs, path
// SLs, SL2VL of every switch and terminal, VLs and SLs used.
std::string first_difference(const Fabric &f, const Routing &a, const Routing &b) {
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    for (const uint16_t lid : f.lids()) {
      if (a.out_port(s, lid) != b.out_port(s, lid))
        return "LFT of switch " + std::to_string(s) + " to LID " + std::to_string(lid);
      if (a.path_sl(s, lid) != b.path_sl(s, lid))
        return "SL of switch " + std::to_string(s) + " to LID " + std::to_string(lid);
    }
    const unsigned ports = f.sw(s).num_ports + 1u;
    for (unsigned in = 0; in < ports; ++in)
      for (unsigned o = 0; o < ports; ++o)
        for (unsigned sl = 0; sl < kNumSls; ++sl) {
          const auto i = static_cast<uint8_t>(in), p = static_cast<uint8_t>(o);
          if (a.vl(s, i, p, static_cast<uint8_t>(sl)) != b.vl(s, i, p, static_cast<uint8_t>(sl)))
            return "SL2VL of switch " + std::to_string(s);
        }
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    for (unsigned sl = 0; sl < kNumSls; ++sl)
      if (a.terminal_vl(t, static_cast<uint8_t>(sl)) != b.terminal_vl(t, static_cast<uint8_t>(sl)))
        return "SL2VL of terminal " + std::to_string(t);
  if (a.vls_used != b.vls_used || a.sls_used != b.sls_used) return "VLs or SLs used";
  return "";
}

struct Totals {
  int cases = 0, taken = 0;
  int64_t changed_paths = 0, replayed = 0;
};

// Both passes on one failure; expects the same outcome, tables and counts.
void compare(const Fabric &f1, const PreviousSls &prev, const Routing &fresh, int max_vls,
             bool relax, Totals &tot) {
  Routing a, b;
  IncrementalStats sa, sb;
  const bool oka = incremental_reroute(f1, prev, fresh, max_vls, 16, a, sa, relax, relax);
  const bool okb = incremental_reroute_lid_major(f1, prev, fresh, max_vls, 16, b, sb, relax, relax);
  ++tot.cases;
  ASSERT_EQ(oka, okb) << sa.why << " | " << sb.why;
  EXPECT_EQ(sa.why, sb.why);
  EXPECT_EQ(sa.kept_entries, sb.kept_entries);
  EXPECT_EQ(sa.repaired_entries, sb.repaired_entries);
  EXPECT_EQ(sa.changed_paths, sb.changed_paths);
  EXPECT_EQ(sa.new_pairs, sb.new_pairs);
  EXPECT_EQ(sa.new_dependencies, sb.new_dependencies);
  EXPECT_EQ(sa.sl_changed_paths, sb.sl_changed_paths);
  EXPECT_EQ(sa.stale_dropped, sb.stale_dropped);
  EXPECT_EQ(sa.stale_delivered, sb.stale_delivered);
  EXPECT_EQ(sa.stale_unsafe, sb.stale_unsafe);
  EXPECT_EQ(sb.replayed_lids, 0);
  if (!oka) return;
  ++tot.taken;
  tot.changed_paths += sa.changed_paths;
  tot.replayed += sa.replayed_lids;
  EXPECT_EQ(first_difference(f1, a, b), "");
}

// Every 5th link and every 9th switch of f0 (first routed by engine) fails
// on its own; both passes from the last-hop guide and from the engine's
// fresh routing of the failed fabric.
Totals failures(const Fabric &f0, const char *engine, int max_vls, bool relax,
                const std::string &opts = "") {
  Totals tot;
  Routing r0;
  EXPECT_TRUE(route(f0, engine, r0, max_vls, opts));
  const PreviousSls prev = capture_previous_sls(f0, r0);
  auto one = [&](int32_t sw, int32_t ch) {
    const Fabric f1 = fixtures::without(f0, sw, ch);
    compare(f1, prev, last_hops(f1), max_vls, relax, tot);
    Routing fresh;
    if (route(f1, engine, fresh, max_vls, opts)) compare(f1, prev, fresh, max_vls, relax, tot);
  };
  int k = 0;
  for (int32_t c = 0; c < f0.num_channels(); ++c)
    if (c < f0.channel(c).reverse && k++ % 5 == 0) one(-1, c);
  for (int32_t s = 0; s < f0.num_switches(); s += 9) one(s, -1);
  return tot;
}

TEST(IncrementalClasses, SameTablesAsPerLidPassesAfterLinkAndSwitchFailures) {
  // 3 CAs per switch: with one tree per switch (acro_per_lid=0, as
  // keiro-acro routes large fabrics) classes of 4 LIDs, the switch's and its
  // CAs'; with one tree per LID (keiro-acro's default here, keiro-dl) most
  // classes hold one LID.
  const Fabric torus = fixtures::generated_torus({4, 4, 4}, 3);
  struct Case {
    const char *engine, *opts;
    int64_t min_replayed;
  };
  for (const Case &c :
       {Case{"acro", "acro_per_lid=0", 100}, Case{"acro", "", 0}, Case{"dl", "", 0}}) {
    SCOPED_TRACE(std::string(c.engine) + " " + c.opts);
    const Totals tot = failures(torus, c.engine, 8, false, c.opts);
    std::printf("%s %s: %d of %d cases taken, %lld changed paths, %lld LIDs replayed\n", c.engine,
                c.opts, tot.taken, tot.cases, static_cast<long long>(tot.changed_paths),
                static_cast<long long>(tot.replayed));
    EXPECT_GT(tot.taken, tot.cases / 2);
    EXPECT_GT(tot.changed_paths, 1000);
    EXPECT_GE(tot.replayed, c.min_replayed);  // the copy is exercised, not only the walks
  }
}

TEST(IncrementalClasses, SameTablesAsPerLidPassesRelaxed) {
  // keiro-dl at 4 VLs without spare SLs: paths that fit no next hop with
  // their SL take another one (relax) and stale SLs are dropped.
  const Fabric torus = fixtures::from_links(64, fixtures::torus_links(4, 4, 4), {.hcas = 2});
  for (const char *opts : {"spread_sls=0", "spread_sls=0 acro_per_lid=0"}) {
    const char *engine = std::string(opts).find("acro") == std::string::npos ? "dl" : "acro";
    SCOPED_TRACE(engine);
    const Totals tot = failures(torus, engine, engine[0] == 'd' ? 4 : 2, true, opts);
    std::printf("%s relaxed (%s): %d of %d cases taken, %lld LIDs replayed\n", engine, opts,
                tot.taken, tot.cases, static_cast<long long>(tot.replayed));
    EXPECT_GT(tot.taken, 0);
  }
}

}  // namespace
}  // namespace keiro
