// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro check: verifies the tables of any routing, from OpenSM's dumps or
// from a live fabric through infiniband-diags (ibnetdiscover, ibroute,
// smpquery sl2vl, saquery), with the same check as the engines' self-check
// (core/check/verify.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/io/diag_output.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/metrics/report.h"
#include "tool/command.h"
#include "tool/tool_io.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro check DIR [options]\n"
    "       keiro check --live [options]\n"
    "Checks routing tables: every source LID reaches every destination LID without\n"
    "forwarding loops or black holes, and the dependency graph over (directed link,\n"
    "VL), built with the path SLs and the SL2VL tables, has no cycle (credit loop).\n"
    "DIR holds OpenSM's dumps (dump_files_dir with log_flags 0x43): opensm-subnet.lst,\n"
    "opensm-lfts.dump, opensm-sl2vl.dump, and the path SLs in keiro-path-sl.dump or\n"
    "saquery-paths.txt (saquery -p output). Without path SLs every path is on SL 0.\n"
    "options:\n"
    "  --topology FILE   fabric from FILE (net file, ibnetdiscover output) instead of\n"
    "                    DIR/opensm-subnet.lst\n"
    "  --lmc N           LMC of the CA ports (default: from the LFTs)\n"
    "  --sls FILE        path SLs from FILE (keiro path-SL file or saquery output)\n"
    "  --pairs WHICH     traffic to check: all (every LID to every LID; default),\n"
    "                    ca-sources (sent by CA/router ports, to every LID) or ca\n"
    "                    (between CA/router ports only)\n"
    "  --max-problems N  problem lines to print (default 20)\n"
    "  --json            print the result as JSON\n"
    "live mode (the diagnostics must reach the fabric, e.g. ibsim through umad2sim):\n"
    "  --live            read fabric and tables with ibnetdiscover, ibroute and\n"
    "                    smpquery sl2vl, and path SLs with saquery -p\n"
    "  --sl-pairs MODE   which PathRecords to ask for: all (every source LID), ports\n"
    "                    (base LID of every port; default) or none (SL 0 assumed)\n"
    "  --sa-tool CMD     bulk PathRecord helper instead of one saquery per pair: reads\n"
    "                    'slid dlid' lines, prints 'slid dlid sl' ('-' = no record);\n"
    "                    keiro's tests/harness/sa_path_sl --raw does this\n"
    "  --jobs N          diagnostic commands at once (default 4)\n"
    "  --umad2sim [LIB]  run the diagnostics with LD_PRELOAD=LIB (default\n"
    "                    /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so)\n"
    "  --save DIR        also write what was read as a dump directory DIR\n"
    "exit status: 0 all checks hold, 1 a check failed, 2 unusable input\n";

constexpr const char *kUmad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

// ---------------------------------------------------------------- live mode

struct Live {
  std::string preload;  // LD_PRELOAD for the diagnostics, or empty
  std::string sl_pairs = "ports";
  std::string sa_tool;  // bulk PathRecord command, or empty for saquery
  int jobs = 4;
  int commands = 0;
  std::string tmp;  // scratch directory
};

