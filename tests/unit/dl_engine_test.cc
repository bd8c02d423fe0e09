// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl as an engine: every restriction and policy through pipeline::route
// (route + self-check) with the DL rules checked on the realized SLs and
// SL2VL, the options, the facts it reports, and its clean failures (one
// ERROR line each).
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/dl/dl.h"
#include "core/dl/engine.h"
#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

template <class Run>
const dl::EngineResult &dl_of(const Run &run) {
  return fixtures::result_of<dl::EngineResult>(run);
}

using DlRun = fixtures::EngineRun;

void route(const Fabric &f, const std::string &opts, int vls, DlRun &run, int sls = 16) {
  run = fixtures::run_captured(f, "keiro-dl", {.opts = opts, .max_vls = vls, .max_sls = sls});
}

std::string last_line(const DlRun &run) {
  return run.last_line();
}

// A clean refusal: keiro-dl run with opts on vls VLs and sls SLs fails with
// exactly one ERROR line, and the log says each of `says`. Wrap in
// ASSERT_NO_FATAL_FAILURE where the caller goes on with run.
void expect_refused(DlRun &run, const Fabric &f, const std::string &opts, int vls,
                    const std::vector<std::string> &says, int sls = 16) {
  SCOPED_TRACE("options '" + opts + "', " + std::to_string(vls) + " VLs, " + std::to_string(sls) +
               " SLs");
  route(f, opts, vls, run, sls);
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  for (const std::string &s : says)
    EXPECT_TRUE(run.log.contains(s)) << "no '" << s << "' in: " << last_line(run);
}

// The irregular 8-switch fabric of the refusal tests, one CA per switch.
Fabric irregular8() {
  return fixtures::from_links(8, fixtures::random_irregular_links(8, 3, 1), {.hcas = 1});
}

// The typed half of the engine (dl::read_options + dl::run, no report and no
// self-check): the numbers as numbers.
struct TypedRun {
  bool ok = false;
  Routing r;
  dl::EngineResult res;
  CaptureLogger log;
};

void run_typed(const Fabric &f, const std::string &opts, int vls, TypedRun &run) {
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse(opts, o, err)) << err;
  EngineInput in{f, o, run.log, vls, 16, true};
  dl::EngineOptions eo;
  run.ok = dl::read_options(in, eo) && dl::run(in, eo, run.r, run.res);
}

// The SLs the paths use (path SL of every (source switch, LID)).
int sls_used(const Fabric &f, const Routing &r) {
  std::set<int> sls;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (const uint16_t lid : f.lids()) sls.insert(r.path_sl(s, lid));
  return static_cast<int>(sls.size());
}

TEST(DlEngine, Registered) {
  const EngineDesc *e = find_engine("dl");
  ASSERT_NE(e, nullptr);
  EXPECT_STREQ(e->osm_name, "keiro-dl");
  EXPECT_EQ(e->route, dl::kEngine.route);
}

TEST(DlEngine, EveryRestrictionAndPolicyIsDeadlockFree) {
  const Fabric f =
      fixtures::from_links(32, fixtures::random_irregular_links(32, 4, 11), {.hcas = 2});
  for (const char *rs : {"ud", "ud-du", "ud-dudu"})
    for (const char *pol : {"load", "random", "lowport"})
      for (int vls : {2, 3}) {
        DlRun run;
        route(f, std::string("dl_restriction=") + rs + " dl_policy=" + pol, vls, run);
        ASSERT_TRUE(run.ok) << rs << " " << pol << ": " << last_line(run);
        EXPECT_EQ(run.log.count(LogLevel::kError), 0);
        // pipeline::route's self-check passed (run.ok); the independent walker
        // gives the figures the report must match.
        const fixtures::RouteCheck c = fixtures::check_routes(f, run.out);
        EXPECT_TRUE(c.ok) << c.problem;
        EXPECT_LE(c.vls, vls);
        const int32_t root = dl::default_root(f);
        EXPECT_EQ(fixtures::check_dl_rules(f, run.out, root, rs, vls), "") << rs << " " << pol;
        EXPECT_EQ(run.rep.get("policy"), pol);  // the report's word for the policy
        EXPECT_EQ(dl_of(run).options.dl.layers, vls);
        EXPECT_EQ(dl_of(run).vls_used, c.vls);
        // The report's count, after the pipeline's SL spreading.
        EXPECT_EQ(std::stoi(run.rep.get("sls_used")), sls_used(f, run.out));
        EXPECT_NEAR(dl_of(run).avg_hops, c.avg_hops, 1e-6);
        EXPECT_EQ(dl_of(run).max_efi, c.max_efi);
        EXPECT_EQ(dl_of(run).root, root);
      }
}

