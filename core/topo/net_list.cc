// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/net_list.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <numeric>
#include <unordered_map>

#include "core/topo/rng.h"

namespace keiro::topo {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

std::string node_id(char kind, uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%c-%016" PRIx64, kind, guid);
  return buf;
}

// Why desc cannot be a node description in a net file, or "".
std::string bad_desc(const std::string &desc) {
  if (desc.size() > 63) return "is longer than ibsim's 63 characters";
  if (desc.find('"') != std::string::npos) return "holds a double quote";
  return {};
}

void sort_peers(NetListNode &n) {
  std::sort(n.peers.begin(), n.peers.end(),
            [](const NetPeer &x, const NetPeer &y) { return x.port < y.port; });
}

}  // namespace

NetList net_list(const GenFabric &g) {
  NetList n;
  n.notes = g.notes;
  const int32_t num_sw = static_cast<int32_t>(g.sw.size());
  n.nodes.resize(g.sw.size() + static_cast<size_t>(g.num_hcas()));
  for (int32_t s = 0; s < num_sw; ++s) {
    NetListNode &x = n.nodes[s];
    x.is_switch = true;
    x.guid = g.switch_guid(s);
    x.id = "S" + std::to_string(s);
    x.desc = g.sw[s].desc;
    x.ports = g.sw[s].ports ? g.sw[s].ports : g.radix;
    x.gen_switch = s;
  }
  for (const GenLink &l : g.links) {
    n.nodes[l.a].peers.push_back({l.pa, l.b, l.pb});
    n.nodes[l.b].peers.push_back({l.pb, l.a, l.pa});
  }
  int32_t next = num_sw;
  for (int32_t s = 0; s < num_sw; ++s) {
    for (int j = 0; j < g.sw[s].hcas; ++j, ++next) {
      NetListNode &h = n.nodes[next];
      h.guid = g.hca_guid(s, j);
      h.id = "H" + std::to_string(s) + "-" + std::to_string(j);
      h.desc = g.sw[s].desc + " hca " + std::to_string(j);
      h.ports = 1;
      h.peers.push_back({1, s, g.hca_port_of(s, j)});
      n.nodes[s].peers.push_back({g.hca_port_of(s, j), next, 1});
    }
  }
  for (NetListNode &x : n.nodes) sort_peers(x);
  return n;
}

bool net_list(const Fabric &f, NetList &out, std::string &err) {
  out = {};
  const int32_t num_sw = f.num_switches();
  for (int32_t s = 0; s < num_sw; ++s) {
    const SwitchInfo &si = f.sw(s);
    if (const std::string why = bad_desc(si.name); !why.empty())
      return err = "the description of switch " + hex(si.guid) + " " + why, false;
    NetListNode x;
    x.is_switch = true;
    x.guid = si.guid;
    x.id = node_id('S', si.guid);
    x.desc = si.name;
    x.ports = si.num_ports;
    x.lid = si.lid;
    out.nodes.push_back(std::move(x));
  }
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    out.nodes[ch.src].peers.push_back({ch.src_port, ch.dst, ch.dst_port});
  }
  std::unordered_map<uint64_t, int32_t> ca_of;  // node GUID -> index in out.nodes
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    if (ti.router)
      return err = "end port " + hex(ti.port_guid) +
                   " is a router's: a net file cannot give a router port's LID",
             false;
    auto [it, fresh] = ca_of.try_emplace(ti.node_guid, static_cast<int32_t>(out.nodes.size()));
    if (fresh) {
      if (const std::string why = bad_desc(ti.name); !why.empty())
        return err = "the description of CA " + hex(ti.node_guid) + " " + why, false;
      NetListNode x;
      x.guid = ti.node_guid;
      x.id = node_id('H', ti.node_guid);
      x.desc = ti.name;
      out.nodes.push_back(std::move(x));
    }
    NetListNode &x = out.nodes[it->second];
    if (x.desc != ti.name)
      return err = "the end ports of CA " + hex(ti.node_guid) + " have different descriptions",
             false;
    x.ports = std::max<int>(x.ports, ti.port_num);
    const bool plain_guid = ti.port_guid == ti.node_guid + ti.port_num;
    x.peers.push_back({ti.port_num, ti.sw, ti.sw_port, plain_guid ? 0 : ti.port_guid, ti.lid});
    out.nodes[ti.sw].peers.push_back({ti.sw_port, it->second, ti.port_num});
  }
  for (NetListNode &x : out.nodes) sort_peers(x);
  return true;
}

