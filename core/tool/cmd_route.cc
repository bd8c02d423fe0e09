// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro route: routes a topology file offline with one engine, self-checks
// the tables (run_engine), writes them in OpenSM's dump formats and prints
// the routing's figures.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/engine.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/metrics/path_stats.h"
#include "core/metrics/report.h"
#include "core/metrics/traffic.h"
#include "core/options.h"
#include "core/tool/command.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro route --topology FILE [options]\n"
    "Routes an ibsim net file, ibnetdiscover output or opensm-subnet.lst offline,\n"
    "checks the tables (reachability, loops, credit loops) and prints path length,\n"
    "stretch, edge forwarding index, VLs/SLs used and run time.\n"
    "options:\n"
    "  --engine NAME       engine (default nue); one of:%s\n"
    "  --topology FILE     fabric to route (required)\n"
    "  --opt key=value     engine option, as in event_plugin_options (repeatable;\n"
    "                      config=FILE reads more); see docs for the keys\n"
    "  --out DIR           write opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump\n"
    "                      and keiro-path-sl.dump there (created if needed)\n"
    "  --lmc N             LMC of CA ports without a LID in the file (default 0)\n"
    "  --vls N             data VLs of every port (VLCap; default 8)\n"
    "  --no-qos            route as with OpenSM's qos FALSE (one VL)\n"
    "  --sm-node NODE      node holding OpenSM's port (LID assignment as on ibsim)\n"
    "  --traffic           also compute effective bandwidth and the shift all-to-all\n"
    "                      estimate (keiro analyze has the options)\n"
    "  --json              print the figures as JSON\n"
    "  -v, --verbose       print the engine's INFO lines\n"
    "exit status: 0 routed and checked, 1 routing or check failed, 2 unusable input\n";

class ToolLogger : public Logger {
 public:
  explicit ToolLogger(bool verbose) : verbose_(verbose) {}
  void write(LogLevel level, const std::string &line) override {
    if (level == LogLevel::kError)
      std::fprintf(stderr, "ERROR: %s\n", line.c_str());
    else
      std::fprintf(stderr, "%s\n", line.c_str());
  }
  bool enabled(LogLevel level) const override {
    return level == LogLevel::kError || (verbose_ && level == LogLevel::kInfo);
  }

 private:
  bool verbose_;
};

bool to_int(const std::string &s, long lo, long hi, long &v) {
  char *end = nullptr;
  v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && !*end && v >= lo && v <= hi;
}

int run_route(const std::vector<std::string> &args) {
  std::string engines;
  for (const EngineDesc &e : all_engines()) engines += std::string(" ") + e.name;
  std::string engine = "nue", topology, out_dir, opt_text, sm_node;
  TopologyReadOptions ropt;
  bool qos = true, json = false, verbose = false, traffic = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](std::string &dst) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "keiro route: %s needs a value\n", a.c_str());
        return false;
      }
      dst = args[++i];
      return true;
    };
    std::string v;
    long n = 0;
    if (a == "-h" || a == "--help") {
      std::printf(kUsage, engines.c_str());
      return 0;
    } else if (a == "--engine") {
      if (!value(engine)) return 2;
    } else if (a == "--topology") {
      if (!value(topology)) return 2;
    } else if (a == "--out") {
      if (!value(out_dir)) return 2;
    } else if (a == "--opt") {
      if (!value(v)) return 2;
      opt_text += (opt_text.empty() ? "" : " ") + v;
    } else if (a == "--lmc") {
      if (!value(v)) return 2;
      if (!to_int(v, 0, 7, n)) {
        std::fprintf(stderr, "keiro route: --lmc needs 0..7, not '%s'\n", v.c_str());
        return 2;
      }
      ropt.lmc = static_cast<uint8_t>(n);
    } else if (a == "--vls") {
      if (!value(v)) return 2;
      if (!to_int(v, 1, 15, n)) {
        std::fprintf(stderr, "keiro route: --vls needs 1..15, not '%s'\n", v.c_str());
        return 2;
      }
      ropt.vls = static_cast<uint8_t>(n);
    } else if (a == "--sm-node") {
      if (!value(ropt.sm_node)) return 2;
    } else if (a == "--no-qos") {
      qos = false;
    } else if (a == "--traffic") {
      traffic = true;
    } else if (a == "--json") {
      json = true;
    } else if (a == "-v" || a == "--verbose") {
      verbose = true;
    } else {
      std::fprintf(stderr, "keiro route: unknown argument '%s'\n\n", a.c_str());
      std::fprintf(stderr, kUsage, engines.c_str());
      return 2;
    }
  }
  if (topology.empty()) {
    std::fprintf(stderr, "keiro route: --topology FILE is required\n\n");
    std::fprintf(stderr, kUsage, engines.c_str());
    return 2;
  }
  const EngineDesc *e = find_engine(engine);
  if (!e) {
    std::fprintf(stderr, "keiro route: unknown engine '%s' (engines:%s)\n", engine.c_str(),
                 engines.c_str());
    return 2;
  }
  Options options;
  std::string err;
  if (!Options::parse(opt_text, options, err)) {
    std::fprintf(stderr, "keiro route: %s\n", err.c_str());
    return 2;
  }
  Fabric f;
  if (!read_topology(topology, f, err, ropt)) {
    std::fprintf(stderr, "keiro route: %s\n", err.c_str());
    return 2;
  }

  ToolLogger log(verbose);
  const int budget = vl_budget(f, options, qos, e->osm_name, log);
  EngineInput in{f, options, log, budget, static_cast<int>(options.get_int("max_sls")), qos};
  Routing r;
  EngineReport rep;
  if (!run_engine(*e, in, r, rep)) return 1;  // the engine or the check logged the ERROR line

  RoutingFigures fig;
  fig.label = topology;
  fig.engine = e->osm_name;
  fig.switches = f.num_switches();
  fig.terminals = f.num_terminals();
  fig.links = f.num_channels() / 2;
  fig.lids = static_cast<int>(f.lids().size());
  fig.route_seconds = rep.route_seconds;
  fig.vl_budget = budget;
  fig.facts = rep.facts;
  // run_engine checked already; this repeats it to report its details.
  fig.check = verify_routing(f, r);
  fig.check.seconds = rep.check_seconds;
  fig.paths = path_stats(f, r);
  if (traffic) {
    fig.have_traffic = true;
    fig.traffic = traffic_metrics(f, r, fig.traffic_options);
  }

  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      std::fprintf(stderr, "keiro route: cannot create %s: %s\n", out_dir.c_str(),
                   ec.message().c_str());
      return 2;
    }
    const std::string d = out_dir + "/";
    if (!write_subnet_lst(d + "opensm-subnet.lst", f, err) ||
        !write_lfts_dump(d + "opensm-lfts.dump", f, r, err) ||
        !write_sl2vl_dump(d + "opensm-sl2vl.dump", f, r, err) ||
        !write_path_sl_file(d + kPathSlFileName, f, r, err)) {
      std::fprintf(stderr, "keiro route: %s\n", err.c_str());
      return 2;
    }
    fig.notes.push_back("wrote opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump and " +
                        std::string(kPathSlFileName) + " to " + out_dir);
  }

  if (json) {
    std::printf("%s\n", figures_json(fig).c_str());
  } else {
    fig.label.clear();
    std::printf("keiro route: %s with %s\n%s", topology.c_str(), e->osm_name,
                figures_text(fig).c_str());
  }
  return 0;
}

const Command kRoute{"route", "route a topology file offline, check and measure the tables",
                     run_route};

}  // namespace
}  // namespace keiro::tool
