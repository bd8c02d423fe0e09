// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Re-route pins for a realization (core/vlmap/vlmap.h VlMapOptions::pins):
// the previous SL of each (destination tree, source switch) path, from the
// typed hints a re-route hands the engine (core/engine/hints.h), so that
// surviving paths keep their SL where the new routes allow
// (docs/rerouting.md). Used by keiro-acro, keiro-dl and keiro-loren.
// Time O(S * L). Memory K * S bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/engine/engine.h"
#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/vlmap/vlmap.h"

namespace keiro::layers {

// [k * S + s] = the previous SL of the path from switch s to destination k
// of t, minus shift, when the LIDs of k with a previous SL from s had one
// common SL >= shift; -1 elsewhere (new or changed ends, the root). Empty
// when hints is null or carries no path SLs.
std::vector<int8_t> pins(const Fabric &f, const RerouteHints *hints, const minimal::DestTrees &t,
                         int shift = 0);

// A realization with pins (vs.pins > 0): facts pinned_paths, pins_dropped
// and, when no pinned realization fitted, pins_fallback=yes; log_pins: one
// INFO line saying how many pins the realization kept.
void add_pin_facts(const vlmap::VlMapStats &vs, EngineReport &rep);
void log_pins(Logger &log, const char *engine, const vlmap::VlMapStats &vs);

}  // namespace keiro::layers
