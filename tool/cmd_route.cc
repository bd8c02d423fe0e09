// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro route: routes a topology file offline with one engine, self-checks
// the tables (pipeline::route), writes them in OpenSM's dump formats or
// keiro's compact table file (core/io/compact_tables.h) and prints the
// routing's figures.
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/io/compact_tables.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/log.h"
#include "core/metrics/path_stats.h"
#include "core/metrics/report.h"
#include "core/metrics/traffic.h"
#include "core/options.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "core/reroute/previous_sls.h"
#include "core/timing.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/mcast_io.h"
#include "tool/progress.h"
#include "tool/tool_io.h"

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
    "  --out-format F      opensm (default): the tables in OpenSM's text dump formats,\n"
    "                      one text line per switch and LID (gigabytes at tens of\n"
    "                      thousands of LIDs); compact: LFTs, SL2VL tables and path\n"
    "                      SLs in one binary file, keiro-tables.bin, a byte per LFT\n"
    "                      entry, which keiro check, analyze, simulate and route\n"
    "                      --previous read like the dumps (sizes: docs/check.md)\n"
    "  --out-files LIST    write only these, comma-separated: subnet, lfts, sl2vl,\n"
    "                      path-sl, mcast (default: all)\n"
    "  --lmc N             LMC of CA ports without a LID in the file (default 0)\n"
    "  --vls N             data VLs of every port (VLCap; default 8)\n"
    "  --no-qos            route as with OpenSM's qos FALSE (one VL)\n"
    "  --sm-node NODE      node holding OpenSM's port (LID assignment as on ibsim)\n"
    "  --previous DIR      re-route: DIR holds the dumps of the earlier routing (as\n"
    "                      --out writes them, with keiro-path-sl.dump); pairs still\n"
    "                      connected keep their SLs where the new tables allow, else\n"
    "                      one WARN line counts the changed ones (docs/rerouting.md)\n"
    "  --mcast GROUPS      also build keiro's multicast trees (as the plugin does) for\n"
    "                      GROUPS: 'broadcast' (every CA port), 'broadcast+K[:SEED]'\n"
    "                      (and K groups of 8-16 CA ports) or a file of MC Group\n"
    "                      records as in opensm-sa.dump; they are checked with the\n"
    "                      unicast tables, and --out writes opensm.mcfdbs and\n"
    "                      opensm-sa.dump (docs/multicast.md)\n"
    "  --traffic           also compute effective bandwidth and the shift all-to-all\n"
    "                      estimate (keiro analyze has the options)\n"
    "  --json              print the figures as JSON\n"
    "  -v, --verbose       print the engine's INFO lines\n"
    "exit status: 0 routed and checked, 1 routing or check failed, 2 unusable input\n";

// What --out writes: the format and which files.
struct OutSpec {
  bool compact = false;
  unsigned tables = io::kCompactAll;  // io::CompactSection bits: lfts, sl2vl, path-sl
  bool subnet = true, mcast = true;
};

// --out-files LIST into o; false with err naming an unknown item.
bool parse_out_files(const std::string &list, OutSpec &o, std::string &err) {
  o.tables = 0;
  o.subnet = o.mcast = false;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "subnet")
      o.subnet = true;
    else if (item == "lfts")
      o.tables |= io::kCompactLfts;
    else if (item == "sl2vl")
      o.tables |= io::kCompactSl2vl;
    else if (item == "path-sl")
      o.tables |= io::kCompactPathSls;
    else if (item == "mcast")
      o.mcast = true;
    else {
      err = "--out-files: unknown item '" + item + "' (subnet, lfts, sl2vl, path-sl, mcast)";
      return false;
    }
  }
  return true;
}

std::string megabytes(uint64_t bytes) {
  return bytes >= 1000000000 ? strprintf("%.1f GB", bytes / 1e9)
                             : strprintf("%.1f MB", bytes / 1e6);
}

