// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The pipeline: the one way from a fabric to tables, and the only code that
// calls an engine. The plugin, the tool and the tests route through
// pipeline::route(), whose stages read top to bottom (pipeline.cc):
//
//   prepare     settings read once (core/pipeline/settings.h); the VL kept
//               for multicast (mcast_vl); the engine's typed input
//   produce     one of:
//     fixed SL    option fixed_sl: the engine with fewer VLs, SL N realized
//                 on its routes (core/pipeline/fixed_sl.h), the search's loop
//     re-route    a previous routing: typed hints to the engine, then the
//                 re-route strategies in order (core/reroute/steps.h,
//                 core/pipeline/reroute_stage.cc)
//     first       the engine, then SL spreading (core/pipeline/sl_spread.h)
//   multicast   the multicast SL's free entries on a VL of their own
//               (core/mcast/sl_column.h)
//   report      typed stage results -> facts (core/pipeline/report.h)
//   check       the self-check (core/check/verify.h), with staging alongside
//
// A routing that fails the check is never returned as a success.
// Error contract: when an engine, a stage or the check fails, exactly one
// line at LogLevel::kError says why, and route() returns false.
#pragma once

#include <functional>

#include "core/check/verify.h"
#include "core/engine/engine.h"
#include "core/pipeline/report.h"
#include "core/pipeline/settings.h"
#include "core/reroute/previous_sls.h"

namespace keiro::pipeline {

// The number of data VLs an engine may use: the smallest VL count of the
// switch-to-switch channels (the plugin fills them from VLCap capped by
// OpenSM's max_op_vls), capped by option max_vls. With qos false it is 1 and,
// when more were available, one INFO line says so.
int vl_budget(const Fabric &f, const Options &o, bool qos, const char *engine, Logger &log);

// Work that may run while the self-check runs: it gets the routed (not yet
// checked) tables, may only stage them somewhere nothing uses yet, and
// returns false (after logging its own ERROR line) if it failed.
using StageFn = std::function<bool(const Routing &)>;

// Stage prepare: the engine's input from the caller's budget and the
// settings: one VL less when option mcast_vl keeps one for multicast,
// threads, the multicast SL an engine may keep turns free for (-1 without
// keiro's trees, with QoS off or with fixed_sl), no hints. Tests that run an
// engine alone take their input from here too.
EngineInput engine_input(const EngineInput &budget, const Settings &s);

struct RouteExtras {
  // The previous routing (re-routing after a fabric change,
  // docs/rerouting.md), or null: the pairs still connected keep their SLs
  // where the new tables allow, or one WARN line says how many changed. Not
  // used with option fixed_sl.
  const PreviousSls *previous = nullptr;
  // Receives the self-check's result whenever the check ran, passed or not.
  check::Result *check_out = nullptr;
  // Runs on the calling thread while the check runs on a second one (both
  // only read out; if no thread can be started, one after the other). The
  // caller must withdraw what stage staged whenever stage ran (stage_ran)
  // and route() returns false. The plugin stages the LFTs and hop tables in
  // OpenSM's new_lft/hops, which OpenSM only sends to the switches when the
  // engine returns success.
  StageFn stage = {};
  bool *stage_ran = nullptr;
  // Receives the typed results of the stages around the engine (fixed SL,
  // re-route, SL spreading, multicast SL) when the engine routed.
  StageResults *stages = nullptr;
};

// Routes fabric in.fabric with engine e and self-checks; out is reset by the
// engine. in: the budget (VLs, SLs, QoS), options and log; its hints,
// threads and mcast_sl are the pipeline's to set. True only if the engine,
// every stage, the check and x.stage succeeded.
bool route(const EngineDesc &e, const EngineInput &in, Routing &out, EngineReport &rep,
           const RouteExtras &x = {});

}  // namespace keiro::pipeline
