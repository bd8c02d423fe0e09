// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The produce stages of the pipeline (core/pipeline/pipeline.h), each the
// engine call(s) of one case and what follows them; internal to
// core/pipeline/. Each logs exactly one ERROR line when it returns false.
#pragma once

#include "core/engine/engine.h"
#include "core/pipeline/report.h"
#include "core/pipeline/settings.h"
#include "core/reroute/previous_sls.h"

namespace keiro::pipeline {

// First routing: the engine, then SL spreading (results.spread / sls).
bool first_route(const EngineDesc &e, const EngineInput &in, const Settings &s, Routing &out,
                 EngineReport &rep, StageResults &results);
// Option fixed_sl: the search's loop over the engine's VL count.
bool fixed_sl_route(const EngineDesc &e, const EngineInput &in, const Settings &s, Routing &out,
                    EngineReport &rep, StageResults &results);
// A previous routing: step 0, the engine with typed hints, then the re-route
// strategies in order (core/reroute/steps.h; core/pipeline/reroute_stage.cc).
bool reroute(const EngineDesc &e, const EngineInput &in, const Settings &s, const PreviousSls &prev,
             Routing &out, EngineReport &rep, StageResults &results);

}  // namespace keiro::pipeline