// --out DIR: the files of o; note says what was written, how big and how
// long it took. Before writing more than 1 GB of OpenSM-format LFTs it says
// so on stderr, with the size of the compact file instead.
bool write_out(const std::string &dir, const OutSpec &o, const Fabric &f, const Routing &r,
               const McastInput &mc, std::string &note, std::string &err) {
  const auto t0 = Clock::now();
  if (!o.compact && (o.tables & io::kCompactLfts)) {
    const uint64_t text = io::lfts_dump_size(f, r);
    if (text >= 1000000000)
      std::fprintf(stderr,
                   "keiro route: note: opensm-lfts.dump will take %s (one text line per switch "
                   "and LID); --out-format compact writes all tables in %s\n",
                   megabytes(text).c_str(),
                   megabytes(io::compact_tables_size(f, r, io::kCompactAll)).c_str());
  }
  if (!make_dirs(dir, err)) return false;
  const std::string d = dir + "/";
  std::vector<std::string> files;
  auto wrote = [&](const char *name, bool ok) {
    files.push_back(name);
    return ok;
  };
  if (o.subnet &&
      !wrote("opensm-subnet.lst", io::write_subnet_lst(d + "opensm-subnet.lst", f, err)))
    return false;
  if (o.compact) {
    if (o.tables && !wrote(io::kCompactFileName,
                           io::write_compact_tables(d + io::kCompactFileName, f, r, o.tables, err)))
      return false;
  } else if (((o.tables & io::kCompactLfts) &&
              !wrote("opensm-lfts.dump", io::write_lfts_dump(d + "opensm-lfts.dump", f, r, err))) ||
             ((o.tables & io::kCompactSl2vl) &&
              !wrote("opensm-sl2vl.dump",
                     io::write_sl2vl_dump(d + "opensm-sl2vl.dump", f, r, err))) ||
             ((o.tables & io::kCompactPathSls) &&
              !wrote(io::kPathSlFileName,
                     io::write_path_sl_file(d + io::kPathSlFileName, f, r, err))))
    return false;
  if (mc.present && o.mcast) {
    if (!write_mcast_dir(dir, f, mc, err)) return false;
    files.push_back("opensm.mcfdbs");
    if (mc.members_known) files.push_back("opensm-sa.dump");
  }
  uint64_t bytes = 0;
  std::string list;
  for (size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    bytes += std::filesystem::file_size(d + files[i], ec);
    list += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
  }
  note = strprintf("wrote %s to %s (%s in %.2f s)", list.empty() ? "nothing" : list.c_str(),
                   dir.c_str(), megabytes(bytes).c_str(), seconds_since(t0));
  return true;
}

