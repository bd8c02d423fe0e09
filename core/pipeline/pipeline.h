// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The pipeline: the one entry point that the plugin, the tool and the tests
// use to route. run_engine() calls an engine and then the self-check
// (core/check/verify.h). A routing that fails the check is never returned
// as a success.
//
// Error contract: when an engine or the check fails, exactly one line at
// LogLevel::kError says why, and run_engine() returns false.
#pragma once

#include <functional>

#include "core/engine/engine.h"

namespace keiro {

// The number of data VLs an engine may use: the smallest VL count of the
// switch-to-switch channels (the plugin fills them from VLCap capped by
// OpenSM's max_op_vls), capped by option max_vls. With qos false it is 1 and,
// when more were available, one INFO line says so.
int vl_budget(const Fabric &f, const Options &o, bool qos, const char *engine, Logger &log);

// Work that may run while the self-check runs: it gets the routed (not yet
// checked) tables, may only stage them somewhere nothing uses yet, and
// returns false (after logging its own ERROR line) if it failed.
using StageFn = std::function<bool(const Routing &)>;

// Routes and self-checks. out is reset by the engine. With in.previous,
// between the two the previous SLs are kept where the new tables allow, or
// one WARN line says how many changed (core/reroute/previous_sls.h); without it, the
// paths of per-source-switch engines are spread over spare SLs for later
// re-routes (core/pipeline/sl_spread.h, option spread_sls). When check_out is given,
// it receives the self-check's result (core/check/verify.h) whenever the
// check ran, passed or not, so that callers need not check again.
//
// stage, if given, runs on the calling thread while the check runs on a
// second one (both only read out; if no thread can be started, one after
// the other). run_engine returns true only if the engine, the check and
// stage all succeeded; the caller must withdraw what stage staged whenever
// stage ran and run_engine returns false (stage_ran tells). The plugin
// stages the LFTs and hop tables in OpenSM's new_lft/hops, which OpenSM
// only sends to the switches when the engine returns success.
bool run_engine(const EngineDesc &e, const EngineInput &in, Routing &out, EngineReport &rep,
                check::Result *check_out = nullptr, const StageFn &stage = {},
                bool *stage_ran = nullptr);

}  // namespace keiro
