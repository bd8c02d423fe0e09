// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/engine_callbacks.h"

#include <malloc.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>

#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/settings.h"
#include "core/reroute/previous_sls.h"
#include "core/routing.h"
#include "core/timing.h"
#include "plugin/install_tables.h"
#include "plugin/mcast_trees.h"
#include "plugin/osm_logger.h"
#include "plugin/plugin_state.h"
#include "plugin/read_subnet.h"
#include "plugin/routed_state.h"
// clang-format off
#include "plugin/osm.h"
// clang-format on

namespace keiro::plugin {

namespace {

int build_lid_matrices(void *) {
  return 0;
}

// ---- Test-only fault hook (docs/deployment.md, "Test-only settings") ----
// KEIRO_TEST_FAIL_CHECK=N in OpenSM's environment: from each keiro engine's
// Nth routing run on, the routed tables get one black hole (the first
// switch drops the first LID it forwards) after the engine returns and
// before they are staged and self-checked, so that the self-check fails
// after the tables were staged in OpenSM. It lets the integration tests run
// the withdraw-and-fall-back path end to end; never set it on a real SM.
// 0 (unset or not a positive number): no fault.
long test_fail_check_from() {
  const char *v = std::getenv("KEIRO_TEST_FAIL_CHECK");
  if (!v || !*v) return 0;
  char *end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (*end == '\0' && n > 0) ? n : 0;
}

// The engine the faulty wrapper below calls; set just before run_engine on
// OpenSM's routing thread (OpenSM routes one engine at a time).
thread_local RouteFn faulted_route = nullptr;

bool route_with_test_fault(const EngineInput &in, Routing &out, EngineReport &rep) {
  if (!faulted_route(in, out, rep)) return false;
  if (out.num_switches() == 0) return true;
  uint8_t *row = out.lft_row_mut(0);
  for (uint32_t lid = 1; lid <= out.max_lid(); ++lid)
    if (row[lid] != kNoPort && row[lid] != 0) {
      row[lid] = kNoPort;
      in.log.logf(LogLevel::kInfo,
                  "KEIRO_TEST_FAIL_CHECK: test fault: switch 0 now drops LID %u (self-check "
                  "must fail)",
                  lid);
      break;
    }
  return true;
}

// The fabric of OpenSM's subnet into sf (read_s: the seconds it took);
// false (one ERROR line) when it cannot be modelled or has no switch.
bool read_fabric(osm_subn_t &subn, const EngineDesc &e, OsmLogger &log, SubnetFabric &sf,
                 double &read_s) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string err;
  if (!read_subnet(subn, sf, err)) {
    log.error(kErrFabric, std::string(e.osm_name) + ": " + err + "; not routing");
    return false;
  }
  read_s = seconds_since(t0);
  if (sf.fabric.num_switches() == 0) {
    log.error(kErrFabric, std::string(e.osm_name) + ": the subnet has no switches");
    return false;
  }
  return true;
}

// What a routing that passed its self-check did: the INFO lines of route().
struct RouteSummary {
  double read_s = 0, install_s = 0;
  long routed = 0;  // LFT entries installed
};

void log_summary(const EngineDesc &e, const SubnetFabric &sf, const EngineInput &in,
                 const Routing &r, const EngineReport &rep, const RouteSummary &sum,
                 OsmLogger &log) {
  const Fabric &f = sf.fabric;
  log.logf(LogLevel::kInfo,
           "%s: routed %d switches, %d end ports, %zu LIDs: VLs used %d of %d, SLs used %d, "
           "%s%sread %.3f s, route %.3f s, check %.3f s and install %.3f s side by side (%ld "
           "LFT entries)",
           e.osm_name, f.num_switches(), f.num_terminals(), f.lids().size(), r.vls_used, in.max_vls,
           r.sls_used, rep.headline.c_str(), rep.headline.empty() ? "" : ", ", sum.read_s,
           rep.route_seconds, rep.check_seconds, sum.install_s, sum.routed);
  if (!rep.facts.empty()) {
    std::string facts;
    for (const auto &[k, v] : rep.facts) facts += (facts.empty() ? "" : ", ") + k + "=" + v;
    log.logf(LogLevel::kInfo, "%s: %s", e.osm_name, facts.c_str());
  }
  if (sf.skipped_ports)
    log.logf(LogLevel::kInfo, "%s: %d end ports without LID or switch link were not routed",
             e.osm_name, sf.skipped_ports);
}

// Publishes the new routing. Safe: OpenSM holds its exclusive lock, no
// path_sl is running.
void publish(EngineRun &run, SubnetFabric &sf, Routing &r, const EngineReport &rep) {
  std::unique_ptr<const RoutedState> next = RoutedState::build(std::move(sf.fabric), std::move(r));
  run.mcast.reset();  // its trees were made over the old routing
  run.mcast_failed = false;
  run.mcast_roots = rep.mcast_roots;
  run.state.store(next.get(), std::memory_order_release);
  run.owned = std::move(next);
  run.dump_pending = true;
}

// Everything after the option check; may throw (bad_alloc, FabricError).
int route(EngineRun &run, OsmLogger &log) {
  EngineDesc e = *run.reg->desc;
  const long fail_from = test_fail_check_from();
  if (fail_from > 0 && run.runs >= fail_from) {
    faulted_route = e.route;
    e.route = route_with_test_fault;
  }
  const Options &opt = run.reg->plugin->options;
  osm_subn_t &subn = run.osm->subn;
  SubnetFabric sf;
  RouteSummary sum;
  if (!read_fabric(subn, e, log, sf, sum.read_s)) return -1;
  const Fabric &f = sf.fabric;

  const bool qos = subn.opt.qos != 0;
  EngineInput in{f, opt, log};
  in.qos = qos;
  const pipeline::Settings settings = pipeline::read_settings(opt);
  in.max_vls = pipeline::vl_budget(f, opt, qos, e.osm_name, log);
  in.max_sls = settings.max_sls;
  // SL-stable re-routing (docs/rerouting.md): the SLs this engine handed out
  // in the last accepted routing, keyed by GUIDs and LIDs.
  PreviousSls previous;
  if (run.owned) previous = capture_previous_sls(run.owned->fabric(), run.owned->routing());
  Routing r;
  EngineReport rep;
  // The tables go into OpenSM's new_lft/hops while the self-check runs; a
  // failed check withdraws them (OpenSM sends nothing unless we succeed).
  bool staged = false;
  pipeline::RouteExtras x;
  x.previous = run.owned ? &previous : nullptr;
  x.stage_ran = &staged;
  x.stage = [&](const Routing &routed_tables) {
    const auto t1 = std::chrono::steady_clock::now();
    // Every hop row only when OpenSM will dump them (install_tables.h).
    sum.routed = install_tables(f, routed_tables, sf.osm_switch, settings.threads,
                                osm_log_is_active(&run.osm->log, OSM_LOG_ROUTING) != 0);
    sum.install_s = seconds_since(t1);
    return true;
  };
  bool ok = false;
  try {
    ok = pipeline::route(e, in, r, rep, x);
  } catch (...) {
    if (staged) withdraw_tables(sf.osm_switch);
    throw;
  }
  if (!ok) {  // the pipeline logged the one ERROR line
    if (staged) withdraw_tables(sf.osm_switch);
    return -1;
  }
  log_summary(e, sf, in, r, rep, sum, log);
  publish(run, sf, r, rep);
  return 0;
}

int ucast_build_fwd_tables(void *context) {
  auto &run = *static_cast<EngineRun *>(context);
  const EngineDesc &e = *run.reg->desc;
  OsmLogger log(&run.osm->log, kErrRouting);
  ++run.runs;
  if (run.trim_pending) trim_heap(*run.reg->plugin);  // the last sweep ended before ROUTING_DONE
  const PluginState &plugin = *run.reg->plugin;
  if (!plugin.options_ok) {
    ++run.failures;
    log.error(kErrOptions, std::string(e.osm_name) +
                               ": event_plugin_options rejected: " + plugin.options_error +
                               "; not routing, OpenSM uses the next routing engine");
    return -1;
  }
  int rc = -1;
  try {
    rc = route(run, log);
  } catch (const std::bad_alloc &) {
    log.error(kErrInternal, std::string(e.osm_name) + ": out of memory; not routing");
  } catch (const std::exception &ex) {
    log.error(kErrInternal, std::string(e.osm_name) + ": " + ex.what() + "; not routing");
  } catch (...) {
    log.error(kErrInternal, std::string(e.osm_name) + ": unexpected exception; not routing");
  }
  if (rc != 0) ++run.failures;
  // The memory the routing freed goes back to the system once OpenSM has
  // sent the tables (trim_heap), not before: that is off the routing time.
  run.trim_pending = true;
  return rc;
}

uint8_t path_sl(void *context, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid) {
  const auto &run = *static_cast<const EngineRun *>(context);
  const RoutedState *s = run.state.load(std::memory_order_acquire);
  if (!s) return hint;
  return s->path_sl(cl_ntoh16(slid), cl_ntoh16(dlid), hint);
}

void update_sl2vl(void *context, osm_physp_t *port, uint8_t in_port, uint8_t out_port,
                  ib_slvl_table_t *t) {
  const auto &run = *static_cast<const EngineRun *>(context);
  const RoutedState *s = run.state.load(std::memory_order_acquire);
  if (!s || !port || !port->p_node || !t) return;
  uint8_t vl[kNumSls];
  const osm_node_t *node = port->p_node;
  bool known;
  if (osm_node_get_type(node) == IB_NODE_TYPE_SWITCH)
    known = s->switch_sl2vl(cl_ntoh64(osm_node_get_node_guid(node)), in_port, out_port, vl);
  else
    known = s->terminal_sl2vl(cl_ntoh64(osm_physp_get_port_guid(port)), vl);
  if (!known) return;  // a port the routing does not know: keep OpenSM's template
  for (uint8_t sl = 0; sl < kNumSls; ++sl) ib_slvl_table_set(t, sl, vl[sl]);
}

ib_api_status_t mcast_build_stree(void *context, osm_mgrp_box_t *mbox) {
  auto &run = *static_cast<EngineRun *>(context);
  return static_cast<ib_api_status_t>(build_mcast_tree(run, mbox));
}

void destroy(void *context) {
  auto *run = static_cast<EngineRun *>(context);
  if (!run) return;
  auto &runs = run->reg->plugin->runs;
  for (auto it = runs.begin(); it != runs.end(); ++it)
    if (*it == run) {
      runs.erase(it);
      break;
    }
  delete run;
}

}  // namespace

