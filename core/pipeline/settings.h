// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The settings every engine shares, read once from the options (the general
// keys of core/options.cc) into one struct: the pipeline, the plugin and the
// tool read fields, never option strings. An engine's own keys are read by
// its options reader (core/<engine>/engine.cc).
// Cost: O(keys).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/layers/realize.h"
#include "core/mcast/trees.h"
#include "core/options.h"

namespace keiro::pipeline {

struct Settings {
  int max_vls = 8;             // max_vls: cap on the fabric's VLs
  int max_sls = 16;            // max_sls
  std::string sl_dump;         // sl_dump: where the plugin writes the path-SL file ("": default)
  int threads = 0;             // threads (0: the machine's cores, at most 8)
  int fixed_sl = -1;           // fixed_sl, -1 when not set (docs/fixed-sl.md)
  bool keep_sls = true;        // keep_sls (docs/rerouting.md)
  bool incremental = true;     // incremental
  bool spread_sls = true;      // spread_sls
  bool drop_stale_sls = true;  // drop_stale_sls
  bool mcast_trees = true;     // mcast_trees (docs/multicast.md)
  int mcast_sl = 0;            // mcast_sl
  bool mcast_vl = false;       // mcast_vl
  // The fixed-SL stage's ACRO and one-SL realization take keiro-acro's
  // acro_seed and acro_max_moves (docs/fixed-sl.md).
  acro::LayerOptions fixed_sl_layers;
};

Settings read_settings(const Options &o);

// The multicast router's options (core/mcast/trees.h) for these settings;
// hint_roots: EngineReport::mcast_roots of the routing.
mcast::RouterOptions router_options(const Settings &s, const std::vector<int32_t> &hint_roots);

}  // namespace keiro::pipeline
