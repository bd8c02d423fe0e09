// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro simulate: packet-level traffic through the tables of a dump directory
// (any engine's, as keiro check reads them) or of a topology routed first with
// --engine; prints accepted throughput, latency and whether it deadlocked
// (core/sim/network.h has the model).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/io/dump_dir.h"
#include "core/log.h"
#include "core/metrics/report.h"
#include "core/options.h"
#include "core/sim/network.h"
#include "core/timing.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/tool_io.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro simulate DIR [options]\n"
    "       keiro simulate --topology FILE --engine NAME [options]\n"
    "Simulates packet traffic through routing tables: LFTs, path SLs and SL2VL as\n"
    "installed, per-(port, VL) buffers with credit flow control (64-byte credits),\n"
    "virtual cut-through, round-robin arbitration. Prints the accepted throughput\n"
    "(fraction of injection bandwidth), average and 99th-percentile latency and\n"
    "whether the fabric deadlocked, with the cycle of full (channel, VL) buffers.\n"
    "DIR holds OpenSM's dumps as for keiro check; pairs without a path SL use\n"
    "--assume-sl (default 0).\n"
    "input:\n"
    "  --topology FILE     with DIR: fabric file instead of DIR/opensm-subnet.lst;\n"
    "                      without DIR: the fabric to route with --engine\n"
    "  --engine NAME       route FILE with this engine first; one of:%s\n"
    "  --opt key=value     engine option (repeatable), as for keiro route\n"
    "  --vls N             data VLs of every port when routing (default 8)\n"
    "  --sls FILE, --lmc N as for keiro check\n"
    "  --assume-sl N       SL of pairs without a path SL (default 0)\n"
    "traffic:\n"
    "  --traffic T         uniform (default), transpose, bitrev, shuffle, reverse,\n"
    "                      hotspot or alltoall (shift all-to-all, runs to the end)\n"
    "  --load L            offered load, fraction of injection bandwidth (default 1)\n"
    "  --size BYTES        message size (default 2048), cut into MTU packets\n"
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
    "  --deadlock-time US  waiting this long (no progress) is a deadlock\n"
    "                      (default 5000 cycles = 25.6 us)\n"
    "output:\n"
    "  --json              print the result as JSON\n"
    "exit status: 0 simulated without deadlock or dropped packets, 1 deadlock or\n"
    "packets dropped by the tables, 2 unusable input\n";

std::string result_text(const std::string &what, const std::string &engine, const Fabric &f,
                        const sim::Config &c, const sim::Result &r) {
  const double ns = c.cycle_ns();
  std::string o = "keiro simulate: " + what + "\n";
  auto row = [&](const char *k, const std::string &v) {
    o += strprintf("  %-13s %s\n", k, v.c_str());
  };
  row("fabric", strprintf("%d switches, %d CA/router ports, %d links", f.num_switches(),
                          f.num_terminals(), f.num_channels() / 2));
  if (!engine.empty()) row("engine", engine);
  if (c.traffic == sim::Traffic::kAlltoall)
    row("traffic", strprintf("alltoall (shift), %d-byte messages", c.size));
  else
    row("traffic", strprintf("%s, offered load %.2f, %d-byte messages, seed %llu",
                             sim::traffic_name(c.traffic), c.load, c.size,
                             static_cast<unsigned long long>(c.seed)));
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
  row("latency", strprintf("avg %.1f ns, p99 %.1f ns, max %.1f ns (%lld packets)",
                           r.latency_avg * ns, r.latency_p99 * ns, r.latency_max * ns,
                           static_cast<long long>(r.packets_measured)));
  if (r.packets_refused)
    row("refused",
        strprintf("%lld messages (source queue full)", static_cast<long long>(r.packets_refused)));
  if (r.packets_dropped)
    row("dropped", strprintf("%lld packets, first: %s", static_cast<long long>(r.packets_dropped),
                             r.first_drop.c_str()));
  if (!r.deadlock) {
    row("deadlock", "no");
  } else {
    row("deadlock", strprintf("YES at cycle %lld (%.1f us), %lld packets stuck",
                              static_cast<long long>(r.deadlock_at), r.deadlock_at * ns / 1000,
                              static_cast<long long>(r.packets_stuck)));
    if (!r.deadlock_cycle.empty()) {
      std::string line =
          strprintf("cycle over %zu full (channel, VL) buffers: ", r.deadlock_cycle.size());
      for (const std::string &h : r.deadlock_cycle) line += h + " -> ";
      line += r.deadlock_cycle.front();
      o += "  " + line + "\n";
    }
  }
  return o;
}

std::string result_json(const std::string &what, const std::string &engine, const sim::Config &c,
                        const sim::Result &r) {
  const double ns = c.cycle_ns();
  std::string cyc = "[";
  for (size_t i = 0; i < r.deadlock_cycle.size(); ++i)
    cyc += (i ? ", " : "") + metrics::json_quote(r.deadlock_cycle[i]);
  cyc += "]";
  return strprintf(
      "{\"input\": %s, \"engine\": %s, \"traffic\": %s, \"load\": %g, \"size\": %d, "
      "\"seed\": %llu, \"throughput\": %.6f, \"offered\": %.6f, \"latency_avg\": %.3f, "
      "\"latency_p99\": %.3f, \"latency_max\": %.3f, \"latency_unit\": \"ns\", "
      "\"packets_delivered\": %lld, \"packets_dropped\": %lld, \"cycles\": %lld, "
      "\"cycle_ns\": %.4f, \"vls\": %d, \"completed\": %s, \"deadlock\": %s, "
      "\"deadlock_cycle\": %s}",
      metrics::json_quote(what).c_str(), metrics::json_quote(engine).c_str(),
      metrics::json_quote(sim::traffic_name(c.traffic)).c_str(), c.load, c.size,
      static_cast<unsigned long long>(c.seed), r.throughput, r.offered, r.latency_avg * ns,
      r.latency_p99 * ns, r.latency_max * ns, static_cast<long long>(r.packets_delivered),
      static_cast<long long>(r.packets_dropped), static_cast<long long>(r.cycles), ns, r.vls,
      r.completed ? "true" : "false", r.deadlock ? "true" : "false", cyc.c_str());
}

