// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The one place where the pipeline's typed results become report facts
// (EngineReport::facts, the key=value pairs the plugin logs and `keiro
// route --json` prints). Engines write their own facts from their typed
// results in their report step (EngineSteps::report); the stages around
// them (fixed SL, re-route, SL spreading, multicast SL) only fill the
// struct below, written here after the engine's facts.
// Cost: O(facts).
#pragma once

#include "core/engine/engine.h"
#include "core/mcast/sl_column.h"
#include "core/pipeline/fixed_sl.h"
#include "core/pipeline/sl_spread.h"
#include "core/reroute/steps.h"

namespace keiro::pipeline {

// What the stages around the engine produced.
struct StageResults {
  FixedSlResult fixed;    // fixed.sl < 0: no fixed-SL stage
  bool rerouted = false;  // the re-route stage ran
  reroute::Result reroute;
  bool spread = false;  // SL spreading ran and spread
  SlSpread sls;
  bool mcast = false;  // the multicast SL stage ran
  mcast::SlColumn column;
};

// Facts: fixed_sl, sa_vls, fixed_sl_vls, fixed_sl_first_vl,
// fixed_sl_attempts; previous_pairs, fresh_sls_changed,
// renamed_sls_changed, incremental, incremental_seconds, kept_lft_entries,
// repaired_lft_entries, changed_paths, incremental_relaxed,
// sl_changed_paths, stale_sls_dropped/_delivered/_unsafe, sls_changed,
// sls_kept, keep_checks, repaired_previous, routed_afresh; sls_routed and
// sls_used (replaced); mcast_vl.
void write_facts(const StageResults &r, EngineReport &rep);

}  // namespace keiro::pipeline
