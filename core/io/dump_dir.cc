// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/dump_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/io/compact_tables.h"
#include "core/io/diag_output.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/io/topology_file.h"
#include "core/log.h"

namespace keiro::io {

namespace {

bool slurp(const std::string &path, std::string &text, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read " + path;
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

bool is_path_sl_file(const std::string &text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    return line.rfind("keiro-path-sl", 0) == 0;
  }
  return false;
}

bool exists(const std::string &p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

}  // namespace

int lmc_from_lfts(const std::string &text) {
  std::istringstream in(text);
  return lmc_from_lfts(in);
}

int lmc_from_lfts(std::istream &in) {
  std::string line;
  std::unordered_map<std::string, int> count;
  int most = 0, tables = 0;
  while (std::getline(in, line)) {
    if (line.find("Unicast lids") != std::string::npos) {
      if (++tables > 1) break;  // one switch's table tells
      continue;
    }
    if (line.find("Switch portguid") != std::string::npos) continue;
    const size_t p = line.find("portguid 0x");
    if (p == std::string::npos) continue;
    most = std::max(most, ++count[line.substr(p + 9, 18)]);
  }
  if (most == 0) return -1;
  int lmc = 0;
  while ((1 << lmc) < most && lmc < 7) ++lmc;
  return lmc;
}

Routing::SlScope routing_scope_of_sl_file(const std::string &path, const Fabric &f) {
  std::string text, err;
  if (!slurp(path, text, err)) return Routing::SlScope::kPerDestination;
  if (is_compact_tables(text)) {
    CompactTables t;
    if (!parse_compact_tables(std::move(text), path, t, err) || !(t.sections & kCompactPathSls))
      return Routing::SlScope::kPerDestination;
    return t.source_switch_sls ? Routing::SlScope::kPerSourceSwitch
                               : Routing::SlScope::kPerDestination;
  }
  if (!is_path_sl_file(text)) return Routing::SlScope::kPerDestination;
  std::istringstream in(text);
  PathSlFile p;
  if (!read_path_sl_file(in, path, f, p, err)) return Routing::SlScope::kPerDestination;
  return p.routing_scope();
}

void clear_path_sls(const Fabric &f, Routing &r) {
  for (uint32_t lid = 0; lid <= r.max_lid(); ++lid) {
    if (r.sl_scope() == Routing::SlScope::kPerDestination)
      r.set_dest_sl(static_cast<uint16_t>(lid), check::kNoPathSl);
    else
      for (int32_t s = 0; s < f.num_switches(); ++s)
        r.set_path_sl(s, static_cast<uint16_t>(lid), check::kNoPathSl);
  }
}

namespace {

// load_path_sls() from a parsed keiro path-SL file (text or compact): its
// SLs into out, notes on what it lacks.
void use_path_sl_file(PathSlFile &p, const std::string &path, LoadedRouting &out) {
  const Fabric &f = out.fabric;
  out.engine = p.engine;
  if (p.unknown_switches)
    out.notes.push_back(strprintf("%s: %d source-switch rows name switches the fabric lacks",
                                  path.c_str(), p.unknown_switches));
  out.sl_gap = path + " has no SL for them";
  if (p.max_lid < f.max_lid()) {
    out.notes.push_back(strprintf("%s covers LIDs up to %u only; no path SL for higher LIDs",
                                  path.c_str(), p.max_lid));
    out.sl_gap += strprintf(" (it covers LIDs up to %u only)", p.max_lid);
  }
  if (p.scope == PathSlFile::Scope::kSourceLid)
    out.sl_gap += " (source-lid scope: sources without a row, '-' entries)";
  else
    out.sl_gap += " ('-' entries or missing rows)";
  if (p.scope == PathSlFile::Scope::kSourceLid) {
    out.source_sls = std::move(p.by_lid);
    out.use_source_sls = true;
    out.sl_source = path + " (per source LID)";
  } else {
    p.apply(f, out.routing);
    out.sl_source = path + (p.scope == PathSlFile::Scope::kDestination ? " (per destination LID)"
                                                                       : " (per source switch)");
  }
}

}  // namespace

bool load_path_sls(const std::string &path, LoadedRouting &out, std::string &err) {
  std::string text;
  if (!slurp(path, text, err)) return false;
  const Fabric &f = out.fabric;
  clear_path_sls(f, out.routing);
  PathSlFile p;
  if (is_compact_tables(text)) {
    CompactTables t;
    if (!parse_compact_tables(std::move(text), path, t, err)) return false;
    if (!(t.sections & kCompactPathSls)) {
      err = path + ": compact table file without path SLs (written without path-sl)";
      return false;
    }
    compact_path_sls(t, f, p);
    use_path_sl_file(p, path, out);
    return true;
  }
  if (is_path_sl_file(text)) {
    std::istringstream in(text);
    if (!read_path_sl_file(in, path, f, p, err)) return false;
    use_path_sl_file(p, path, out);
    return true;
  }
  if (text.find("PathRecord dump") == std::string::npos) {
    err = path + ": neither a keiro path-SL file nor saquery PathRecord output";
    return false;
  }
  out.source_sls.reset(f.max_lid());
  const int64_t n = parse_saquery_paths(text, path, out.source_sls, err);
  if (n < 0) return false;
  out.use_source_sls = true;
  out.sl_source = strprintf("%s (%lld PathRecords)", path.c_str(), static_cast<long long>(n));
  // Pairs without a record have no SL (kNoPathSl in the Routing).
  int64_t pairs = 0;
  for (const uint16_t s : f.lids())
    for (const uint16_t d : f.lids()) pairs += s != d;
  if (out.source_sls.pairs() < pairs) {
    out.sl_gap =
        strprintf("%s has PathRecords for %lld of %lld LID pairs", path.c_str(),
                  static_cast<long long>(out.source_sls.pairs()), static_cast<long long>(pairs));
    out.notes.push_back(out.sl_gap + "; the rest have no path SL");
  }
  return true;
}

namespace {

// load_dump_dir()'s fabric: the topology (opt.topology, else the
// directory's opensm-subnet.lst) with the LMC lmc.
bool load_fabric(const std::string &d, int lmc, const LoadOptions &opt, LoadedRouting &out,
                 std::string &err) {
  TopologyReadOptions ropt;
  ropt.vls = opt.vls;
  ropt.sm_node = opt.sm_node;
  ropt.lmc = static_cast<uint8_t>(lmc);
  const std::string topo = opt.topology.empty() ? d + "opensm-subnet.lst" : opt.topology;
  return read_topology(topo, out.fabric, err, ropt);
}

// The LMC of opt or, when that is < 0, of the LIDs per CA port in the LFTs
// (lin, rewound).
int dump_lmc(std::ifstream &lin, const LoadOptions &opt, LoadedRouting &out) {
  if (opt.lmc >= 0) return opt.lmc;
  const int lmc = std::max(0, lmc_from_lfts(lin));
  lin.clear();
  lin.seekg(0);
  if (lmc > 0) out.notes.push_back(strprintf("LMC %d, from the LIDs per CA port in the LFTs", lmc));
  return lmc;
}

void lft_notes(const DumpReadReport &rep, LoadedRouting &out) {
  const Fabric &f = out.fabric;
  if (rep.unknown_guids)
    out.notes.push_back(
        strprintf("%d LFTs belong to switches the fabric lacks (skipped)", rep.unknown_guids));
  if (!rep.missing.empty())
    out.notes.push_back(
        strprintf("%zu switches have no LFT in the dump (every entry dropped), "
                  "e.g. '%s'",
                  rep.missing.size(), f.sw(rep.missing[0]).name.c_str()));
}

void sl2vl_notes(const DumpReadReport &vrep, LoadedRouting &out) {
  const Fabric &f = out.fabric;
  if (!vrep.ports_without_sl2vl.empty())
    out.notes.push_back(strprintf(
        "%zu connected switch ports have no SL2VL rows (port down or no SL2VL support), e.g. "
        "'%s' port %u: every SL assumed on VL 0 there",
        vrep.ports_without_sl2vl.size(), f.sw(vrep.ports_without_sl2vl[0].first).name.c_str(),
        vrep.ports_without_sl2vl[0].second));
  if (!vrep.terminals_without_sl2vl.empty())
    out.notes.push_back(strprintf("%zu CA/router ports have no SL2VL table: VL 0 assumed",
                                  vrep.terminals_without_sl2vl.size()));
}

// load_dump_dir()'s SL2VL tables from the directory's opensm-sl2vl.dump,
// with notes on what it lacks (every SL on VL 0 without it).
bool load_sl2vl(const std::string &d, LoadedRouting &out, std::string &err) {
  const std::string sl2vl = d + "opensm-sl2vl.dump";
  if (exists(sl2vl)) {
    DumpReadReport vrep;
    if (!read_sl2vl_dump(sl2vl, out.fabric, out.routing, vrep, err)) return false;
    sl2vl_notes(vrep, out);
  } else {
    out.notes.push_back(
        "no opensm-sl2vl.dump (OpenSM writes it only with QoS on): every SL "
        "assumed on VL 0");
  }
  return true;
}

// The path-SL file of directory d: opt.sls, else keiro-path-sl.dump or
// saquery-paths.txt there; empty when there is none.
std::string sl_file(const std::string &d, const LoadOptions &opt) {
  if (!opt.sls.empty()) return opt.sls;
  if (exists(d + kPathSlFileName)) return d + kPathSlFileName;
  if (exists(d + "saquery-paths.txt")) return d + "saquery-paths.txt";
  return "";
}

void no_path_sls(const std::string &d, LoadedRouting &out) {
  out.sl_source = "none";
  clear_path_sls(out.fabric, out.routing);
  out.sl_gap = "no path-SL file (" + std::string(kPathSlFileName) + " or saquery-paths.txt in " +
               d + ", or --sls FILE)";
  out.notes.push_back("no path SLs (" + std::string(kPathSlFileName) +
                      ", saquery-paths.txt or --sls): paths that depend on the SL need "
                      "--assume-sl");
}

// load_dump_dir() for a directory with keiro-tables.bin and no
// opensm-lfts.dump: the tables from it; SL2VL tables or path SLs it lacks
// from the OpenSM-format files, as for a text directory.
bool load_compact_dir(const std::string &d, const LoadOptions &opt, LoadedRouting &out,
                      std::string &err) {
  const std::string path = d + kCompactFileName;
  CompactTables t;
  if (!read_compact_tables(path, t, err)) return false;
  if (!(t.sections & kCompactLfts)) {
    err = path + ": no LFTs in it (written without lfts)";
    return false;
  }
  if (opt.lmc < 0 && t.lmc > 0)
    out.notes.push_back(strprintf("LMC %d, from %s", t.lmc, kCompactFileName));
  if (!load_fabric(d, opt.lmc >= 0 ? opt.lmc : t.lmc, opt, out, err)) return false;
  const Fabric &f = out.fabric;
  const bool own_sls = opt.sls.empty() && (t.sections & kCompactPathSls);
  const std::string sls = own_sls ? path : sl_file(d, opt);
  Routing::SlScope scope = Routing::SlScope::kPerDestination;
  if (own_sls && t.source_switch_sls) scope = Routing::SlScope::kPerSourceSwitch;
  if (!own_sls && !sls.empty()) scope = routing_scope_of_sl_file(sls, f);
  out.routing.reset(f, scope);
  DumpReadReport rep;
  apply_compact_lfts(t, f, out.routing, rep);
  lft_notes(rep, out);
  if (t.sections & kCompactSl2vl) {
    DumpReadReport vrep;
    apply_compact_sl2vl(t, f, out.routing, vrep);
    sl2vl_notes(vrep, out);
  } else if (!load_sl2vl(d, out, err)) {
    return false;
  }
  if (own_sls) {
    clear_path_sls(f, out.routing);
    PathSlFile p;
    compact_path_sls(t, f, p);
    use_path_sl_file(p, path, out);
    return true;
  }
  if (sls.empty()) {
    no_path_sls(d, out);
    return true;
  }
  return load_path_sls(sls, out, err);
}

}  // namespace

bool load_dump_dir(const std::string &dir, const LoadOptions &opt, LoadedRouting &out,
                   std::string &err) {
  const std::string d = dir.empty() ? "./" : (dir.back() == '/' ? dir : dir + "/");
  const std::string lfts_path = d + "opensm-lfts.dump";
  if (!exists(lfts_path) && exists(d + kCompactFileName)) return load_compact_dir(d, opt, out, err);
  std::ifstream lin(lfts_path);
  if (!lin) {
    err = "cannot read " + lfts_path + " (OpenSM writes it with log_flags 0x40, e.g. -D 0x43; " +
          "keiro route --out-format compact writes " + kCompactFileName + " instead)";
    return false;
  }

  if (!load_fabric(d, dump_lmc(lin, opt, out), opt, out, err)) return false;
  const Fabric &f = out.fabric;

  // Path SLs decide the Routing's scope, so find them first.
  const std::string sls = sl_file(d, opt);
  out.routing.reset(
      f, sls.empty() ? Routing::SlScope::kPerDestination : routing_scope_of_sl_file(sls, f));

  DumpReadReport rep;
  if (!read_lfts_dump(lin, lfts_path, f, out.routing, rep, err)) return false;
  lft_notes(rep, out);
  if (!load_sl2vl(d, out, err)) return false;
  if (sls.empty()) {
    no_path_sls(d, out);
    return true;
  }
  return load_path_sls(sls, out, err);
}

}  // namespace keiro::io
