// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/diag_output.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "core/log.h"

namespace keiro::io {

int64_t parse_saquery_paths(const std::string &text, const std::string &name,
                            check::SourceLidSls &out, std::string &err) {
  std::istringstream in(text);
  std::string line;
  long slid = -1, dlid = -1, sl = -1;
  int64_t used = 0;
  bool in_record = false;
  auto flush = [&] {
    if (in_record && slid > 0 && dlid > 0 && sl >= 0 && sl < 16) {
      out.set(static_cast<uint16_t>(slid), static_cast<uint16_t>(dlid), static_cast<uint8_t>(sl));
      ++used;
    }
    slid = dlid = sl = -1;
  };
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    if (line.compare(b, 15, "PathRecord dump") == 0) {
      flush();
      in_record = true;
      continue;
    }
    const size_t dots = line.find("..", b);
    if (dots == std::string::npos) continue;
    const std::string key = line.substr(b, dots - b);
    if (key != "slid" && key != "dlid" && key != "sl") continue;
    const size_t v = line.find_first_not_of('.', dots);
    char *end = nullptr;
    const long value = v == std::string::npos ? -1 : std::strtol(line.c_str() + v, &end, 0);
    if (v == std::string::npos || end == line.c_str() + v) {
      err = strprintf("%s:%d: malformed PathRecord field", name.c_str(), lineno);
      return -1;
    }
    (key == "slid" ? slid : key == "dlid" ? dlid : sl) = value;
  }
  flush();
  return used;
}

int64_t parse_smpquery_sl2vl(const std::string &text, const std::string &name, const Fabric &f,
                             Routing &r, std::string &err) {
  std::istringstream in(text);
  std::string line;
  LidOwner owner;
  int64_t rows = 0;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.rfind("# SL2VL table: Lid ", 0) == 0) {
      const long lid = std::strtol(line.c_str() + 19, nullptr, 10);
      owner = lid > 0 && lid <= f.max_lid() ? f.lid_owner(static_cast<uint16_t>(lid)) : LidOwner{};
      continue;
    }
    if (line.rfind("ports: in ", 0) != 0) continue;
    char *end = nullptr;
    const char *p = line.c_str() + 10;
    const long in_port = std::strtol(p, &end, 10);
    const char *o = std::strstr(end, "out ");
    if (end == p || !o) {
      err = strprintf("%s:%d: malformed SL2VL row", name.c_str(), lineno);
      return -1;
    }
    const long out_port = std::strtol(o + 4, &end, 10);
    uint8_t vls[kNumSls];
    p = end;
    for (int sl = 0; sl < kNumSls; ++sl) {
      p = std::strchr(p, '|');
      const long v = p ? std::strtol(p + 1, &end, 10) : -1;
      if (!p || end == p + 1 || v < 0 || v > 15) {
        err = strprintf("%s:%d: SL2VL row needs 16 VLs", name.c_str(), lineno);
        return -1;
      }
      vls[sl] = static_cast<uint8_t>(v);
      p = end;
    }
    if (owner.kind == LidOwner::kSwitch) {
      const long np = f.sw(owner.id).num_ports;
      if (in_port < 0 || out_port < 0 || in_port > np || out_port > np) continue;
      for (int sl = 0; sl < kNumSls; ++sl)
        r.set_vl(owner.id, static_cast<uint8_t>(in_port), static_cast<uint8_t>(out_port),
                 static_cast<uint8_t>(sl), vls[sl]);
      ++rows;
    } else if (owner.kind == LidOwner::kTerminal) {
      for (int sl = 0; sl < kNumSls; ++sl)
        r.set_terminal_vl(owner.id, static_cast<uint8_t>(sl), vls[sl]);
      ++rows;
    }
  }
  return rows;
}

int64_t parse_oper_vls(const std::string &text, const Fabric &f,
                       std::vector<std::vector<uint8_t>> &port_vls) {
  port_vls.assign(f.num_switches(), {});
  for (int32_t s = 0; s < f.num_switches(); ++s) port_vls[s].assign(f.sw(s).num_ports + 1u, 0);
  std::istringstream in(text);
  std::string line;
  int32_t sw = -1;
  unsigned port = 0;
  int64_t n = 0;
  while (std::getline(in, line)) {
    unsigned lid = 0, p = 0;
    if (std::sscanf(line.c_str(), "# Port info: Lid %u port %u", &lid, &p) == 2) {
      const LidOwner o = f.lid_owner(static_cast<uint16_t>(lid));
      sw = o.kind == LidOwner::kSwitch && p <= f.sw(o.id).num_ports ? o.id : -1;
      port = p;
      continue;
    }
    if (line.rfind("OperVLs:", 0) != 0 || sw < 0) continue;
    const size_t v = line.rfind("VL0");
    if (v == std::string::npos) continue;
    unsigned top = 0;  // "VL0" alone: one data VL; "VL0-N": N + 1
    if (line.size() > v + 4 && line[v + 3] == '-')
      top = std::strtoul(line.c_str() + v + 4, nullptr, 10);
    if (top >= kMaxDataVls) top = kMaxDataVls - 1;
    if (!port_vls[sw][port]) ++n;
    port_vls[sw][port] = static_cast<uint8_t>(top + 1);
    sw = -1;
  }
  return n;
}

}  // namespace keiro::io
