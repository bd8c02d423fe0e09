// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/pipeline/settings.h"

#include "core/acro/engine.h"

namespace keiro::pipeline {

Settings read_settings(const Options &o) {
  Settings s;
  s.max_vls = static_cast<int>(o.get_int("max_vls"));
  s.max_sls = static_cast<int>(o.get_int("max_sls"));
  s.sl_dump = o.get("sl_dump");
  s.threads = static_cast<int>(o.get_int("threads"));
  s.fixed_sl = o.has("fixed_sl") ? static_cast<int>(o.get_int("fixed_sl")) : -1;
  s.keep_sls = o.get_int("keep_sls") != 0;
  s.incremental = o.get_int("incremental") != 0;
  s.spread_sls = o.get_int("spread_sls") != 0;
  s.drop_stale_sls = o.get_int("drop_stale_sls") != 0;
  s.mcast_trees = o.get_int("mcast_trees") != 0;
  s.mcast_sl = static_cast<int>(o.get_int("mcast_sl"));
  s.mcast_vl = o.get_int("mcast_vl") != 0;
  s.fixed_sl_layers = acro::read_layer_keys(o);
  return s;
}

mcast::RouterOptions router_options(const Settings &s, const std::vector<int32_t> &hint_roots) {
  mcast::RouterOptions ro;
  ro.threads = s.threads;
  ro.hint_roots = hint_roots;
  ro.fixed_sl = s.fixed_sl;
  return ro;
}

}  // namespace keiro::pipeline
