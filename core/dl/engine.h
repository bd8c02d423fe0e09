// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl: Descending Layers routing (core/dl/dl.h) on InfiniBand. The
// per-hop layers become VLs through per-(source switch, destination) path
// SLs and per-(switch, in port, out port, SL) SL2VL entries
// (core/vlmap/vlmap.h).
//
// Options: dl_subnets (sub-networks = VLs, default the whole VL budget),
// dl_restriction (ud | ud-du | ud-dudu), dl_policy (load | random | lowport),
// dl_root (GUID or node description), dl_seed, dl_vl_choice (free | exact),
// dl_choices (slack | lowest).
//
// Fails with one ERROR line when dl_subnets exceeds the VL budget, when
// dl_root names no switch, when the fabric is not connected, or when the SL
// budget cannot realize the layer changes.
// Time: O(S * (S + C)) for the routes, plus the realization's
// O(moves * SLs * L * VLs).
#pragma once

#include "core/engine.h"

namespace keiro::dl {

// The adapter (RouteFn): reads in.options into typed options, routes, turns
// the typed result into rep's facts.
bool route_engine(const EngineInput &in, Routing &out, EngineReport &rep);

// The registry entry (core/engine.cc): names, route function, option keys.
extern const EngineDesc kEngine;
}  // namespace keiro::dl