// Exact (each hop on its layer's VL) and free realizations: both pass the
// check and the DL rules; free never needs more SLs here.
TEST(DlEngine, ExactAndFreeVlChoice) {
  const Fabric f =
      fixtures::from_links(64, fixtures::random_irregular_links(64, 4, 5), {.hcas = 4});
  int sls[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    DlRun run;
    route(f, i ? "dl_vl_choice=free" : "dl_vl_choice=exact", 3, run);
    ASSERT_TRUE(run.ok) << last_line(run);
    EXPECT_EQ(dl_of(run).options.exact, i == 0);
    EXPECT_EQ(fixtures::check_dl_rules(f, run.out, dl::default_root(f), "ud", 3), "");
    sls[i] = dl_of(run).sls_used;
  }
  std::printf("64 switches, 3 VLs: SLs exact %d, free %d\n", sls[0], sls[1]);
  EXPECT_LE(sls[1], sls[0]);
}

TEST(DlEngine, RootByNameOrGuid) {
  const Fabric f =
      fixtures::from_links(16, fixtures::random_irregular_links(16, 4, 2), {.hcas = 1});
  DlRun byname, byguid;
  route(f, "dl_root=S5", 2, byname);
  ASSERT_TRUE(byname.ok) << last_line(byname);
  EXPECT_EQ(f.sw(dl_of(byname).root).name, "S5");
  route(f, "dl_root=0x1005", 2, byguid);
  ASSERT_TRUE(byguid.ok) << last_line(byguid);
  EXPECT_EQ(dl_of(byname).root, dl_of(byguid).root);
  EXPECT_EQ(fixtures::check_dl_rules(f, byname.out, 5, "ud", 2), "");
}

// With one VL, DL is destination-based up*/down*: VL 0 and SL 0 only.
TEST(DlEngine, OneVlIsUpDown) {
  const Fabric f =
      fixtures::from_links(32, fixtures::random_irregular_links(32, 4, 4), {.hcas = 2});
  TypedRun run;
  run_typed(f, "", 1, run);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.res.layers_needed, 1);
  EXPECT_EQ(run.res.vls_used, 1);
  EXPECT_EQ(run.res.sls_used, 1);
  EXPECT_EQ(run.r.vls_used, 1);
  EXPECT_EQ(run.r.sls_used, 1);
  const int32_t root = dl::default_root(f);
  EXPECT_EQ(fixtures::check_dl_rules(f, run.r, root, "ud", 1), "");
  // The same path lengths as a plain destination-based up*/down* routing
  // from that root (the oracle, as OpenSM's updn: docs/dl.md).
  const fixtures::RouteCheck dl1 = fixtures::check_routes(f, run.r);
  const fixtures::RouteCheck updn = fixtures::check_routes(f, fixtures::updown_routing(f, root));
  ASSERT_TRUE(dl1.ok) << dl1.problem;
  ASSERT_TRUE(updn.ok) << updn.problem;
  EXPECT_NEAR(dl1.avg_hops, updn.avg_hops, 1e-9);
  EXPECT_EQ(dl1.max_hops, updn.max_hops);
}

// Every LID is routed: LMC 2 on the CAs, switch LIDs too (the self-check
// covers every LID in use).
TEST(DlEngine, LmcAndSwitchLids) {
  const Fabric f = fixtures::from_links(16, fixtures::torus_links(4, 4), {.hcas = 2, .lmc = 2});
  TypedRun run;
  run_typed(f, "dl_subnets=2", 4, run);
  ASSERT_TRUE(run.ok);
  const check::Result c = check::verify(f, run.r);
  EXPECT_TRUE(c.ok) << c.first_problem;
  EXPECT_EQ(c.pairs_checked, static_cast<int64_t>(f.lids().size()) * (f.lids().size() - 1) -
                                 // pairs of LIDs of the same CA port are not checked
                                 static_cast<int64_t>(f.num_terminals()) * 4 * 3);
  EXPECT_EQ(run.res.options.dl.layers, 2);
  EXPECT_LE(run.res.vls_used, 2);
}

