// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Reading a live fabric with infiniband-diags (tool/live_fabric.h).
#include "tool/live_fabric.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/io/diag_output.h"
#include "core/io/dumps.h"
#include "core/io/mcast_dump.h"
#include "core/io/topology_file.h"
#include "core/log.h"

namespace keiro::tool {
namespace {

// One reading: the options, the scratch directory and the commands run.
struct Live {
  const LiveOptions &opt;
  std::string tmp;
  int commands = 0;
};

std::string quote(const std::string &s) {
  std::string o = "'";
  for (const char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string env_prefix(const Live &lv) {
  return lv.opt.preload.empty() ? std::string() : "LD_PRELOAD=" + quote(lv.opt.preload) + " ";
}

bool read_file(const std::string &path, std::string &text) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

// Runs the diagnostic command lines in `jobs` shell scripts at once (each
// output to its own file, stderr dropped) and returns their concatenated
// output. Each command's own exit status is ignored; a failing command
// simply contributes nothing.
bool run_parallel(Live &lv, const std::vector<std::string> &cmds, std::string &out,
                  std::string &err) {
  out.clear();
  if (cmds.empty()) return true;
  const size_t groups = std::min<size_t>(static_cast<size_t>(lv.opt.jobs), cmds.size());
  std::vector<FILE *> running;
  for (size_t g = 0; g < groups; ++g) {
    const std::string script = strprintf("%s/job%zu.sh", lv.tmp.c_str(), g);
    std::ofstream sh(script);
    for (size_t i = g; i < cmds.size(); i += groups)
      sh << env_prefix(lv) << cmds[i] << " 2>/dev/null\n";
    sh.close();
    if (!sh) {
      err = "cannot write " + script;
      return false;
    }
    // In the scratch directory: umad2sim leaves a sys-<pid> tree in the cwd.
    const std::string cmd = "cd " + quote(lv.tmp) + " && sh " + quote(script) + " >" +
                            quote(script + ".out") + " 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) {
      err = "cannot run the diagnostics";
      return false;
    }
    running.push_back(p);
  }
  for (FILE *p : running) pclose(p);
  for (size_t g = 0; g < groups; ++g) {
    std::string text;
    read_file(strprintf("%s/job%zu.sh.out", lv.tmp.c_str(), g), text);
    out += text;
  }
  lv.commands += static_cast<int>(cmds.size());
  return true;
}

// The switches' multicast tables (ibroute -M of every switch).
bool read_live_mfts(Live &lv, const Fabric &f, std::vector<mcast::Tree> &trees, std::string &err) {
  std::vector<std::string> cmds;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (f.sw(s).lid) cmds.push_back("ibroute -M " + std::to_string(f.sw(s).lid));
  std::string text;
  if (!run_parallel(lv, cmds, text, err)) return false;
  std::istringstream in(text);
  io::McastReadReport rep;
  return io::read_ibroute_mfts(in, "ibroute -M", f, trees, rep, err);
}

// The fabric (ibnetdiscover), the LFTs (ibroute; they also tell the LMC),
// SL2VL (smpquery) and the path SLs (saquery or the SA tool), in this order.
bool load_live(Live &lv, const io::LoadOptions &opt, io::LoadedRouting &out, std::string &err) {
  std::string text;
  if (!run_parallel(lv, {"ibnetdiscover"}, text, err)) return false;
  if (text.empty()) {
    err =
        "ibnetdiscover gave no output (is the fabric reachable? on ibsim: IBSIM_SOCKNAME "
        "and --umad2sim)";
    return false;
  }
  io::TopologyReadOptions ropt;
  ropt.vls = opt.vls;
  ropt.lmc = static_cast<uint8_t>(std::max(0, opt.lmc));
  Fabric probe;
  if (!io::parse_topology(text, "ibnetdiscover", probe, err, ropt)) return false;

  // The LFTs of every switch; they also tell the LMC.
  std::vector<std::string> cmds;
  for (int32_t s = 0; s < probe.num_switches(); ++s)
    if (probe.sw(s).lid) cmds.push_back("ibroute " + std::to_string(probe.sw(s).lid));
  std::string lfts;
  if (!run_parallel(lv, cmds, lfts, err)) return false;
  int lmc = opt.lmc;
  if (lmc < 0) {
    lmc = std::max(0, io::lmc_from_lfts(lfts));
    if (lmc > 0)
      out.notes.push_back(strprintf("LMC %d, from the LIDs per CA port in the LFTs", lmc));
  }
  ropt.lmc = static_cast<uint8_t>(lmc);
  if (!io::parse_topology(text, "ibnetdiscover", out.fabric, err, ropt)) return false;
  const Fabric &f = out.fabric;
  out.routing.reset(f);
  io::DumpReadReport rep;
  std::istringstream lin(lfts);
  if (!io::read_lfts_dump(lin, "ibroute", f, out.routing, rep, err)) return false;
  if (!rep.missing.empty())
    out.notes.push_back(
        strprintf("ibroute gave no LFT for %zu switches (every entry dropped), "
                  "e.g. '%s'",
                  rep.missing.size(), f.sw(rep.missing[0]).name.c_str()));

  if (lv.opt.mcast_trees && !read_live_mfts(lv, f, *lv.opt.mcast_trees, err)) return false;

  // SL2VL: every connected out port of every switch, and every CA port.
  cmds.clear();
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (unsigned p = 1; p <= f.sw(s).num_ports; ++p)
      if (f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone)
        cmds.push_back(strprintf("smpquery sl2vl %u %u", f.sw(s).lid, p));
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    if (f.terminal(t).lid) cmds.push_back(strprintf("smpquery sl2vl %u", f.terminal(t).lid));
  std::string sl2vl;
  if (!run_parallel(lv, cmds, sl2vl, err)) return false;
  const int64_t rows = io::parse_smpquery_sl2vl(sl2vl, "smpquery", f, out.routing, err);
  if (rows < 0) return false;
  int64_t want = 0;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (unsigned p = 1; p <= f.sw(s).num_ports; ++p)
      if (f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone) want += f.sw(s).num_ports + 1;
  want += f.num_terminals();
  out.notes.push_back(strprintf("read %lld of %lld SL2VL rows with smpquery%s",
                                static_cast<long long>(rows), static_cast<long long>(want),
                                rows < want ? " (VL 0 assumed for the missing ones: ports "
                                              "without SL2VL support or unanswered queries)"
                                            : ""));

  // Operational VLs of every connected switch port (PortInfo:OperVLs).
  cmds.clear();
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (unsigned p = 1; p <= f.sw(s).num_ports; ++p)
      if (f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone)
        cmds.push_back(
            strprintf("smpquery portinfo %u %u | grep -E '^# Port info|^OperVLs'", f.sw(s).lid, p));
  std::string portinfo;
  if (!run_parallel(lv, cmds, portinfo, err)) return false;
  const int64_t known = io::parse_oper_vls(portinfo, f, out.port_vls);
  std::array<int64_t, kMaxDataVls + 1> by_vls{};
  for (const std::vector<uint8_t> &row : out.port_vls)
    for (const uint8_t v : row)
      if (v) ++by_vls[v];
  std::string seen;
  for (int v = 1; v <= kMaxDataVls; ++v)
    if (by_vls[v])
      seen += strprintf("%s%lld with %d", seen.empty() ? "" : ", ",
                        static_cast<long long>(by_vls[v]), v);
  out.notes.push_back(strprintf(
      "read the OperVLs of %lld of %zu connected switch ports with "
      "smpquery portinfo (%s data VLs)%s",
      static_cast<long long>(known), cmds.size(), seen.empty() ? "none" : seen.c_str(),
      known < static_cast<int64_t>(cmds.size()) ? "; the others limited by --vls only" : ""));

  // Path SLs from the SA.
  io::clear_path_sls(f, out.routing);  // no SL known until the SA answers
  if (lv.opt.sl_pairs == "none") {
    out.sl_source = "none";
    out.sl_gap = "--sl-pairs none (no PathRecords asked for)";
    out.notes.push_back("--sl-pairs none: no path SLs");
    return true;
  }
  std::vector<uint16_t> sources;
  auto add_sources = [&](uint16_t lid, uint8_t lmc_) {
    for (uint32_t k = 0; lid && k < (lv.opt.sl_pairs == "all" ? 1u << lmc_ : 1u); ++k)
      sources.push_back(static_cast<uint16_t>(lid + k));
  };
  for (int32_t s = 0; s < f.num_switches(); ++s) add_sources(f.sw(s).lid, f.sw(s).lmc);
  for (int32_t t = 0; t < f.num_terminals(); ++t) add_sources(f.terminal(t).lid, f.terminal(t).lmc);
  out.source_sls.reset(f.max_lid());
  int64_t asked = 0, got = 0;
  if (!lv.opt.sa_tool.empty()) {
    const std::string pairs = lv.tmp + "/pairs.txt", answers = lv.tmp + "/answers.txt";
    {
      std::ofstream pf(pairs);
      for (const uint16_t s : sources)
        for (const uint16_t d : f.lids())
          if (s != d) {
            pf << s << ' ' << d << '\n';
            ++asked;
          }
    }
    const std::string cmd = "cd " + quote(lv.tmp) + " && " + env_prefix(lv) + lv.opt.sa_tool +
                            " <" + quote(pairs) + " >" + quote(answers) + " 2>" +
                            quote(lv.tmp + "/sa-tool.err");
    const int rc = std::system(cmd.c_str());
    ++lv.commands;
    std::ifstream in(answers);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string a, b, c;
      if (!(ls >> a >> b >> c) || c == "-") continue;
      const long slid = std::strtol(a.c_str(), nullptr, 0),
                 dlid = std::strtol(b.c_str(), nullptr, 0), sl = std::strtol(c.c_str(), nullptr, 0);
      if (slid <= 0 || dlid <= 0 || sl < 0 || sl > 15) continue;
      out.source_sls.set(static_cast<uint16_t>(slid), static_cast<uint16_t>(dlid),
                         static_cast<uint8_t>(sl));
      ++got;
    }
    if (got == 0) {
      err = strprintf("the SA tool '%s' gave no SLs (exit status %d)", lv.opt.sa_tool.c_str(), rc);
      return false;
    }
    out.sl_source =
        strprintf("%s (%lld PathRecords)", lv.opt.sa_tool.c_str(), static_cast<long long>(got));
  } else {
    cmds.clear();
    for (const uint16_t s : sources)
      for (const uint16_t d : f.lids())
        if (s != d) {
          cmds.push_back(
              strprintf("saquery -p --slid %u --dlid %u | grep -E 'PathRecord "
                        "dump|^[[:space:]]*(slid|dlid|sl)\\.'",
                        s, d));
          ++asked;
        }
    std::string all;
    if (!run_parallel(lv, cmds, all, err)) return false;
    got = io::parse_saquery_paths(all, "saquery", out.source_sls, err);
    if (got < 0) return false;
    out.sl_source = strprintf("saquery (%lld PathRecords)", static_cast<long long>(got));
  }
  out.use_source_sls = true;
  if (lv.opt.sl_pairs != "all") {
    out.notes.push_back(
        "PathRecords asked for the base LID of every port; the other LIDs of an "
        "LMC range use the same SLs (--sl-pairs all asks for every LID)");
    auto copy_range = [&](uint16_t base, uint8_t lmc_) {
      for (uint32_t k = 1; k < (1u << lmc_); ++k)
        for (const uint16_t d : f.lids()) {
          const int sl = out.source_sls.get(base, d);
          if (sl >= 0)
            out.source_sls.set(static_cast<uint16_t>(base + k), d, static_cast<uint8_t>(sl));
        }
    };
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (f.sw(s).lid) copy_range(f.sw(s).lid, f.sw(s).lmc);
    for (int32_t t = 0; t < f.num_terminals(); ++t)
      if (f.terminal(t).lid) copy_range(f.terminal(t).lid, f.terminal(t).lmc);
  }
  if (got < asked) {
    out.sl_gap = strprintf("the SA answered %lld of %lld PathRecord queries",
                           static_cast<long long>(got), static_cast<long long>(asked));
    out.notes.push_back(out.sl_gap + "; the rest have no path SL");
  }
  return true;
}

}  // namespace

bool read_live_fabric(const LiveOptions &live, const io::LoadOptions &opt, io::LoadedRouting &out,
                      int &commands, std::string &err) {
  char tmpl[] = "/tmp/keiro-check-XXXXXX";
  if (!mkdtemp(tmpl)) {
    err = "cannot create a scratch directory in /tmp";
    return false;
  }
  Live lv{live, tmpl};
  const bool ok = load_live(lv, opt, out, err);
  std::error_code ec;
  std::filesystem::remove_all(lv.tmp, ec);
  commands = lv.commands;
  return ok;
}

}  // namespace keiro::tool
