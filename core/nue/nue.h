// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-nue: Nue routing (Domke, Hoefler, Matsuoka, HPDC'16,
// ../shared/papers/nue-domke2016.txt). See nue.cc for the map from the
// paper's algorithms and sections to the code.
#pragma once

#include "core/engine.h"

namespace keiro {

// Routes every LID of in.fabric with k = in.max_vls virtual layers.
bool route_nue(const EngineInput &in, Routing &out, EngineReport &rep);

}  // namespace keiro

namespace keiro::nue {
// The registry entry (core/engine.cc): names, route function, option keys.
extern const EngineDesc kEngine;
}  // namespace keiro::nue