void trim_heap(PluginState &p) {
  bool pending = false;
  for (const EngineRun *r : p.runs) pending |= r->trim_pending;
  if (!pending) return;
  // A routing allocates and frees tens of MB (more at scale), on OpenSM's
  // sweep thread and keiro's workers; glibc keeps freed pages of their
  // arenas mapped, so OpenSM's resident memory would settle at the largest
  // sweep's peak. Hand them back: OpenSM lives for months, and a flat RSS is
  // how an admin tells a plugin that frees from one that leaks (tests/soak).
  malloc_trim(0);
  for (EngineRun *r : p.runs) r->trim_pending = false;
}

int setup_engine(osm_routing_engine_t *re, osm_opensm_t *osm) {
  auto *reg = static_cast<RegisteredEngine *>(re->context);
  if (!reg) return -1;
  EngineRun *run = new (std::nothrow) EngineRun;
  if (!run) return -1;
  run->reg = reg;
  run->osm = osm;
  try {
    reg->plugin->runs.push_back(run);
  } catch (...) {
    delete run;
    return -1;
  }
  re->context = run;
  re->build_lid_matrices = build_lid_matrices;
  re->ucast_build_fwd_tables = ucast_build_fwd_tables;
  re->ucast_dump_tables = nullptr;
  re->update_sl2vl = update_sl2vl;
  re->update_vlarb = nullptr;
  re->path_sl = path_sl;
  // mcast_trees=0 leaves OpenSM's own builder (comparison only: it can loop).
  re->mcast_build_stree =
      pipeline::read_settings(reg->plugin->options).mcast_trees ? mcast_build_stree : nullptr;
  re->destroy = destroy;
  return 0;
}

}  // namespace keiro::plugin
