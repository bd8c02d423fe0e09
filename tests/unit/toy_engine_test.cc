// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The walk-through of docs/architecture.md ("Adding an engine"): a toy
// engine defined the way the four are -- typed options, typed result, the
// three steps, define_engine<>() -- and routed through the pipeline, which
// gives it the self-check, option fixed_sl and SL-stable re-routing without
// a line of its own. The toy routes up*/down* along a BFS spanning tree
// (fixtures::route_tree); a broken twin routes a ring one way round, whose
// credit loop the pipeline's self-check must refuse.
#include <gtest/gtest.h>

#include <string>

#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "core/reroute/previous_sls.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

namespace toy {

constexpr const char *kName = "keiro-toy";

struct ToyOptions {
  bool one_way_ring = false;  // the broken twin
};
struct ToyResult {
  int32_t switches = 0;
};

bool read(const EngineInput &, ToyOptions &) {
  return true;
}
bool read_broken(const EngineInput &, ToyOptions &o) {
  o.one_way_ring = true;
  return true;
}

bool run(const EngineInput &in, const ToyOptions &o, Routing &out, ToyResult &res) {
  out = o.one_way_ring ? fixtures::route_ring(in.fabric, true) : fixtures::route_tree(in.fabric);
  res.switches = in.fabric.num_switches();
  return true;
}

void report(const EngineInput &in, const ToyResult &res, EngineReport &rep) {
  rep.add("tree_switches", static_cast<long>(res.switches));
  in.log.logf(LogLevel::kInfo, "%s: routed %d switches", kName, res.switches);
}

constexpr EngineSteps<ToyOptions, ToyResult> kSteps = {kName, Routing::SlScope::kPerDestination,
                                                       read, run, report};
constexpr EngineSteps<ToyOptions, ToyResult> kBrokenSteps = {
    kName, Routing::SlScope::kPerDestination, read_broken, run, report};
constinit const EngineDesc kEngine =
    define_engine<kSteps>("toy", "up*/down* on a BFS spanning tree", {});
constinit const EngineDesc kBroken =
    define_engine<kBrokenSteps>("toy", "a ring routed one way round", {});

}  // namespace toy

struct ToyRun {
  CaptureLogger log;
  Routing out;
  EngineReport rep;
  check::Result check;
  pipeline::StageResults stages;
  bool ok = false;
};

void route(const EngineDesc &e, const Fabric &f, const std::string &opts, ToyRun &run,
           const PreviousSls *previous = nullptr) {
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse(opts, o, err)) << err;
  const EngineInput in{f, o, run.log, 4, 16, true};
  pipeline::RouteExtras x;
  x.previous = previous;
  x.check_out = &run.check;
  x.stages = &run.stages;
  run.ok = pipeline::route(e, in, run.out, run.rep, x);
}

// The toy routed through the pipeline on a ring of 6 switches with options
// opts: it must succeed, and the log must hold info exactly once.
ToyRun routed_ring(const std::string &opts, const std::string &info) {
  const Fabric f = fixtures::ring(6, {.hcas = 1});
  ToyRun run;
  route(toy::kEngine, f, opts, run);
  EXPECT_TRUE(run.ok) << (run.log.lines.empty() ? "" : run.log.lines.back().text);
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  EXPECT_EQ(fixtures::count_containing(run.log, LogLevel::kInfo, info), 1) << info;
  return run;
}

TEST(ToyEngine, DefineEngineMakesARegistryEntry) {
  EXPECT_STREQ(toy::kEngine.name, "toy");
  EXPECT_STREQ(toy::kEngine.osm_name, "keiro-toy");
  EXPECT_TRUE(toy::kEngine.options.empty());
  EXPECT_EQ(find_engine("toy"), nullptr);  // registered only by a registry line
}

TEST(ToyEngine, FirstRoutingIsCheckedByThePipeline) {
  const ToyRun run = routed_ring("", "keiro-toy: fixed-SL safety: also deadlock free");
  EXPECT_EQ(run.out.engine, "keiro-toy");
  ASSERT_NE(run.rep.result<toy::ToyResult>(), nullptr);
  EXPECT_EQ(run.rep.result<toy::ToyResult>()->switches, 6);
  EXPECT_EQ(run.rep.get("tree_switches"), "6");  // its report step's fact
  EXPECT_TRUE(run.check.ok);
  EXPECT_EQ(run.check.vls_used, 1);
}

TEST(ToyEngine, FixedSlComesFromThePipeline) {
  const ToyRun run = routed_ring("fixed_sl=3",
                                 "keiro-toy: fixed-SL safety: deadlock free with the SA's SLs, "
                                 "with every path on SL 3");
  EXPECT_EQ(run.stages.fixed.sl, 3);
  EXPECT_EQ(run.stages.fixed.sa_vls, 1);
  EXPECT_EQ(run.stages.fixed.attempts, 1);
  // Every path's SL is renamed around SL 3, and SL 3 takes the engine's VL.
  const Fabric ring = fixtures::ring(6, {.hcas = 1});
  for (uint16_t lid : ring.lids()) EXPECT_NE(run.out.path_sl(0, lid), 3) << lid;
}

TEST(ToyEngine, ReRoutingComesFromThePipeline) {
  const Fabric before = fixtures::ring(6, {.hcas = 1});
  ToyRun first;
  route(toy::kEngine, before, "", first);
  ASSERT_TRUE(first.ok);
  const PreviousSls prev = capture_previous_sls(before, first.out);
  // One ring link gone: the same switches, GUIDs and LIDs on a line; every
  // (source LID, destination LID) pair of the 12 LIDs survives.
  const Fabric after =
      fixtures::from_links(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}, {.hcas = 1});
  ToyRun again;
  route(toy::kEngine, after, "", again, &prev);
  ASSERT_TRUE(again.ok) << again.log.lines.back().text;
  ASSERT_TRUE(again.stages.rerouted);
  EXPECT_EQ(again.stages.reroute.previous_pairs, 12 * 11);
  EXPECT_EQ(again.stages.reroute.sls_kept, "yes");
}

TEST(ToyEngine, ABrokenEngineIsRefusedWithOneErrorLine) {
  const Fabric f = fixtures::ring(6, {.hcas = 1});
  ToyRun run;
  route(toy::kBroken, f, "", run);
  EXPECT_FALSE(run.ok);
  EXPECT_FALSE(run.check.ok);
  ASSERT_EQ(run.log.count(LogLevel::kError), 1);
  EXPECT_NE(run.log.lines.back().text.find("keiro-toy: self-check failed, tables not installed"),
            std::string::npos)
      << run.log.lines.back().text;
}

}  // namespace
}  // namespace keiro
