// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/read_subnet.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "plugin/vl_cap.h"
// clang-format off
#include "plugin/osm.h"
// clang-format on

namespace keiro::plugin {

namespace {

uint64_t node_guid_ho(const osm_node_t *n) {
  return cl_ntoh64(osm_node_get_node_guid(n));
}

std::string node_name(const osm_node_t *n) {
  return n->print_desc ? std::string(n->print_desc) : std::string();
}

uint8_t lmc_of_range(uint16_t lo, uint16_t hi) {
  uint8_t lmc = 0;
  while (lmc < 7 && lo + (1u << lmc) - 1 < hi) ++lmc;
  return lmc;
}

uint8_t vl_cap(const osm_physp_t *p) {
  return ib_port_info_get_vl_cap(&p->port_info);
}

using SwitchIds = std::unordered_map<const osm_node_t *, int32_t>;
using SortedSwitches = std::vector<std::pair<uint64_t, osm_switch_t *>>;

// The switches, sorted by host-order node GUID, into out; sw_id: their ids by node.
SortedSwitches add_switches(osm_subn_t &subn, SubnetFabric &out, SwitchIds &sw_id) {
  SortedSwitches sws;
  for (cl_map_item_t *it = cl_qmap_head(&subn.sw_guid_tbl); it != cl_qmap_end(&subn.sw_guid_tbl);
       it = cl_qmap_next(it)) {
    auto *sw = reinterpret_cast<osm_switch_t *>(it);
    sws.emplace_back(node_guid_ho(sw->p_node), sw);
  }
  std::sort(sws.begin(), sws.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  sw_id.reserve(sws.size());
  for (const auto &[guid, sw] : sws) {
    SwitchInfo si;
    si.guid = guid;
    si.name = node_name(sw->p_node);
    si.num_ports = static_cast<uint8_t>(sw->num_ports ? sw->num_ports - 1 : 0);
    const int32_t id = out.fabric.add_switch(std::move(si));
    sw_id[sw->p_node] = id;
    out.osm_switch.push_back(sw);
  }
  return sws;
}

// Switch-to-switch links, each added once from its lower (switch, port) end.
void add_links(const SortedSwitches &sws, SwitchIds &sw_id, uint8_t max_op_vls, Fabric &f) {
  for (const auto &[guid, sw] : sws) {
    osm_node_t *node = sw->p_node;
    const int32_t a = sw_id[node];
    for (uint8_t port = 1; port < sw->num_ports; ++port) {
      osm_physp_t *p = osm_node_get_physp_ptr(node, port);
      if (!p || !p->p_remote_physp) continue;
      osm_physp_t *r = p->p_remote_physp;
      const osm_node_t *rn = r->p_node;
      if (!rn || !rn->sw) continue;  // end port: added with the end ports
      const auto rit = sw_id.find(rn);
      if (rit == sw_id.end() || rit->second == a) continue;  // unknown or loopback
      const int32_t b = rit->second;
      const uint8_t rport = osm_physp_get_port_num(r);
      if (std::make_pair(a, port) > std::make_pair(b, rport)) continue;
      f.add_link(a, port, b, rport, link_data_vls(vl_cap(p), vl_cap(r), max_op_vls));
    }
  }
}

// End port port (GUID guid, LIDs lo..hi) of a CA or router, on the switch
// its peer is; skipped (counted) without a LID or a known switch peer.
void add_end_port(uint64_t guid, osm_port_t *port, uint16_t lo, uint16_t hi, const SwitchIds &sw_id,
                  uint8_t max_op_vls, SubnetFabric &out) {
  osm_node_t *node = port->p_node;
  osm_physp_t *p = port->p_physp;
  osm_physp_t *r = p->p_remote_physp;
  if (!lo || !r || !r->p_node || !r->p_node->sw) {
    ++out.skipped_ports;
    return;
  }
  const auto it = sw_id.find(r->p_node);
  if (it == sw_id.end()) {
    ++out.skipped_ports;
    return;
  }
  TerminalInfo t;
  t.node_guid = node_guid_ho(node);
  t.port_guid = guid;
  t.name = node_name(node);
  t.port_num = osm_physp_get_port_num(p);
  t.router = osm_node_get_type(node) == IB_NODE_TYPE_ROUTER;
  t.lid = lo;
  t.lmc = lmc_of_range(lo, hi);
  t.sw = it->second;
  t.sw_port = osm_physp_get_port_num(r);
  t.vls = link_data_vls(vl_cap(p), vl_cap(r), max_op_vls);
  out.fabric.add_terminal(std::move(t));
}

// End ports (CA, router) and the LIDs of switch port 0, by port GUID.
void add_ports(osm_subn_t &subn, const SwitchIds &sw_id, uint8_t max_op_vls, SubnetFabric &out) {
  std::vector<std::pair<uint64_t, osm_port_t *>> ports;
  for (cl_map_item_t *it = cl_qmap_head(&subn.port_guid_tbl);
       it != cl_qmap_end(&subn.port_guid_tbl); it = cl_qmap_next(it)) {
    auto *port = reinterpret_cast<osm_port_t *>(it);
    ports.emplace_back(cl_ntoh64(port->guid), port);
  }
  std::sort(ports.begin(), ports.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[guid, port] : ports) {
    osm_node_t *node = port->p_node;
    if (!node || !port->p_physp) continue;
    uint16_t lo = 0, hi = 0;
    osm_port_get_lid_range_ho(port, &lo, &hi);
    const uint8_t type = osm_node_get_type(node);
    if (type == IB_NODE_TYPE_SWITCH) {
      const auto it = sw_id.find(node);
      if (it == sw_id.end()) continue;
      SwitchInfo &si = out.fabric.sw_mut(it->second);
      si.lid = lo;
      si.lmc = lo ? lmc_of_range(lo, hi) : 0;
      continue;
    }
    if (type == IB_NODE_TYPE_CA || type == IB_NODE_TYPE_ROUTER)
      add_end_port(guid, port, lo, hi, sw_id, max_op_vls, out);
  }
}

void read_into(osm_subn_t &subn, SubnetFabric &out) {
  const uint8_t max_op_vls = subn.opt.max_op_vls;
  SwitchIds sw_id;
  const SortedSwitches sws = add_switches(subn, out, sw_id);
  add_links(sws, sw_id, max_op_vls, out.fabric);
  add_ports(subn, sw_id, max_op_vls, out);
  out.fabric.finalize();
}

}  // namespace

bool read_subnet(osm_subn_t &subn, SubnetFabric &out, std::string &err) {
  out = SubnetFabric{};
  try {
    read_into(subn, out);
  } catch (const FabricError &e) {
    err = std::string("cannot model the subnet: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace keiro::plugin
