// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro check: verifies the tables of any routing, from OpenSM's dumps or
// from a live fabric through infiniband-diags (ibnetdiscover, ibroute,
// smpquery sl2vl, saquery), with the same check as the engines' self-check
// (core/check/verify.h).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/metrics/report.h"
#include "core/timing.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/live_fabric.h"
#include "tool/mcast_io.h"
#include "tool/progress.h"
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
    "saquery-paths.txt (saquery -p output), or keiro-tables.bin (keiro route\n"
    "--out-format compact) in place of the LFT, SL2VL and path-SL files. A pair\n"
    "without a path SL whose path depends on the SL (SL2VL maps SLs to different\n"
    "VLs on it) makes the input unusable (exit 2) unless --assume-sl N is given.\n"
    "options:\n"
    "  --topology FILE   fabric from FILE (net file, ibnetdiscover output) instead of\n"
    "                    DIR/opensm-subnet.lst\n"
    "  --lmc N           LMC of the CA ports (default: from the LFTs)\n"
    "  --sls FILE        path SLs from FILE (keiro path-SL file, keiro-tables.bin or\n"
    "                    saquery output)\n"
    "  --stale-sls FILE  like --sls, for the SLs of a routing before a re-route\n"
    "                    (jobs that asked the SA before): a hop the new tables map\n"
    "                    onto VL 15 drops such traffic on purpose and is counted\n"
    "                    as a stale drop, not an error; credit loops still fail\n"
    "  --assume-sl N     check pairs that have no path SL, and need one, with SL N\n"
    "                    (the report counts them)\n"
    "  --fixed-sl N      check as if every path used SL N (MPI through UCX_IB_SL or\n"
    "                    NCCL_IB_SL never asks the SA for an SL); path SLs are\n"
    "                    then not needed\n"
    "  --mixed-sl N      check every path on its own path SL and on SL N at once,\n"
    "                    in one dependency graph: SA-SL traffic (IPoIB, storage)\n"
    "                    and fixed-SL traffic (MPI) sharing the fabric\n"
    "  --vls N           data VLs every port operates (default 15): a hop on a VL\n"
    "                    >= N is an error naming the path\n"
    "  --pairs WHICH     traffic to check: all (every LID to every LID; default),\n"
    "                    ca-sources (sent by CA/router ports, to every LID) or ca\n"
    "                    (between CA/router ports only)\n"
    "  --max-problems N  problem lines to print (default 20)\n"
    "  --threads N       worker threads for the check (default 0: the machine's\n"
    "                    cores, at most 8); the result is the same for every N\n"
    "  --json            print the result as JSON\n"
    "live mode (the diagnostics must reach the fabric, e.g. ibsim through umad2sim):\n"
    "  --live            read fabric and tables with ibnetdiscover, ibroute and\n"
    "                    smpquery sl2vl, each switch port's OperVLs with smpquery\n"
    "                    portinfo (a hop on a VL the port does not operate is an\n"
    "                    error), and path SLs with saquery -p\n"
    "  --sl-pairs MODE   which PathRecords to ask for: all (every source LID), ports\n"
    "                    (base LID of every port; default) or none (no SLs)\n"
    "  --sa-tool CMD     bulk PathRecord helper instead of one saquery per pair: reads\n"
    "                    'slid dlid' lines, prints 'slid dlid sl' ('-' = no record);\n"
    "                    keiro's tests/harness/sa_path_sl --raw does this\n"
    "  --jobs N          diagnostic commands at once (default 4)\n"
    "  --umad2sim [LIB]  run the diagnostics with LD_PRELOAD=LIB (default\n"
    "                    /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so)\n"
    "  --save DIR        also write what was read as a dump directory DIR\n"
    "multicast (DIR/opensm.mcfdbs, written by OpenSM with log flag 0x40; group SLs and\n"
    "members from DIR/opensm-sa.dump, written with sa_db_dump TRUE): every group's\n"
    "tables are checked for forwarding loops, members reached once, non-members\n"
    "reached and drops, and the multicast dependencies join the unicast ones in one\n"
    "credit-loop check\n"
    "  --mcast-sl N      SL of the groups when DIR has no opensm-sa.dump, and with\n"
    "                    --live, whose multicast tables come from ibroute -M (default 0)\n"
    "  --no-mcast        leave multicast out\n"
    "exit status: 0 all checks hold, 1 a check failed, 2 unusable input\n";

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
                        const check::Result &c, double read_seconds, int assume_sl,
                        const check::Options &copt) {
  const Fabric &f = lr.fabric;
  std::string o = "keiro check: " + what + "\n";
  auto row = [&](const char *k, const std::string &v) {
    o += strprintf("  %-15s %s\n", k, v.c_str());
  };
  row("fabric", strprintf("%d switches, %d CA/router ports, %d links, %zu LIDs", f.num_switches(),
                          f.num_terminals(), f.num_channels() / 2, f.lids().size()));
  if (!lr.engine.empty()) row("engine", lr.engine);
  if (copt.fixed_sl < 0)
    row("path SLs", lr.sl_source);
  else if (!copt.fixed_sl_mixed)
    row("path SLs", strprintf("every path on SL %d (--fixed-sl)", copt.fixed_sl));
  else
    row("path SLs", strprintf("%s, and every path on SL %d as well (--mixed-sl)",
                              lr.sl_source.c_str(), copt.fixed_sl));
  row("pairs checked", std::to_string(c.pairs_checked));
  if (c.pairs_assumed_sl)
    row("assumed SL", strprintf("%lld pairs without a path SL checked with SL %d (--assume-sl)",
                                static_cast<long long>(c.pairs_assumed_sl), assume_sl));
  if (c.pairs_sl_free)
    row("SL-free pairs",
        strprintf("%lld pairs without a path SL checked as SL independent (one VL for "
                  "every SL on every hop)",
                  static_cast<long long>(c.pairs_sl_free)));
  row("unreachable",
      strprintf("%lld (black holes %lld, wrong port %lld)", static_cast<long long>(c.unreachable),
                static_cast<long long>(c.black_holes), static_cast<long long>(c.wrong_delivery)));
  row("loops", std::to_string(c.loops));
  row("VL errors", std::to_string(c.vl_errors));
  if (copt.stale_sls)
    row("stale drops", strprintf("%lld hops drop traffic on these stale SLs (VL 15)",
                                 static_cast<long long>(c.stale_drops)));
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
  LiveOptions lv;
  bool live = false, json = false;
  check::Options copt;
  std::string pairs = "all";
  int mixed_sl = -1;
  int mcast_sl = 0;
  bool no_mcast = false;
  std::string stale;
  for (ArgWalker w("check", args); w.next();) {
    const std::string &a = w.arg();
    if (w.help()) return print_usage(kUsage);
    if (take_dump_option(w, lopt, pairs) || w.take("--assume-sl", 0, kNumSls - 1, copt.assume_sl) ||
        w.take("--vls", 1, kMaxDataVls, copt.vls) ||
        w.take("--fixed-sl", 0, kNumSls - 1, copt.fixed_sl) ||
        w.take("--mixed-sl", 0, kNumSls - 1, mixed_sl) ||
        w.take("--max-problems", 1, 100000, copt.max_problems) ||
        w.take("--threads", 0, 256, copt.threads) || w.flag("--json", json) ||
        w.flag("--live", live) ||
        w.take_choice("--sl-pairs", {"all", "ports", "none"}, lv.sl_pairs) ||
        w.take("--jobs", 1, 64, lv.jobs) || w.take("--sa-tool", lv.sa_tool) ||
        w.take("--save", save) || w.take("--stale-sls", stale) ||
        w.take("--mcast-sl", 0, kNumSls - 1, mcast_sl) || w.flag("--no-mcast", no_mcast)) {
      if (w.failed()) return 2;
    } else if (a == "--umad2sim") {
      lv.preload = kUmad2simLib;
      if (const std::string *lib = w.peek(); lib && lib->find(".so") != std::string::npos)
        w.value(lv.preload);
    } else if (w.is_option()) {
      return w.unknown(kUsage);
    } else if (dir.empty()) {
      dir = a;
    } else {
      return w.error("one directory only ('" + dir + "', '" + a + "')");
    }
  }
  if (live == !dir.empty()) return usage_error("check", "give a dump directory or --live", kUsage);
  if (mixed_sl >= 0 && copt.fixed_sl >= 0)
    return usage_error("check", "give --fixed-sl or --mixed-sl, not both", kUsage);
  if (!stale.empty()) {
    if (!lopt.sls.empty())
      return usage_error("check", "give --sls or --stale-sls, not both", kUsage);
    lopt.sls = stale;
    copt.stale_sls = true;
  }
  if (mixed_sl >= 0) {
    copt.fixed_sl = mixed_sl;
    copt.fixed_sl_mixed = true;
  }
  check::parse_pairs(pairs, copt);
  io::LoadedRouting lr;
  std::string err;
  const auto t0 = Clock::now();
  int commands = 0;
  McastInput mc;
  if (live && !no_mcast) lv.mcast_trees = &mc.trees;
  if (live) {
    if (!read_live_fabric(lv, lopt, lr, commands, err)) return input_error("check", err);
  } else if (!InputReader("check").dumps(dir, lopt, lr)) {
    return 2;
  }
  const double read_s = seconds_since(t0);
  if (live)
    lr.notes.push_back(
        strprintf("read the fabric with %d diagnostic commands in %.1f s", commands, read_s));
  if (!save.empty() && !save_dir(save, lr, err)) return input_error("check", err);
  if (lr.use_source_sls) copt.source_sls = &lr.source_sls;
  if (!lr.port_vls.empty()) copt.port_vls = &lr.port_vls;
  // On a terminal, runs longer than a second show "destinations done /
  // total" on one line, overwritten in place and cleared at the end.
  if (!live && !no_mcast && !load_mcast_dir(dir, lr.fabric, mcast_sl, mc, err))
    return input_error("check", err);
  if (live && !mc.trees.empty()) {  // the switches' tables; members and SLs not asked
    mc.present = true;
    groups_from_masks(lr.fabric, mc.trees, mcast_sl, mc.groups);
    mc.notes.push_back(
        strprintf("multicast tables from ibroute -M; the members of each MLID "
                  "are the ports its masks show, on SL %d (--mcast-sl)",
                  mcast_sl));
    if (!save.empty() && !write_mcast_dir(save, lr.fabric, mc, err))
      return input_error("check", err);
  }
  mcast::Result mres;
  check::Result c;
  {
    ProgressLine progress("check");
    if (progress.enabled())
      copt.progress = [&](int64_t done, int64_t total) {
        progress.show(strprintf("%lld/%lld destinations", static_cast<long long>(done),
                                static_cast<long long>(total)),
                      done == total);
      };
    if (mc.present) {
      mcast::Options mo;
      mo.unicast = copt;
      mo.members_known = mc.members_known;
      mo.max_problems = copt.max_problems;
      mres = mcast::verify(lr.fabric, lr.routing, mc.groups, mc.trees, mo);
      c = mres.combined;
      lr.notes.insert(lr.notes.end(), mc.notes.begin(), mc.notes.end());
    } else {
      c = check::verify(lr.fabric, lr.routing, copt);
    }
  }
  if (c.pairs_without_sl)
    return input_error(
        "check", strprintf("%lld (source, destination) pairs need a path SL and have none: %s; "
                           "their paths depend on the SL (SL2VL maps SLs to different VLs on "
                           "them), so no verdict (give the SLs, or --assume-sl N to check them "
                           "with SL N)",
                           static_cast<long long>(c.pairs_without_sl), lr.sl_gap.c_str()));
  if (copt.vls < kMaxDataVls)
    lr.notes.push_back(
        strprintf("--vls %d: a hop on VL %d or above is an error", copt.vls, copt.vls));
  if (json && copt.fixed_sl >= 0)  // the text output says it in its "path SLs" row
    lr.notes.push_back(
        copt.fixed_sl_mixed
            ? strprintf("--mixed-sl %d: every path on its own SL and on SL %d", copt.fixed_sl,
                        copt.fixed_sl)
            : strprintf("--fixed-sl %d: every path on SL %d", copt.fixed_sl, copt.fixed_sl));
  if (json && c.pairs_assumed_sl)  // the text output has a row for it
    lr.notes.push_back(strprintf("--assume-sl %d: %lld pairs without a path SL checked with it",
                                 copt.assume_sl, static_cast<long long>(c.pairs_assumed_sl)));
  if (pairs != "all")
    lr.notes.push_back(pairs == "ca" ? "--pairs ca: only traffic between CA/router ports checked"
                                     : "--pairs ca-sources: traffic sent by switches not checked");
  const std::string what = live ? "live fabric" : dir;
  if (json) {
    std::string j = result_json(what, lr, c);
    if (mc.present) {  // one more key in the object
      const size_t end = j.find_last_of('}');
      j.insert(end,
               ", \"mcast\": " +
                   mcast::json_string(mcast::tree_stats(lr.fabric, mc.trees, mres.verdicts), mres));
    }
    std::printf("%s\n", j.c_str());
  } else {
    std::string t = result_text(what, lr, c, read_s, copt.assume_sl, copt);
    if (mc.present) {  // before the result row, which then covers multicast too
      const size_t at = t.find("  result ");
      if (at != std::string::npos && c.ok && !mres.ok) t.replace(t.find("OK", at), 2, "FAILED");
      t.insert(at == std::string::npos ? t.size() : at, mcast_text(lr.fabric, mc, mres));
    }
    std::fputs(t.c_str(), stdout);
  }
  return (mc.present ? mres.ok : c.ok) ? 0 : 1;
}

const Command kCheck{"check", "verify the routing of OpenSM dumps or of a live fabric", run_check};

}  // namespace
}  // namespace keiro::tool
