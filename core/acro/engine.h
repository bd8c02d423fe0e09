// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-acro: balanced minimal routing (core/minimal/balanced.h) made free of
// credit loops by ACRO's virtual layers (core/acro/acro.h), realized on
// InfiniBand as per-(source switch, destination LID) SLs and SL2VL entries
// (core/vlmap/vlmap.h); the ACRO + realization chain is core/acro/realize.h,
// shared with keiro-loren.
//
// Fails with one ERROR line when the fabric is not connected, when ACRO
// needs more layers than in.max_vls, or when the SL/VL budget cannot hold
// the layer transitions (the line says how many paths stayed unplaced and,
// when fewer than 16 SLs were allowed, whether 16 would do).
// Time: O(S^2 * (deg + log C) + layers * (C log C + S^2)) for the routing
// and ACRO, plus the realization's O(moves * SLs * L * VLs).
#pragma once

#include "core/engine.h"

namespace keiro::acro {

// The adapter (RouteFn): reads in.options into typed options, routes, turns
// the typed result into rep's facts.
bool route_engine(const EngineInput &in, Routing &out, EngineReport &rep);

// The registry entry (core/engine.cc): names, route function, option keys.
extern const EngineDesc kEngine;
}  // namespace keiro::acro
