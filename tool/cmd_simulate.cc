// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro simulate: packet-level traffic through the tables of dump directories
// (any engine's, as keiro check reads them) or of a topology routed first
// (engine:NAME, --engine); prints accepted throughput, latency and whether it
// deadlocked, for one offered load or a sweep of loads (saturation), several
// routings side by side, with SVG curves (core/sim/network.h has the model).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/io/dump_dir.h"
#include "core/io/mcast_dump.h"
#include "core/log.h"
#include "core/mcast/trees.h"
#include "core/metrics/report.h"
#include "core/metrics/svg.h"
#include "core/options.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "core/sim/network.h"
#include "core/timing.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/progress.h"
#include "tool/tool_io.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro simulate INPUT... [options]\n"
    "       keiro simulate --topology FILE --engine NAME [options]\n"
    "Simulates packet traffic through routing tables: LFTs, path SLs and SL2VL as\n"
    "installed, per-(port, VL) buffers with credit flow control (64-byte credits),\n"
    "virtual cut-through, round-robin arbitration. Prints the accepted throughput\n"
    "(fraction of injection bandwidth), average and 99th-percentile latency and\n"
    "whether the fabric deadlocked, with the cycle of full (channel, VL) buffers.\n"
    "INPUT is a directory of OpenSM's dumps (as for keiro check; pairs without a\n"
    "path SL use --assume-sl, default 0) or engine:NAME, which routes --topology\n"
    "offline with keiro engine NAME first. Several inputs: side by side.\n"
    "input:\n"
    "  --topology FILE     the fabric of engine:NAME inputs; for directories it\n"
    "                      replaces DIR/opensm-subnet.lst\n"
    "  --engine NAME       the same as the input engine:NAME; one of:%s\n"
    "  --opt key=value     engine option (repeatable), as for keiro route\n"
    "  --vls N             data VLs of every port when routing (default 8)\n"
    "  --sls FILE, --lmc N as for keiro check\n"
    "  --assume-sl N       SL of pairs without a path SL (default 0)\n"
    "multicast (groups and masks; DIR/opensm-sa.dump and DIR/opensm.mcfdbs are\n"
    "read when present):\n"
    "  --mcast-groups FILE groups (MC Group records, opensm-sa.dump format) for\n"
    "                      every input\n"
    "  --mcfdbs FILE       masks (opensm.mcfdbs format) for every input\n"
    "  --mcast-trees T     masks of groups that have none: keiro (default:\n"
    "                      keiro's trees, mcast::Router) or opensm (OpenSM's\n"
    "                      default: the union of the unicast paths from the\n"
    "                      switch with the fewest hops to the farthest member)\n"
    "traffic:\n"
    "  --traffic T         uniform (default), transpose, bitrev, shuffle, reverse,\n"
    "                      hotspot, alltoall (shift all-to-all, runs to the end)\n"
    "                      or broadcast (every group member sends to its group)\n"
    "  --mcast-rate X      rate traffic: fraction X of a group member's messages\n"
    "                      go to its group instead (default 0)\n"
    "  --load L            offered load, fraction of injection bandwidth (default 1)\n"
    "  --sweep [LO:HI:STEP]  one run per offered load LO, LO+STEP, ... HI (default\n"
    "                      0.1:1:0.1), each as --load; reports the saturation\n"
    "                      load (first load whose accepted throughput is below\n"
    "                      95%% of offered), the saturation throughput (plateau:\n"
    "                      median accepted of the points from that load on) and\n"
    "                      the highest accepted; a deadlock or stall ends a\n"
    "                      routing's sweep. Not for alltoall\n"
    "  --size BYTES        message size (default 2048), cut into MTU packets\n"
    "  --alltoall-sync M   pairwise (default): a terminal starts shift k once it\n"
    "                      has sent and received the messages of shifts up to\n"
    "                      k - W (MPI pairwise exchange); free: the next shift as\n"
    "                      soon as the last one left the source (Nue paper's simulator)\n"
    "  --alltoall-window W shifts in flight per terminal, pairwise (default 1)\n"
    "  --hotspot T         hotspot terminal index (default 0)\n"
    "  --hotspot-fraction F  share of packets sent to it (default 0.2)\n"
    "  --seed S            random seed (default 1); same seed, same result\n"
    "  --warmup N          warm-up cycles (default 2000; a cycle = one 64-byte credit\n"
    "                      on a link)\n"
    "  --cycles N          measured cycles (default 10000)\n"
    "  --time US           measured time in microseconds instead of --cycles\n"
    "model:\n"
    "  --link-gbytes R     link rate per direction in GB/s (default 12.5, 4x EDR)\n"
    "  --switch-latency NS switch latency in ns (default 100)\n"
    "  --buffer BYTES      input buffer per (port, VL) (default 4096)\n"
    "  --mtu BYTES         packet size (default 2048)\n"
    "  --source-queue Q    vl (default): a terminal sends the first packet of a VL\n"
    "                      with room; fifo: only the head of one queue\n"
    "  --deadlock-time US  nothing moving this long ends the run: locked up behind\n"
    "                      a deadlock, or else a stall (default 5000 cycles =\n"
    "                      25.6 us, at least one hop: 1 + switch latency + MTU\n"
    "                      packet; shorter is refused). Deadlocks themselves\n"
    "                      are found in the cycle they close, at any run length\n"
    "output:\n"
    "  --json              print the result as JSON (several inputs: an object\n"
    "                      keyed by routing)\n"
    "  --plot DIR          with --sweep: write latency.svg, latency-p99.svg and\n"
    "                      throughput.svg (against the offered load) into DIR\n"
    "A progress line shows on a terminal (stderr) for runs longer than a second.\n"
    "Throughput is per terminal and, beside it, per active source (terminals that\n"
    "send: a permutation's fixed points do not).\n"
    "exit status: 0 simulated without deadlock, storm, stall or dropped packets, 1\n"
    "deadlock, multicast storm, or packets or copies dropped by the tables (any\n"
    "input, any load), 2 unusable input, 3 a stall without deadlock (nothing moved,\n"
    "no cycle of full buffers)\n";

std::string cycle_line(const std::vector<std::string> &cycle) {
  std::string line = strprintf("cycle over %zu full (channel, VL) buffers: ", cycle.size());
  for (const std::string &h : cycle) line += h + " -> ";
  return line + cycle.front();
}