int run_route(const std::vector<std::string> &args) {
  std::string engines;
  for (const EngineDesc &e : all_engines()) engines += std::string(" ") + e.name;
  std::string engine = "nue", topology, out_dir, opt_text, sm_node, previous_dir, mcast_spec;
  std::string out_format = "opensm", out_files;
  io::TopologyReadOptions ropt;
  bool json = false, verbose = false, traffic = false;
  const std::string usage = strprintf(kUsage, engines.c_str());
  bool no_qos = false;
  for (ArgWalker w("route", args); w.next();) {
    if (w.help()) return print_usage(usage);
    if (w.take("--engine", engine) || w.take("--topology", topology) || w.take("--out", out_dir) ||
        w.take("--previous", previous_dir) || take_opt(w, opt_text) ||
        w.take("--mcast", mcast_spec) || w.take("--lmc", 0, 7, ropt.lmc) ||
        w.take_choice("--out-format", {"opensm", "compact"}, out_format) ||
        w.take("--out-files", out_files) || w.take("--vls", 1, 15, ropt.vls) ||
        w.take("--sm-node", ropt.sm_node) || w.flag("--no-qos", no_qos) ||
        w.flag("--traffic", traffic) || w.flag("--json", json) || w.flag("-v", verbose) ||
        w.flag("--verbose", verbose)) {
      if (w.failed()) return 2;
    } else {
      return w.unknown(usage);
    }
  }
  const bool qos = !no_qos;
  if (topology.empty()) return usage_error("route", "--topology FILE is required", usage);
  OutSpec out_spec;
  out_spec.compact = out_format == "compact";
  std::string spec_err;
  if (!out_files.empty() && !parse_out_files(out_files, out_spec, spec_err))
    return usage_error("route", spec_err, usage);
  const EngineDesc *e = find_engine(engine);
  if (!e) {
    return usage_error("route", "unknown engine '" + engine + "' (engines:" + engines + ")");
  }
  Options options = all_options();
  Fabric f;
  InputReader read("route");
  if (!read.options(opt_text, options) || !read.fabric(topology, ropt, f)) return 2;

  ToolLogger log(verbose);
  const int budget = pipeline::vl_budget(f, options, qos, e->osm_name, log);
  EngineInput in{f, options, log, budget, pipeline::read_settings(options).max_sls, qos};
  PreviousSls previous;
  if (!previous_dir.empty()) {
    io::LoadOptions lo;
    io::LoadedRouting lr;
    std::string err;
    if (!io::load_dump_dir(previous_dir, lo, lr, err)) return input_error("route", err);
    if (lr.use_source_sls)
      return input_error("route", "--previous " + previous_dir +
                                      ": needs keiro-path-sl.dump, not per-source-LID SLs");
    lr.routing.engine = lr.engine;
    previous = capture_previous_sls(lr.fabric, lr.routing);
  }
  ProgressLine progress("route");
  if (progress.enabled())
    in.progress = [&](const char *phase, int64_t done, int64_t total) {
      progress.show(strprintf("%s: %s %lld/%lld", e->osm_name, phase, static_cast<long long>(done),
                              static_cast<long long>(total)),
                    done == total);
    };
  Routing r;
  EngineReport rep;
  metrics::RoutingFigures fig;
  // The engine or the check logged the ERROR line; fig.check is the self-check's result.
  pipeline::RouteExtras x;
  x.previous = previous.empty() ? nullptr : &previous;
  x.check_out = &fig.check;
  const bool routed = pipeline::route(*e, in, r, rep, x);
  progress.clear();
  if (!routed) return 1;
  fig.check.seconds = rep.check_seconds;

  fig.label = topology;
  fig.engine = e->osm_name;
  fill_fabric(fig, f);
  fig.route_seconds = rep.route_seconds;
  fig.vl_budget = budget;
  fig.facts = rep.facts;
  fig.paths = metrics::path_stats(f, r);
  if (traffic) {
    fig.have_traffic = true;
    fig.traffic = metrics::traffic(f, r, fig.traffic_options);
  }

  McastInput mc;
  mcast::Result mres;
  if (!mcast_spec.empty()) {
    std::string err;
    const int rc = route_mcast(f, r, options, mcast_spec, rep.mcast_roots, mc, mres, err);
    if (rc == 2) return input_error("route", err);
    if (rc == 1) log.logf(LogLevel::kError, "%s: %s", e->osm_name, err.c_str());
  }
  if (!out_dir.empty()) {
    std::string err, note;
    if (!write_out(out_dir, out_spec, f, r, mc, note, err)) return input_error("route", err);
    fig.notes.push_back(note);
  }

  if (json) {
    std::string j = metrics::figures_json(fig);
    if (mc.present)
      j.insert(j.find_last_of('}'),
               ", \"mcast\": " +
                   mcast::json_string(mcast::tree_stats(f, mc.trees, mres.verdicts), mres));
    std::printf("%s\n", j.c_str());
  } else {
    fig.label.clear();
    std::printf("keiro route: %s with %s\n%s%s", topology.c_str(), e->osm_name,
                metrics::figures_text(fig).c_str(),
                mc.present ? mcast_text(f, mc, mres).c_str() : "");
  }
  return mc.present && !mres.ok ? 1 : 0;
}

const Command kRoute{"route", "route a topology file offline, check and measure the tables",
                     run_route};

}  // namespace
}  // namespace keiro::tool
