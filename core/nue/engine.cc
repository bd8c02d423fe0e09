// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/engine.h"

#include <algorithm>

#include "core/minimal/forwarding_index.h"

namespace keiro::nue {

namespace {

constexpr const char *kName = "keiro-nue";
constexpr const char *kSummary =
    "Nue: deadlock-free routing inside the complete channel dependency graph, 1..15 VLs";
constexpr OptionSpec kOptions[] = {
    guid_or_name_option(
        "nue_root",
        "root switch of Nue's escape paths (GUID or node description); default: most central"),
    choice_option("nue_partition", "auto|metis|random|cluster", "auto",
                  "how Nue splits destinations into virtual layers (auto: the best balanced of "
                  "the three on fabrics up to 2,000,000 switches x LIDs, else metis)"),
    int_option("nue_seed", 0, 2147483647, "1",
               "seed for Nue's random choices (partitioning, METIS)"),
};

// The one place where the typed result becomes report facts.
void add_facts(const Fabric &f, const NueResult &r, EngineReport &rep) {
  for (int i = 0; i < r.layers; ++i)
    rep.add("root_layer" + std::to_string(i), f.describe(r.layer[i].root));
  rep.add("layers", static_cast<long>(r.layers));
  rep.add("partition", partition_name(r.partition));
  rep.add("partitions_tried", static_cast<long>(r.partitions_tried));
  if (r.pinned_ports > 0) rep.add("pinned_ports", static_cast<long>(r.pinned_ports));
  rep.add("escape_fallbacks", static_cast<long>(r.escape_fallbacks));
  rep.add("switch_lid_escapes", static_cast<long>(r.switch_lid_escapes));
  rep.add("rebalanced_switches", static_cast<long>(r.rebalanced_switches));
  rep.add("backtracking", static_cast<long>(r.backtracking));
  rep.add("escape_repairs", static_cast<long>(r.escape_repairs));
  rep.add("shortcuts", static_cast<long>(r.shortcuts));
  rep.add("escape_dependencies", static_cast<long>(r.escape_dependencies));
  if (r.reserved_dependencies > 0)
    rep.add("reserved_dependencies", static_cast<long>(r.reserved_dependencies));
  rep.add("order_attempts", static_cast<long>(r.order_attempts));
  rep.add("cycle_searches", static_cast<long>(r.cycle_searches));
  rep.add("cycle_search_visits", static_cast<long>(r.cycle_search_visits));
  rep.add("blocked_dependencies", static_cast<long>(r.blocked_dependencies));
}

void log_layers(const Fabric &f, const NueResult &r, Logger &log) {
  if (!log.enabled(LogLevel::kVerbose)) return;
  for (int i = 0; i < r.layers; ++i) {
    const NueLayer &l = r.layer[i];
    log.logf(LogLevel::kVerbose,
             "%s: layer %d: %d destination ports on %d switches, root %s, convex subgraph %d "
             "switches",
             kName, i, l.ports, l.switches, f.describe(l.root).c_str(), l.convex_subgraph);
    for (uint16_t lid : l.fallback_lids)
      log.logf(LogLevel::kVerbose, "%s: layer %d: unsolvable impasse for LID %u, escape paths used",
               kName, i, lid);
    log.logf(LogLevel::kVerbose,
             "%s: layer %d: %lld LIDs, %lld escape dependencies, %lld escape fallbacks", kName, i,
             static_cast<long long>(l.lids), static_cast<long long>(l.escape_dependencies),
             static_cast<long long>(l.escape_fallbacks));
  }
}

// The layer count: the VL and SL budgets, 1..kMaxDataVls.
int layer_budget(const EngineInput &in) {
  return std::clamp(std::min(in.max_vls, in.max_sls), 1, kMaxDataVls);
}

bool read_engine_options(const EngineInput &in, NueOptions &opt) {
  std::string err;
  if (!read_options(in.options, in.fabric, layer_budget(in), opt, err))
    return engine_error(in.log, kName, err);
  // Re-routing: a destination's SL is its layer, so surviving destinations
  // keep their previous layer (docs/rerouting.md).
  if (in.hints) opt.previous_layer = in.hints->dest_sl;
  // Multicast on SL mcast_sl is on layer mcast_sl (a destination's SL is its
  // layer): that layer's escape tree keeps every turn for the groups' trees.
  // (EngineInput::mcast_sl: -1 without trees, with QoS off and with fixed_sl.)
  opt.mcast_layer = in.mcast_sl;
  opt.threads = in.threads;
  // One VL for the fixed-SL search: more destination orders (nue.h).
  if (in.one_vl_routes) opt.order_attempts = one_vl_order_attempts(in.fabric);
  return true;
}

// Edge forwarding index of r's tables over all CA/router pairs
// (minimal/forwarding_index.h; its average grows with the path lengths).
// O(S * L).
minimal::ForwardingIndex efi(const Fabric &f, const NueResult &r) {
  Routing lfts;
  lfts.reset(f, Routing::SlScope::kPerDestination);
  write_tables(f, r, lfts);
  minimal::DestTrees trees;
  std::string err;
  if (!minimal::trees_from_lfts(f, lfts, trees, err)) return {};
  return minimal::forwarding_index(f, trees);
}

// An alternative partition replaces the kept routing only when its max EFI
// is at least this many percent lower and its average EFI (path length) at
// most kPartitionHopsPercent of METIS's: a few percent of max EFI are noise
// that differs between labellings, and cluster and random layers fall back
// to escape paths more often (random 64 switches of degree 6, one
// labelling: 1% longer paths for 3% lower max EFI).
constexpr int64_t kPartitionGainPercent = 5;
constexpr int64_t kPartitionHopsPercent = 101;

// nue_partition=auto (NueOptions::partition_attempts): with several layers,
// no layers pinned by a re-route and at most kPartitionWork (switch, LID)
// entries, METIS, cluster and random partitions are each routed and the
// best balanced kept (rule above; METIS first); otherwise opt.partition
// only. Time: up to three routings plus O(S * L) each to compare them.
bool route_partitions(const Fabric &f, NueOptions o, NueResult &r, std::string &err) {
  const int64_t entries =
      static_cast<int64_t>(f.num_switches()) * static_cast<int64_t>(f.lids().size());
  if (!o.partition_attempts || o.layers <= 1 || !o.previous_layer.empty() ||
      entries > kPartitionWork)
    return route(f, o, r, err);
  bool have = false;
  minimal::ForwardingIndex best, metis;
  for (PartitionMethod m :
       {PartitionMethod::kMetis, PartitionMethod::kCluster, PartitionMethod::kRandom}) {
    o.partition = m;
    NueResult t;
    std::string why;
    if (!route(f, o, t, why)) {
      if (err.empty()) err = why;
      continue;
    }
    const minimal::ForwardingIndex e = efi(f, t);
    if (m == PartitionMethod::kMetis) metis = e;
    const bool better =
        !have || (e.max * 100 < best.max * (100 - kPartitionGainPercent) &&
                  (metis.avg <= 0 || e.avg * 100 <= metis.avg * kPartitionHopsPercent));
    if (better) {
      have = true;
      best = e;
      r = std::move(t);
    }
  }
  r.partitions_tried = 3;
  return have;
}

bool run(const EngineInput &in, const NueOptions &opt, Routing &out, NueResult &r) {
  std::string err;
  NueOptions o = opt;
  if (in.progress)
    o.progress = [&in](int64_t done, int64_t total) { in.progress("route", done, total); };
  if (!route_partitions(in.fabric, o, r, err)) return engine_error(in.log, kName, err);
  write_tables(in.fabric, r, out);
  return true;
}

void report(const EngineInput &in, const NueResult &r, EngineReport &rep) {
  const Fabric &f = in.fabric;
  add_facts(f, r, rep);
  rep.headline = "escape fallbacks " + std::to_string(r.escape_fallbacks);
  if (r.mcast_layer >= 0 && r.mcast_layer < r.layers)
    rep.mcast_roots.push_back(r.layer[r.mcast_layer].root);
  log_layers(f, r, in.log);
  in.log.logf(LogLevel::kInfo,
              "%s: routed %lld LIDs in %d of %d layers (partition %s); %lld of them fell back to "
              "the escape paths; islands reached by backtracking %lld, by escape repair %lld; "
              "%lld shortcuts",
              kName, static_cast<long long>(r.lids), r.layers, layer_budget(in),
              (std::string(partition_name(r.partition)) +
               (r.partitions_tried > 1 ? ", the best balanced of 3" : ""))
                  .c_str(),
              static_cast<long long>(r.escape_fallbacks), static_cast<long long>(r.backtracking),
              static_cast<long long>(r.escape_repairs), static_cast<long long>(r.shortcuts));
}

}  // namespace

bool read_options(const Options &o, const Fabric &f, int max_layers, NueOptions &opt,
                  std::string &err) {
  opt.layers = std::clamp(max_layers, 1, kMaxDataVls);
  const std::string method = o.get("nue_partition");
  opt.partition_attempts = method == "auto";
  if (opt.partition_attempts) {
    opt.partition = PartitionMethod::kMetis;
  } else if (!parse_partition_method(method, opt.partition)) {
    err = "unknown nue_partition '" + method + "'";
    return false;
  }
  opt.seed = static_cast<int>(o.get_int("nue_seed"));
  opt.root = -1;
  if (o.has("nue_root")) {
    std::string why;
    opt.root = f.find_switch(o.get("nue_root"), why);
    if (opt.root < 0) {
      err = "nue_root " + why;
      return false;
    }
  }
  return true;
}

void write_tables(const Fabric &f, const NueResult &r, Routing &out) {
  const int32_t num_sw = f.num_switches();
  if (num_sw == 0) return;
  for (int32_t j = 0; j < r.num_columns(); ++j) {
    const uint16_t lid = r.column_lid[j];
    const uint8_t *col = r.out_port.data() + static_cast<size_t>(j) * num_sw;
    for (int32_t s = 0; s < num_sw; ++s) out.set_out_port(s, lid, col[s]);
    out.set_dest_sl(lid, r.column_layer[j]);
  }
  const int layers = std::max(r.layers, 1);
  for (int i = 0; i < layers; ++i)
    out.set_uniform_sl2vl(static_cast<uint8_t>(i), static_cast<uint8_t>(i));
  out.vls_used = layers;
  out.sls_used = layers;
}

bool one_layer_trees(const Fabric &f, int threads, minimal::DestTrees &out, std::string &err) {
  NueOptions o;
  o.layers = 1;
  o.order_attempts = one_vl_order_attempts(f);
  o.threads = threads;
  NueResult r;
  if (!route(f, o, r, err)) return false;
  Routing lfts;
  lfts.reset(f, Routing::SlScope::kPerDestination);
  write_tables(f, r, lfts);
  return minimal::trees_from_lfts(f, lfts, out, err);
}

constexpr EngineSteps<NueOptions, NueResult> kSteps = {kName, Routing::SlScope::kPerDestination,
                                                       read_engine_options, run, report};
constinit const EngineDesc kEngine = define_engine<kSteps>("nue", kSummary, kOptions);

}  // namespace keiro::nue
