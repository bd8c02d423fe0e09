// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/dumps.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <unordered_map>

#include "core/log.h"

namespace keiro::io {

namespace {

const char *kSl2vlHeader = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15";
const char *kSl2vlSeparator = "#--------------------------------------------------------";

const std::string &name_of(const Fabric &f, LidOwner o) {
  static const std::string empty;
  if (o.kind == LidOwner::kSwitch) return f.sw(o.id).name;
  if (o.kind == LidOwner::kTerminal) return f.terminal(o.id).name;
  return empty;
}

uint64_t port_guid_of(const Fabric &f, LidOwner o) {
  if (o.kind == LidOwner::kSwitch) return f.sw(o.id).guid;
  if (o.kind == LidOwner::kTerminal) return f.terminal(o.id).port_guid;
  return 0;
}

// Writes one dump file: opens path, write(stream), closes; false with err
// ("cannot write PATH: why" or "error writing PATH") when that fails.
template <class Write>
bool write_file(const std::string &path, std::string &err, Write write) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  write(out);
  out.close();
  if (!out) {
    err = "error writing " + path;
    return false;
  }
  return true;
}

// Reads one dump file: read(stream) on path opened, or false with err
// "cannot read PATH: why".
template <class Read>
bool read_file(const std::string &path, std::string &err, Read read) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  return read(in);
}

bool starts_with(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// Parses "0x<hex>" starting at the first "0x" after `after` in line.
bool guid_after(const std::string &line, const char *after, uint64_t &guid) {
  size_t pos = line.find(after);
  if (pos == std::string::npos) return false;
  pos = line.find("0x", pos);
  if (pos == std::string::npos) return false;
  char *end = nullptr;
  guid = std::strtoull(line.c_str() + pos + 2, &end, 16);
  return end != line.c_str() + pos + 2;
}

// OpenSM walks its GUID maps in the order of the GUIDs' network-order bytes
// read as a host (little-endian) integer; the writers follow the same order
// so that their output matches OpenSM's byte for byte.
uint64_t osm_map_key(uint64_t guid) {
  return __builtin_bswap64(guid);
}

std::vector<int32_t> switches_in_osm_order(const Fabric &f) {
  std::vector<int32_t> order(f.num_switches());
  for (int32_t s = 0; s < f.num_switches(); ++s) order[s] = s;
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return osm_map_key(f.sw(a).guid) < osm_map_key(f.sw(b).guid);
  });
  return order;
}

std::unordered_map<uint64_t, int32_t> switch_guids(const Fabric &f) {
  std::unordered_map<uint64_t, int32_t> m;
  for (int32_t s = 0; s < f.num_switches(); ++s) m.emplace(f.sw(s).guid, s);
  return m;
}

}  // namespace

const char *dump_node_type(const Fabric &f, LidOwner o) {
  if (o.kind == LidOwner::kSwitch) return "Switch";
  if (o.kind == LidOwner::kTerminal) return f.terminal(o.id).router ? "Router" : "Channel Adapter";
  return "";
}

// ---------------------------------------------------------------- LFTs

void write_lfts_dump(std::ostream &out, const Fabric &f, const Routing &r) {
  const unsigned max_lid = r.max_lid();
  char buf[512];
  for (const int32_t s : switches_in_osm_order(f)) {
    const SwitchInfo &si = f.sw(s);
    std::snprintf(buf, sizeof buf,
                  "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('%s'):\n", max_lid,
                  si.lid, si.guid, si.name.c_str());
    out << buf;
    const uint8_t *row = r.lft_row(s);
    for (unsigned lid = 0; lid <= max_lid; ++lid) {
      const uint8_t port = row[lid];
      if (port > si.num_ports) continue;  // OpenSM omits 0xFF and ports it does not have
      const LidOwner o = lid <= f.max_lid() ? f.lid_owner(static_cast<uint16_t>(lid)) : LidOwner{};
      if (o.kind == LidOwner::kNone)
        std::snprintf(buf, sizeof buf, "0x%04x %03u # unknown node and type\n", lid, port);
      else
        std::snprintf(buf, sizeof buf, "0x%04x %03u # %s portguid 0x%016" PRIx64 ": '%s'\n", lid,
                      port, dump_node_type(f, o), port_guid_of(f, o), name_of(f, o).c_str());
      out << buf;
    }
    std::snprintf(buf, sizeof buf, "%u lids dumped\n", max_lid);
    out << buf;
  }
}

