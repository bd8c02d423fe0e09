// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/mcast_trees.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <string>

#include "core/log.h"
#include "core/mcast/check.h"
#include "core/mcast/trees.h"
#include "core/pipeline/settings.h"
#include "plugin/osm_logger.h"
#include "plugin/plugin_state.h"
#include "plugin/routed_state.h"
// clang-format off
#include "plugin/osm.h"
#include <opensm/osm_multicast.h>
#include <opensm/osm_mcm_port.h>
// clang-format on

namespace keiro::plugin {

namespace {

std::string mgid_text(const ib_gid_t &gid) {
  std::string s;
  for (int i = 0; i < 16; i += 2)
    s += strprintf("%s%02x%02x", i ? ":" : "", gid.raw[i], gid.raw[i + 1]);
  return s;
}

// The groups sharing the MLID as one keiro Group: members known to the
// routing, every SL their records carry. unknown: member ports the routing
// does not know (joined after it, or not routed).
mcast::Group read_group(const RoutedState &st, osm_mgrp_box_t *mbox, int &unknown) {
  mcast::Group g;
  g.mlid = mbox->mlid;
  g.sl_mask = 0;
  unknown = 0;
  for (cl_list_item_t *li = cl_qlist_head(&mbox->mgrp_list); li != cl_qlist_end(&mbox->mgrp_list);
       li = cl_qlist_next(li)) {
    auto *mgrp = reinterpret_cast<osm_mgrp_t *>(reinterpret_cast<char *>(li) -
                                                offsetof(osm_mgrp_t, list_item));
    uint8_t sl = 0, hop = 0;
    uint32_t flow = 0;
    ib_member_get_sl_flow_hop(mgrp->mcmember_rec.sl_flow_hop, &sl, &flow, &hop);
    g.sl_mask = static_cast<uint16_t>(g.sl_mask | (1u << (sl & 15)));
    if (!g.name.empty()) g.name += ", ";
    g.name += mgid_text(mgrp->mcmember_rec.mgid);
    for (cl_map_item_t *mi = cl_qmap_head(&mgrp->mcm_port_tbl);
         mi != cl_qmap_end(&mgrp->mcm_port_tbl); mi = cl_qmap_next(mi)) {
      const osm_port_t *port = reinterpret_cast<osm_mcm_port_t *>(mi)->port;
      if (!port || !port->p_node) continue;
      int32_t id = -1;
      if (osm_node_get_type(port->p_node) == IB_NODE_TYPE_SWITCH) {
        if ((id = st.switch_of(cl_ntoh64(osm_node_get_node_guid(port->p_node)))) >= 0)
          g.switches.push_back(id);
      } else if ((id = st.terminal_of(cl_ntoh64(port->guid))) >= 0) {
        g.terminals.push_back(id);
      }
      unknown += id < 0;
    }
  }
  if (!g.sl_mask) g.sl_mask = 1;
  for (auto *v : {&g.terminals, &g.switches}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return g;
}

// Drops the router's trees of MLIDs whose groups are gone (OpenSM clears
// their entries without calling the engine).
void forget_deleted(mcast::Router &router, osm_subn_t &subn, std::vector<uint16_t> mlids) {
  for (uint16_t mlid : mlids)
    if (!osm_get_mbox_by_mlid(&subn, cl_hton16(mlid))) router.remove(mlid);
}

bool install(const RoutedState &st, osm_subn_t &subn, const mcast::Tree &t, std::string &err) {
  for (const mcast::SwitchMask &m : t.masks) {
    osm_switch_t *sw = osm_get_switch_by_guid(&subn, cl_hton64(st.fabric().sw(m.sw).guid));
    if (!sw || !osm_switch_supports_mcast(sw)) {
      err = "switch " + st.fabric().describe(m.sw) +
            (sw ? " does not support multicast" : " is gone");
      return false;
    }
  }
  for (const mcast::SwitchMask &m : t.masks) {
    osm_switch_t *sw = osm_get_switch_by_guid(&subn, cl_hton64(st.fabric().sw(m.sw).guid));
    osm_mcast_tbl_t *tbl = osm_switch_get_mcast_tbl_ptr(sw);
    for (int p = 0; p <= st.fabric().sw(m.sw).num_ports; ++p)
      if (m.ports[p]) osm_mcast_tbl_set(tbl, t.mlid, static_cast<uint8_t>(p));
  }
  return true;
}

// A group whose members sit on one switch (or nowhere): its member ports at
// that switch, no link (core/mcast/trees.h does the same).
int install_local(const RoutedState &st, osm_subn_t &subn, const mcast::Group &g, OsmLogger &log) {
  mcast::Tree t;
  t.mlid = g.mlid;
  const Fabric &f = st.fabric();
  int32_t sw = g.switches.empty() ? -1 : g.switches[0];
  if (sw < 0 && !g.terminals.empty()) sw = f.terminal(g.terminals[0]).sw;
  if (sw < 0) return IB_SUCCESS;
  mcast::SwitchMask m{sw, {}};
  for (int32_t x : g.terminals) m.ports.set(f.terminal(x).sw_port);
  if (!g.switches.empty()) m.ports.set(0);
  t.root = sw;
  t.masks.push_back(m);
  std::string err;
  if (!install(st, subn, t, err)) {
    log.error(kErrRouting, "multicast " + describe(g) + ": " + err);
    return IB_ERROR;
  }
  return IB_SUCCESS;
}

int build(EngineRun &run, osm_mgrp_box_t *mbox, OsmLogger &log) {
  const RoutedState *st = run.state.load(std::memory_order_acquire);
  const char *name = run.reg->desc->osm_name;
  if (!st) {
    log.error(kErrRouting, strprintf("%s: multicast MLID 0x%04X: no routing of this engine to "
                                     "build a tree on",
                                     name, mbox->mlid));
    return IB_ERROR;
  }
  int unknown = 0;
  const mcast::Group g = read_group(*st, mbox, unknown);
  // Members on one switch (or none) need no switch-to-switch link, so no
  // dependency graph: the broadcast group OpenSM keeps on an idle fabric
  // costs nothing.
  std::vector<int32_t> member_sw = g.switches;
  for (int32_t t : g.terminals) member_sw.push_back(st->fabric().terminal(t).sw);
  std::sort(member_sw.begin(), member_sw.end());
  member_sw.erase(std::unique(member_sw.begin(), member_sw.end()), member_sw.end());
  if (member_sw.size() > 1 && !run.mcast && !run.mcast_failed) {
    std::string err;
    run.mcast = mcast::Router::create(
        st->fabric(), st->routing(),
        pipeline::router_options(pipeline::read_settings(run.reg->plugin->options),
                                 run.mcast_roots),
        err);
    run.mcast_failed = !run.mcast;
    if (!run.mcast) log.error(kErrRouting, std::string(name) + ": no multicast trees: " + err);
  }
  if (!run.mcast)
    return member_sw.size() > 1 ? IB_ERROR : install_local(*st, run.osm->subn, g, log);
  mcast::Router &router = *run.mcast;
  forget_deleted(router, run.osm->subn, router.mlids());
  mcast::Tree t;
  std::string err;
  ++run.mcast_builds;
  if (!router.build(g, t, err)) {
    log.error(kErrRouting, std::string(name) + ": multicast " + err + "; no entries installed");
    return IB_ERROR;
  }
  // Self-check: the tree as installed, and the whole graph by a DFS.
  const mcast::GroupVerdict v = mcast::flood(st->fabric(), st->routing(), g, t, {}, nullptr);
  if (!v.ok || !router.acyclic()) {
    router.remove(g.mlid);
    log.error(kErrRouting, std::string(name) +
                               ": multicast self-check failed, no entries "
                               "installed: " +
                               (v.ok ? describe(g) + ": dependency cycle" : v.problem));
    return IB_ERROR;
  }
  if (!install(*st, run.osm->subn, t, err)) {
    router.remove(g.mlid);
    log.error(kErrRouting, std::string(name) + ": multicast " + describe(g) + ": " + err);
    return IB_ERROR;
  }
  if (t.masks.empty()) return IB_SUCCESS;  // no members: nothing to say
  std::string sls;
  for (int sl = 0; sl < kNumSls; ++sl)
    if (g.sl_mask >> sl & 1) sls += (sls.empty() ? "" : ",") + std::to_string(sl);
  log.logf(LogLevel::kInfo,
           "%s: multicast %s: %zu ports%s on %zu switches, root %s, depth %d, SL %s%s", name,
           describe(g).c_str(), g.terminals.size() + g.switches.size(),
           unknown ? strprintf(" (%d unknown to the routing left out)", unknown).c_str() : "",
           t.masks.size(), t.root >= 0 ? st->fabric().describe(t.root).c_str() : "-", v.depth,
           sls.c_str(),
           router.last_from_master() ? " (the master tree pruned: no own tree fitted)" : "");
  return IB_SUCCESS;
}

}  // namespace

int build_mcast_tree(EngineRun &run, osm_mgrp_box_t *mbox) {
  OsmLogger log(&run.osm->log, kErrRouting);
  if (!mbox) return IB_ERROR;
  try {
    const int rc = build(run, mbox, log);
    run.mcast_errors += rc != IB_SUCCESS;
    return rc;
  } catch (const std::exception &ex) {
    log.error(kErrInternal, std::string(run.reg->desc->osm_name) + ": multicast: " + ex.what());
  } catch (...) {
    log.error(kErrInternal, std::string(run.reg->desc->osm_name) + ": multicast: exception");
  }
  ++run.mcast_errors;
  return IB_ERROR;
}

}  // namespace keiro::plugin