// The deadlock and stall rows of a single run.
std::string verdict_text(const sim::Config &c, const sim::Result &r) {
  const double ns = c.cycle_ns();
  std::string o;
  if (!r.deadlock) {
    o += "  deadlock      no\n";
  } else {
    o += strprintf(
        "  deadlock      YES: closed at cycle %lld (%.1f us) holding %lld packets; %lld "
        "packets delivered after it; %d cycle%s of buffers; %lld packets stuck at the end "
        "(cycle %lld)\n",
        static_cast<long long>(r.deadlock_at), r.deadlock_at * ns / 1000,
        static_cast<long long>(r.deadlock_packets),
        static_cast<long long>(r.delivered_after_deadlock), r.deadlocks,
        r.deadlocks == 1 ? "" : "s", static_cast<long long>(r.packets_stuck),
        static_cast<long long>(r.cycles));
    o += "  " + cycle_line(r.deadlock_cycle) + "\n";
  }
  if (c.groups && !r.storm) o += "  storm         no\n";
  if (r.storm)
    o += strprintf(
        "  storm         YES: seen at cycle %lld (%.1f us); %lld copies sent again on "
        "channels their packet's copies had crossed\n  %s\n",
        static_cast<long long>(r.storm_at), r.storm_at * ns / 1000,
        static_cast<long long>(r.storm_copies), r.storm_what.c_str());
  if (r.stall)
    o += strprintf(
        "  stall         YES, not a deadlock: nothing moved from cycle %lld to %lld (%.1f us) "
        "with %lld packets in switch buffers and no cycle of full buffers among them\n",
        static_cast<long long>(r.stall_since), static_cast<long long>(r.stall_at),
        (r.stall_at - r.stall_since) * ns / 1000, static_cast<long long>(r.packets_stuck));
  return o;
}

// "0.70"; loads below 0.01 (broadcast to many members) in full: "0.004".
std::string load_text(double load) {
  return strprintf(load > 0 && load < 0.01 ? "%g" : "%.2f", load);
}

// The multicast figures of a run, one line.
std::string mcast_text(const sim::Result &r) {
  return strprintf(
      "%lld packets sent, %lld copies to members of %lld expected, %lld to non-members, %lld "
      "to switches, %lld dropped; %.4f of the throughput (offered %.4f)",
      static_cast<long long>(r.mcast_sent), static_cast<long long>(r.mcast_delivered),
      static_cast<long long>(r.mcast_expected), static_cast<long long>(r.mcast_non_member),
      static_cast<long long>(r.mcast_switch), static_cast<long long>(r.mcast_dropped),
      r.mcast_throughput, r.mcast_offered);
}

std::string result_text(const std::string &what, const std::string &engine, const Fabric &f,
                        const sim::Config &c, const sim::Result &r, const std::string &mc_source) {
  const double ns = c.cycle_ns();
  std::string o = "keiro simulate: " + what + "\n";
  auto row = [&](const char *k, const std::string &v) {
    o += strprintf("  %-13s %s\n", k, v.c_str());
  };
  row("fabric", strprintf("%d switches, %d CA/router ports, %d links", f.num_switches(),
                          f.num_terminals(), f.num_channels() / 2));
  if (!engine.empty()) row("engine", engine);
  if (c.traffic == sim::Traffic::kAlltoall)
    row("traffic",
        c.alltoall_sync == sim::AlltoallSync::kFree
            ? strprintf("alltoall (shift, free-running), %d-byte messages", c.size)
            : strprintf("alltoall (shift, pairwise exchange, window %d), %d-byte messages",
                        c.alltoall_window, c.size));
  else
    row("traffic",
        strprintf("%s, offered load %s, %d-byte messages, seed %llu%s",
                  sim::traffic_name(c.traffic), load_text(c.load).c_str(), c.size,
                  static_cast<unsigned long long>(c.seed),
                  c.mcast_rate > 0 && c.traffic != sim::Traffic::kBroadcast
                      ? strprintf(", %g of members' messages to their group", c.mcast_rate).c_str()
                      : ""));
  if (!mc_source.empty()) row("groups", mc_source);
  row("model", strprintf("%.2f GB/s links (%.2f ns per 64-byte credit), switch latency %d "
                         "cycles (%.0f ns), %d B per (port, VL), %d VL%s, MTU %d B",
                         c.link_gbytes, ns, c.switch_latency, c.switch_latency * ns,
                         c.buffer_credits * 64, r.vls, r.vls == 1 ? "" : "s", c.mtu));
  if (c.traffic == sim::Traffic::kAlltoall)
    row("run", strprintf("%lld cycles (%.1f us)%s", static_cast<long long>(r.cycles),
                         r.cycles * ns / 1000, r.completed ? ", all messages delivered" : ""));
  else
    row("run",
        strprintf("warm-up %lld + measured %lld cycles (%.1f us)", static_cast<long long>(c.warmup),
                  static_cast<long long>(c.measure), c.measure * ns / 1000));
  row("throughput",
      strprintf("%.4f of injection bandwidth (offered %.4f)", r.throughput, r.offered));
  row("per source", strprintf("%.4f accepted (offered %.4f) per active source: %d of %d terminals "
                              "send",
                              r.throughput_per_source, r.offered_per_source, r.active_sources,
                              f.num_terminals()));
  row("latency", strprintf("avg %.1f ns, p99 %.1f ns, max %.1f ns (%lld packets)",
                           r.latency_avg * ns, r.latency_p99 * ns, r.latency_max * ns,
                           static_cast<long long>(r.packets_measured)));
  if (r.packets_refused)
    row("refused",
        strprintf("%lld messages (source queue full)", static_cast<long long>(r.packets_refused)));
  if (r.packets_dropped)
    row("dropped", strprintf("%lld packets, first: %s", static_cast<long long>(r.packets_dropped),
                             r.first_drop.c_str()));
  if (c.groups) {
    row("multicast", mcast_text(r));
    if (r.mcast_dropped) row("copies lost", r.first_mcast_drop);
  }
  o += verdict_text(c, r);
  return o;
}

std::string json_cycle(const std::vector<std::string> &cycle) {
  std::string o = "[";
  for (size_t i = 0; i < cycle.size(); ++i) o += (i ? ", " : "") + metrics::json_quote(cycle[i]);
  return o + "]";
}