std::string write_net_list(const NetList &n) {
  std::string out;
  for (const std::string &note : n.notes) out += "# " + note + "\n";
  out += "\n";
  char guid[24];
  for (const NetListNode &x : n.nodes) {
    out += (x.is_switch ? "switchguid=" : "caguid=") + hex(x.guid) + "\n";
    out += (x.is_switch ? "Switch " : "Hca ") + std::to_string(x.ports) + " \"" + x.id + "\" # \"" +
           x.desc + "\"" + (x.lid ? " lid " + std::to_string(x.lid) : "") + "\n";
    for (const NetPeer &p : x.peers) {
      out += "[" + std::to_string(p.port) + "]";
      if (p.port_guid) {
        std::snprintf(guid, sizeof guid, "(%" PRIx64 ")", p.port_guid);
        out += guid;
      }
      out += " \"" + n.nodes[p.node].id + "\"[" + std::to_string(p.peer_port) + "]" +
             (p.lid ? " lid " + std::to_string(p.lid) : "") + "\n";
    }
    out += "\n";
  }
  return out;
}

Relabelled relabel(const NetList &in, uint64_t seed) {
  // A stream of its own, apart from the generator's and --fail-links'.
  Rng rng(seed ^ 0x72656c6162656c21ULL);
  const size_t n = in.nodes.size();
  Relabelled r;
  r.of_node.resize(n);
  std::iota(r.of_node.begin(), r.of_node.end(), 0);
  rng.shuffle(r.of_node);
  std::vector<int32_t> to_node(n);
  for (size_t k = 0; k < n; ++k) to_node[r.of_node[k]] = static_cast<int32_t>(k);
  // GUIDs: a permutation within switches and one within HCAs.
  std::vector<uint64_t> sw_guids, ca_guids;
  for (const NetListNode &x : in.nodes) (x.is_switch ? sw_guids : ca_guids).push_back(x.guid);
  rng.shuffle(sw_guids);
  rng.shuffle(ca_guids);
  // Ports: to_port[old node][old port] = new port.
  std::vector<std::vector<int>> to_port(n);
  r.of_port.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const NetListNode &x = in.nodes[r.of_node[k]];
    std::vector<int> &of = r.of_port[k];
    of.resize(static_cast<size_t>(x.ports) + 1);
    std::iota(of.begin(), of.end(), 0);
    if (x.is_switch) {
      std::vector<int> tail(of.begin() + 1, of.end());
      rng.shuffle(tail);
      std::copy(tail.begin(), tail.end(), of.begin() + 1);
    }
    std::vector<int> &to = to_port[r.of_node[k]];
    to.resize(of.size());
    for (size_t p = 0; p < of.size(); ++p) to[of[p]] = static_cast<int>(p);
  }
  r.net.notes = in.notes;
  r.net.nodes.resize(n);
  size_t next_sw = 0, next_ca = 0;
  for (size_t k = 0; k < n; ++k) {
    const int32_t old = r.of_node[k];
    NetListNode x = in.nodes[old];
    x.guid = x.is_switch ? sw_guids[next_sw++] : ca_guids[next_ca++];
    x.id = (x.is_switch ? "S" : "H") + std::to_string(k);
    for (NetPeer &p : x.peers) {
      p.port = to_port[old][p.port];
      p.peer_port = to_port[p.node][p.peer_port];
      p.node = to_node[p.node];
    }
    sort_peers(x);
    r.net.nodes[k] = std::move(x);
  }
  return r;
}

std::string write_layout(const GenFabric &g, const NetList &n) {
  std::string out =
      "# keiro layout: GUID X Y NAME (switch GUID, grid column and row, node "
      "description)\n";
  std::vector<uint64_t> guid(g.sw.size(), 0);
  for (const NetListNode &x : n.nodes)
    if (x.is_switch && x.gen_switch >= 0) guid[x.gen_switch] = x.guid;
  for (size_t s = 0; s < g.sw.size(); ++s) {
    if (g.sw[s].x < 0) continue;
    out += hex(guid[s]) + " " + std::to_string(g.sw[s].x) + " " + std::to_string(g.sw[s].y) + " " +
           g.sw[s].desc + "\n";
  }
  return out;
}

std::string write_net(const GenFabric &g) {
  return write_net_list(net_list(g));
}

std::string write_layout(const GenFabric &g) {
  return write_layout(g, net_list(g));
}

}  // namespace keiro::topo
