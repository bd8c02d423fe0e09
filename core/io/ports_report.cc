// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/ports_report.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "core/io/opensm_lids.h"
#include "core/io/port_peers.h"
#include "core/io/text_lines.h"

namespace keiro::io {

namespace {

enum class NodeType : uint8_t { kSwitch, kCa, kRouter };

const char *type_name(NodeType t) {
  return t == NodeType::kSwitch ? "SW" : t == NodeType::kCa ? "CA" : "RT";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

void skip_blanks(std::string_view s, size_t &pos) {
  while (pos < s.size() && blank(s[pos])) ++pos;
}

// The next blank-separated token of s from pos; false at the end of s.
bool token(std::string_view s, size_t &pos, std::string_view &tok) {
  skip_blanks(s, pos);
  const size_t b = pos;
  while (pos < s.size() && !blank(s[pos])) ++pos;
  tok = s.substr(b, pos - b);
  return !tok.empty();
}

bool decimal(std::string_view tok, uint32_t max, uint32_t &v) {
  if (tok.empty() || tok.size() > 6) return false;
  v = 0;
  for (char c : tok) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  return v <= max;
}

bool guid_hex(std::string_view tok, uint64_t &v) {
  if (tok.size() < 3 || tok.size() > 18 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X'))
    return false;
  v = 0;
  for (char c : tok.substr(2)) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return true;
}

bool node_type(std::string_view tok, NodeType &t) {
  if (tok == "SW")
    t = NodeType::kSwitch;
  else if (tok == "CA")
    t = NodeType::kCa;
  else if (tok == "RT")
    t = NodeType::kRouter;
  else
    return false;
  return true;
}

// One end of a line: TYPE LID PORT GUID.
struct End {
  NodeType type = NodeType::kCa;
  uint16_t lid = 0;
  int port = 0;
  uint64_t guid = 0;
};

// Parses "TYPE LID PORT GUID" from pos; why says what is wrong.
bool parse_end(std::string_view s, size_t &pos, End &e, std::string &why) {
  std::string_view tok;
  uint32_t v = 0;
  if (!token(s, pos, tok) || !node_type(tok, e.type))
    return why = "expected node type SW, CA or RT, found '" + std::string(tok) + "'", false;
  if (!token(s, pos, tok) || !decimal(tok, 0xBFFF, v))
    return why = "bad LID '" + std::string(tok) + "'", false;
  e.lid = static_cast<uint16_t>(v);
  if (!token(s, pos, tok) || !decimal(tok, 254, v) || v == 0)
    return why = "bad port number '" + std::string(tok) + "'", false;
  e.port = static_cast<int>(v);
  if (!token(s, pos, tok) || !guid_hex(tok, e.guid))
    return why = "bad GUID '" + std::string(tok) + "'", false;
  if (e.guid == 0) return why = "GUID 0", false;
  return true;
}

// One port line; peer.guid == 0 when the port has no link.
struct PortLine {
  End self, peer;
  std::string desc, peer_desc;
};

// The "( 'desc' - 'peer desc' )" of a linked line, from pos to the end.
bool parse_descriptions(std::string_view s, size_t pos, PortLine &l, std::string &why) {
  skip_blanks(s, pos);
  size_t end = s.size();
  while (end > pos && blank(s[end - 1])) --end;
  const std::string_view d = s.substr(pos, end - pos);
  if (d.size() < 10 || d.substr(0, 3) != "( '" || d.substr(d.size() - 3) != "' )")
    return why = "expected ( 'description' - 'peer description' )", false;
  const std::string_view in = d.substr(3, d.size() - 6);
  const size_t sep = in.find("' - '");
  if (sep == std::string_view::npos)
    return why = "expected ' - ' between the two descriptions", false;
  l.desc = std::string(in.substr(0, sep));
  l.peer_desc = std::string(in.substr(sep + 5));
  return true;
}

// A whole port line (not blank, not a comment, not a progress line).
bool parse_line(std::string_view s, PortLine &l, std::string &why) {
  size_t pos = 0;
  if (!parse_end(s, pos, l.self, why)) return false;
  std::string_view tok;
  for (const char *what : {"link width", "link speed"})
    if (!token(s, pos, tok) || tok == "-" || tok[0] == '\'')
      return why = std::string("missing ") + what, false;
  skip_blanks(s, pos);
  if (pos < s.size() && s[pos] == '-') {
    ++pos;
    if (!parse_end(s, pos, l.peer, why)) return why = "peer: " + why, false;
    return parse_descriptions(s, pos, l, why);
  }
  size_t end = s.size();
  while (end > pos && blank(s[end - 1])) --end;
  if (end - pos < 2 || s[pos] != '\'' || s[end - 1] != '\'')
    return why = "expected '- PEER' or the 'description' of an unlinked port", false;
  l.desc = std::string(s.substr(pos + 1, end - pos - 2));
  l.peer = {};
  return true;
}

// A node as the lines describe it: a switch (key: its GUID) or one CA/router
// port (key: the port GUID).
struct NodeRec {
  NodeType type;
  uint16_t lid;
  int num_ports;
  std::string desc;
  int line;  // first line naming it
};

struct Link {
  End a, b;
  int line;
};

// parse_ports_report() in two steps: the nodes and links of the lines, each
// node and port described alike on every line, then the fabric.
class ReportParser {
 public:
  ReportParser(const std::string &name, std::string &err) : name_(name), err_(err) {}
  bool read(std::string_view text);
  // Switches in order of first mention, then each link once in file order.
  bool build(const TopologyReadOptions &opt, Fabric &f);

 private:
  bool fail(int line, const std::string &msg) {
    err_ = name_ + ":" + std::to_string(line) + ": " + msg;
    return false;
  }
  bool add_node(const End &e, const std::string &desc, int line);
  // Records that port a is linked to b ({0, 0}: to nothing) on line.
  bool add_peer(PortKey a, PortKey b, int line);
  bool add_line(const PortLine &l, int line);
  // The CA/router end of link l. A GUID names one node (add_node), so no
  // port GUID can be used twice.
  void add_terminal(const Link &l, const TopologyReadOptions &opt, Fabric &f);

  const std::string &name_;
  std::string &err_;
  std::unordered_map<uint64_t, NodeRec> nodes_;
  std::vector<uint64_t> order_;
  PortPeers peers_;
  std::vector<Link> links_;
  std::unordered_map<uint64_t, int32_t> sw_id_;
};

bool ReportParser::add_node(const End &e, const std::string &desc, int line) {
  auto [it, fresh] = nodes_.try_emplace(e.guid, NodeRec{e.type, e.lid, e.port, desc, line});
  if (fresh) {
    order_.push_back(e.guid);
    return true;
  }
  NodeRec &n = it->second;
  const std::string what = std::string(type_name(e.type)) + " " + hex(e.guid);
  if (n.type != e.type)
    return fail(line, what + " is a " + type_name(n.type) + " on line " + std::to_string(n.line));
  if (n.lid != e.lid)
    return fail(line, what + " has LID " + std::to_string(e.lid) + " here, " +
                          std::to_string(n.lid) + " on line " + std::to_string(n.line));
  if (n.type != NodeType::kSwitch && n.num_ports != e.port)
    return fail(line, what + " is port " + std::to_string(e.port) + " here, port " +
                          std::to_string(n.num_ports) + " on line " + std::to_string(n.line));
  n.num_ports = std::max(n.num_ports, e.port);
  return true;
}

bool ReportParser::add_peer(PortKey a, PortKey b, int line) {
  const int c = peers_.set(a, b, line);
  return !c || fail(line, "port " + std::to_string(a.port) + " of " + hex(a.guid) +
                              " contradicts line " + std::to_string(c));
}

bool ReportParser::add_line(const PortLine &l, int line) {
  if (!add_node(l.self, l.desc, line)) return false;
  const PortKey a{l.self.guid, l.self.port};
  if (l.peer.guid == 0) return add_peer(a, PortKey{0, 0}, line);
  if (!add_node(l.peer, l.peer_desc, line)) return false;
  const PortKey b{l.peer.guid, l.peer.port};
  if (!add_peer(a, b, line) || !add_peer(b, a, line)) return false;
  links_.push_back({l.self, l.peer, line});
  return true;
}

bool ReportParser::read(std::string_view text) {
  TextLines lines(text);
  std::string_view line;
  bool any = false;
  while (lines.next(line)) {
    size_t p = 0;
    skip_blanks(line, p);
    if (p == line.size() || line[p] == '#' || is_discovery_progress_line(line)) continue;
    PortLine l;
    std::string why;
    if (!parse_line(line, l, why))
      return fail(lines.number(), "malformed ibnetdiscover -p line: " + why);
    if (!add_line(l, lines.number())) return false;
    any = true;
  }
  if (!any) return fail(lines.number(), "no port lines");
  return true;
}

void ReportParser::add_terminal(const Link &l, const TopologyReadOptions &opt, Fabric &f) {
  const bool sa = l.a.type == NodeType::kSwitch;
  const End &t = sa ? l.b : l.a;
  const End &s = sa ? l.a : l.b;
  TerminalInfo ti;
  ti.node_guid = t.guid;  // the format shows no node GUID: one node per port
  ti.port_guid = t.guid;
  ti.name = nodes_[t.guid].desc;
  ti.port_num = static_cast<uint8_t>(t.port);
  ti.router = t.type == NodeType::kRouter;
  ti.lid = t.lid;
  ti.sw = sw_id_[s.guid];
  ti.sw_port = static_cast<uint8_t>(s.port);
  ti.vls = opt.vls;
  f.add_terminal(std::move(ti));
}

bool ReportParser::build(const TopologyReadOptions &opt, Fabric &f) {
  for (uint64_t g : order_) {
    const NodeRec &n = nodes_[g];
    if (n.type != NodeType::kSwitch) continue;
    SwitchInfo si;
    si.guid = g;
    si.name = n.desc;
    si.num_ports = static_cast<uint8_t>(n.num_ports);
    si.lid = n.lid;
    sw_id_[g] = f.add_switch(std::move(si));
  }
  for (const Link &l : links_) {
    if (!peers_.first_listing({l.a.guid, l.a.port}, {l.b.guid, l.b.port})) continue;
    const bool sa = l.a.type == NodeType::kSwitch, sb = l.b.type == NodeType::kSwitch;
    if (sa && sb) {
      if (l.a.guid == l.b.guid)
        return fail(l.line, "loopback link on switch " + hex(l.a.guid) + " is not supported");
      f.add_link(sw_id_[l.a.guid], static_cast<uint8_t>(l.a.port), sw_id_[l.b.guid],
                 static_cast<uint8_t>(l.b.port), opt.vls);
    } else if (!sa && !sb) {
      return fail(l.line, "link between two CA/router ports is not supported");
    } else {
      add_terminal(l, opt, f);
    }
  }
  return true;
}

}  // namespace

bool is_discovery_progress_line(std::string_view line) {
  return line.starts_with("DR path ");
}

bool is_ports_report_line(std::string_view line) {
  size_t pos = 0;
  std::string_view tok;
  NodeType t;
  uint32_t v;
  // Loose on the values (parse_end() names what is wrong with them): only the
  // shape, which no line of the other formats has.
  if (!token(line, pos, tok) || (!node_type(tok, t) && tok != "??")) return false;
  for (int i = 0; i < 2; ++i)
    if (!token(line, pos, tok) || !decimal(tok, 999999, v)) return false;
  return token(line, pos, tok) && tok.size() > 2 && tok[0] == '0' && tok[1] == 'x';
}

bool parse_ports_report(std::string_view text, const std::string &name, Fabric &out,
                        std::string &err, const TopologyReadOptions &opt) {
  ReportParser parser(name, err);
  if (!parser.read(text)) return false;
  Fabric f;
  try {
    if (!parser.build(opt, f)) return false;
  } catch (const FabricError &e) {  // not expected: ports are checked above
    err = name + ": " + e.what();
    return false;
  }
  LidOwner sm{};
  if (!opt.sm_node.empty() && !sm_by_description(f, opt.sm_node, sm))
    return err = name + ": SM node '" + opt.sm_node + "' not found", false;
  return finish_fabric(f, opt.lmc, sm, name, out, err);
}

}  // namespace keiro::io