// The fields a run adds to the first version's JSON: verdict, deadlock and
// stall details (cycles), throughput per active source.
std::string verdict_json(const sim::Result &r) {
  const auto at = [](bool on, int64_t v) {
    return on ? strprintf("%lld", static_cast<long long>(v)) : std::string("null");
  };
  return strprintf(
      "\"verdict\": \"%s\", \"deadlock_at\": %s, \"deadlock_packets\": %lld, \"deadlocks\": %d, "
      "\"delivered_after_deadlock\": %lld, \"stall\": %s, \"stall_since\": %s, \"stall_at\": %s, "
      "\"packets_stuck\": %lld, \"active_sources\": %d, \"throughput_per_source\": %.6f, "
      "\"offered_per_source\": %.6f, \"storm\": %s, \"storm_at\": %s, \"storm_mlid\": %s, "
      "\"storm_copies\": %lld, \"storm_what\": %s, \"mcast\": {\"sent\": %lld, \"expected\": "
      "%lld, \"delivered\": %lld, \"non_member\": %lld, \"switch\": %lld, \"dropped\": %lld, "
      "\"throughput\": %.6f, \"offered\": %.6f}",
      r.storm      ? "storm"
      : r.deadlock ? "deadlock"
      : r.stall    ? "stall"
                   : "ok",
      at(r.deadlock, r.deadlock_at).c_str(), static_cast<long long>(r.deadlock_packets),
      r.deadlocks, static_cast<long long>(r.delivered_after_deadlock), r.stall ? "true" : "false",
      at(r.stall, r.stall_since).c_str(), at(r.stall, r.stall_at).c_str(),
      static_cast<long long>(r.packets_stuck), r.active_sources, r.throughput_per_source,
      r.offered_per_source, r.storm ? "true" : "false", at(r.storm, r.storm_at).c_str(),
      r.storm ? strprintf("\"0x%04X\"", r.storm_mlid).c_str() : "null",
      static_cast<long long>(r.storm_copies), metrics::json_quote(r.storm_what).c_str(),
      static_cast<long long>(r.mcast_sent), static_cast<long long>(r.mcast_expected),
      static_cast<long long>(r.mcast_delivered), static_cast<long long>(r.mcast_non_member),
      static_cast<long long>(r.mcast_switch), static_cast<long long>(r.mcast_dropped),
      r.mcast_throughput, r.mcast_offered);
}

std::string result_json(const std::string &what, const std::string &engine, const sim::Config &c,
                        const sim::Result &r) {
  const double ns = c.cycle_ns();
  const std::string cyc = json_cycle(r.deadlock_cycle);
  return strprintf(
      "{\"input\": %s, \"engine\": %s, \"traffic\": %s, \"load\": %g, \"size\": %d, "
      "\"seed\": %llu, \"throughput\": %.6f, \"offered\": %.6f, \"latency_avg\": %.3f, "
      "\"latency_p99\": %.3f, \"latency_max\": %.3f, \"latency_unit\": \"ns\", "
      "\"packets_delivered\": %lld, \"packets_dropped\": %lld, \"cycles\": %lld, "
      "\"cycle_ns\": %.4f, \"vls\": %d, \"completed\": %s, \"deadlock\": %s, "
      "\"deadlock_cycle\": %s, %s}",
      metrics::json_quote(what).c_str(), metrics::json_quote(engine).c_str(),
      metrics::json_quote(sim::traffic_name(c.traffic)).c_str(), c.load, c.size,
      static_cast<unsigned long long>(c.seed), r.throughput, r.offered, r.latency_avg * ns,
      r.latency_p99 * ns, r.latency_max * ns, static_cast<long long>(r.packets_delivered),
      static_cast<long long>(r.packets_dropped), static_cast<long long>(r.cycles), ns, r.vls,
      r.completed ? "true" : "false", r.deadlock ? "true" : "false", cyc.c_str(),
      verdict_json(r).c_str());
}

// One routing to simulate: a dump directory or engine:NAME routed offline.
struct Input {
  std::string what;    // the input as given
  std::string label;   // column / key: the input, or the engine for engine:NAME
  std::string engine;  // the engine that made the tables, when known
  io::LoadedRouting lr;
  std::vector<mcast::Group> groups;
  std::vector<mcast::Tree> trees;
  std::string mc_source;  // where the groups and masks came from, in words
  sim::Result result;
  sim::Sweep sweep;
};

// "LO:HI:STEP" -> loads; false when it is not three numbers.
bool parse_range(const std::string &s, double &lo, double &hi, double &step) {
  char *e = nullptr;
  const char *p = s.c_str();
  lo = std::strtod(p, &e);
  if (e == p || *e != ':') return false;
  p = e + 1;
  hi = std::strtod(p, &e);
  if (e == p || *e != ':') return false;
  p = e + 1;
  step = std::strtod(p, &e);
  return e != p && *e == '\0';
}

std::string sweep_json(const std::string &what, const std::string &engine, const sim::Config &c,
                       const sim::Sweep &s) {
  const double ns = c.cycle_ns();
  std::string pts = "[";
  std::vector<std::string> cycle;
  for (size_t i = 0; i < s.points.size(); ++i) {
    const sim::SweepPoint &p = s.points[i];
    const sim::Result &r = p.result;
    if (r.deadlock) cycle = r.deadlock_cycle;
    pts += strprintf(
        "%s{\"load\": %g, \"offered\": %.6f, \"throughput\": %.6f, \"offered_per_source\": %.6f, "
        "\"throughput_per_source\": %.6f, \"latency_avg\": %.3f, \"latency_p99\": %.3f, "
        "\"latency_max\": %.3f, \"packets_delivered\": %lld, \"packets_refused\": %lld, "
        "\"packets_dropped\": %lld, \"deadlock\": %s, \"deadlock_cycle\": %s, \"stall\": %s, "
        "\"storm\": %s}",
        i ? ",\n  " : "\n  ", p.load, r.offered, r.throughput, r.offered_per_source,
        r.throughput_per_source, r.latency_avg * ns, r.latency_p99 * ns, r.latency_max * ns,
        static_cast<long long>(r.packets_delivered), static_cast<long long>(r.packets_refused),
        static_cast<long long>(r.packets_dropped), r.deadlock ? "true" : "false",
        json_cycle(r.deadlock_cycle).c_str(), r.stall ? "true" : "false",
        r.storm ? "true" : "false");
  }
  pts += "]";
  const auto num = [](bool on, const char *fmt, double v) {
    return on ? strprintf(fmt, v) : std::string("null");
  };
  const bool plateau = s.saturation_throughput >= 0;
  const std::string last = s.points.empty() ? "null" : strprintf("%g", s.points.back().load);
  return strprintf(
      "{\"input\": %s, \"engine\": %s, \"traffic\": %s, \"size\": %d, \"seed\": %llu, "
      "\"warmup\": %lld, \"cycles\": %lld, \"cycle_ns\": %.4f, \"latency_unit\": \"ns\", "
      "\"active_sources\": %d, \"points\": %s,\n \"saturation\": {\"throughput\": %s, "
      "\"throughput_per_source\": %s, \"plateau_points\": %d, \"throughput_max\": %.6f, "
      "\"load\": %s, \"ratio\": %g}, \"deadlock\": %s, \"deadlock_load\": %s, "
      "\"deadlock_cycle\": %s, \"stall\": %s, \"stall_load\": %s, \"storm\": %s, \"storm_load\": "
      "%s}",
      metrics::json_quote(what).c_str(), metrics::json_quote(engine).c_str(),
      metrics::json_quote(sim::traffic_name(c.traffic)).c_str(), c.size,
      static_cast<unsigned long long>(c.seed), static_cast<long long>(c.warmup),
      static_cast<long long>(c.measure), ns,
      s.points.empty() ? 0 : s.points.front().result.active_sources, pts.c_str(),
      num(plateau, "%.6f", s.saturation_throughput).c_str(),
      num(plateau, "%.6f", s.saturation_throughput_per_source).c_str(), s.plateau_points,
      s.saturation_throughput_max, num(s.saturation_load >= 0, "%g", s.saturation_load).c_str(),
      sim::kSaturationRatio, s.deadlock ? "true" : "false", s.deadlock ? last.c_str() : "null",
      json_cycle(cycle).c_str(), s.stall ? "true" : "false", s.stall ? last.c_str() : "null",
      s.storm ? "true" : "false", s.storm ? last.c_str() : "null");
}