bool write_lfts_dump(const std::string &path, const Fabric &f, const Routing &r, std::string &err) {
  return write_file(path, err, [&](std::ostream &out) { write_lfts_dump(out, f, r); });
}

uint64_t lfts_dump_size(const Fabric &f, const Routing &r) {
  const unsigned max_lid = r.max_lid();
  char buf[512];
  // A row's length depends on its LID only (the port is 3 digits).
  std::vector<uint32_t> row_len(max_lid + 1u);
  for (unsigned lid = 0; lid <= max_lid; ++lid) {
    const LidOwner o = lid <= f.max_lid() ? f.lid_owner(static_cast<uint16_t>(lid)) : LidOwner{};
    row_len[lid] = static_cast<uint32_t>(
        o.kind == LidOwner::kNone
            ? std::snprintf(buf, sizeof buf, "0x%04x 000 # unknown node and type\n", lid)
            : std::snprintf(buf, sizeof buf, "0x%04x 000 # %s portguid 0x%016" PRIx64 ": '%s'\n",
                            lid, dump_node_type(f, o), port_guid_of(f, o), name_of(f, o).c_str()));
  }
  const uint64_t footer =
      static_cast<uint64_t>(std::snprintf(buf, sizeof buf, "%u lids dumped\n", max_lid));
  uint64_t n = 0;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const SwitchInfo &si = f.sw(s);
    n +=
        static_cast<uint64_t>(std::snprintf(
            buf, sizeof buf, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('%s'):\n",
            max_lid, si.lid, si.guid, si.name.c_str())) +
        footer;
    const uint8_t *row = r.lft_row(s);
    for (unsigned lid = 0; lid <= max_lid; ++lid)
      if (row[lid] <= si.num_ports) n += row_len[lid];
  }
  return n;
}

bool read_lfts_dump(std::istream &in, const std::string &name, const Fabric &f, Routing &r,
                    DumpReadReport &rep, std::string &err) {
  const auto guids = switch_guids(f);
  std::vector<bool> seen(f.num_switches(), false);
  int32_t cur = -1;
  bool in_table = false;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    if (line.compare(b, 12, "Unicast lids") == 0) {
      uint64_t guid = 0;
      if (!guid_after(line, " guid ", guid)) {
        err = strprintf("%s:%d: LFT header without a switch GUID", name.c_str(), lineno);
        return false;
      }
      in_table = true;
      ++rep.tables;
      const auto it = guids.find(guid);
      cur = it == guids.end() ? -1 : it->second;
      if (cur < 0) {
        ++rep.unknown_guids;
        continue;
      }
      seen[cur] = true;
      uint8_t *row = r.lft_row_mut(cur);
      std::fill(row, row + r.max_lid() + 1, kNoPort);
      continue;
    }
    if (line.compare(b, 2, "0x") != 0) continue;  // headings, "N lids dumped"
    if (!in_table) {
      err = strprintf("%s:%d: LFT row before any switch header", name.c_str(), lineno);
      return false;
    }
    char *end = nullptr;
    const unsigned long lid = std::strtoul(line.c_str() + b + 2, &end, 16);
    const char *p = end;
    if (p == line.c_str() + b + 2 || (*p != ' ' && *p != '\t')) {
      err = strprintf("%s:%d: malformed LFT row", name.c_str(), lineno);
      return false;
    }
    char *end2 = nullptr;
    const unsigned long port = std::strtoul(p, &end2, 10);
    if (end2 == p || port > 255) {
      err = strprintf("%s:%d: malformed port in LFT row", name.c_str(), lineno);
      return false;
    }
    if (cur < 0) continue;
    if (lid > r.max_lid()) {
      ++rep.ignored_entries;
      continue;
    }
    r.set_out_port(cur, static_cast<uint16_t>(lid), static_cast<uint8_t>(port));
    ++rep.entries;
  }
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (!seen[s]) rep.missing.push_back(s);
  return true;
}

bool read_lfts_dump(const std::string &path, const Fabric &f, Routing &r, DumpReadReport &rep,
                    std::string &err) {
  return read_file(path, err,
                   [&](std::istream &in) { return read_lfts_dump(in, path, f, r, rep, err); });
}

// ---------------------------------------------------------------- SL2VL

