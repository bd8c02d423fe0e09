// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/net_file.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/io/text_lines.h"

namespace keiro::io {

namespace {

constexpr size_t kMaxLine = 255;     // ibsim reads lines into a 256-byte buffer
constexpr size_t kMaxNodeId = 64;    // NODEIDLEN - 1
constexpr size_t kMaxNodeDesc = 63;  // nodedesc[64], copied with strncpy(.., 63)
constexpr size_t kMaxPrefix = 20;    // NODEPREFIX
constexpr int kMaxIncludeDepth = 9;  // MAX_INCLUDE

bool starts(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool blank(std::string_view s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

// strtoull/strtoul with base 0 on the text at s; 0 when there is no number.
uint64_t c_number(std::string_view s) {
  std::string t(s.substr(0, 40));
  return std::strtoull(t.c_str(), nullptr, 0);
}

// The text between the first pair of double quotes; rest = after the closing quote.
bool quoted(std::string_view s, std::string &out, std::string_view &rest) {
  const size_t a = s.find('"');
  if (a == std::string_view::npos) return false;
  const size_t b = s.find('"', a + 1);
  if (b == std::string_view::npos) return false;
  out = std::string(s.substr(a + 1, b - a - 1));
  rest = s.substr(b + 1);
  return true;
}

struct State {
  uint64_t abs_guid[3] = {0x100000, 0x200000, 0};  // CA, switch, router (ibsim's start values)
  uint64_t next_guid[3] = {0x100000, 0x200000, 0};
  std::string prefix;
  std::unordered_set<std::string> ids;
  std::unordered_set<uint64_t> guids;
  int depth = 0;
};

class Parser {
 public:
  Parser(State &st, std::vector<NetNode> &nodes, std::string &err)
      : st_(st), nodes_(nodes), err_(err) {}

  bool parse(std::string_view text, const std::string &name);

 private:
  bool fail(int line, const std::string &msg) {
    err_ = file_ + ":" + std::to_string(line) + ": " + msg;
    return false;
  }
  bool header(std::string_view line, int lineno, NetNode::Type type, size_t kwlen);
  bool port_line(std::string_view line, int lineno, NetNode &node);
  bool guid_base(std::string_view line, int lineno, int type);
  bool include(std::string_view line, int lineno);
  bool module(std::string_view line, int lineno);

  State &st_;
  std::vector<NetNode> &nodes_;
  std::string &err_;
  std::string file_;
};

bool Parser::guid_base(std::string_view line, int lineno, int type) {
  size_t p = line.find('=');
  if (p == std::string_view::npos) p = line.find('+');
  if (p == std::string_view::npos) return fail(lineno, "bad GUID assignment: missing '=' or '+'");
  const uint64_t v = c_number(line.substr(p + 1));
  if (line[p] == '=') {
    st_.abs_guid[type] = v;
    st_.next_guid[type] = v;
  } else {
    st_.next_guid[type] = st_.abs_guid[type] + v;
  }
  return true;
}

bool Parser::module(std::string_view line, int lineno) {
  const size_t p = line.find('=');
  std::string name;
  std::string_view rest;
  if (p == std::string_view::npos || !quoted(line.substr(p + 1), name, rest))
    return fail(lineno, "bad module line: expected module=\"prefix\"");
  if (name.size() > kMaxPrefix) return fail(lineno, "module prefix '" + name + "' too long");
  st_.prefix = name;
  return true;
}

bool Parser::include(std::string_view line, int lineno) {
  std::string fname;
  std::string_view rest;
  if (!quoted(line, fname, rest))
    return fail(lineno, "bad include line: expected include \"file\"");
  if (st_.depth + 1 >= kMaxIncludeDepth) return fail(lineno, "includes nested too deeply");
  std::ifstream in(fname);
  std::string path = fname;
  if (!in && !fname.empty() && fname[0] != '/') {
    const size_t slash = file_.rfind('/');
    if (slash != std::string::npos) {
      path = file_.substr(0, slash + 1) + fname;
      in.open(path);
    }
  }
  if (!in) return fail(lineno, "cannot open include file '" + fname + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  ++st_.depth;
  Parser sub(st_, nodes_, err_);
  const bool ok = sub.parse(text, path);
  --st_.depth;
  return ok;
}

bool Parser::header(std::string_view line, int lineno, NetNode::Type type, size_t kwlen) {
  NetNode n;
  n.type = type;
  n.file = file_;
  n.line = lineno;
  // Port count: the first number after the keyword.
  size_t p = kwlen;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  if (p >= line.size() || !std::isdigit(static_cast<unsigned char>(line[p])))
    return fail(lineno, "node header without a port count");
  const uint64_t np = c_number(line.substr(p));
  if (np == 0 || np > 254) return fail(lineno, "bad port count " + std::to_string(np));
  n.num_ports = static_cast<int>(np);
  std::string base;
  std::string_view rest;
  if (!quoted(line, base, rest)) return fail(lineno, "node header without a quoted node id");
  if (base.find('#') != std::string::npos || base.find('@') != std::string::npos)
    return fail(lineno, "bad node id \"" + base + "\": '#' and '@' are reserved");
  n.id = st_.prefix.empty() ? base : st_.prefix + "#" + base;
  if (n.id.size() > kMaxNodeId) return fail(lineno, "node id \"" + n.id + "\" is too long");
  if (!st_.ids.insert(n.id).second) return fail(lineno, "node id \"" + n.id + "\" already exists");

  // Description (ibsim's parse_node_desc) and the rest that may carry "lid N".
  std::string desc;
  std::string_view tail;  // empty data() = none
  bool have_tail = true;
  const size_t hash = rest.find('#');
  if (hash == std::string_view::npos) {
    tail = rest;
  } else {
    size_t s = hash + 1;
    while (s < rest.size() && std::isspace(static_cast<unsigned char>(rest[s]))) ++s;
    std::string_view d = rest.substr(s);
    size_t e = std::string_view::npos;  // end of the description in d
    if (!d.empty() && d[0] == '"') {
      d.remove_prefix(1);
      e = d.find('"');
    } else {
      for (std::string_view k : {" enhanced port ", " base port ", " lid ", " lmc "}) {
        e = d.find(k);
        if (e != std::string_view::npos) break;
      }
    }
    if (e == std::string_view::npos) {
      desc = std::string(d);
      have_tail = false;
    } else {
      desc = std::string(d.substr(0, e));
      tail = d.substr(e + 1);
    }
  }
  n.desc = desc.empty() ? n.id : desc;
  if (n.desc.size() > kMaxNodeDesc) n.desc.resize(kMaxNodeDesc);

  const int t = type == NetNode::kCa ? 0 : type == NetNode::kSwitch ? 1 : 2;
  n.guid = st_.next_guid[t];
  if (n.guid != 0 && !st_.guids.insert(n.guid).second) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(n.guid));
    return fail(lineno, std::string("node GUID ") + buf + " already exists");
  }
  st_.next_guid[t] += type == NetNode::kSwitch ? 1 : np + 1;
  if (type == NetNode::kSwitch && have_tail) {
    const size_t l = tail.find("lid ");
    if (l != std::string_view::npos) {
      const uint64_t lid = c_number(tail.substr(l + 4));
      if (lid >= 0xC000)
        return fail(lineno, "switch LID " + std::to_string(lid) + " is not unicast");
      n.lid = static_cast<uint16_t>(lid);
    }
  }
  nodes_.push_back(std::move(n));
  return true;
}

bool Parser::port_line(std::string_view line, int lineno, NetNode &node) {
  if (line[0] == '@') return fail(lineno, "port aliases ('@') are not supported");
  NetPort pt;
  pt.file = file_;
  pt.line = lineno;
  const long pn = std::strtol(std::string(line.substr(1, 12)).c_str(), nullptr, 10);
  if (pn <= 0 || pn > node.num_ports)
    return fail(lineno, "bad port number " + std::to_string(pn) + " for node \"" + node.id +
                            "\" with " + std::to_string(node.num_ports) + " ports");
  pt.port = static_cast<uint8_t>(pn);
  for (const NetPort &o : node.ports)
    if (o.port == pt.port)
      return fail(lineno,
                  "port " + std::to_string(pn) + " of node \"" + node.id + "\" is listed twice");
  std::string remote;
  std::string_view rest;
  const size_t q = line.find('"');
  if (q == std::string_view::npos || !quoted(line, remote, rest))
    return fail(lineno, "port line without a quoted remote node id");
  if (remote.find('@') != std::string::npos)
    return fail(lineno, "port aliases ('@') are not supported");
  pt.remote = (!st_.prefix.empty() && remote.find('#') == std::string::npos)
                  ? st_.prefix + "#" + remote
                  : remote;
  if (!rest.empty() && rest[0] == '[') {
    const long rp = std::strtol(std::string(rest.substr(1, 12)).c_str(), nullptr, 10);
    if (rp <= 0 || rp > 254) return fail(lineno, "bad remote port number " + std::to_string(rp));
    pt.remote_port = static_cast<int>(rp);
  }
  if (node.type != NetNode::kSwitch) {
    // "[p](guid)" as ibnetdiscover writes it for CA and router ports.
    const std::string_view head = line.substr(0, q);
    const size_t open = head.find('(');
    if (open != std::string_view::npos) {
      const size_t close = head.find(')', open);
      if (close == std::string_view::npos) return fail(lineno, "unterminated port GUID");
      const std::string g(head.substr(open + 1, close - open - 1));
      char *end = nullptr;
      pt.guid = std::strtoull(g.c_str(), &end, 16);
      if (g.empty() || *end) return fail(lineno, "bad port GUID '(" + g + ")'");
    }
  }
  if (node.type == NetNode::kCa) {
    // ibsim reads the CA port's LID only when "lid" appears after the last quote.
    const size_t lastq = rest.rfind('"');
    const std::string_view after = lastq == std::string_view::npos ? rest : rest.substr(lastq + 1);
    if (after.find("lid") != std::string_view::npos) {
      const size_t l = rest.find("lid ");
      if (l != std::string_view::npos) {
        const uint64_t lid = c_number(rest.substr(l + 4));
        if (lid >= 0xC000) return fail(lineno, "LID " + std::to_string(lid) + " is not unicast");
        pt.lid = static_cast<uint16_t>(lid);
      }
    }
  }
  node.ports.push_back(std::move(pt));
  return true;
}

bool Parser::parse(std::string_view text, const std::string &name) {
  file_ = name;
  TextLines lines(text);
  std::string_view line;
  NetNode *open = nullptr;  // record whose port lines are being read
  int ports_left = 0;
  while (lines.next(line)) {
    const int lineno = lines.number();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kMaxLine)
      return fail(lineno,
                  "line longer than " + std::to_string(kMaxLine) + " characters (ibsim's limit)");
    if (open) {
      if (!line.empty() && line[0] == '#') continue;
      if (!line.empty() && (line[0] == '[' || line[0] == '@')) {
        if (!port_line(line, lineno, *open)) return false;
        if (--ports_left == 0) open = nullptr;
        continue;
      }
      open = nullptr;
      if (!blank(line))
        return fail(lineno, "line right after the port list of node \"" + nodes_.back().id +
                                "\": ibsim needs a blank line between records");
      continue;
    }
    bool ok = true;
    if (starts(line, "Switch")) {
      ok = header(line, lineno, NetNode::kSwitch, 6);
    } else if (starts(line, "Hca") || starts(line, "Ca")) {
      ok = header(line, lineno, NetNode::kCa, starts(line, "Hca") ? 3 : 2);
    } else if (starts(line, "Rt")) {
      ok = header(line, lineno, NetNode::kRouter, 2);
    } else if (starts(line, "switchguid")) {
      if (!guid_base(line, lineno, 1)) return false;
      continue;
    } else if (starts(line, "hcaguids") || starts(line, "caguid")) {
      if (!guid_base(line, lineno, 0)) return false;
      continue;
    } else if (starts(line, "rtguid")) {
      if (!guid_base(line, lineno, 2)) return false;
      continue;
    } else if (starts(line, "module")) {
      if (!module(line, lineno)) return false;
      continue;
    } else if (starts(line, "include")) {
      if (!include(line, lineno)) return false;
      continue;
    } else if (starts(line, "vendid") || starts(line, "devid") || starts(line, "sysimgguid") ||
               starts(line, "width") || starts(line, "speed") || starts(line, "extspeed") ||
               starts(line, "pdebug")) {
      continue;
    } else if (starts(line, "do")) {
      return fail(lineno, "ibsim \"do\" commands are not supported");
    } else if (!line.empty() && (line[0] == '[' || line[0] == '@')) {
      return fail(lineno,
                  "port line outside a node record (more port lines than the node has "
                  "ports, or a missing header)");
    } else {
      continue;  // ibsim ignores any other line
    }
    if (!ok) return false;
    open = &nodes_.back();
    ports_left = open->num_ports;
  }
  return true;
}

}  // namespace

bool parse_net_file(std::string_view text, const std::string &name, std::vector<NetNode> &nodes,
                    std::string &err) {
  State st;
  Parser p(st, nodes, err);
  return p.parse(text, name);
}

}  // namespace keiro::io