int run_simulate(const std::vector<std::string> &args) {
  std::string engines;
  for (const EngineDesc &e : all_engines()) engines += std::string(" ") + e.name;
  const std::string usage = strprintf(kUsage, engines.c_str());
  std::string dir, engine, opt_text, traffic = "uniform", pairs = "all";
  io::LoadOptions lopt;
  int vls = 8;
  bool json = false;
  sim::Config c;
  double time_us = -1, latency_ns = 100, deadlock_us = -1;
  long buffer = 4096, seed = 1;
  for (ArgWalker w("simulate", args); w.next();) {
    const std::string &a = w.arg();
    if (w.help()) return print_usage(usage);
    if (take_dump_option(w, lopt, pairs) || w.take("--engine", engine) || take_opt(w, opt_text) ||
        w.take("--vls", 1, 15, vls) || w.take("--assume-sl", 0, kNumSls - 1, c.assume_sl) ||
        w.take_choice(
            "--traffic",
            {"uniform", "transpose", "bitrev", "shuffle", "reverse", "hotspot", "alltoall"},
            traffic) ||
        w.take_num("--load", 0, 1, c.load) || w.take("--size", 1, 1 << 30, c.size) ||
        w.take("--hotspot", 0, INT32_MAX, c.hotspot) ||
        w.take_num("--hotspot-fraction", 0, 1, c.hotspot_fraction) ||
        w.take("--seed", 0, LONG_MAX, seed) || w.take("--warmup", 0, 1L << 40, c.warmup) ||
        w.take("--cycles", 1, 1L << 40, c.measure) || w.take_num("--time", 1e-3, 1e9, time_us) ||
        w.take_num("--link-gbytes", 0.01, 1e4, c.link_gbytes) ||
        w.take_num("--switch-latency", 0, 1e7, latency_ns) ||
        w.take("--buffer", 64, 1L << 24, buffer) || w.take("--mtu", 64, 1 << 16, c.mtu) ||
        w.take_num("--deadlock-time", 1e-3, 1e9, deadlock_us) || w.flag("--json", json)) {
      if (w.failed()) return 2;
    } else if (w.is_option()) {
      return w.unknown(usage);
    } else if (dir.empty()) {
      dir = a;
    } else {
      return w.error("one directory only ('" + dir + "', '" + a + "')");
    }
  }
  if (dir.empty() == engine.empty())
    return usage_error("simulate", "give a dump directory or --topology FILE --engine NAME", usage);
  if (!engine.empty() && lopt.topology.empty())
    return usage_error("simulate", "--engine needs --topology FILE", usage);
  sim::parse_traffic(traffic, c.traffic);
  c.seed = static_cast<uint64_t>(seed);
  const double ns = c.cycle_ns();
  c.switch_latency = static_cast<int32_t>(std::ceil(latency_ns / ns - 1e-9));
  c.buffer_credits = static_cast<int32_t>(buffer / 64);
  if (time_us > 0) c.measure = std::max<int64_t>(1, std::llround(time_us * 1000 / ns));
  if (deadlock_us > 0)
    c.deadlock_cycles = std::max<int64_t>(1, std::llround(deadlock_us * 1000 / ns));
  if (c.mtu > buffer)
    return usage_error("simulate", "--mtu is larger than --buffer: no packet fits");

  io::LoadedRouting lr;
  std::string engine_name;
  if (!dir.empty()) {
    if (!InputReader("simulate").dumps(dir, lopt, lr)) return 2;
    engine_name = lr.engine;
    if (lr.use_source_sls) c.source_sls = &lr.source_sls;
  } else {
    const EngineDesc *e = find_engine(engine);
    if (!e)
      return usage_error("simulate", "unknown engine '" + engine + "' (engines:" + engines + ")");
    Options options;
    InputReader read("simulate");
    io::TopologyReadOptions ropt;
    ropt.vls = static_cast<uint8_t>(vls);
    if (lopt.lmc >= 0) ropt.lmc = static_cast<uint8_t>(lopt.lmc);
    if (!read.options(opt_text, options) || !read.fabric(lopt.topology, ropt, lr.fabric)) return 2;
    ToolLogger log(false);
    const int budget = vl_budget(lr.fabric, options, true, e->osm_name, log);
    EngineInput in{lr.fabric, options, log, budget, static_cast<int>(options.get_int("max_sls")),
                   true};
    EngineReport rep;
    if (!run_engine(*e, in, lr.routing, rep)) return 1;
    engine_name = e->osm_name;
  }
  if (c.hotspot >= lr.fabric.num_terminals() && c.traffic == sim::Traffic::kHotspot)
    return usage_error("simulate", strprintf("--hotspot %d: the fabric has %d terminals", c.hotspot,
                                             lr.fabric.num_terminals()));
  const std::string what = dir.empty() ? lopt.topology : dir;
  const sim::Result r = sim::simulate(lr.fabric, lr.routing, c);
  if (json)
    std::printf("%s\n", result_json(what, engine_name, c, r).c_str());
  else
    std::fputs(result_text(what, engine_name, lr.fabric, c, r).c_str(), stdout);
  return r.deadlock || r.packets_dropped ? 1 : 0;
}

const Command kSimulate{"simulate", "simulate packet traffic through routing tables", run_simulate};

}  // namespace
}  // namespace keiro::tool