namespace {
void sl2vl_row(std::ostream &out, unsigned in, unsigned outp, const uint8_t *vls) {
  char buf[128];
  int n = std::snprintf(buf, sizeof buf, "%-3u %-3u :", in, outp);
  for (int sl = 0; sl < kNumSls; ++sl)
    n += std::snprintf(buf + n, sizeof buf - n, " %-2u", static_cast<unsigned>(vls[sl]));
  out << buf << '\n';
}
}  // namespace

void write_sl2vl_dump(std::ostream &out, const Fabric &f, const Routing &r) {
  // Switches are ids 0..S-1, terminals S..S+T-1, merged in OpenSM's order.
  const int32_t S = f.num_switches();
  std::vector<int32_t> ports(static_cast<size_t>(S) + f.num_terminals());
  for (size_t i = 0; i < ports.size(); ++i) ports[i] = static_cast<int32_t>(i);
  auto guid = [&](int32_t x) { return x < S ? f.sw(x).guid : f.terminal(x - S).port_guid; };
  std::stable_sort(ports.begin(), ports.end(), [&](int32_t a, int32_t b) {
    return osm_map_key(guid(a)) < osm_map_key(guid(b));
  });
  char buf[512];
  uint8_t vls[kNumSls];
  for (const int32_t x : ports) {
    if (x < S) {
      const int32_t s = x;
      const SwitchInfo &si = f.sw(s);
      std::snprintf(buf, sizeof buf, "Switch 0x%016" PRIx64 ", base LID %u, \"%s\"\n", si.guid,
                    si.lid, si.name.c_str());
      out << buf << kSl2vlHeader << '\n' << kSl2vlSeparator << '\n';
      for (unsigned o = 1; o <= si.num_ports; ++o) {
        if (f.peer(s, static_cast<uint8_t>(o)).kind == PortPeer::kNone) continue;
        for (unsigned i = 0; i <= si.num_ports; ++i) {
          for (int sl = 0; sl < kNumSls; ++sl)
            vls[sl] =
                r.vl(s, static_cast<uint8_t>(i), static_cast<uint8_t>(o), static_cast<uint8_t>(sl));
          sl2vl_row(out, i, o, vls);
        }
      }
    } else {
      const int32_t t = x - S;
      const TerminalInfo &ti = f.terminal(t);
      std::snprintf(buf, sizeof buf, "%s 0x%016" PRIx64 ", base LID %u, \"%s\"\n",
                    ti.router ? "Router" : "Channel Adapter", ti.port_guid, ti.lid,
                    ti.name.c_str());
      out << buf << kSl2vlHeader << '\n' << kSl2vlSeparator << '\n';
      for (int sl = 0; sl < kNumSls; ++sl) vls[sl] = r.terminal_vl(t, static_cast<uint8_t>(sl));
      sl2vl_row(out, 0, 0, vls);
    }
    out << kSl2vlSeparator << "\n\n";
  }
}

bool write_sl2vl_dump(const std::string &path, const Fabric &f, const Routing &r,
                      std::string &err) {
  return write_file(path, err, [&](std::ostream &out) { write_sl2vl_dump(out, f, r); });
}

namespace {

// One row of an SL2VL dump after its leading blanks, "<in> <out> : v0 ...
// v15": its ports and VLs; the error without the "file:line: " prefix, or
// null.
const char *parse_sl2vl_row(const char *p, long &in_port, long &out_port, uint8_t *vls) {
  char *end = nullptr;
  in_port = std::strtol(p, &end, 10);
  if (end == p) return "unexpected line in SL2VL dump";
  p = end;
  out_port = std::strtol(p, &end, 10);
  if (end == p) return "malformed SL2VL row";
  p = std::strchr(end, ':');
  if (!p) return "malformed SL2VL row (no ':')";
  ++p;
  for (int sl = 0; sl < kNumSls; ++sl) {
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < 0 || v > 15) return "SL2VL row needs 16 VLs 0..15";
    vls[sl] = static_cast<uint8_t>(v);
    p = end;
  }
  return nullptr;
}

