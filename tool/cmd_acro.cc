// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro acro: ACRO endorses an arbitrary routing (the paper's promise): reads
// the LFTs of any routing from an OpenSM dump directory (or routes a topology
// with keiro's balanced minimal routing), computes ACRO's layers, realizes
// them as path SLs + SL2VL within the VL/SL budget, self-checks the result
// and prints what it needs; --out writes the tables in OpenSM's formats.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/io/topology_file.h"
#include "core/layers/lash_layers.h"
#include "core/layers/realize.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"
#include "core/minimal/forwarding_index.h"
#include "core/vlmap/vlmap.h"
#include "tool/args.h"
#include "tool/command.h"
#include "tool/tool_io.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro acro (--dumps DIR | --topology FILE) [options]\n"
    "Applies ACRO (Kawano et al. 2017) to a destination-based routing and realizes its\n"
    "virtual layers on InfiniBand: one SL per (source switch, destination LID) and\n"
    "SL2VL entries per (switch, in port, out port, SL). Prints the layers, the SLs and\n"
    "VLs needed and the self-check of the result.\n"
    "options:\n"
    "  --dumps DIR         the routing to endorse: DIR/opensm-lfts.dump (any engine,\n"
    "                      e.g. OpenSM's minhop) and DIR/opensm-subnet.lst\n"
    "  --topology FILE     without --dumps: route FILE with keiro's balanced minimal\n"
    "                      routing; with --dumps: the fabric instead of opensm-subnet.lst\n"
    "  --max-vls N         VLs the realization may use (default: what the ports\n"
    "                      support, --vls)\n"
    "  --max-sls N         SLs it may use (default 16)\n"
    "  --method M          tree | firstfit | bestfit | repair (default tree)\n"
    "  --seed N            tie-breaking seed (default 0: deterministic)\n"
    "  --vls N             data VLs of every port when the file does not say (default 8)\n"
    "  --lash              also count the layers of a LASH-style assignment (each path\n"
    "                      whole in one layer, first fit) on the same routes\n"
    "  --tables            print the path SLs and SL2VL tables (keiro-path-sl.dump and\n"
    "                      opensm-sl2vl.dump formats) on stdout\n"
    "  --out DIR           write opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump\n"
    "                      and keiro-path-sl.dump there\n"
    "exit status: 0 realized and checked, 1 ACRO or the realization or the check\n"
    "failed, 2 unusable input\n";

