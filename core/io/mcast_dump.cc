// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/mcast_dump.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "core/log.h"

namespace keiro::io {

namespace {

bool parse_hex(const std::string &s, uint64_t &v) {
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  char *end = nullptr;
  v = std::strtoull(s.c_str() + 2, &end, 16);
  return end && *end == '\0';
}

// "key=value" fields of a line.
std::string field(const std::string &line, const std::string &key) {
  const size_t p = line.find(" " + key + "=");
  if (p == std::string::npos) return "";
  const size_t b = p + key.size() + 2;
  const size_t e = line.find(' ', b);
  return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::string trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t\r");
  const size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

using MasksByMlid = std::map<uint16_t, std::map<int32_t, mcast::PortMask>>;

// One tree per MLID, the switches without a port left out.
std::vector<mcast::Tree> trees_of(const MasksByMlid &by_mlid) {
  std::vector<mcast::Tree> out;
  for (const auto &[mlid, masks] : by_mlid) {
    mcast::Tree t;
    t.mlid = mlid;
    for (const auto &[s, m] : masks)
      if (m.any()) t.masks.push_back(mcast::SwitchMask{s, m});
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

bool read_mcfdbs(std::istream &in, const std::string &name, const Fabric &f,
                 std::vector<mcast::Tree> &out, McastReadReport &rep, std::string &err) {
  MasksByMlid by_mlid;
  std::string line;
  int32_t sw = -2;  // -2: before any block, -1: a switch the fabric lacks
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string t = trim(line);
    if (t.empty() || t.rfind("LID", 0) == 0) continue;
    if (t.rfind("Switch ", 0) == 0) {
      uint64_t guid = 0;
      if (!parse_hex(trim(t.substr(7)), guid)) {
        err = strprintf("%s:%d: bad switch GUID", name.c_str(), n);
        return false;
      }
      sw = f.find_switch(guid);
      rep.unknown_switches += sw < 0;
      continue;
    }
    const size_t colon = t.find(':');
    uint64_t mlid = 0;
    if (colon == std::string::npos || !parse_hex(trim(t.substr(0, colon)), mlid) ||
        mlid < mcast::kFirstMlid || mlid > mcast::kLastMlid || sw == -2) {
      err = strprintf("%s:%d: expected 'Switch 0x...' or '0xMLID : ports', got '%s'", name.c_str(),
                      n, t.c_str());
      return false;
    }
    if (sw < 0) continue;
    std::istringstream ports(t.substr(colon + 1));
    mcast::PortMask &m = by_mlid[static_cast<uint16_t>(mlid)][sw];
    for (std::string p; ports >> p;) {
      uint64_t port = 0;
      if (!parse_hex(p, port) || port > f.sw(sw).num_ports) {
        err = strprintf("%s:%d: bad port '%s'", name.c_str(), n, p.c_str());
        return false;
      }
      m.set(port);
    }
    ++rep.entries;
  }
  out = trees_of(by_mlid);
  return true;
}

bool read_ibroute_mfts(std::istream &in, const std::string &name, const Fabric &f,
                       std::vector<mcast::Tree> &out, McastReadReport &rep, std::string &err) {
  MasksByMlid by_mlid;
  std::string line;
  int32_t sw = -2;                  // -2: before any switch header, -1: a switch the fabric lacks
  size_t col0 = std::string::npos;  // column of port 0 in the rows
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.rfind("Multicast mlids", 0) == 0) {
      const size_t g = line.find(" guid 0x");
      uint64_t guid = 0;
      if (g == std::string::npos ||
          !parse_hex(line.substr(g + 6, line.find(' ', g + 6) - g - 6), guid)) {
        err = strprintf("%s:%d: a switch header without its GUID", name.c_str(), n);
        return false;
      }
      sw = f.find_switch(guid);
      rep.unknown_switches += sw < 0;
      col0 = std::string::npos;
      continue;
    }
    const size_t ports = line.find("Ports:");
    if (ports != std::string::npos) {
      col0 = line.find('0', ports);
      continue;
    }
    if (line.rfind("0x", 0) != 0 || sw == -2) continue;  // headers, "N valid mlids dumped"
    uint64_t mlid = 0;
    if (col0 == std::string::npos || !parse_hex(line.substr(0, line.find(' ')), mlid) ||
        mlid < mcast::kFirstMlid || mlid > mcast::kLastMlid) {
      err = strprintf("%s:%d: expected an MLID row after a Ports: row, got '%s'", name.c_str(), n,
                      line.c_str());
      return false;
    }
    if (sw < 0) continue;
    mcast::PortMask &m = by_mlid[static_cast<uint16_t>(mlid)][sw];
    for (size_t c = col0; c < line.size(); ++c) {
      if (line[c] != 'x') continue;
      const size_t port = (c - col0) / 2;
      if ((c - col0) % 2 || port > f.sw(sw).num_ports) {
        err = strprintf("%s:%d: an 'x' off the port columns", name.c_str(), n);
        return false;
      }
      m.set(port);
    }
    ++rep.entries;
  }
  out = trees_of(by_mlid);
  return true;
}

void write_mcfdbs(std::ostream &out, const Fabric &f, const std::vector<mcast::Tree> &trees) {
  std::map<int32_t, std::map<uint16_t, const mcast::PortMask *>> by_switch;
  for (const mcast::Tree &t : trees)
    for (const mcast::SwitchMask &m : t.masks) by_switch[m.sw][t.mlid] = &m.ports;
  for (const auto &[s, entries] : by_switch) {
    out << strprintf("\nSwitch 0x%016llx\nLID    : Out Port(s)\n",
                     static_cast<unsigned long long>(f.sw(s).guid));
    for (const auto &[mlid, m] : entries) {
      out << strprintf("0x%04X :", mlid);
      for (int p = 0; p < 256; ++p)
        if ((*m)[p]) out << strprintf(" 0x%03X ", p);
      out << "\n";
    }
  }
}

bool read_sa_groups(std::istream &in, const std::string &name, const Fabric &f,
                    std::vector<mcast::Group> &out, McastReadReport &rep, std::string &err) {
  std::unordered_map<uint64_t, int32_t> term;
  for (int32_t t = 0; t < f.num_terminals(); ++t) term[f.terminal(t).port_guid] = t;
  std::map<uint16_t, mcast::Group> groups;
  mcast::Group *cur = nullptr;
  std::string line;
  bool first_sl = true;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string t = trim(line);
    if (t.rfind("MC Group ", 0) == 0) {
      uint64_t mlid = 0, sfh = 0;
      if (!parse_hex(field(" " + t, "mlid"), mlid) ||
          !parse_hex(field(" " + t, "sl_flow_hop"), sfh) || mlid < mcast::kFirstMlid ||
          mlid > mcast::kLastMlid) {
        err = strprintf("%s:%d: an MC Group record without mlid or sl_flow_hop", name.c_str(), n);
        return false;
      }
      first_sl = !groups.count(static_cast<uint16_t>(mlid));
      cur = &groups[static_cast<uint16_t>(mlid)];
      cur->mlid = static_cast<uint16_t>(mlid);
      if (first_sl) cur->sl_mask = 0;
      cur->sl_mask = static_cast<uint16_t>(cur->sl_mask | 1u << (sfh >> 28 & 15));
      const std::string mgid = field(" " + t, "mgid");
      cur->name += (cur->name.empty() ? "" : ", ") + mgid;
      continue;
    }
    if (t.rfind("mcm_port:", 0) == 0) {
      const std::string gid = field(" " + t, "port_gid");
      const size_t c = gid.find(':');
      uint64_t guid = 0;
      if (!cur || c == std::string::npos || !parse_hex(gid.substr(c + 1), guid)) {
        err = strprintf("%s:%d: an mcm_port line outside an MC Group record, or without port_gid",
                        name.c_str(), n);
        return false;
      }
      if (auto it = term.find(guid); it != term.end()) {
        cur->terminals.push_back(it->second);
      } else if (const int32_t s = f.find_switch(guid); s >= 0) {
        cur->switches.push_back(s);
      } else {
        ++rep.unknown_ports;
        continue;
      }
      ++rep.entries;
      continue;
    }
    if (!t.empty()) cur = nullptr;  // another kind of record
  }
  out.clear();
  for (auto &[mlid, g] : groups) {
    for (auto *v : {&g.terminals, &g.switches}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    out.push_back(std::move(g));
  }
  return true;
}

void write_sa_groups(std::ostream &out, const Fabric &f, const std::vector<mcast::Group> &groups) {
  for (const mcast::Group &g : groups) {
    int sl = 0;
    while (sl < 15 && !(g.sl_mask >> sl & 1)) ++sl;
    out << strprintf(
        "MC Group 0x%04x: mgid=0xff12401bffff0000:0x%016llx mlid=0x%04x "
        "sl_flow_hop=0x%08x\n\n",
        g.mlid, static_cast<unsigned long long>(g.mlid), g.mlid, static_cast<unsigned>(sl) << 28);
    for (int32_t t : g.terminals)
      out << strprintf(
          "mcm_port: port_gid=0xfe80000000000000:0x%016llx scope_state=0x01 "
          "proxy_join=0x0\n\n",
          static_cast<unsigned long long>(f.terminal(t).port_guid));
    for (int32_t s : g.switches)
      out << strprintf(
          "mcm_port: port_gid=0xfe80000000000000:0x%016llx scope_state=0x01 "
          "proxy_join=0x0\n\n",
          static_cast<unsigned long long>(f.sw(s).guid));
  }
}

}  // namespace keiro::io
