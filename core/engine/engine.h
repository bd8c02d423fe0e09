// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What an engine is: its input (EngineInput), its report (EngineReport), its
// description (EngineDesc) and the adapter shape every engine shares
// (EngineSteps, route_steps). Engines include this header; the registry
// (core/registry/registry.h) lists them and only the pipeline
// (core/pipeline/pipeline.h) calls them.
//
// Error contract: when an engine fails, exactly one line at LogLevel::kError
// says why, and its RouteFn returns false.
#pragma once

#include <any>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/engine/hints.h"
#include "core/fabric.h"
#include "core/log.h"
#include "core/options.h"
#include "core/routing.h"

namespace keiro {

// Progress of a long step: phase ("route", "check", ...), units done, total.
// Called on the routing thread (or, for "check", one call at a time from the
// check's workers); must be cheap. Engines call it from their main
// per-destination loops; run_engine forwards the self-check's progress.
using ProgressFn = std::function<void(const char *phase, int64_t done, int64_t total)>;

struct EngineInput {
  const Fabric &fabric;
  const Options &options;
  Logger &log;
  int max_vls = 1;           // VL budget (see vl_budget()); the engine must not use more
  int max_sls = 16;          // SL budget
  bool qos = true;           // false: OpenSM will not program SL2VL, so only VL 0 exists
  ProgressFn progress = {};  // optional (keiro route shows it on a terminal)
  int threads = 0;           // worker threads (option threads; 0: the machine's cores, at most 8)
  // The SL keiro's multicast trees use (option mcast_sl), or -1 when keiro
  // builds no trees or their SL is renamed (fixed_sl): an engine may keep
  // turns free for them (keiro-nue reserves that layer's escape tree).
  int mcast_sl = -1;
  // Typed hints of a re-route (core/engine/hints.h), or null on a first
  // routing. Only the pipeline sets them.
  const RerouteHints *hints = nullptr;
  // Set by the pipeline's fixed-SL search (core/pipeline/fixed_sl.h) on its
  // attempt with one VL: the routes must be deadlock free on one VL (an
  // acyclic channel dependency graph), because one fixed SL shares them. An
  // engine whose usual routes need more VLs (keiro-acro's minimal routes,
  // LOREN's) routes on such a turn set instead of failing; the others may
  // balance for it. False: route as usual.
  bool one_vl_routes = false;
};

// What an engine tells about its run, for logs and summaries.
struct EngineReport {
  std::vector<std::pair<std::string, std::string>> facts;
  double route_seconds = 0, check_seconds = 0;
  // Set by an engine that could not route the fabric itself but handed out
  // guide tables (LFTs only) for the incremental repair of its previous
  // routing (core/reroute/incremental.h): why it could not. The pipeline then takes
  // the repaired previous routing or fails with this as the one ERROR line;
  // the guide tables themselves are never used.
  std::string repair_only;
  // Switches whose min-depth spanning tree (core/graph/spanning_tree.h) the
  // engine kept free for multicast on the multicast SL (keiro-nue: the
  // escape-tree root of that SL's layer, every turn of its tree reserved);
  // core/mcast/trees.h tries them first for its master tree.
  std::vector<int32_t> mcast_roots;
  // A few words for the plugin's summary line (keiro-nue: "escape fallbacks
  // N"); empty when the engine has nothing to add.
  std::string headline;
  // The engine's typed result (its EngineSteps Res), kept after report():
  // the tool and the tests read its fields with result<Res>() rather than
  // the facts' strings.
  std::any typed;
  template <class Res>
  const Res *result() const {
    return std::any_cast<Res>(&typed);
  }
  void add(const std::string &key, const std::string &value) { facts.emplace_back(key, value); }
  void add(const std::string &key, long value) { add(key, std::to_string(value)); }
  // Replaces the value of key (added when missing).
  void set(const std::string &key, const std::string &value);
  std::string get(const std::string &key) const;
};

using RouteFn = bool (*)(const EngineInput &, Routing &, EngineReport &);

// One engine: what the registry (all_engines()) lists. Each engine defines
// its own `kEngine` in core/<engine>/engine.cc, beside the option keys only
// it reads.
struct EngineDesc {
  const char *name;      // short name: "nue"
  const char *osm_name;  // name in OpenSM's routing_engine: "keiro-nue"
  RouteFn route;
  const char *summary;
  std::span<const OptionSpec> options;  // the engine's own keys ("nue_seed", ...)
};

// The one ERROR line of a failed engine step, "<engine>: <why>" (the error
// contract above); returns false for the caller to return.
inline bool engine_error(Logger &log, const char *engine, const std::string &why) {
  log.logf(LogLevel::kError, "%s: %s", engine, why.c_str());
  return false;
}

// The adapter shape every engine's RouteFn shares: read the
// typed options, run, report. Steps bundles an engine's three functions,
// its OpenSM name and the SL scope of its tables:
//   bool read(const EngineInput &, Opt &);                  // one ERROR line on failure
//   bool run(const EngineInput &, const Opt &, Routing &, Res &);  // out reset; one ERROR line
//   void report(const EngineInput &, const Res &, EngineReport &);
// On an option error out is reset (empty tables of the engine's scope); an
// exception from any step becomes the one ERROR line "<name>: <what>" and a
// false return. Cost: that of the steps.
template <class Opt, class Res>
struct EngineSteps {
  const char *name;  // "keiro-dl"
  Routing::SlScope scope;
  bool (*read)(const EngineInput &, Opt &);
  bool (*run)(const EngineInput &, const Opt &, Routing &, Res &);
  void (*report)(const EngineInput &, const Res &, EngineReport &);
};

template <class Opt, class Res>
bool route_steps(const EngineSteps<Opt, Res> &steps, const EngineInput &in, Routing &out,
                 EngineReport &rep) {
  try {
    Opt opt;
    Res res;
    if (!steps.read(in, opt)) {
      out.reset(in.fabric, steps.scope);
      return false;
    }
    out.reset(in.fabric, steps.scope);
    if (!steps.run(in, opt, out, res)) return false;
    steps.report(in, res, rep);
    rep.typed = std::move(res);
    return true;
  } catch (const std::exception &e) {
    return engine_error(in.log, steps.name, e.what());
  }
}

// An engine's registry entry (EngineDesc) from its steps: the short name,
// the summary and the engine's own option keys; the OpenSM name is
// Steps.name and the RouteFn runs route_steps(Steps, ...). Each engine
// defines `kEngine = define_engine<kSteps>(...)` in core/<engine>/engine.cc
// and the registry lists it (core/registry/registry.cc): adding an engine is
// its directory plus one registry line (docs/architecture.md).
template <const auto &Steps>
constexpr EngineDesc define_engine(const char *name, const char *summary,
                                   std::span<const OptionSpec> options) {
  return {name, Steps.name,
          [](const EngineInput &in, Routing &out, EngineReport &rep) {
            return route_steps(Steps, in, out, rep);
          },
          summary, options};
}

}  // namespace keiro
