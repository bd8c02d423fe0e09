// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// pipeline::route with a staging step that runs while the self-check runs
// (core/engine/engine.h): the stage sees the routed tables, and a failed check or a
// failed stage makes pipeline::route fail with stage_ran set, so that the caller
// withdraws what it staged.
#include <gtest/gtest.h>

#include "core/check/verify.h"
#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// One run's inputs and outputs on the two-switch fabric with k VLs.
struct StageRun {
  explicit StageRun(int k) : in{f, o, log, k, 16, true} {}
  Fabric f = fixtures::two_switches_finalized();
  Options o = all_options();
  CaptureLogger log;
  EngineInput in;
  Routing r;
  EngineReport rep;
  bool ran = false;
};

// An "engine" that routes nothing: every LFT entry drops.
bool route_nothing(const EngineInput &in, Routing &out, EngineReport &) {
  out.reset(in.fabric);
  return true;
}

TEST(EngineStage, StageSeesTheTablesAndSucceedsWithTheCheck) {
  StageRun t(2);
  const Fabric &f = t.f;
  const EngineDesc *nue = find_engine("keiro-nue");
  ASSERT_NE(nue, nullptr);
  check::Result check;
  int64_t staged_entries = 0;
  const pipeline::StageFn stage = [&](const Routing &tables) {
    for (int32_t s = 0; s < f.num_switches(); ++s)
      for (uint16_t lid : f.lids()) staged_entries += tables.out_port(s, lid) != kNoPort;
    return true;
  };
  EXPECT_TRUE(pipeline::route(*nue, t.in, t.r, t.rep, {nullptr, &check, stage, &t.ran}));
  EXPECT_TRUE(t.ran);
  EXPECT_TRUE(check.ok);
  EXPECT_EQ(staged_entries, static_cast<int64_t>(f.num_switches()) * f.lids().size());
  EXPECT_EQ(t.log.count(LogLevel::kError), 0);
}

TEST(EngineStage, FailedCheckFailsAfterStaging) {
  StageRun t(1);
  const EngineDesc bad{"nothing", "keiro-nothing", route_nothing, "drops everything", {}};
  int stages = 0;
  EXPECT_FALSE(
      pipeline::route(bad, t.in, t.r, t.rep,
                      {nullptr, nullptr, [&](const Routing &) { return ++stages > 0; }, &t.ran}));
  EXPECT_TRUE(t.ran);  // the caller has to withdraw
  EXPECT_EQ(stages, 1);
  ASSERT_EQ(t.log.count(LogLevel::kError), 1);
  EXPECT_TRUE(t.log.contains("keiro-nothing: self-check failed, tables not installed"));
}

TEST(EngineStage, FailedStageFailsTheRun) {
  StageRun t(1);
  EXPECT_FALSE(pipeline::route(*find_engine("nue"), t.in, t.r, t.rep,
                               {nullptr, nullptr, [](const Routing &) { return false; }, &t.ran}));
  EXPECT_TRUE(t.ran);
}

}  // namespace
}  // namespace keiro