// A routing's saturation line under the sweep table.
std::string saturation_text(const std::string &head, const sim::Sweep &s) {
  std::string o = head;
  const int active = s.points.empty() ? 0 : s.points.front().result.active_sources;
  if (s.saturation_throughput >= 0)
    o += strprintf(
        "saturation throughput %.4f (plateau: median accepted of %d point%s from the saturation "
        "load on), per active source %.4f (%d send); highest accepted %.4f",
        s.saturation_throughput, s.plateau_points, s.plateau_points == 1 ? "" : "s",
        s.saturation_throughput_per_source, active, s.saturation_throughput_max);
  else
    o += strprintf("saturation throughput - (no plateau: %s); highest accepted %.4f",
                   s.deadlock || s.stall || s.storm ? "no saturated point before the last"
                                                    : "no point saturated",
                   s.saturation_throughput_max);
  if (s.saturation_load >= 0)
    o += strprintf(", saturation load %g", s.saturation_load);
  else
    o += ", not saturated up to the highest load";
  if (s.storm)
    o += strprintf("; STORM at load %g: %s", s.points.back().load,
                   s.points.back().result.storm_what.c_str());
  if (s.deadlock) {
    const sim::Result &r = s.points.back().result;
    o += strprintf("; DEADLOCK at load %g (closed at cycle %lld), ", s.points.back().load,
                   static_cast<long long>(r.deadlock_at)) +
         cycle_line(r.deadlock_cycle);
  } else if (s.stall) {
    o += strprintf("; STALL (not a deadlock) at load %g", s.points.back().load);
  } else if (!s.storm) {
    o += "; deadlock no";
  }
  return o + "\n";
}

