// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// State of the loaded plugin and of each routing engine OpenSM set up from
// it. One PluginState per create(); one RegisteredEngine per keiro engine
// (registration context); one EngineRun per setup() call (the context of
// OpenSM's osm_routing_engine).
//
// Locking: OpenSM runs routing (ucast_build_fwd_tables) and QoS setup
// (update_sl2vl) in its sweeper thread under the exclusive p_osm->lock, and
// path_sl from SA threads under the shared lock. So EngineRun::state is only
// replaced while no path_sl can run, and the old RoutedState can be freed at
// once. The plugin never takes OpenSM's lock itself.
//
// Memory: O(number of engines) here, plus each EngineRun's RoutedState.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/mcast/trees.h"
#include "core/options.h"
#include "core/registry/registry.h"
#include "plugin/routed_state.h"

struct osm_opensm;

namespace keiro::plugin {

struct PluginState;

struct RegisteredEngine {
  PluginState *plugin = nullptr;
  const EngineDesc *desc = nullptr;
};

struct EngineRun {
  const RegisteredEngine *reg = nullptr;
  struct osm_opensm *osm = nullptr;
  // The last routing that OpenSM accepted from this engine (null before).
  std::atomic<const RoutedState *> state{nullptr};
  std::unique_ptr<const RoutedState> owned;  // owns *state
  bool dump_pending = false;                 // a new routing whose SLs are not dumped yet
  bool wrote_dump = false;                   // the path-SL file on disk is this engine's
  bool trim_pending = false;                 // freed memory not handed back yet (trim_heap)
  long runs = 0, failures = 0;
  // keiro's multicast trees over `state` (plugin/mcast_trees.h): made at
  // the first multicast callback after a routing, dropped with the routing.
  std::unique_ptr<mcast::Router> mcast;
  std::vector<int32_t> mcast_roots;  // EngineReport::mcast_roots of that routing
  bool mcast_failed = false;         // Router::create failed for this routing (said once)
  long mcast_builds = 0, mcast_errors = 0;
};

struct PluginState {
  struct osm_opensm *osm = nullptr;
  Options options = all_options();  // every registered engine's keys (core/registry)
  bool options_ok = true;
  std::string options_error;             // why event_plugin_options were rejected
  std::deque<RegisteredEngine> engines;  // stable addresses: registration contexts
  std::vector<EngineRun *> runs;         // set up by OpenSM, freed by its destroy()
};

}  // namespace keiro::plugin
