// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/topology_file.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/io/net_file.h"
#include "core/io/opensm_lids.h"
#include "core/io/ports_report.h"
#include "core/io/subnet_lst.h"
#include "core/io/text_lines.h"

namespace keiro::io {

namespace {

using io::NetNode;
using io::NetPort;

std::string at(const NetPort &p) {
  return p.file + ":" + std::to_string(p.line) + ": ";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Why the link of port p of node i is one ibsim's connect_ports() rejects,
// or "". by_id: node index by id; ports_of[i][p]: index into nodes[i].ports,
// -1 when the port is not listed.
std::string bad_link(const std::vector<NetNode> &nodes,
                     const std::unordered_map<std::string, int> &by_id,
                     const std::vector<std::vector<int>> &ports_of, size_t i, const NetPort &p) {
  auto it = by_id.find(p.remote);
  if (it == by_id.end()) return at(p) + "can't find remote node \"" + p.remote + "\"";
  const NetNode &r = nodes[it->second];
  if (p.remote_port > r.num_ports)
    return at(p) + "bad remote port " + std::to_string(p.remote_port) + " in node \"" + r.id +
           "\" with " + std::to_string(r.num_ports) + " ports";
  const int back = ports_of[it->second][p.remote_port];
  if (back < 0 || r.ports[back].remote != nodes[i].id || r.ports[back].remote_port != p.port)
    return at(p) + "port " + std::to_string(p.remote_port) + " of node \"" + r.id +
           "\" is not connected back to node \"" + nodes[i].id + "\" port " +
           std::to_string(p.port);
  if (it->second == static_cast<int>(i) && nodes[i].type == NetNode::kSwitch)
    return at(p) + "loopback link on switch \"" + r.id + "\" is not supported";
  if (nodes[i].type != NetNode::kSwitch && r.type != NetNode::kSwitch && r.guid && nodes[i].guid)
    return at(p) + "link between two CA/router ports is not supported";
  return {};
}

// Checks the links the way ibsim's connect_ports() does.
bool check_links(const std::vector<NetNode> &nodes,
                 const std::unordered_map<std::string, int> &by_id, std::string &err) {
  std::vector<std::vector<int>> ports_of(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    ports_of[i].assign(nodes[i].num_ports + 1, -1);
    for (size_t k = 0; k < nodes[i].ports.size(); ++k) ports_of[i][nodes[i].ports[k].port] = k;
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const NetPort &p : nodes[i].ports) {
      std::string why = bad_link(nodes, by_id, ports_of, i, p);
      if (!why.empty()) {
        err = std::move(why);
        return false;
      }
    }
  return true;
}

// The fabric of checked nodes as it is being built: per node its switch
// and its first terminal (-1: none).
struct NetFabric {
  Fabric f;
  std::vector<int32_t> sw_of, first_term;
};

// The switches (not those of GUID 0, which OpenSM ignores), then the links
// and terminals; false (err) on a port GUID used twice.
bool build_fabric(const std::vector<NetNode> &nodes, std::unordered_map<std::string, int> &by_id,
                  const TopologyReadOptions &opt, NetFabric &nf, std::string &err) {
  nf.sw_of.assign(nodes.size(), -1);
  nf.first_term.assign(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NetNode &n = nodes[i];
    if (n.type != NetNode::kSwitch || n.guid == 0) continue;  // OpenSM ignores GUID 0
    SwitchInfo si;
    si.guid = n.guid;
    si.name = n.desc;
    si.num_ports = static_cast<uint8_t>(n.num_ports);
    si.lid = n.lid;
    nf.sw_of[i] = nf.f.add_switch(std::move(si));
  }
  std::unordered_set<uint64_t> port_guids;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nf.sw_of[i] >= 0) port_guids.insert(nodes[i].guid);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NetNode &n = nodes[i];
    if (n.guid == 0) continue;
    for (const NetPort &p : n.ports) {
      const int j = by_id[p.remote];
      if (nf.sw_of[j] < 0) continue;  // peer ignored, or CA-CA (rejected above)
      if (n.type == NetNode::kSwitch) {
        // Add each switch-to-switch link once, from its smaller (node, port) end.
        if (std::pair(static_cast<int>(i), static_cast<int>(p.port)) < std::pair(j, p.remote_port))
          nf.f.add_link(nf.sw_of[i], p.port, nf.sw_of[j], static_cast<uint8_t>(p.remote_port),
                        opt.vls);
        continue;
      }
      TerminalInfo t;
      t.node_guid = n.guid;
      t.port_guid = p.guid ? p.guid : n.guid + p.port;
      if (!port_guids.insert(t.port_guid).second) {
        err = at(p) + "port GUID " + hex(t.port_guid) + " is used twice";
        return false;
      }
      t.name = n.desc;
      t.port_num = p.port;
      t.router = n.type == NetNode::kRouter;
      t.lid = p.lid;
      t.sw = nf.sw_of[j];
      t.sw_port = static_cast<uint8_t>(p.remote_port);
      t.vls = opt.vls;
      const int32_t id = nf.f.add_terminal(std::move(t));
      if (nf.first_term[i] < 0) nf.first_term[i] = id;
    }
  }
  return true;
}

// The SM's port: ibsim attaches the SM to SIM_HOST's node, by default to the
// first port of the first node in the file (port 0 of a switch, port 1 of a
// CA); none when that port is not in the fabric. False (err) when
// opt.sm_node names no node.
bool sm_port(const std::vector<NetNode> &nodes, const std::unordered_map<std::string, int> &by_id,
             const std::string &name, const TopologyReadOptions &opt, const NetFabric &nf,
             LidOwner &sm, std::string &err) {
  sm = {};
  int sm_node = nodes.empty() ? -1 : 0;
  if (!opt.sm_node.empty()) {
    sm_node = -1;
    auto it = by_id.find(opt.sm_node);
    if (it != by_id.end()) sm_node = it->second;
    for (size_t i = 0; sm_node < 0 && i < nodes.size(); ++i)
      if (nodes[i].desc == opt.sm_node) sm_node = static_cast<int>(i);
    if (sm_node < 0) {
      err = name + ": SM node '" + opt.sm_node + "' not found";
      return false;
    }
  }
  if (sm_node < 0) return true;
  if (nf.sw_of[sm_node] >= 0)
    sm = {LidOwner::kSwitch, nf.sw_of[sm_node]};
  else if (nf.first_term[sm_node] >= 0 && nf.f.terminal(nf.first_term[sm_node]).port_num == 1)
    sm = {LidOwner::kTerminal, nf.first_term[sm_node]};
  return true;
}

// Checks the links the way ibsim's connect_ports() does and builds the fabric.
bool net_to_fabric(const std::vector<NetNode> &nodes, const std::string &name, Fabric &out,
                   std::string &err, const TopologyReadOptions &opt) {
  std::unordered_map<std::string, int> by_id;
  for (size_t i = 0; i < nodes.size(); ++i) by_id[nodes[i].id] = static_cast<int>(i);
  if (!check_links(nodes, by_id, err)) return false;
  NetFabric nf;
  if (!build_fabric(nodes, by_id, opt, nf, err)) return false;
  LidOwner sm{};
  if (!sm_port(nodes, by_id, name, opt, nf, sm, err)) return false;
  return io::finish_fabric(nf.f, opt.lmc, sm, name, out, err);
}

}  // namespace

bool parse_topology(std::string_view text, const std::string &name, Fabric &out, std::string &err,
                    const TopologyReadOptions &opt) {
  // The first line that is neither blank nor a comment (nor a progress line
  // of `ibnetdiscover -s`) decides the format.
  bool lst = false, ports = false;
  io::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const size_t c = line.find_first_not_of(" \t\r");
    if (c == std::string_view::npos || line[c] == '#' || io::is_discovery_progress_line(line))
      continue;
    lst = line[c] == '{';
    ports = io::is_ports_report_line(line);
    break;
  }
  if (lst) return io::parse_subnet_lst(text, name, out, err, opt);
  if (ports) return io::parse_ports_report(text, name, out, err, opt);
  std::vector<NetNode> nodes;
  if (!io::parse_net_file(text, name, nodes, err)) return false;
  if (nodes.empty()) {
    err = name + ": no nodes";
    return false;
  }
  return net_to_fabric(nodes, name, out, err, opt);
}

bool read_topology(const std::string &path, Fabric &out, std::string &err,
                   const TopologyReadOptions &opt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = path + ": cannot open";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    err = path + ": read error";
    return false;
  }
  return parse_topology(ss.str(), path, out, err, opt);
}

}  // namespace keiro::io