// read_sl2vl_dump()'s state: the port the rows belong to, and which switch
// out ports and terminals got rows.
class Sl2vlReader {
 public:
  Sl2vlReader(const Fabric &f, Routing &r, DumpReadReport &rep)
      : f_(f),
        r_(r),
        rep_(rep),
        sw_guids_(switch_guids(f)),
        port_base_(f.num_switches() + 1, 0),
        term_seen_(f.num_terminals(), false) {
    for (int32_t t = 0; t < f.num_terminals(); ++t) term_guids_.emplace(f.terminal(t).port_guid, t);
    for (int32_t s = 0; s < f.num_switches(); ++s)
      port_base_[s + 1] = port_base_[s] + f.sw(s).num_ports + 1;
    port_seen_.assign(port_base_.back(), false);
  }
  // A port header (switch or terminal, its GUID read): the port its rows
  // belong to, matched by port GUID, else by base LID (a switch's port 0
  // GUID may differ from its node GUID).
  void header(const std::string &line, bool sw, uint64_t guid);
  // A row; false before any header.
  bool row(long in_port, long out_port, const uint8_t *vls);
  // The ports and terminals without rows into the report.
  void report_missing();

 private:
  const Fabric &f_;
  Routing &r_;
  DumpReadReport &rep_;
  const std::unordered_map<uint64_t, int32_t> sw_guids_;
  std::unordered_map<uint64_t, int32_t> term_guids_;
  std::vector<int32_t> port_base_;
  std::vector<bool> port_seen_, term_seen_;
  enum { kNone, kSwitch, kTerminal, kSkip } kind_ = kNone;
  int32_t cur_ = -1;
};

void Sl2vlReader::header(const std::string &line, bool sw, uint64_t guid) {
  ++rep_.tables;
  long lid = -1;
  const size_t lp = line.find("base LID ");
  if (lp != std::string::npos) lid = std::strtol(line.c_str() + lp + 9, nullptr, 10);
  const LidOwner o =
      lid > 0 && lid <= f_.max_lid() ? f_.lid_owner(static_cast<uint16_t>(lid)) : LidOwner{};
  cur_ = -1;
  const auto &guids = sw ? sw_guids_ : term_guids_;
  const auto it = guids.find(guid);
  if (it != guids.end())
    cur_ = it->second;
  else if (o.kind == (sw ? LidOwner::kSwitch : LidOwner::kTerminal))
    cur_ = o.id;
  kind_ = cur_ < 0 ? kSkip : sw ? kSwitch : kTerminal;
  if (kind_ == kSkip) ++rep_.unknown_guids;
}

bool Sl2vlReader::row(long in_port, long out_port, const uint8_t *vls) {
  if (kind_ == kNone) return false;
  if (kind_ == kSkip) return true;
  if (kind_ == kTerminal) {
    for (int sl = 0; sl < kNumSls; ++sl)
      r_.set_terminal_vl(cur_, static_cast<uint8_t>(sl), vls[sl]);
    term_seen_[cur_] = true;
    ++rep_.entries;
    return true;
  }
  const long np = f_.sw(cur_).num_ports;
  if (in_port < 0 || out_port < 0 || in_port > np || out_port > np) {
    ++rep_.ignored_entries;
    return true;
  }
  for (int sl = 0; sl < kNumSls; ++sl)
    r_.set_vl(cur_, static_cast<uint8_t>(in_port), static_cast<uint8_t>(out_port),
              static_cast<uint8_t>(sl), vls[sl]);
  port_seen_[port_base_[cur_] + out_port] = true;
  ++rep_.entries;
  return true;
}

void Sl2vlReader::report_missing() {
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    for (unsigned p = 1; p <= f_.sw(s).num_ports; ++p)
      if (f_.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone &&
          !port_seen_[port_base_[s] + p])
        rep_.ports_without_sl2vl.emplace_back(s, static_cast<uint8_t>(p));
  for (int32_t t = 0; t < f_.num_terminals(); ++t)
    if (!term_seen_[t]) rep_.terminals_without_sl2vl.push_back(t);
}

}  // namespace

bool read_sl2vl_dump(std::istream &in, const std::string &name, const Fabric &f, Routing &r,
                     DumpReadReport &rep, std::string &err) {
  Sl2vlReader reader(f, r, rep);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    const bool sw = starts_with(line, "Switch ");
    const bool ca = starts_with(line, "Channel Adapter ") || starts_with(line, "Router ");
    if (sw || ca) {
      uint64_t guid = 0;
      if (!guid_after(line, " ", guid)) {
        err = strprintf("%s:%d: SL2VL header without a GUID", name.c_str(), lineno);
        return false;
      }
      reader.header(line, sw, guid);
      continue;
    }
    long in_port = 0, out_port = 0;
    uint8_t vls[kNumSls];
    if (const char *why = parse_sl2vl_row(line.c_str() + b, in_port, out_port, vls)) {
      err = strprintf("%s:%d: %s", name.c_str(), lineno, why);
      return false;
    }
    if (!reader.row(in_port, out_port, vls)) {
      err = strprintf("%s:%d: SL2VL row before any port header", name.c_str(), lineno);
      return false;
    }
  }
  reader.report_missing();
  return true;
}

