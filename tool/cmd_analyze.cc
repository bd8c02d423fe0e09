// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro analyze: measures one or several routings side by side: path length,
// stretch, edge forwarding index, VLs/SLs, effective bandwidth and the shift
// all-to-all estimate (core/metrics/), with a table, JSON or SVG charts.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/engine/engine.h"
#include "core/io/dump_dir.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/metrics/path_stats.h"
#include "core/metrics/report.h"
#include "core/metrics/svg.h"
#include "core/metrics/traffic.h"
#include "core/options.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/mcast_io.h"
#include "tool/tool_io.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro analyze INPUT... [options]\n"
    "Measures routings: hops (average, maximum, histogram, stretch over shortest\n"
    "paths), edge forwarding index per switch-to-switch link (and its max/avg),\n"
    "VLs and SLs used, effective bandwidth for uniform, hotspot(beta) and\n"
    "local(gamma) traffic (LOREN paper VI-D) and a shift all-to-all estimate.\n"
    "Several inputs: one table.\n"
    "INPUT is an OpenSM dump directory (as for keiro check) or engine:NAME, which\n"
    "routes --topology offline with keiro engine NAME. A directory with\n"
    "opensm.mcfdbs also gets its multicast trees measured (groups, depth, links\n"
    "used, trees on the busiest link) and checked as keiro check does.\n"
    "options:\n"
    "  --topology FILE   fabric (required for engine:NAME; for directories it\n"
    "                    replaces DIR/opensm-subnet.lst)\n"
    "  --lmc N           LMC of CA ports (directories: default from the LFTs)\n"
    "  --vls N           data VLs per port for engine inputs (default 8)\n"
    "  --opt key=value   engine option for engine inputs (repeatable)\n"
    "  --sls FILE        path SLs for directory inputs (see keiro check)\n"
    "  --assume-sl N     SL N for pairs that have no path SL and need one (see keiro\n"
    "                    check); without it such inputs get no deadlock verdict\n"
    "  --pairs WHICH     traffic the check covers: all, ca-sources or ca (see keiro check)\n"
    "  --threads N       worker threads for the check (default 0: the machine's cores,\n"
    "                    at most 8); the result is the same for every N\n"
    "  --patterns N      random traffic patterns per kind (default 100)\n"
    "  --hotspot BETA    hotspot probability (default 0.1)\n"
    "  --local GAMMA     locality exponent (default 2)\n"
    "  --seed S          seed of the traffic patterns (default 1)\n"
    "  --no-traffic      skip effective bandwidth and shift estimate\n"
    "  --all-lids        count every LID of an LMC range as a route (default: base LIDs)\n"
    "  --json            JSON instead of the table\n"
    "  --plot DIR        write hops.svg, link-load.svg and compare.svg into DIR\n"
    "exit status: 0 every routing passes the check, 1 one fails it or has no\n"
    "verdict (pairs without the path SL they need), 2 unusable input\n";

void measure(metrics::RoutingFigures &g, const Fabric &f, const Routing &r,
             const check::Options &copt, const metrics::PathStatsOptions &popt, bool traffic,
             const metrics::TrafficOptions &topt) {
  fill_fabric(g, f);
  g.check = check::verify(f, r, copt);
  g.paths = metrics::path_stats(f, r, popt);
  g.have_traffic = traffic;
  g.traffic_options = topt;
  if (traffic) g.traffic = metrics::traffic(f, r, topt);
}

bool write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

