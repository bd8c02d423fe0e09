// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/subnet_lst.h"

#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "core/io/opensm_lids.h"
#include "core/io/port_peers.h"
#include "core/io/text_lines.h"

namespace keiro::io {

namespace {

struct End {
  enum Type : uint8_t { kCa, kSwitch, kRouter };
  Type type = kCa;
  bool sm = false;
  int num_ports = 0;
  uint64_t node_guid = 0, port_guid = 0;
  std::string desc;
  uint16_t lid = 0;
  int pn = 0;
};

bool hex_after(std::string_view s, std::string_view key, uint64_t &v, size_t &pos) {
  const size_t k = s.find(key, pos);
  if (k == std::string_view::npos) return false;
  const size_t b = k + key.size();
  const std::string t(s.substr(b, 20));
  char *e = nullptr;
  v = std::strtoull(t.c_str(), &e, 16);
  if (e == t.c_str()) return false;
  pos = b + static_cast<size_t>(e - t.c_str());
  return true;
}

// Parses "{ TYPE ... PN:PP }" starting at pos; pos ends after the closing brace.
bool parse_end(std::string_view s, size_t &pos, End &e, std::string &why) {
  while (pos < s.size() && s[pos] == ' ') ++pos;
  if (pos >= s.size() || s[pos] != '{') return why = "expected '{'", false;
  ++pos;
  while (pos < s.size() && s[pos] == ' ') ++pos;
  const size_t te = s.find(' ', pos);
  if (te == std::string_view::npos) return why = "truncated node", false;
  std::string_view type = s.substr(pos, te - pos);
  if (type.size() > 3 && type.substr(type.size() - 3) == "-SM") {
    e.sm = true;
    type.remove_suffix(3);
  }
  if (type == "SW")
    e.type = End::kSwitch;
  else if (type == "CA")
    e.type = End::kCa;
  else if (type == "Rt")
    e.type = End::kRouter;
  else
    return why = "unknown node type '" + std::string(type) + "'", false;
  pos = te;
  uint64_t v = 0;
  if (!hex_after(s, "Ports:", v, pos)) return why = "missing Ports:", false;
  e.num_ports = static_cast<int>(v);
  if (!hex_after(s, "NodeGUID:", e.node_guid, pos)) return why = "missing NodeGUID:", false;
  if (!hex_after(s, "PortGUID:", e.port_guid, pos)) return why = "missing PortGUID:", false;
  if (!hex_after(s, "Rev:", v, pos)) return why = "missing Rev:", false;
  const size_t db = s.find('{', pos);
  const size_t de = s.find("} LID:", pos);
  if (db == std::string_view::npos || de == std::string_view::npos || de < db)
    return why = "missing {description}", false;
  e.desc = std::string(s.substr(db + 1, de - db - 1));
  pos = de + 1;
  if (!hex_after(s, "LID:", v, pos) || v >= 0xC000) return why = "missing or bad LID:", false;
  e.lid = static_cast<uint16_t>(v);
  if (!hex_after(s, "PN:", v, pos) || v == 0 || v > 254) return why = "missing or bad PN:", false;
  e.pn = static_cast<int>(v);
  const size_t close = s.find('}', pos);
  if (close == std::string_view::npos) return why = "missing '}'", false;
  pos = close + 1;
  return true;
}

struct NodeRec {
  End::Type type;
  int num_ports;
  std::string desc;
  uint16_t lid;  // switch port 0
  int line;
};

struct Link {
  End a, b;
  int line;
};

// parse_subnet_lst() in two steps: the links of the file with their nodes,
// then the fabric. Errors go to err as "name:line: message".
class LstParser {
 public:
  LstParser(const std::string &name, std::string &err) : name_(name), err_(err) {}
  // The links of text, each node described the same way on every line and
  // each port linked to one peer.
  bool read(std::string_view text);
  // The switches in file order, the links and terminals; sm: the port
  // marked -SM (a switch's wins).
  bool build(const TopologyReadOptions &opt, Fabric &f, LidOwner &sm);

 private:
  bool fail(int line, const std::string &msg) {
    err_ = name_ + ":" + std::to_string(line) + ": " + msg;
    return false;
  }
  // Records the nodes and peers of link l (line lineno).
  bool add_link(Link &&l, int lineno);
  // The terminal end of switch-to-terminal link l.
  bool add_terminal(const Link &l, const TopologyReadOptions &opt, Fabric &f, LidOwner &sm);

