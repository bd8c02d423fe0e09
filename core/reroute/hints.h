// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The typed hints (core/engine/hints.h) the pipeline hands an engine on a
// re-route, made from the previous routing (core/reroute/previous_sls.h):
//  - dest_sl: per-destination previous SLs (keiro-nue keeps surviving
//    destinations in their layer = SL);
//  - path_sl: per-(source switch, LID) previous SLs, the pins of keiro-acro,
//    -dl and -loren's realization (core/layers/pins.h);
//  - may_repair: the engine may hand out guide LFTs when it cannot route.
// The SLs are handed only when keep_sls is on and the previous routing came
// from the same engine (or is unnamed); path SLs only when pin is set (the
// pipeline routes without pins first when the incremental route can run,
// which needs the fresh LFTs only).
// Time O(S * L). Memory S * (max LID + 1) bytes.
#pragma once

#include "core/engine/hints.h"
#include "core/fabric.h"
#include "core/reroute/previous_sls.h"

namespace keiro::reroute {

struct HintPolicy {
  const char *engine = "";  // OpenSM name of the engine that routes now
  bool keep_sls = true;     // option keep_sls
  bool pin = true;          // path SLs for the realization
  bool may_repair = false;  // reroute::can_repair() (core/reroute/steps.h)
};

RerouteHints make_hints(const Fabric &f, const PreviousSls &prev, const HintPolicy &p);

}  // namespace keiro::reroute