bool plot(const std::string &dir, const std::vector<metrics::RoutingFigures> &figs,
          std::string &err) {
  if (!make_dirs(dir, err)) return false;
  // Hop histogram, in percent of each routing's routes.
  size_t longest = 0;
  for (const metrics::RoutingFigures &g : figs)
    longest = std::max(longest, g.paths.hop_histogram.size());
  size_t first = longest;
  for (const metrics::RoutingFigures &g : figs)
    for (size_t h = 0; h < g.paths.hop_histogram.size(); ++h)
      if (g.paths.hop_histogram[h]) first = std::min(first, h);
  std::vector<std::string> cats;
  for (size_t h = first; h < longest; ++h) cats.push_back(std::to_string(h));
  std::vector<metrics::ChartSeries> hops, loads, cmp;
  for (const metrics::RoutingFigures &g : figs) {
    metrics::ChartSeries s{g.label, {}};
    for (size_t h = first; h < longest; ++h)
      s.values.push_back(h < g.paths.hop_histogram.size() && g.paths.pairs
                             ? 100.0 * static_cast<double>(g.paths.hop_histogram[h]) /
                                   static_cast<double>(g.paths.pairs)
                             : 0.0);
    hops.push_back(s);
    metrics::ChartSeries l{g.label, {}};
    std::vector<int64_t> efi = g.paths.efi;
    std::sort(efi.rbegin(), efi.rend());
    for (const int64_t e : efi) l.values.push_back(static_cast<double>(e));
    loads.push_back(l);
  }
  // Comparison: every figure relative to the best routing (1.0 = best).
  struct Metric {
    const char *name;
    bool higher_better;
    double (*get)(const metrics::RoutingFigures &);
  };
  const Metric metrics[] = {
      {"avg hops", false, [](const metrics::RoutingFigures &g) { return g.paths.avg_hops; }},
      {"max hops", false,
       [](const metrics::RoutingFigures &g) { return double(g.paths.max_hops); }},
      {"max EFI", false, [](const metrics::RoutingFigures &g) { return g.paths.efi_summary.max; }},
      {"min EFI", true, [](const metrics::RoutingFigures &g) { return g.paths.efi_summary.min; }},
      {"max/avg EFI", false,
       [](const metrics::RoutingFigures &g) {
         return metrics::efi_max_over_avg(g.paths.efi_summary);
       }},
      {"Gamma unif.", true,
       [](const metrics::RoutingFigures &g) { return g.traffic.gamma_uniform; }},
      {"Gamma hotspot", true,
       [](const metrics::RoutingFigures &g) { return g.traffic.gamma_hotspot; }},
      {"Gamma local", true, [](const metrics::RoutingFigures &g) { return g.traffic.gamma_local; }},
      {"shift a2a", true,
       [](const metrics::RoutingFigures &g) { return g.traffic.shift_throughput; }},
  };
  std::vector<std::string> mcats;
  const bool traffic = std::all_of(figs.begin(), figs.end(),
                                   [](const metrics::RoutingFigures &g) { return g.have_traffic; });
  for (const metrics::RoutingFigures &g : figs) cmp.push_back({g.label, {}});
  for (const Metric &m : metrics) {
    if (!traffic && std::string(m.name).rfind("Gamma", 0) == 0) continue;
    if (!traffic && std::string(m.name) == "shift a2a") continue;
    mcats.push_back(m.name);
    double best = m.higher_better ? 0 : 1e300;
    for (const metrics::RoutingFigures &g : figs)
      best = m.higher_better ? std::max(best, m.get(g)) : std::min(best, m.get(g));
    for (size_t i = 0; i < figs.size(); ++i) {
      const double v = m.get(figs[i]);
      double rel = 0;
      if (m.higher_better)
        rel = best > 0 ? v / best : 0;
      else
        rel = v > 0 ? best / v : 1;
      cmp[i].values.push_back(rel);
    }
  }
  const std::string d = dir + "/";
  if (!write_file(d + "hops.svg",
                  metrics::svg_bar_chart({"Path length between CAs", "links", "% of routes"}, cats,
                                         hops)) ||
      !write_file(d + "link-load.svg",
                  metrics::svg_line_chart({"Routes per switch-to-switch channel (sorted)",
                                           "channels, most loaded first (fraction)", "routes"},
                                          loads)) ||
      !write_file(d + "compare.svg",
                  metrics::svg_bar_chart(
                      {"Routings compared (1 = best of the inputs)", "", "relative to best"}, mcats,
                      cmp))) {
    err = "cannot write the charts into " + dir;
    return false;
  }
  return true;
}

