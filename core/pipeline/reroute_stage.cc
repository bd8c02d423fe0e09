// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The re-route stage: the strategies of core/reroute/steps.h in order, and
// the one place a re-route routes the engine (again).
#include <utility>

#include "core/pipeline/stages.h"
#include "core/reroute/hints.h"
#include "core/reroute/steps.h"

namespace keiro::pipeline {

namespace {

reroute::Context context(const EngineDesc &e, const EngineInput &in, const Settings &s,
                         const PreviousSls &prev) {
  return reroute::Context{in.fabric,  prev,      in.log,     e.osm_name,    in.max_vls,
                          in.max_sls, s.threads, s.keep_sls, s.incremental, s.drop_stale_sls};
}

// After a failed incremental route of an engine that routed without pins
// (for the incremental route, which needs only the fresh LFTs): the engine
// again with the previous SLs pinned, and step 1b on its tables. Its LFTs
// are the same (pins only move SLs and VLs); the engine's facts are the
// pinned run's.
bool pinned_again(const EngineDesc &e, const EngineInput &in, const reroute::Context &c,
                  const reroute::HintPolicy &policy, Routing &out, EngineReport &rep,
                  reroute::Cascade &st, reroute::Result &res) {
  reroute::HintPolicy pinned = policy;
  pinned.pin = true;
  const RerouteHints hints = reroute::make_hints(in.fabric, c.prev, pinned);
  EngineInput again_in = in;
  again_in.hints = &hints;
  Routing again;
  EngineReport arep;
  if (!e.route(again_in, again, arep) || !arep.repair_only.empty()) return false;
  out = std::move(again);
  rep.facts = std::move(arep.facts);
  rep.typed = std::move(arep.typed);
  rep.headline = std::move(arep.headline);
  rep.mcast_roots = std::move(arep.mcast_roots);
  return reroute::rename(c, out, st, res);
}

}  // namespace

bool reroute(const EngineDesc &e, const EngineInput &in, const Settings &s, const PreviousSls &prev,
             Routing &out, EngineReport &rep, StageResults &results) {
  results.rerouted = true;
  reroute::Result &res = results.reroute;
  const reroute::Context c = context(e, in, s, prev);
  // 0. No switch or LID is new: the incremental route alone.
  if (reroute::without_engine(c, out, res)) return true;
  // 1. The engine with typed hints; without pins when the incremental route
  // can run (it needs the fresh LFTs only; pins would cost time for nothing).
  const bool repairable = reroute::can_repair(c);
  const reroute::HintPolicy policy{e.osm_name, s.keep_sls, !repairable, repairable};
  const RerouteHints hints = reroute::make_hints(in.fabric, prev, policy);
  EngineInput first = in;
  first.hints = &hints;
  if (!e.route(first, out, rep)) return false;
  // R. The engine could not route and handed out guide LFTs.
  if (!rep.repair_only.empty()) {
    std::string err;
    return reroute::repair(c, rep.repair_only, out, res, err) ||
           engine_error(in.log, e.osm_name, err);
  }
  reroute::Cascade st;
  if (reroute::start(c, out, st, res)) return true;        // 1b. rename
  if (reroute::incremental(c, out, st, res)) return true;  // 1c
  if (st.try_incremental && repairable &&
      pinned_again(e, first, c, policy, out, rep, st, res))  // 1, 1b with pins
    return true;
  if (reroute::previous_sls(c, out, st, res)) return true;  // 2
  if (reroute::relaxed(c, out, st, res)) return true;       // 2a
  if (reroute::bisect(c, out, st, res)) return true;        // 2b
  reroute::changed(c, st, res);                             // 3
  return true;
}

}  // namespace keiro::pipeline