TEST(DlEngine, MoreSubnetworksThanVlsFails) {
  const Fabric f = irregular8();
  DlRun run;
  expect_refused(run, f, "dl_subnets=3", 2, {"dl_subnets=3", "only 2 VLs"});
  expect_refused(run, f, "dl_subnets=2", 1, {"only 1 VL is"});
}

TEST(DlEngine, UnknownRootFails) {
  DlRun run;
  expect_refused(run, irregular8(), "dl_root=nowhere", 2, {"dl_root 'nowhere'"});
}

// Two switches share the node description 'twin': naming the root by it is
// ambiguous, so keiro-dl refuses (Fabric::find_switch) with one ERROR line
// that says so and points to the GUID; the GUID of either works.
TEST(DlEngine, AmbiguousRootDescriptionFails) {
  const Fabric f = fixtures::from_links(
      8, fixtures::random_irregular_links(8, 3, 1),
      {.hcas = 1, .names = {"S0", "twin", "S2", "S3", "twin", "S5", "S6", "S7"}});
  DlRun run;
  ASSERT_NO_FATAL_FAILURE(expect_refused(run, f, "dl_root=twin", 2, {}));
  EXPECT_EQ(last_line(run),
            "keiro-dl: dl_root 'twin' is the node description of 2 switches (e.g. 'twin' "
            "(0x0000000000001001) and another): name the switch by its GUID");
  TypedRun byguid;
  run_typed(f, "dl_root=0x1004", 2, byguid);
  ASSERT_TRUE(byguid.ok);
  EXPECT_EQ(byguid.res.root, 4);
}

TEST(DlEngine, DisconnectedFabricFails) {
  DlRun run;
  expect_refused(run, fixtures::from_links(6, {{0, 1}, {1, 2}, {3, 4}, {4, 5}}, {.hcas = 1}), "", 2,
                 {"not connected"});
}

// Three sub-networks with each hop pinned to its layer's VL and one SL: the
// SL2VL entries of different destinations clash, so the realization fails
// cleanly.
TEST(DlEngine, TooFewSlsFails) {
  DlRun run;
  expect_refused(run,
                 fixtures::from_links(64, fixtures::random_irregular_links(64, 4, 1), {.hcas = 4}),
                 "dl_vl_choice=exact", 3, {"SL budget"}, 1);
}

// The 7x7x7 torus (no HCAs) with 4 VLs and 5 SLs: the balanced next hops
// cross in too many ways for 5 SLs; keiro-dl says so in one INFO line and
// routes again with consistent next hops (path_select.h), which fit.
// Measured 2026-11-25: 5 SLs used.
TEST(DlEngine, ConsistentNextHopsWhenTheBalancedOnesDoNotFitTheSls) {
  const Fabric f = fixtures::generated_torus({7, 7, 7}, 0);
  DlRun run;
  route(f, "", 4, run, 5);
  ASSERT_TRUE(run.ok) << last_line(run);
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  EXPECT_TRUE(run.log.contains("routing again with consistent next hops"));
  EXPECT_TRUE(run.log.contains("got no SL with 5 SLs and 4 VLs"));
  EXPECT_TRUE(dl_of(run).consistent);
  EXPECT_LE(run.out.sls_used, 5);
  EXPECT_LE(run.out.vls_used, 4);
  EXPECT_EQ(fixtures::credit_loop_problem(f, run.out), "");
  // With the default budget the balanced next hops fit: no second routing.
  DlRun wide;
  route(f, "", 8, wide, 16);
  ASSERT_TRUE(wide.ok) << last_line(wide);
  EXPECT_FALSE(dl_of(wide).consistent);
  EXPECT_FALSE(wide.log.contains("routing again"));
}

// When neither fits, one ERROR line says both were tried. (With 3 SLs the
// balanced next hops fit since the rip-up pass places whole-switch trees
// with the sources expected from behind, two passes: 2 SLs here.)
TEST(DlEngine, NeitherNextHopsFitTheSlsFailsWithOneErrorLine) {
  const Fabric f = fixtures::generated_torus({6, 6, 6}, 2);
  DlRun run;
  expect_refused(run, f, "", 8,
                 {"SL budget", "also with consistent next hops", "got no SL with 2 SLs"}, 2);
}

}  // namespace
}  // namespace keiro