// The multicast trees of a dump directory (opensm.mcfdbs, opensm-sa.dump):
// depth, links used, the busiest link's trees, with the check's verdicts.
// Nothing is added when DIR has none. false on a file that cannot be read.
bool measure_mcast(const std::string &dir, const io::LoadedRouting &lr, const check::Options &copt,
                   std::vector<std::string> &json, std::vector<std::string> &lines) {
  McastInput mc;
  std::string err;
  if (!load_mcast_dir(dir, lr.fabric, 0, mc, err)) {
    std::fprintf(stderr, "keiro analyze: %s\n", err.c_str());
    return false;
  }
  json.emplace_back();
  lines.emplace_back();
  if (!mc.present) return true;
  mcast::Options mo;
  mo.unicast = copt;
  mo.unicast.name_cycle_paths = false;
  mo.members_known = mc.members_known;
  const mcast::Result res = mcast::verify(lr.fabric, lr.routing, mc.groups, mc.trees, mo);
  json.back() = mcast::json_string(mcast::tree_stats(lr.fabric, mc.trees, res.verdicts), res);
  lines.back() = mcast_text(lr.fabric, mc, res);
  return true;
}

int run_analyze(const std::vector<std::string> &args) {
  std::vector<std::string> inputs;
  io::LoadOptions lopt;
  std::string opt_text, plot_dir;
  io::TopologyReadOptions ropt;
  metrics::TrafficOptions topt;
  metrics::PathStatsOptions popt;
  bool json = false;
  check::Options base_copt;
  std::string pairs = "all";
  bool no_traffic = false;
  for (ArgWalker w("analyze", args); w.next();) {
    const std::string &a = w.arg();
    if (w.help()) return print_usage(kUsage);
    if (take_dump_option(w, lopt, pairs) || take_opt(w, opt_text) ||
        w.take("--assume-sl", 0, kNumSls - 1, base_copt.assume_sl) ||
        w.take("--threads", 0, 256, base_copt.threads) || w.take("--vls", 1, 15, ropt.vls) ||
        w.take("--patterns", 1, 100000, topt.patterns) ||
        w.take_num("--hotspot", 0, 1, topt.hotspot_beta) ||
        w.take_num("--local", 0, 100, topt.local_gamma) ||
        w.take("--seed", 0, LONG_MAX, topt.seed) || w.flag("--no-traffic", no_traffic) ||
        w.flag("--all-lids", popt.all_lids) || w.flag("--json", json) ||
        w.take("--plot", plot_dir)) {
      if (w.failed()) return 2;
    } else if (w.is_option()) {
      return w.unknown(kUsage);
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) return usage_error("analyze", "no input", kUsage);
  if (lopt.lmc >= 0) ropt.lmc = static_cast<uint8_t>(lopt.lmc);
  check::parse_pairs(pairs, base_copt);
  const bool traffic = !no_traffic;
  Options options = all_options();
  InputReader read("analyze");
  if (!read.options(opt_text, options)) return 2;
  std::vector<metrics::RoutingFigures> figs;
  std::vector<std::string> mcast_json, mcast_lines;  // per input: its multicast trees
  Fabric topo;                                       // the fabric of engine:NAME inputs, read once
  bool topo_read = false;
  for (const std::string &in : inputs) {
    metrics::RoutingFigures g;
    g.label = in;
    if (in.rfind("engine:", 0) == 0) {
      const EngineDesc *e = find_engine(in.substr(7));
      if (!e) return usage_error("analyze", "unknown engine '" + in.substr(7) + "'");
      if (lopt.topology.empty()) return usage_error("analyze", in + " needs --topology FILE");
      if (!topo_read) {
        ropt.sm_node = lopt.sm_node;
        if (!read.fabric(lopt.topology, ropt, topo)) return 2;
        topo_read = true;
      }
      ToolLogger log(false);  // ERROR lines only
      const int budget = pipeline::vl_budget(topo, options, true, e->osm_name, log);
      EngineInput ein{topo, options, log, budget, pipeline::read_settings(options).max_sls, true};
      Routing r;
      EngineReport rep;
      if (!pipeline::route(*e, ein, r, rep)) return 1;
      g.label = e->osm_name;
      g.engine = e->osm_name;
      g.route_seconds = rep.route_seconds;
      g.vl_budget = budget;
      g.facts = rep.facts;
      measure(g, topo, r, base_copt, popt, traffic, topt);
    } else {
      io::LoadedRouting lr;
      if (!read.dumps(in, lopt, lr)) return 2;
      check::Options copt = base_copt;
      if (lr.use_source_sls) copt.source_sls = &lr.source_sls;
      g.engine = lr.engine;
      g.notes = lr.notes;
      g.notes.insert(g.notes.begin(), "path SLs: " + lr.sl_source);
      measure(g, lr.fabric, lr.routing, copt, popt, traffic, topt);
      if (!measure_mcast(in, lr, copt, mcast_json, mcast_lines)) return 2;
    }
    if (mcast_json.size() < figs.size() + 1) {
      mcast_json.emplace_back();
      mcast_lines.emplace_back();
    }
    figs.push_back(std::move(g));
  }
  // Column labels: drop the directory prefix all inputs share.
  if (figs.size() > 1) {
    size_t common = std::string::npos;
    for (const metrics::RoutingFigures &g : figs) {
      const std::string &a = figs[0].label;
      size_t n = 0;
      while (n < a.size() && n < g.label.size() && a[n] == g.label[n]) ++n;
      common = std::min(common, n);
    }
    const size_t cut = common > 0 ? figs[0].label.rfind('/', common - 1) : std::string::npos;
    if (cut != std::string::npos)
      for (metrics::RoutingFigures &g : figs)
        if (g.label.size() > cut + 1) g.label = g.label.substr(cut + 1);
  }
  if (json) {
    std::string j =
        figs.size() == 1 ? metrics::figures_json(figs[0]) + "\n" : metrics::comparison_json(figs);
    if (figs.size() == 1 && !mcast_json[0].empty())
      j.insert(j.find_last_of('}'), ", \"mcast\": " + mcast_json[0]);
    std::fputs(j.c_str(), stdout);
  } else if (figs.size() == 1) {
    std::fputs(metrics::figures_text(figs[0]).c_str(), stdout);
    std::fputs(mcast_lines[0].c_str(), stdout);
  } else {
    std::fputs(metrics::comparison_table(figs).c_str(), stdout);
    for (const metrics::RoutingFigures &g : figs) {
      if (!g.check.ok)
        std::printf("%s: check %s: %s\n", g.label.c_str(),
                    check::holds_without_missing_sls(g.check) ? "no verdict" : "FAILED",
                    g.check.first_problem.c_str());
      for (const std::string &n : g.notes)
        std::printf("%s: note: %s\n", g.label.c_str(), n.c_str());
    }
    for (size_t i = 0; i < figs.size(); ++i)
      if (!mcast_lines[i].empty())
        std::printf("%s: multicast trees\n%s", figs[i].label.c_str(), mcast_lines[i].c_str());
  }
  std::string err;
  if (!plot_dir.empty() && !plot(plot_dir, figs, err)) return input_error("analyze", err);
  // 0 only for a verdict "passes" on every input: an input without the path
  // SLs it needs has no verdict (said in its check row) and makes it 1.
  const bool all_ok = std::all_of(figs.begin(), figs.end(),
                                  [](const metrics::RoutingFigures &g) { return g.check.ok; });
  return all_ok ? 0 : 1;
}

const Command kAnalyze{"analyze", "measure and compare routings (hops, EFI, bandwidth, charts)",
                       run_analyze};

}  // namespace
}  // namespace keiro::tool