  const std::string &name_;
  std::string &err_;
  std::unordered_map<uint64_t, NodeRec> nodes_;
  std::vector<uint64_t> node_order_;
  PortPeers peers_;
  std::vector<Link> links_;
  std::unordered_map<uint64_t, int32_t> sw_id_;
  std::unordered_map<uint64_t, bool> term_guids_;
};

bool LstParser::add_link(Link &&l, int lineno) {
  for (const End *e : {&l.a, &l.b}) {
    if (!e->node_guid) return fail(lineno, "node GUID 0");
    auto [it, fresh] =
        nodes_.try_emplace(e->node_guid, NodeRec{e->type, e->num_ports, e->desc, 0, lineno});
    if (fresh) node_order_.push_back(e->node_guid);
    if (it->second.type != e->type || it->second.num_ports != e->num_ports)
      return fail(lineno, "node " + e->desc + " described differently on line " +
                              std::to_string(it->second.line));
    if (e->pn > e->num_ports) return fail(lineno, "port beyond the node's port count");
    if (e->type == End::kSwitch) it->second.lid = e->lid;
  }
  if (int c = peers_.link({l.a.node_guid, l.a.pn}, {l.b.node_guid, l.b.pn}, lineno))
    return fail(lineno, "port contradicts line " + std::to_string(c));
  links_.push_back(std::move(l));
  return true;
}

bool LstParser::read(std::string_view text) {
  TextLines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int lineno = lines.number();
    size_t p = 0;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '\r')) ++p;
    if (p == line.size() || line[p] == '#') continue;
    Link l;
    l.line = lineno;
    std::string why;
    if (!parse_end(line, p, l.a, why) || !parse_end(line, p, l.b, why))
      return fail(lineno, "malformed opensm-subnet.lst line: " + why);
    if (!add_link(std::move(l), lineno)) return false;
  }
  if (links_.empty()) return fail(lines.number(), "no links");
  return true;
}

bool LstParser::add_terminal(const Link &l, const TopologyReadOptions &opt, Fabric &f,
                             LidOwner &sm) {
  const bool sa = l.a.type == End::kSwitch;
  const End &t = sa ? l.b : l.a;
  const End &s = sa ? l.a : l.b;
  if (!term_guids_.try_emplace(t.port_guid, true).second)
    return fail(l.line, "port GUID of " + t.desc + " used twice");
  TerminalInfo ti;
  ti.node_guid = t.node_guid;
  ti.port_guid = t.port_guid;
  ti.name = t.desc;
  ti.port_num = static_cast<uint8_t>(t.pn);
  ti.router = t.type == End::kRouter;
  ti.lid = t.lid;
  ti.sw = sw_id_[s.node_guid];
  ti.sw_port = static_cast<uint8_t>(s.pn);
  ti.vls = opt.vls;
  const int32_t id = f.add_terminal(std::move(ti));
  if (t.sm) sm = {LidOwner::kTerminal, id};
  return true;
}

bool LstParser::build(const TopologyReadOptions &opt, Fabric &f, LidOwner &sm) {
  for (uint64_t g : node_order_) {
    const NodeRec &n = nodes_[g];
    if (n.type != End::kSwitch) continue;
    SwitchInfo si;
    si.guid = g;
    si.name = n.desc;
    si.num_ports = static_cast<uint8_t>(n.num_ports);
    si.lid = n.lid;
    sw_id_[g] = f.add_switch(std::move(si));
  }
  for (const Link &l : links_) {
    if (!peers_.first_listing({l.a.node_guid, l.a.pn}, {l.b.node_guid, l.b.pn})) continue;
    const bool sa = l.a.type == End::kSwitch, sb = l.b.type == End::kSwitch;
    if (sa && sb) {
      if (l.a.node_guid == l.b.node_guid)
        return fail(l.line, "loopback link on switch " + l.a.desc + " is not supported");
      f.add_link(sw_id_[l.a.node_guid], static_cast<uint8_t>(l.a.pn), sw_id_[l.b.node_guid],
                 static_cast<uint8_t>(l.b.pn), opt.vls);
      continue;
    }
    if (!sa && !sb) return fail(l.line, "link between two CA/router ports is not supported");
    if (!add_terminal(l, opt, f, sm)) return false;
  }
  for (const Link &l : links_)
    for (const End *e : {&l.a, &l.b})
      if (e->sm && e->type == End::kSwitch) sm = {LidOwner::kSwitch, sw_id_[e->node_guid]};
  return true;
}

}  // namespace

bool parse_subnet_lst(std::string_view text, const std::string &name, Fabric &out, std::string &err,
                      const TopologyReadOptions &opt) {
  LstParser parser(name, err);
  if (!parser.read(text)) return false;
  Fabric f;
  LidOwner sm{};
  if (!parser.build(opt, f, sm)) return false;
  if (!opt.sm_node.empty() && !sm_by_description(f, opt.sm_node, sm))
    return err = name + ": SM node '" + opt.sm_node + "' not found", false;
  return finish_fabric(f, opt.lmc, sm, name, out, err);
}

}  // namespace keiro::io
