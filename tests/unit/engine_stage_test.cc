// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// run_engine with a staging step that runs while the self-check runs
// (core/engine.h): the stage sees the routed tables, and a failed check or a
// failed stage makes run_engine fail with stage_ran set, so that the caller
// withdraws what it staged.
#include <gtest/gtest.h>

#include "core/check/verify.h"
#include "core/engine.h"
#include "tests/unit/small_fabrics.h"

namespace keiro {
namespace {

Fabric fabric() {
  Fabric f = testfab::two_switches();
  assign_lids(f, 0);
  f.finalize();
  return f;
}

// An "engine" that routes nothing: every LFT entry drops.
bool route_nothing(const EngineInput &in, Routing &out, EngineReport &) {
  out.reset(in.fabric);
  return true;
}

TEST(EngineStage, StageSeesTheTablesAndSucceedsWithTheCheck) {
  const Fabric f = fabric();
  const EngineDesc *nue = find_engine("keiro-nue");
  ASSERT_NE(nue, nullptr);
  Options o;
  CaptureLogger log;
  EngineInput in{f, o, log, 2, 16, true};
  Routing r;
  EngineReport rep;
  CheckResult check;
  int64_t staged_entries = 0;
  bool ran = false;
  const StageFn stage = [&](const Routing &t) {
    for (int32_t s = 0; s < f.num_switches(); ++s)
      for (uint16_t lid : f.lids()) staged_entries += t.out_port(s, lid) != kNoPort;
    return true;
  };
  EXPECT_TRUE(run_engine(*nue, in, r, rep, &check, stage, &ran));
  EXPECT_TRUE(ran);
  EXPECT_TRUE(check.ok);
  EXPECT_EQ(staged_entries, static_cast<int64_t>(f.num_switches()) * f.lids().size());
  EXPECT_EQ(log.count(LogLevel::kError), 0);
}

TEST(EngineStage, FailedCheckFailsAfterStaging) {
  const Fabric f = fabric();
  const EngineDesc bad{"nothing", "keiro-nothing", route_nothing, "drops everything"};
  Options o;
  CaptureLogger log;
  EngineInput in{f, o, log, 1, 16, true};
  Routing r;
  EngineReport rep;
  bool ran = false;
  int stages = 0;
  EXPECT_FALSE(run_engine(
      bad, in, r, rep, nullptr, [&](const Routing &) { return ++stages > 0; }, &ran));
  EXPECT_TRUE(ran);  // the caller has to withdraw
  EXPECT_EQ(stages, 1);
  ASSERT_EQ(log.count(LogLevel::kError), 1);
  EXPECT_TRUE(log.contains("keiro-nothing: self-check failed, tables not installed"));
}

TEST(EngineStage, FailedStageFailsTheRun) {
  const Fabric f = fabric();
  Options o;
  CaptureLogger log;
  EngineInput in{f, o, log, 1, 16, true};
  Routing r;
  EngineReport rep;
  bool ran = false;
  EXPECT_FALSE(run_engine(
      *find_engine("nue"), in, r, rep, nullptr, [](const Routing &) { return false; }, &ran));
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace keiro