// The sweep table: one row per load, per routing accepted throughput and
// average / p99 latency (ns); then the saturation rows.
std::string sweep_text(const std::vector<Input *> &ins, const sim::Config &c) {
  const double ns = c.cycle_ns();
  std::vector<double> loads;
  for (const Input *in : ins)
    for (const sim::SweepPoint &p : in->sweep.points)
      if (std::find(loads.begin(), loads.end(), p.load) == loads.end()) loads.push_back(p.load);
  std::sort(loads.begin(), loads.end());
  const bool many = ins.size() > 1;
  // Per routing: offered, accepted (with * when saturated), avg, p99.
  const char *kGroup = "  %8s %9s %10s %10s";
  std::string o;
  if (many) {
    o += strprintf("%-6s", "");
    for (const Input *in : ins) o += strprintf("  %-40s", in->label.c_str());
    while (o.back() == ' ') o.pop_back();
    o += "\n";
  }
  o += strprintf("%-6s", "load");
  for (size_t i = 0; i < ins.size(); ++i)
    o += strprintf(kGroup, "offered", "accepted", "avg ns", "p99 ns");
  o += "\n";
  for (const double l : loads) {
    std::string line = strprintf("%-6.3g", l);
    for (const Input *in : ins) {
      const sim::SweepPoint *p = nullptr;
      for (const sim::SweepPoint &q : in->sweep.points)
        if (q.load == l) p = &q;
      const sim::Result *r = p ? &p->result : nullptr;
      if (!r)
        line += strprintf(kGroup, "-", "-", "-", "-");
      else if (r->deadlock || r->stall || r->storm)
        line += strprintf("  %8.4f %9s %10s %10s", r->offered,
                          r->storm      ? "STORM"
                          : r->deadlock ? "DEADLOCK"
                                        : "STALL",
                          "-", "-");
      else
        line += strprintf("  %8.4f %8.4f%s %10.1f %10.1f", r->offered, r->throughput,
                          r->throughput < sim::kSaturationRatio * r->offered ? "*" : " ",
                          r->latency_avg * ns, r->latency_p99 * ns);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    o += line + "\n";
  }
  o += "(* accepted below " + strprintf("%g", sim::kSaturationRatio * 100) +
       "% of offered: saturated)\n";
  for (const Input *in : ins) o += saturation_text(many ? in->label + ": " : "", in->sweep);
  return o;
}

// Several single runs side by side: one column per routing.
std::string side_by_side(const std::vector<Input *> &ins, const sim::Config &c) {
  const double ns = c.cycle_ns();
  std::vector<std::pair<std::string, std::vector<std::string>>> rows = {
      {"throughput", {}},  {"per source", {}},  {"offered", {}},  {"latency avg", {}},
      {"latency p99", {}}, {"latency max", {}}, {"packets", {}},  {"dropped", {}},
      {"cycles", {}},      {"VLs", {}},         {"deadlock", {}}, {"stall", {}},
      {"storm", {}},       {"mcast copies", {}}};
  if (!c.groups) rows.resize(rows.size() - 2);
  for (const Input *in : ins) {
    const sim::Result &r = in->result;
    const std::string vals[] = {
        strprintf("%.4f", r.throughput),
        strprintf("%.4f (%d send)", r.throughput_per_source, r.active_sources),
        strprintf("%.4f", r.offered),
        strprintf("%.1f ns", r.latency_avg * ns),
        strprintf("%.1f ns", r.latency_p99 * ns),
        strprintf("%.1f ns", r.latency_max * ns),
        strprintf("%lld", static_cast<long long>(r.packets_delivered)),
        strprintf("%lld", static_cast<long long>(r.packets_dropped)),
        strprintf("%lld%s", static_cast<long long>(r.cycles), r.completed ? " (completed)" : ""),
        strprintf("%d", r.vls),
        r.deadlock ? strprintf("YES, closed at cycle %lld", static_cast<long long>(r.deadlock_at))
                   : "no",
        r.stall ? strprintf("YES, cycles %lld-%lld", static_cast<long long>(r.stall_since),
                            static_cast<long long>(r.stall_at))
                : "no",
        r.storm ? strprintf("YES, seen at cycle %lld", static_cast<long long>(r.storm_at)) : "no",
        strprintf("%lld of %lld", static_cast<long long>(r.mcast_delivered),
                  static_cast<long long>(r.mcast_expected))};
    for (size_t k = 0; k < rows.size(); ++k) rows[k].second.push_back(vals[k]);
  }
  size_t w0 = 0;
  for (const auto &[k, v] : rows) w0 = std::max(w0, k.size());
  std::vector<size_t> w(ins.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    w[i] = ins[i]->label.size();
    for (const auto &[k, v] : rows) w[i] = std::max(w[i], v[i].size());
  }
  auto line = [&](const std::string &k, auto cell) {
    std::string l = strprintf("%-*s", static_cast<int>(w0), k.c_str());
    for (size_t i = 0; i < ins.size(); ++i)
      l += strprintf("  %-*s", static_cast<int>(w[i]), cell(i).c_str());
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  std::string o = line("", [&](size_t i) { return ins[i]->label; });
  for (const auto &[k, v] : rows) o += line(k, [&](size_t i) { return v[i]; });
  for (const Input *in : ins) {
    const sim::Result &r = in->result;
    if (!r.deadlock_cycle.empty()) o += in->label + ": " + cycle_line(r.deadlock_cycle) + "\n";
    if (r.packets_dropped)
      o += strprintf("%s: first dropped packet: %s\n", in->label.c_str(), r.first_drop.c_str());
    if (r.storm) o += in->label + ": storm: " + r.storm_what + "\n";
  }
  return o;
}

bool write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

// latency.svg (average and p99 in us) and throughput.svg against the offered
// load, one line per routing over its points without deadlock.
bool plot(const std::string &dir, const std::vector<Input *> &ins, const sim::Config &c,
          double max_load, std::string &err) {
  if (!make_dirs(dir, err)) return false;
  const double us = c.cycle_ns() / 1000;
  std::vector<metrics::XySeries> lat, p99, thr;
  for (const Input *in : ins) {
    metrics::XySeries a{in->label, {}, {}}, b{in->label, {}, {}}, t{in->label, {}, {}};
    for (const sim::SweepPoint &p : in->sweep.points) {
      if (p.result.deadlock) continue;
      a.x.push_back(p.load);
      a.y.push_back(p.result.latency_avg * us);
      b.x.push_back(p.load);
      b.y.push_back(p.result.latency_p99 * us);
      t.x.push_back(p.load);
      t.y.push_back(p.result.throughput);
    }
    lat.push_back(std::move(a));
    p99.push_back(std::move(b));
    thr.push_back(std::move(t));
  }
  const std::string tr = sim::traffic_name(c.traffic);
  const std::string d = dir + "/";
  if (!write_file(
          d + "latency.svg",
          metrics::svg_xy_chart({"Average latency, " + tr + " traffic",
                                 "offered load (fraction of injection bandwidth)", "latency (us)"},
                                lat, max_load)) ||
      !write_file(
          d + "latency-p99.svg",
          metrics::svg_xy_chart({"99th-percentile latency, " + tr + " traffic",
                                 "offered load (fraction of injection bandwidth)", "latency (us)"},
                                p99, max_load)) ||
      !write_file(d + "throughput.svg",
                  metrics::svg_xy_chart({"Accepted throughput, " + tr + " traffic",
                                         "offered load (fraction of injection bandwidth)",
                                         "accepted (fraction of injection bandwidth)"},
                                        thr, max_load))) {
    err = "cannot write the charts into " + dir;
    return false;
  }
  return true;
}

// OpenSM's default multicast tree over r's LFTs (osm_mcast_mgr.c): the root
// is the switch with the fewest hops to its farthest member (a member CA one
// hop beyond its switch), the first in GUID order on ties; the masks are the
// union of the LFT paths from the root to every member. O(M * (S + C)) for
// M member switches, plus the paths.
mcast::Tree opensm_tree(const Fabric &f, const Routing &r, const mcast::Group &g) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> far(S, 0), dist(S);
  std::vector<char> member_sw(S, 0), ca_on(S, 0);
  for (const int32_t t : g.terminals) member_sw[f.terminal(t).sw] = ca_on[f.terminal(t).sw] = 1;
  for (const int32_t s : g.switches) member_sw[s] = 1;
  for (int32_t m = 0; m < S; ++m) {
    if (!member_sw[m]) continue;
    std::fill(dist.begin(), dist.end(), -1);
    std::queue<int32_t> q;
    dist[m] = 0;
    for (q.push(m); !q.empty(); q.pop())
      for (int32_t c = f.out_begin(q.front()); c < f.out_end(q.front()); ++c)
        if (dist[f.channel(c).dst] < 0) {
          dist[f.channel(c).dst] = dist[q.front()] + 1;
          q.push(f.channel(c).dst);
        }
    for (int32_t s = 0; s < S; ++s)
      far[s] = dist[s] < 0 ? INT32_MAX : std::max(far[s], dist[s] + ca_on[m]);
  }
  int32_t root = 0;
  for (int32_t s = 1; s < S; ++s)
    if (far[s] < far[root] || (far[s] == far[root] && f.sw(s).guid < f.sw(root).guid)) root = s;
  std::vector<mcast::PortMask> m(S);
  const auto walk = [&](uint16_t lid, int32_t to) {
    for (int32_t s = root, steps = 0; s != to && steps < S; ++steps) {
      const uint8_t p = r.out_port(s, lid);
      if (p == kNoPort || p == 0 || p > f.sw(s).num_ports) return;
      const PortPeer peer = f.peer(s, p);
      if (peer.kind != PortPeer::kSwitch) return;
      const Channel &ch = f.channel(peer.id);
      m[s].set(p);
      m[ch.dst].set(ch.dst_port);
      s = ch.dst;
    }
  };
  for (const int32_t t : g.terminals) {
    walk(f.terminal(t).lid, f.terminal(t).sw);
    m[f.terminal(t).sw].set(f.terminal(t).sw_port);
  }
  for (const int32_t s : g.switches) {
    walk(f.sw(s).lid, s);
    m[s].set(0);
  }
  mcast::Tree t;
  t.mlid = g.mlid;
  t.root = root;
  for (int32_t s = 0; s < S; ++s)
    if (m[s].any()) t.masks.push_back(mcast::SwitchMask{s, m[s]});
  return t;
}

// c with in's groups (for the text: whether multicast ran).
sim::Config mc_config(const sim::Config &c, const Input &in) {
  sim::Config r = c;
  r.groups = &in.groups;
  r.trees = &in.trees;
  return r;
}

// Where the groups and masks of a run come from (see the usage).
struct McastArgs {
  std::string groups, mcfdbs;  // files for every input
  std::string trees = "keiro";
};

bool read_mcast_file(const std::string &path, const Fabric &f, bool groups, Input &in,
                     std::string &err) {
  std::ifstream is(path);
  if (!is) {
    err = "cannot read " + path;
    return false;
  }
  io::McastReadReport rep;
  const bool ok = groups ? io::read_sa_groups(is, path, f, in.groups, rep, err)
                         : io::read_mcfdbs(is, path, f, in.trees, rep, err);
  if (ok && (rep.unknown_ports || rep.unknown_switches))
    in.lr.notes.push_back(strprintf("%s: %d switches and %d ports the fabric lacks, skipped",
                                    path.c_str(), rep.unknown_switches, rep.unknown_ports));
  return ok;
}

// The groups of in: from the files, else one of every CA; masks from the
// files, else built (keiro's trees or OpenSM's default).
bool load_mcast(Input &in, bool dir, const McastArgs &a, std::string &err) {
  const Fabric &f = in.lr.fabric;
  const auto exists = [](const std::string &p) { return access(p.c_str(), R_OK) == 0; };
  std::string gfile = a.groups, tfile = a.mcfdbs;
  if (dir && gfile.empty() && exists(in.what + "/" + io::kSaDumpFileName))
    gfile = in.what + "/" + io::kSaDumpFileName;
  if (dir && tfile.empty() && exists(in.what + "/" + io::kMcfdbsFileName))
    tfile = in.what + "/" + io::kMcfdbsFileName;
  if (!gfile.empty() && !read_mcast_file(gfile, f, true, in, err)) return false;
  if (!tfile.empty() && !read_mcast_file(tfile, f, false, in, err)) return false;
  std::string gsrc = gfile.empty() ? "" : "groups from " + gfile;
  if (gfile.empty() && !in.trees.empty()) {
    for (const mcast::Tree &t : in.trees) {  // the members the masks show
      mcast::Group g;
      g.mlid = t.mlid;
      for (const mcast::SwitchMask &m : t.masks) {
        if (m.ports[0]) g.switches.push_back(m.sw);
        for (const int32_t x : f.terminals_of(m.sw))
          if (m.ports[f.terminal(x).sw_port]) g.terminals.push_back(x);
      }
      std::sort(g.terminals.begin(), g.terminals.end());
      in.groups.push_back(std::move(g));
    }
    gsrc = "members from the masks";
  } else if (in.groups.empty()) {
    mcast::Group g;
    g.mlid = mcast::kFirstMlid;
    for (int32_t t = 0; t < f.num_terminals(); ++t) g.terminals.push_back(t);
    in.groups.push_back(std::move(g));
    gsrc = "one group of every CA (MLID 0xC000, SL 0)";
  }
  int built = 0;
  std::unique_ptr<mcast::Router> router;
  for (const mcast::Group &g : in.groups) {
    if (std::any_of(in.trees.begin(), in.trees.end(),
                    [&](const mcast::Tree &t) { return t.mlid == g.mlid; }))
      continue;
    ++built;
    if (a.trees == "opensm") {
      in.trees.push_back(opensm_tree(f, in.lr.routing, g));
      continue;
    }
    if (!router && !(router = mcast::Router::create(f, in.lr.routing, {}, err))) {
      err = "keiro's multicast trees need tables without a credit loop: " + err +
            " (give --mcfdbs FILE or --mcast-trees opensm)";
      return false;
    }
    mcast::Tree t;
    if (!router->build(g, t, err)) return false;
    in.trees.push_back(std::move(t));
  }
  in.mc_source = strprintf("%zu group%s, %s; masks ", in.groups.size(),
                           in.groups.size() == 1 ? "" : "s", gsrc.c_str());
  if (!tfile.empty()) in.mc_source += "from " + tfile + (built ? ", and " : "");
  if (built)
    in.mc_source += strprintf(
        "%s for %d group%s",
        a.trees == "opensm" ? "OpenSM's default (union of unicast paths)" : "keiro's trees", built,
        built == 1 ? "" : "s");
  return true;
}

int run_simulate(const std::vector<std::string> &args) {
  std::string engines;
  for (const EngineDesc &e : all_engines()) engines += std::string(" ") + e.name;
  const std::string usage = strprintf(kUsage, engines.c_str());
  std::vector<std::string> inputs;
  std::string engine, opt_text, traffic = "uniform", pairs = "all", plot_dir;
  std::string a2a_sync = "pairwise", source_queue = "vl";
  McastArgs mca;
  io::LoadOptions lopt;
  int vls = 8;
  bool json = false, sweep = false;
  double lo = 0.1, hi = 1.0, step = 0.1;
  sim::Config c;
  double time_us = -1, latency_ns = 100, deadlock_us = -1;
  long buffer = 4096, seed = 1;
  for (ArgWalker w("simulate", args); w.next();) {
    const std::string &a = w.arg();
    if (w.help()) return print_usage(usage);
    if (a == "--sweep") {
      sweep = true;
      const std::string *nx = w.peek();
      if (nx && !nx->empty() && ((*nx)[0] == '.' || std::isdigit((*nx)[0])) &&
          nx->find(':') != std::string::npos) {
        std::string spec;
        w.value(spec);
        if (!parse_range(spec, lo, hi, step) || lo < 0 || hi > 1 || step <= 0 || lo > hi)
          return w.error("--sweep needs LO:HI:STEP with 0 <= LO <= HI <= 1 and STEP > 0, not '" +
                         spec + "'");
      }
    } else if (take_dump_option(w, lopt, pairs) || w.take("--engine", engine) ||
               take_opt(w, opt_text) || w.take("--vls", 1, 15, vls) ||
               w.take("--assume-sl", 0, kNumSls - 1, c.assume_sl) ||
               w.take_choice("--traffic",
                             {"uniform", "transpose", "bitrev", "shuffle", "reverse", "hotspot",
                              "alltoall", "broadcast"},
                             traffic) ||
               w.take_num("--mcast-rate", 0, 1, c.mcast_rate) ||
               w.take("--mcast-groups", mca.groups) || w.take("--mcfdbs", mca.mcfdbs) ||
               w.take_choice("--mcast-trees", {"keiro", "opensm"}, mca.trees) ||
               w.take_num("--load", 0, 1, c.load) || w.take("--size", 1, 1 << 30, c.size) ||
               w.take("--hotspot", 0, INT32_MAX, c.hotspot) ||
               w.take_num("--hotspot-fraction", 0, 1, c.hotspot_fraction) ||
               w.take("--seed", 0, LONG_MAX, seed) || w.take("--warmup", 0, 1L << 40, c.warmup) ||
               w.take("--cycles", 1, 1L << 40, c.measure) ||
               w.take_num("--time", 1e-3, 1e9, time_us) ||
               w.take_num("--link-gbytes", 0.01, 1e4, c.link_gbytes) ||
               w.take_num("--switch-latency", 0, 1e7, latency_ns) ||
               w.take("--buffer", 64, 1L << 24, buffer) || w.take("--mtu", 64, 1 << 16, c.mtu) ||
               w.take_num("--deadlock-time", 1e-3, 1e9, deadlock_us) || w.flag("--json", json) ||
               w.take("--plot", plot_dir) ||
               w.take_choice("--alltoall-sync", {"pairwise", "free"}, a2a_sync) ||
               w.take("--alltoall-window", 1, 1 << 20, c.alltoall_window) ||
               w.take_choice("--source-queue", {"vl", "fifo"}, source_queue)) {
      if (w.failed()) return 2;
    } else if (w.is_option()) {
      return w.unknown(usage);
    } else {
      inputs.push_back(a);
    }
  }
  if (!engine.empty()) {
    if (lopt.topology.empty())
      return usage_error("simulate", "--engine needs --topology FILE", usage);
    if (!inputs.empty())
      return usage_error("simulate",
                         "--engine NAME or inputs (DIR, engine:NAME), not both; use engine:" +
                             engine + " next to the directories",
                         usage);
    inputs.push_back("engine:" + engine);
  }
  if (inputs.empty())
    return usage_error("simulate",
                       "give a dump directory, engine:NAME with --topology FILE, or "
                       "--topology FILE --engine NAME",
                       usage);
  sim::parse_traffic(traffic, c.traffic);
  // Groups are read and simulated only for multicast traffic.
  const bool multicast = c.traffic == sim::Traffic::kBroadcast || c.mcast_rate > 0;
  if (c.mcast_rate > 0 && c.traffic == sim::Traffic::kAlltoall)
    return usage_error("simulate", "--mcast-rate needs rate traffic, not alltoall");
  if (sweep && c.traffic == sim::Traffic::kAlltoall)
    return usage_error("simulate", "--sweep needs rate traffic (alltoall runs to its end)");
  if (!plot_dir.empty() && !sweep)
    return usage_error("simulate", "--plot needs --sweep (curves against the offered load)");
  c.seed = static_cast<uint64_t>(seed);
  c.alltoall_sync = a2a_sync == "free" ? sim::AlltoallSync::kFree : sim::AlltoallSync::kPairwise;
  c.vl_source_queues = source_queue == "vl";
  const double ns = c.cycle_ns();
  c.switch_latency = static_cast<int32_t>(std::ceil(latency_ns / ns - 1e-9));
  c.buffer_credits = static_cast<int32_t>(buffer / 64);
  if (time_us > 0) c.measure = std::max<int64_t>(1, std::llround(time_us * 1000 / ns));
  if (c.mtu > buffer)
    return usage_error("simulate", "--mtu is larger than --buffer: no packet fits");
  // A fabric without a deadlock can go a hop's time without any move: a
  // shorter --deadlock-time would call it stalled.
  const int64_t hop = sim::min_stall_cycles(c);
  if (deadlock_us > 0) {
    c.stall_cycles = std::llround(deadlock_us * 1000 / ns);
    if (c.stall_cycles < hop)
      return usage_error(
          "simulate",
          strprintf("--deadlock-time %g us (%lld cycles) is shorter than one hop, which a "
                    "moving fabric may need without any grant: 1 + switch latency %d + "
                    "packet %lld = %lld cycles (%.3f us); give at least that",
                    deadlock_us, static_cast<long long>(c.stall_cycles), c.switch_latency,
                    static_cast<long long>(hop - 1 - c.switch_latency), static_cast<long long>(hop),
                    hop * ns / 1000));
  }
  const std::vector<double> loads = sim::sweep_loads(lo, hi, step);

  Options options = all_options();
  InputReader read("simulate");
  if (!read.options(opt_text, options)) return 2;
  std::vector<std::unique_ptr<Input>> runs;
  for (const std::string &name : inputs) {
    auto in = std::make_unique<Input>();
    in->what = in->label = name;
    io::LoadedRouting &lr = in->lr;
    if (name.rfind("engine:", 0) == 0) {
      const EngineDesc *e = find_engine(name.substr(7));
      if (!e)
        return usage_error("simulate",
                           "unknown engine '" + name.substr(7) + "' (engines:" + engines + ")");
      if (lopt.topology.empty())
        return usage_error("simulate", name + " needs --topology FILE", usage);
      io::TopologyReadOptions ropt;
      ropt.vls = static_cast<uint8_t>(vls);
      if (lopt.lmc >= 0) ropt.lmc = static_cast<uint8_t>(lopt.lmc);
      if (!read.fabric(lopt.topology, ropt, lr.fabric)) return 2;
      ToolLogger log(false);
      const int budget = pipeline::vl_budget(lr.fabric, options, true, e->osm_name, log);
      EngineInput ein{lr.fabric, options, log, budget, pipeline::read_settings(options).max_sls,
                      true};
      EngineReport rep;
      if (!pipeline::route(*e, ein, lr.routing, rep)) return 1;
      in->engine = in->label = e->osm_name;
      in->what = lopt.topology;
    } else {
      if (!read.dumps(name, lopt, lr)) return 2;
      in->engine = lr.engine;
    }
    std::string merr;
    if (multicast && !load_mcast(*in, name.rfind("engine:", 0) != 0, mca, merr))
      return input_error("simulate", name + ": " + merr);
    if (c.hotspot >= lr.fabric.num_terminals() && c.traffic == sim::Traffic::kHotspot)
      return usage_error("simulate", strprintf("--hotspot %d: %s has %d terminals", c.hotspot,
                                               name.c_str(), lr.fabric.num_terminals()));
    runs.push_back(std::move(in));
  }
  // Labels: engine:NAME inputs by the engine; directories without the
  // directory prefix they share (one directory: its last component);
  // repeated labels get #2, #3.
  if (runs.size() > 1) {
    std::vector<Input *> dirs;
    for (auto &in : runs)
      if (in->what == in->label) dirs.push_back(in.get());
    for (Input *in : dirs)
      while (in->label.size() > 1 && in->label.back() == '/') in->label.pop_back();
    size_t cut = std::string::npos;
    if (dirs.size() == 1) {
      cut = dirs[0]->label.rfind('/');
    } else if (dirs.size() > 1) {
      size_t common = std::string::npos;
      for (const Input *in : dirs) {
        const std::string &a = dirs[0]->label;
        size_t n = 0;
        while (n < a.size() && n < in->label.size() && a[n] == in->label[n]) ++n;
        common = std::min(common, n);
      }
      cut = common > 0 ? dirs[0]->label.rfind('/', common - 1) : std::string::npos;
    }
    if (cut != std::string::npos)
      for (Input *in : dirs)
        if (in->label.size() > cut + 1) in->label = in->label.substr(cut + 1);
    for (size_t i = 1; i < runs.size(); ++i) {
      int n = 1;
      for (size_t k = 0; k < i; ++k)
        if (runs[k]->label == runs[i]->label || runs[k]->label.rfind(runs[i]->label + "#", 0) == 0)
          ++n;
      if (n > 1) runs[i]->label += strprintf("#%d", n);
    }
  }

  // On a terminal, runs longer than a second show where they are on one
  // line, overwritten in place and cleared at the end (as keiro check does).
  ProgressLine progress("simulate");
  std::string where;
  if (progress.enabled())
    c.progress = [&](int64_t done, int64_t total) {
      progress.show(
          strprintf("%s%lld/%lld %s", where.c_str(), static_cast<long long>(done),
                    static_cast<long long>(total),
                    c.traffic == sim::Traffic::kAlltoall ? "packets delivered" : "cycles"));
    };
  std::vector<Input *> ins;
  bool bad = false, stalled = false;
  for (size_t i = 0; i < runs.size(); ++i) {
    Input &in = *runs[i];
    ins.push_back(&in);
    sim::Config rc = c;
    if (in.lr.use_source_sls) rc.source_sls = &in.lr.source_sls;
    if (multicast) {
      rc.groups = &in.groups;
      rc.trees = &in.trees;
    }
    const std::string head = runs.size() > 1 ? in.label + ": " : std::string();
    if (sweep) {
      in.sweep = sim::sweep(in.lr.fabric, in.lr.routing, rc, loads, [&](size_t k, size_t n) {
        where = head + strprintf("load %g (%zu/%zu), ", loads[k], k + 1, n);
      });
      for (const sim::SweepPoint &p : in.sweep.points) {
        bad = bad || p.result.deadlock || p.result.packets_dropped || p.result.storm ||
              p.result.mcast_dropped;
        stalled = stalled || p.result.stall;
      }
    } else {
      where = head;
      in.result = sim::simulate(in.lr.fabric, in.lr.routing, rc);
      bad = bad || in.result.deadlock || in.result.packets_dropped || in.result.storm ||
            in.result.mcast_dropped;
      stalled = stalled || in.result.stall;
    }
  }
  progress.clear();

  if (json) {
    auto one = [&](const Input &in) {
      return sweep ? sweep_json(in.what, in.engine, c, in.sweep)
                   : result_json(in.what, in.engine, c, in.result);
    };
    if (runs.size() == 1) {
      std::printf("%s\n", one(*runs[0]).c_str());
    } else {
      std::string o = "{";
      for (size_t i = 0; i < runs.size(); ++i)
        o += (i ? ",\n " : "") + metrics::json_quote(runs[i]->label) + ": " + one(*runs[i]);
      std::printf("%s}\n", o.c_str());
    }
  } else if (!sweep && runs.size() == 1) {
    std::fputs(
        result_text(runs[0]->what, runs[0]->engine, runs[0]->lr.fabric,
                    multicast ? mc_config(c, *runs[0]) : c, runs[0]->result, runs[0]->mc_source)
            .c_str(),
        stdout);
  } else {
    const Fabric &f = runs[0]->lr.fabric;
    std::string o = "keiro simulate: ";
    for (size_t i = 0; i < runs.size(); ++i) o += (i ? ", " : "") + runs[i]->label;
    o += "\n";
    o += strprintf("  fabric: %d switches, %d CA/router ports, %d links\n", f.num_switches(),
                   f.num_terminals(), f.num_channels() / 2);
    if (runs.size() == 1 && !runs[0]->engine.empty()) o += "  engine: " + runs[0]->engine + "\n";
    if (sweep)
      o += strprintf("  traffic: %s, offered loads %g..%g step %g, %d-byte messages, seed %llu\n",
                     sim::traffic_name(c.traffic), lo, hi, step, c.size,
                     static_cast<unsigned long long>(c.seed));
    else if (c.traffic == sim::Traffic::kAlltoall)
      o += strprintf("  traffic: alltoall (shift), %d-byte messages\n", c.size);
    else
      o += strprintf("  traffic: %s, offered load %s, %d-byte messages, seed %llu\n",
                     sim::traffic_name(c.traffic), load_text(c.load).c_str(), c.size,
                     static_cast<unsigned long long>(c.seed));
    if (c.traffic != sim::Traffic::kAlltoall)
      o += strprintf("  run: warm-up %lld + measured %lld cycles (%.1f us)%s\n",
                     static_cast<long long>(c.warmup), static_cast<long long>(c.measure),
                     c.measure * ns / 1000, sweep ? " per load" : "");
    o += "\n";
    o += sweep ? sweep_text(ins, c) : side_by_side(ins, multicast ? mc_config(c, *runs[0]) : c);
    std::fputs(o.c_str(), stdout);
  }
  std::string err;
  if (!plot_dir.empty() && !plot(plot_dir, ins, c, hi, err)) return input_error("simulate", err);
  return bad ? 1 : stalled ? 3 : 0;
}

const Command kSimulate{"simulate", "simulate packet traffic through routing tables", run_simulate};

}  // namespace
}  // namespace keiro::tool
