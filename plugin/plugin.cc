// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// libkeiro.so: the OpenSM event plugin. OpenSM loads it for
// "event_plugin_name keiro" (dlopen("libkeiro.so")), checks that
// osm_event_plugin.osm_version equals its own version string, and calls
// create() once in its main thread, before the first sweep. create() parses
// event_plugin_options and registers every keiro engine (all_engines()) as an
// external routing engine under its OpenSM name ("keiro-nue"), which
// routing_engine can then list.
//
// create() never fails after a registration: OpenSM would dlclose the plugin
// while the registered setup() pointers stay behind. An option error is
// therefore remembered and reported by each engine's routing run (one ERROR
// line, ERR KE01), which fails so that OpenSM falls back to the next engine.
//
// report() handles OSM_EVENT_ID_UCAST_ROUTING_DONE (sweeper thread, after
// routing and QoS setup, before "SUBNET UP"): it hands the memory a keiro
// routing freed back to the system (trim_heap, off the routing time) and
// writes the path SLs of a new
// keiro routing (core/io/path_sl_file.h) to the sl_dump=PATH option, or, like
// OpenSM's own dumps, to dump_files_dir/keiro-path-sl.dump when the ROUTING
// log flag (0x40) is on. When another engine's tables are in place, a file
// keiro wrote earlier is removed so that it never describes foreign tables.
#include <unistd.h>

#include <new>
#include <string>

#include "core/engine/engine.h"
#include "core/io/path_sl_file.h"
#include "core/options.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "plugin/engine_callbacks.h"
#include "plugin/osm_logger.h"
#include "plugin/plugin_state.h"
// clang-format off
#include "plugin/osm.h"
// clang-format on

namespace keiro::plugin {
namespace {

void *create(osm_opensm_t *osm) {
  PluginState *p = new (std::nothrow) PluginState;
  if (!p) return nullptr;  // nothing registered yet: OpenSM may unload us
  p->osm = osm;
  OsmLogger log(&osm->log, kErrRegister);
  try {
    const char *text = osm->subn.opt.event_plugin_options;
    std::string err;
    if (!Options::parse(text ? text : "", p->options, err)) {
      p->options_ok = false;
      p->options_error = err;
      log.logf(LogLevel::kInfo,
               "event_plugin_options rejected (%s): keiro engines will refuse to route",
               err.c_str());
    }
    for (const EngineDesc &e : all_engines()) p->engines.push_back(RegisteredEngine{p, &e});
  } catch (...) {
    delete p;
    return nullptr;  // still nothing registered
  }
  // Register last; from here on create() always succeeds.
  std::string names;
  for (RegisteredEngine &reg : p->engines) {
    external_routing_engine_module_t module{reg.desc->osm_name, setup_engine, &reg};
    const cl_status_t st = osm_register_external_routing_engine(osm, &module, &reg);
    if (st != CL_SUCCESS) {
      log.error(kErrRegister, std::string("cannot register routing engine '") + reg.desc->osm_name +
                                  "' (status " + std::to_string(st) +
                                  "); is the plugin loaded twice?");
      continue;
    }
    names += (names.empty() ? "" : ", ") + std::string(reg.desc->osm_name);
  }
  log.logf(LogLevel::kInfo, "keiro %s loaded; routing engines: %s; options: '%s'", PACKAGE_VERSION,
           names.empty() ? "(none)" : names.c_str(),
           p->options_ok ? p->options.to_string().c_str() : "(rejected)");
  return p;
}

// OpenSM calls every engine's destroy() before this, at shutdown.
void destroy_plugin(void *data) {
  delete static_cast<PluginState *>(data);
}

// Where the path-SL file goes; empty when none is wanted.
std::string path_sl_dump_path(const PluginState &p) {
  const std::string chosen = pipeline::read_settings(p.options).sl_dump;
  if (!chosen.empty()) return chosen;
  const osm_opensm_t *osm = p.osm;
  if (!osm_log_is_active(&osm->log, OSM_LOG_ROUTING)) return {};
  const char *dir = osm->subn.opt.dump_files_dir;
  return std::string(dir && *dir ? dir : ".") + "/" + io::kPathSlFileName;
}

void report(void *data, osm_epi_event_id_t event, void *) {
  if (event != OSM_EVENT_ID_UCAST_ROUTING_DONE || !data) return;
  auto &p = *static_cast<PluginState *>(data);
  trim_heap(p);
  if (!p.options_ok) return;
  try {
    const std::string path = path_sl_dump_path(p);
    if (path.empty()) return;
    const osm_routing_engine_t *used = p.osm->routing_engine_used;
    for (EngineRun *run : p.runs) {
      const bool in_use = used && used->context == run;
      if (!in_use) {
        // keiro's file must not sit next to another engine's tables.
        if (run->wrote_dump && unlink(path.c_str()) == 0) run->wrote_dump = false;
        continue;
      }
      if (!run->dump_pending || !run->owned) continue;
      run->dump_pending = false;
      std::string err;
      OsmLogger log(&p.osm->log, kErrDump);
      if (!io::write_path_sl_file(path, run->owned->fabric(), run->owned->routing(), err)) {
        log.error(kErrDump,
                  std::string(run->reg->desc->osm_name) + ": path SLs not written: " + err);
        continue;
      }
      for (EngineRun *other : p.runs) other->wrote_dump = other == run;
      log.logf(LogLevel::kVerbose, "%s: path SLs written to %s", run->reg->desc->osm_name,
               path.c_str());
    }
  } catch (...) {
    // Never let an exception reach OpenSM; the dump is optional.
  }
}

}  // namespace
}  // namespace keiro::plugin

extern "C" {
// The symbol OpenSM looks up (OSM_EVENT_PLUGIN_IMPL_NAME). Not const: a const
// object would have internal linkage in C++.
__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
    OSM_VERSION, keiro::plugin::create, keiro::plugin::destroy_plugin, keiro::plugin::report};
}