std::string quote(const std::string &s) {
  std::string o = "'";
  for (const char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string env_prefix(const Live &lv) {
  return lv.preload.empty() ? std::string() : "LD_PRELOAD=" + quote(lv.preload) + " ";
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
  const size_t groups = std::min<size_t>(static_cast<size_t>(lv.jobs), cmds.size());
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

  // Path SLs from the SA.
  if (lv.sl_pairs == "none") {
    out.sl_source = "none";
    out.notes.push_back("--sl-pairs none: SL 0 assumed for every path");
    return true;
  }
  std::vector<uint16_t> sources;
  auto add_sources = [&](uint16_t lid, uint8_t lmc_) {
    for (uint32_t k = 0; lid && k < (lv.sl_pairs == "all" ? 1u << lmc_ : 1u); ++k)
      sources.push_back(static_cast<uint16_t>(lid + k));
  };
  for (int32_t s = 0; s < f.num_switches(); ++s) add_sources(f.sw(s).lid, f.sw(s).lmc);
  for (int32_t t = 0; t < f.num_terminals(); ++t) add_sources(f.terminal(t).lid, f.terminal(t).lmc);
  out.source_sls.reset(f.max_lid());
  int64_t asked = 0, got = 0;
  if (!lv.sa_tool.empty()) {
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
    const std::string cmd = "cd " + quote(lv.tmp) + " && " + env_prefix(lv) + lv.sa_tool + " <" +
                            quote(pairs) + " >" + quote(answers) + " 2>" +
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
      err = strprintf("the SA tool '%s' gave no SLs (exit status %d)", lv.sa_tool.c_str(), rc);
      return false;
    }
    out.sl_source =
        strprintf("%s (%lld PathRecords)", lv.sa_tool.c_str(), static_cast<long long>(got));
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
  if (lv.sl_pairs != "all") {
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
  if (got < asked)
    out.notes.push_back(
        strprintf("the SA answered %lld of %lld PathRecord queries; SL 0 assumed "
                  "for the rest",
                  static_cast<long long>(got), static_cast<long long>(asked)));
  return true;
}

bool save_dir(const std::string &dir, const io::LoadedRouting &lr, std::string &err) {
  if (!write_dumps(dir, lr.fabric, lr.routing, err)) return false;
  const std::string d = dir + "/";
  if (lr.use_source_sls) {
    std::ofstream out(d + io::kPathSlFileName);
    io::write_path_sl_file(out, lr.source_sls, lr.fabric.max_lid(), "saquery");
    if (!out) {
      err = "cannot write " + d + io::kPathSlFileName;
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- output

std::string result_text(const std::string &what, const io::LoadedRouting &lr,
                        const check::Result &c, double read_seconds) {
  const Fabric &f = lr.fabric;
  std::string o = "keiro check: " + what + "\n";
  auto row = [&](const char *k, const std::string &v) {
    o += strprintf("  %-15s %s\n", k, v.c_str());
  };
  row("fabric", strprintf("%d switches, %d CA/router ports, %d links, %zu LIDs", f.num_switches(),
                          f.num_terminals(), f.num_channels() / 2, f.lids().size()));
  if (!lr.engine.empty()) row("engine", lr.engine);
  row("path SLs", lr.sl_source);
  row("pairs checked", std::to_string(c.pairs_checked));
  row("unreachable",
      strprintf("%lld (black holes %lld, wrong port %lld)", static_cast<long long>(c.unreachable),
                static_cast<long long>(c.black_holes), static_cast<long long>(c.wrong_delivery)));
  row("loops", std::to_string(c.loops));
  row("VL errors", std::to_string(c.vl_errors));
  row("credit loops", c.credit_loop
                          ? strprintf("FOUND (cycle over %zu channel/VL pairs)", c.cycle.size())
                          : "none");
  row("dependencies", strprintf("%lld (channel, VL) vertices, %lld edges",
                                static_cast<long long>(c.dependency_nodes),
                                static_cast<long long>(c.dependency_edges)));
  row("VLs used", std::to_string(c.vls_used));
  row("SLs used", std::to_string(c.sls_used));
  row("read time", strprintf("%.3f s", read_seconds));
  row("check time", strprintf("%.3f s", c.seconds));
  row("result", c.ok ? "OK" : "FAILED");
  if (!c.problems.empty()) {
    o += "problems:\n";
    for (const std::string &p : c.problems) o += "  " + p + "\n";
  }
  if (c.credit_loop) {
    o += "offending cycle (switch, out port, VL) and the paths behind each dependency:\n";
    for (const check::CycleDependency &d : c.cycle_deps) {
      o += strprintf("  %s -> %s: %lld paths, e.g.\n", d.from.c_str(), d.to.c_str(),
                     static_cast<long long>(d.paths));
      for (const std::string &e : d.examples) o += "      " + e + "\n";
    }
  }
  for (const std::string &n : lr.notes) o += "note: " + n + "\n";
  return o;
}

std::string result_json(const std::string &what, const io::LoadedRouting &lr,
                        const check::Result &c) {
  metrics::RoutingFigures fig;
  fig.label = what;
  fig.engine = lr.engine;
  fill_fabric(fig, lr.fabric);
  fig.check = c;
  fig.notes = lr.notes;
  fig.notes.insert(fig.notes.begin(), "path SLs: " + lr.sl_source);
  return metrics::figures_json(fig);
}

int run_check(const std::vector<std::string> &args) {
  std::string dir, save;
  io::LoadOptions lopt;
  Live lv;
  bool live = false, json = false;
  check::Options copt;
  std::string pairs = "all";
  for (ArgWalker w("check", args); w.next();) {
    const std::string &a = w.arg();
    std::string v;
    long n = 0;
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--topology") {
      if (!w.value(lopt.topology)) return 2;
    } else if (a == "--sls") {
      if (!w.value(lopt.sls)) return 2;
    } else if (a == "--lmc") {
      if (!w.int_value(0, 7, n)) return 2;
      lopt.lmc = static_cast<int>(n);
    } else if (a == "--max-problems") {
      if (!w.int_value(1, 100000, n, ArgWalker::BadInt::kBad)) return 2;
      copt.max_problems = static_cast<int>(n);
    } else if (a == "--pairs") {
      if (!w.value(v)) return 2;
      if (!check::parse_pairs(v, copt)) {
        std::fprintf(stderr, "keiro check: --pairs is all, ca-sources or ca\n");
        return 2;
      }
      pairs = v;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--live") {
      live = true;
    } else if (a == "--sl-pairs") {
      if (!w.value(lv.sl_pairs)) return 2;
      if (lv.sl_pairs != "all" && lv.sl_pairs != "ports" && lv.sl_pairs != "none") {
        std::fprintf(stderr, "keiro check: --sl-pairs is all, ports or none\n");
        return 2;
      }
    } else if (a == "--jobs") {
      if (!w.int_value(1, 64, n, ArgWalker::BadInt::kBad)) return 2;
      lv.jobs = static_cast<int>(n);
    } else if (a == "--sa-tool") {
      if (!w.value(lv.sa_tool)) return 2;
    } else if (a == "--umad2sim") {
      lv.preload = kUmad2sim;
      if (const std::string *lib = w.peek(); lib && lib->find(".so") != std::string::npos)
        w.value(lv.preload);
    } else if (a == "--save") {
      if (!w.value(save)) return 2;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "keiro check: unknown option '%s'\n\n%s", a.c_str(), kUsage);
      return 2;
    } else if (dir.empty()) {
      dir = a;
    } else {
      std::fprintf(stderr, "keiro check: one directory only ('%s', '%s')\n", dir.c_str(),
                   a.c_str());
      return 2;
    }
  }
  if (live == !dir.empty()) {
    std::fprintf(stderr, "keiro check: give a dump directory or --live\n\n%s", kUsage);
    return 2;
  }
  io::LoadedRouting lr;
  std::string err;
  const auto t0 = std::chrono::steady_clock::now();
  if (live) {
    char tmpl[] = "/tmp/keiro-check-XXXXXX";
    if (!mkdtemp(tmpl)) return input_error("check", "cannot create a scratch directory in /tmp");
    lv.tmp = tmpl;
    const bool loaded = load_live(lv, lopt, lr, err);
    std::error_code ec;
    std::filesystem::remove_all(lv.tmp, ec);
    if (!loaded) return input_error("check", err);
  } else if (!InputReader("check").dumps(dir, lopt, lr)) {
    return 2;
  }
  const double read_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (live)
    lr.notes.push_back(
        strprintf("read the fabric with %d diagnostic commands in %.1f s", lv.commands, read_s));
  if (!save.empty() && !save_dir(save, lr, err)) return input_error("check", err);
  if (lr.use_source_sls) copt.source_sls = &lr.source_sls;
  const check::Result c = check::verify(lr.fabric, lr.routing, copt);
  if (pairs != "all")
    lr.notes.push_back(pairs == "ca" ? "--pairs ca: only traffic between CA/router ports checked"
                                     : "--pairs ca-sources: traffic sent by switches not checked");
  const std::string what = live ? "live fabric" : dir;
  if (json)
    std::printf("%s\n", result_json(what, lr, c).c_str());
  else
    std::fputs(result_text(what, lr, c, read_s).c_str(), stdout);
  return c.ok ? 0 : 1;
}

const Command kCheck{"check", "verify the routing of OpenSM dumps or of a live fabric", run_check};

}  // namespace
}  // namespace keiro::tool