int run_acro(const std::vector<std::string> &args) {
  std::string dumps, topology, out_dir, method = "tree";
  long max_vls = 0, max_sls = kNumSls, seed = 0, vls = 8;
  bool lash = false, tables = false;
  for (ArgWalker w("acro", args); w.next();) {
    if (w.help()) return print_usage(kUsage);
    if (w.take("--dumps", dumps) || w.take("--topology", topology) || w.take("--out", out_dir) ||
        w.take_choice("--method", {"tree", "firstfit", "bestfit", "repair"}, method) ||
        w.take("--max-vls", 1, kMaxDataVls, max_vls) || w.take("--max-sls", 1, kNumSls, max_sls) ||
        w.take("--seed", 0, 2147483647, seed) || w.take("--vls", 1, kMaxDataVls, vls) ||
        w.flag("--lash", lash) || w.flag("--tables", tables)) {
      if (w.failed()) return 2;
    } else {
      return w.unknown(kUsage);
    }
  }
  if (dumps.empty() && topology.empty())
    return usage_error("acro", "--dumps DIR or --topology FILE is required", kUsage);

  // ---- the fabric and the destination trees ----
  std::string err;
  io::LoadedRouting loaded;
  Fabric own_fabric;
  minimal::DestTrees trees;
  const Fabric *fp = nullptr;
  std::string source;
  if (!dumps.empty()) {
    io::LoadOptions lo;
    lo.topology = topology;
    lo.vls = static_cast<uint8_t>(vls);
    if (!InputReader("acro").dumps(dumps, lo, loaded)) return 2;
    fp = &loaded.fabric;
    if (!minimal::trees_from_lfts(*fp, loaded.routing, trees, err)) {
      std::fprintf(stderr, "keiro acro: the LFTs of %s are not a usable routing: %s\n",
                   dumps.c_str(), err.c_str());
      return 1;
    }
    source = "the LFTs of " + dumps;
  } else {
    io::TopologyReadOptions ro;
    ro.vls = static_cast<uint8_t>(vls);
    if (!InputReader("acro").fabric(topology, ro, own_fabric)) return 2;
    fp = &own_fabric;
    minimal::BalancedOptions bo;
    bo.seed = static_cast<uint64_t>(seed);
    if (!minimal::balanced_routing(*fp, bo, trees, err)) {
      std::fprintf(stderr, "keiro acro: %s\n", err.c_str());
      return 1;
    }
    source = "keiro's balanced minimal routing of " + topology;
  }
  const Fabric &f = *fp;
  std::printf("keiro acro: %s\n", source.c_str());
  std::printf("  fabric: %d switches, %d terminals, %d links, %zu LIDs; %d destination trees\n",
              f.num_switches(), f.num_terminals(), f.num_channels() / 2, f.lids().size(),
              trees.num_dests());
  for (const std::string &n : loaded.notes)  // the dumps' own path SLs are not used here
    if (n.find("path SL") == std::string::npos) std::printf("  note: %s\n", n.c_str());

  // ---- ACRO and its realization (core/layers/realize.h) ----
  const int budget = static_cast<int>(
      std::min<long>(max_vls ? max_vls : kMaxDataVls, std::max<int>(1, f.min_switch_vls())));
  acro::LayerOptions lo;
  lo.seed = static_cast<uint64_t>(seed);
  lo.method = method == "firstfit"  ? vlmap::VlMapOptions::kFirstFit
              : method == "bestfit" ? vlmap::VlMapOptions::kBestFit
              : method == "repair"  ? vlmap::VlMapOptions::kRepair
                                    : vlmap::VlMapOptions::kTree;
  NullLogger quiet;  // the failures are printed below, in this command's words
  acro::LayerBudget b;
  b.max_vls = budget;
  b.max_sls = static_cast<int>(max_sls);
  acro::RealizeWording wording;
  wording.engine = "keiro acro";
  Routing r;
  r.reset(f, Routing::SlScope::kPerSourceSwitch);
  minimal::write_lfts(f, trees, r);
  acro::LayerRealization res;
  const bool ok = acro::realize_layers(f, b, quiet, trees, lo, wording, r, res);
  if (res.outcome == acro::LayerRealization::kAcroFailed) {
    std::fprintf(stderr, "keiro acro: %s\n", res.error.c_str());
    return 1;
  }
  std::printf("  ACRO: %d layers (max CDG height %d) in %.3f s; hops per layer:", res.layers,
              res.max_height, res.acro_seconds);
  for (int64_t n : res.hops_per_layer) std::printf(" %lld", (long long)n);
  std::printf("\n");
  if (lash) {
    const acro::LashLayers l = acro::lash_first_fit(f, trees);
    std::printf("  LASH-style first fit on the same routes: %d layers in %.3f s\n", l.num_layers,
                l.seconds);
  }
  if (res.outcome == acro::LayerRealization::kTooFewVls) {
    std::printf("  realization: impossible, ACRO needs %d VLs and %d are allowed\n", res.layers,
                budget);
    return 1;
  }
  const vlmap::VlMapStats &st = res.vlmap;
  std::printf(
      "  realization (%s, at most %d VLs and %ld SLs): %lld paths, %lld misfits on the first "
      "try, %lld evictions, %lld moves, %.3f s\n",
      method.c_str(), budget, max_sls, (long long)st.paths, (long long)st.first_pass_misfits,
      (long long)st.evictions, (long long)st.moves, st.seconds);
  if (!ok) {
    std::printf("  FAILED: %s\n", res.error.c_str());
    return 1;
  }
  r.engine = "keiro-acro";
  const check::Result cr = check::verify(f, r);
  std::printf("  needs: %d VLs, %d SLs (SL per source switch and destination LID)\n", st.vls_used,
              st.sls_used);
  std::printf("  self-check: %s\n", cr.ok ? "every pair reachable, no credit loop"
                                          : ("FAILED: " + cr.first_problem).c_str());
  std::printf("  max edge forwarding index of the routes: %lld\n",
              (long long)minimal::forwarding_index(f, trees).max);

  if (!out_dir.empty()) {
    if (!write_dumps(out_dir, f, r, err) ||
        !io::write_path_sl_file(out_dir + "/" + io::kPathSlFileName, f, r, err))
      return input_error("acro", "cannot write to " + out_dir + ": " + err);
    std::printf("  wrote opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump, %s to %s\n",
                io::kPathSlFileName, out_dir.c_str());
  }
  if (tables) {
    std::fflush(stdout);
    std::cout << "# path SLs\n";
    io::write_path_sl_file(std::cout, f, r);
    std::cout << "# SL2VL\n";
    io::write_sl2vl_dump(std::cout, f, r);
    std::cout.flush();
  }
  return cr.ok ? 0 : 1;
}

const Command kAcro{"acro", "apply ACRO to any routing's LFTs; print layers, SLs, SL2VL", run_acro};

}  // namespace
}  // namespace keiro::tool