bool read_sl2vl_dump(const std::string &path, const Fabric &f, Routing &r, DumpReadReport &rep,
                     std::string &err) {
  return read_file(path, err,
                   [&](std::istream &in) { return read_sl2vl_dump(in, path, f, r, rep, err); });
}

// ---------------------------------------------------------------- subnet.lst

namespace {
struct LstEnd {
  const char *type;
  int ports;
  uint64_t node_guid, port_guid;
  const std::string *desc;
  uint16_t lid;
  unsigned port;
};

void lst_end(std::ostream &out, const LstEnd &e, bool remote) {
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                remote ? "{ %s Ports:%02X SystemGUID:%016" PRIx64 " NodeGUID:%016" PRIx64
                         " PortGUID:%016" PRIx64
                         " VenID:%08X DevID:%04X Rev:%08X {%s} LID:%04X"
                         " PN:%02X } "
                       : "{ %s Ports:%02X SystemGUID:%016" PRIx64 " NodeGUID:%016" PRIx64
                         " PortGUID:%016" PRIx64
                         " VenID:%06X DevID:%04X Rev:%08X {%s} LID:%04X"
                         " PN:%02X } ",
                e.type, e.ports, e.node_guid, e.node_guid, e.port_guid, 0u, 0u, 0u, e.desc->c_str(),
                e.lid, e.port);
  out << buf;
}
}  // namespace

void write_subnet_lst(std::ostream &out, const Fabric &f) {
  const int32_t S = f.num_switches();
  // CA/router nodes: their ports are terminals sharing a node GUID.
  std::unordered_map<uint64_t, int> node_ports;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    int &n = node_ports[f.terminal(t).node_guid];
    n = std::max<int>(n, f.terminal(t).port_num);
  }
  auto sw_end = [&](int32_t s, unsigned port) {
    const SwitchInfo &si = f.sw(s);
    return LstEnd{"SW", si.num_ports, si.guid, si.guid, &si.name, si.lid, port};
  };
  auto term_end = [&](int32_t t) {
    const TerminalInfo &ti = f.terminal(t);
    return LstEnd{ti.router ? "Rt" : "CA",
                  node_ports[ti.node_guid],
                  ti.node_guid,
                  ti.port_guid,
                  &ti.name,
                  ti.lid,
                  ti.port_num};
  };
  // Nodes in OpenSM's node-GUID map order; a CA's ports in port order.
  std::vector<int32_t> nodes(static_cast<size_t>(S) + f.num_terminals());
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<int32_t>(i);
  auto guid = [&](int32_t x) { return x < S ? f.sw(x).guid : f.terminal(x - S).node_guid; };
  std::stable_sort(nodes.begin(), nodes.end(), [&](int32_t a, int32_t b) {
    const uint64_t ka = osm_map_key(guid(a)), kb = osm_map_key(guid(b));
    if (ka != kb) return ka < kb;
    return a >= S && b >= S && f.terminal(a - S).port_num < f.terminal(b - S).port_num;
  });
  const char *tail = "PHY=4x LOG=ACT SPD=2.5\n";
  for (const int32_t x : nodes) {
    if (x < S) {
      for (unsigned p = 1; p <= f.sw(x).num_ports; ++p) {
        const PortPeer peer = f.peer(x, static_cast<uint8_t>(p));
        if (peer.kind == PortPeer::kNone) continue;
        lst_end(out, sw_end(x, p), false);
        if (peer.kind == PortPeer::kSwitch) {
          const Channel &c = f.channel(peer.id);
          lst_end(out, sw_end(c.dst, c.dst_port), true);
        } else {
          lst_end(out, term_end(peer.id), true);
        }
        out << tail;
      }
    } else {
      const int32_t t = x - S;
      lst_end(out, term_end(t), false);
      lst_end(out, sw_end(f.terminal(t).sw, f.terminal(t).sw_port), true);
      out << tail;
    }
  }
}

bool write_subnet_lst(const std::string &path, const Fabric &f, std::string &err) {
  return write_file(path, err, [&](std::ostream &out) { write_subnet_lst(out, f); });
}

}  // namespace keiro::io
