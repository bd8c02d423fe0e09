// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fixed-SL stage of the pipeline (core/pipeline/pipeline.h): option
// fixed_sl=N for every engine (docs/fixed-sl.md): tables that are
// deadlock free for the SA's path SLs, for all traffic on SL N (MPI through
// UCX_IB_SL / NCCL_IB_SL never asks the SA), and for any mix of the two.
//
// Design: the two kinds of traffic get disjoint VL sets on switch-to-switch
// links. The engine routes with the VL budget minus K VLs and with SLs other
// than N (its SLs are renamed around N: Routing::permute_sls); path_sl never
// answers N. SL N is realized on the engine's own routes with K VLs through
// SL2VL entries that depend on (switch, in port, out port) -- one SL can
// still change VL along a path: ACRO's layers on the routes (as destination
// trees) realized with one SL (core/layers/realize.h, vlmap with max_sls 1),
// shifted above the engine's VLs. Each VL set is acyclic on its own and
// they share no (channel, VL) vertex, so any mix is acyclic. When the
// engine's tables use a single VL on every switch-to-switch hop, SL N simply
// takes that VL (the same dependency graph): one VL in all.
//
// Search (the pipeline's loop, the only code that routes the engine; this
// file realizes SL N on each attempt's routes): engine VLs E = budget - 1 first (K = 1), then fewer
// while SL N's realization fails (skipping to budget - ACRO's layer count when ACRO says how many
// it needs); E = 1 always ends the search when the engine can route on one VL. An engine that
// fails with E > 1 is tried once more with E = 1. The run with E = 1 sets
// EngineInput::one_vl_routes: routes that one VL makes deadlock free (keiro-acro and keiro-loren
// route up*/down* then; keiro-nue tries more destination orders). SL N's realization
// is tried only up to 500,000 (source switch, destination) paths (its memory); beyond, straight to
// E = 1. Every attempt's log lines are held back; only the winning attempt's are passed on,
// followed by one INFO line about the split.
//
// Errors: exactly one ERROR line (max_sls < 2; the engine fails with the VLs
// left; no split works), false.
// Time: up to budget - 1 engine runs, each followed by ACRO on the routes
// (one destination per distinct LFT column) and the one-SL realization (its
// per-path repair capped at one placement per path); 1 or
// 2 engine runs beyond the path cap (a 1,000-switch fabric with 9,000 LIDs:
// keiro-nue at budget - 1 VLs, then on 1 VL).
// Memory: the trees (K * S next hops) and a second Routing for SL N's
// realization while it runs.
#pragma once

#include <array>
#include <string>

#include "core/engine/engine.h"
#include "core/log.h"
#include "core/pipeline/settings.h"

namespace keiro::pipeline {

// The search's state: the SL, the whole VL budget, the engine's SLs, the
// renaming of the engine's SLs around sl, the VLs the next engine run gets,
// the attempt number and why the last attempt's SL sl did not fit.
struct FixedSlPlan {
  int sl = 0;
  int budget = 1;
  int engine_sls = 15;
  std::array<uint8_t, kNumSls> to{};
  int engine_vls = 1;
  int attempt = 0;
  std::string why;
};

// What the stage did, typed (facts fixed_sl, sa_vls, fixed_sl_vls,
// fixed_sl_first_vl, fixed_sl_attempts; core/pipeline/report.h).
struct FixedSlResult {
  int sl = -1;  // -1: the stage did not run
  int sa_vls = 0, fixed_sl_vls = 0, first_vl = 0, attempts = 0;
  std::string how;  // "VLs 3..4 of its own through ..." for the INFO line
};

enum class FitOutcome {
  kDone,    // out holds the engine's routes with SL sl realized (SLs renamed)
  kRetry,   // route the engine again with plan.engine_vls VLs
  kGiveUp,  // no split works (no_split_text)
  kError,   // err says why
};

// Starts the search: false (err) when max_sls < 2.
bool plan_fixed_sl(const EngineInput &in, int sl, FixedSlPlan &p, std::string &err);
// Realizes SL p.sl on the engine's routes in out (routed with p.engine_vls
// VLs and p.engine_sls SLs), as the design above says.
FitOutcome fit_fixed_sl(const Fabric &f, const Settings &s, FixedSlPlan &p, Logger &log,
                        const char *name, Routing &out, FixedSlResult &res, std::string &err);

// The ERROR texts (without the engine's name) and the INFO line of a split.
std::string engine_failed_text(const FixedSlPlan &p, const std::string &engine_error);
std::string no_split_text(const FixedSlPlan &p);
void log_fixed_sl(Logger &log, const char *name, const FixedSlPlan &p, const FixedSlResult &r);

// An attempt's lines are held back; only the winning attempt's are passed
// on. HeldLogger wants the levels the target wants.
class HeldLogger : public CaptureLogger {
 public:
  explicit HeldLogger(const Logger &target) : target_(target) {}
  bool enabled(LogLevel level) const override { return target_.enabled(level); }

 private:
  const Logger &target_;
};
// Passes on the held lines the target wants; the ERROR lines only if errors.
void replay(const HeldLogger &held, Logger &to, bool errors);
// The text of the first ERROR line held, without its "<engine>: " prefix.
std::string held_error(const HeldLogger &held, const char *engine);

}  // namespace keiro::pipeline
