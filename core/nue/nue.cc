// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-nue: Nue routing (Domke, Hoefler, Matsuoka, "Routing on the
// Dependency Graph", HPDC'16). This file is the driver, Algorithm 2:
//
//   line 1     split destinations into k layers      layers.h (METIS / cluster / random)
//   line 3     N_i^d = destination switches of L_i   below
//   line 4     convex subgraph H_i (Sec. 4.3)        graph/convex_subgraph.h
//   line 5     central root of H_i (Brandes)         graph/betweenness.h, or option nue_root
//   line 6     new complete CDG D_i (Sec. 4.1)       cdg.h (reset per attempt)
//   line 7     escape paths D_i^s (Sec. 4.2)         graph/spanning_tree.h, escape_paths.h
//   line 8-9   per destination LID: Algorithm 1      dijkstra.h (+ 4.6.2 / 4.6.3 and an
//              with Algorithm 3 for every new        escape repair), cdg.h, omega.h
//              dependency; escape fallback
//   line 10    forwarding tables                     layer_routing.h
//   line 11    channel weight update                 channel_load.h
//
// Destination order. Which dependencies a layer ends up with depends on the
// order in which its destinations are routed, and with few layers that
// decides how well the paths balance: routing a region of the fabric in one
// go lets its dependencies cut the rings through it (a 6x6x6 torus routed
// plane by plane in one layer funnelled whole planes over the escape tree,
// max edge forwarding index 16148 instead of 2000-7000 for random orders).
// The paper leaves the order open. keiro routes each layer's destinations in
// a seeded random order (option nue_seed), always with the switches' own
// LIDs last (management traffic, lowest priority). With a single layer, where
// all dependencies share one CDG and the order matters most (one layer on
// that torus: 2100-7100 over ten seeds), a layer whose most loaded channel
// carries more than kRetryImbalance times the mean load is routed once more
// in another order and the better attempt (smaller largest channel weight)
// is kept; the second attempt stops as soon as it cannot win any more.
//
// Layers take turns. Algorithm 2 routes layer after layer; with METIS layers
// (compact regions) that means region after region, and the greedy weight
// updates then balance each region's traffic only against the regions
// before it. keiro builds every layer's CDG, root and escape tree first and
// then interleaves the layers' destinations in proportion to the layers'
// sizes, each routed in its own layer's CDG (one CDG per layer in memory).
// On a 128-switch random regular fabric (degree 8, 4 CAs per switch) the
// max edge forwarding index over five seeds went from 984-996 to 792-816
// with 4 layers and from 1004-1044 to 744-780 with 8; on a 6x6x6 torus with
// 1% failed links from 938-1006 to 794-814 (4 layers) and from 992-1060 to
// 780-822 (8 layers), at the same path lengths. With 2 layers, where the
// escape paths bind most, both orders scatter alike (rrg 1044-1496, torus
// 964-1846 over the seeds). The escape trees are built before any weight
// exists, so they no longer steer around earlier layers' load.
//
// Terminals hang off switches: the Dijkstra of a destination LID starts at
// the switch the LID belongs to, and that switch forwards to the LID's port
// (port 0 for its own LIDs). Switch LIDs are destinations like CA LIDs and
// are routed inside the deadlock-free layers. Each LID (every LMC offset)
// gets its own run with the weights left by the previous ones. The path SL
// of a LID is its layer, and SL i maps to VL i everywhere.
//
// Time (S switches, C channels, Δ max degree, L LIDs, k layers, A attempts):
// O(k * (S * C + S * Δ^2) + A * L * (C + S log S) + cycle searches);
// memory O(k * C * Δ + S * L) including the tables.
#include "core/nue/nue.h"

#include <algorithm>
#include <cinttypes>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/graph/betweenness.h"
#include "core/graph/bfs.h"
#include "core/graph/convex_subgraph.h"
#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"
#include "core/nue/channel_load.h"
#include "core/nue/layer_routing.h"
#include "core/nue/layers.h"

namespace keiro {

namespace {

constexpr const char *kName = "keiro-nue";
constexpr int kOrderAttempts = 2;
// A single layer is routed again in another order when its first attempt
// leaves the most loaded channel with more than this many times the mean
// channel load.
constexpr double kRetryImbalance = 4.0;

std::string describe(const Fabric &f, int32_t s) {
  return strprintf("'%s' (0x%016" PRIx64 ")", f.sw(s).name.c_str(), f.sw(s).guid);
}

// Destination order of attempt `attempt` for the ports of one layer: CA and
// router ports in a seeded random order, then the switch LIDs, also shuffled.
void attempt_order(std::span<const nue::DestinationPort> ports, std::span<const int32_t> grouped,
                   int attempt, uint64_t seed, std::vector<int32_t> &order) {
  order.assign(grouped.begin(), grouped.end());
  std::mt19937_64 rng(seed * 1000003u + static_cast<uint64_t>(attempt));
  const auto split = std::stable_partition(order.begin(), order.end(),
                                           [&](int32_t p) { return !ports[p].is_switch; });
  std::shuffle(order.begin(), split, rng);
  std::shuffle(split, order.end(), rng);
}

// Largest channel load over the mean channel load (loads = weights above w0).
double imbalance(std::span<const int64_t> weight, int64_t w0) {
  int64_t top = 0, sum = 0;
  for (int64_t w : weight) {
    top = std::max(top, w - w0);
    sum += w - w0;
  }
  return sum > 0 ? static_cast<double>(top) * static_cast<double>(weight.size()) /
                       static_cast<double>(sum)
                 : 0.0;
}

struct Totals {
  int64_t lids = 0, fallbacks = 0, backtracks = 0, repairs = 0, shortcuts = 0, escape_deps = 0;
  int64_t cycle_searches = 0, search_visits = 0, blocked = 0, attempts = 0;
};

bool route(const EngineInput &in, Routing &out, EngineReport &rep) {
  const Fabric &f = in.fabric;
  Logger &log = in.log;
  const int32_t num_sw = f.num_switches();

  // ---- options ----
  const int k = std::clamp(std::min(in.max_vls, in.max_sls), 1, kMaxDataVls);
  nue::PartitionMethod method;
  const std::string method_name = in.options.get("nue_partition");
  if (!nue::parse_partition_method(method_name, method)) {
    log.logf(LogLevel::kError, "%s: unknown nue_partition '%s'", kName, method_name.c_str());
    return false;
  }
  const int seed = static_cast<int>(in.options.get_int("nue_seed"));
  int32_t fixed_root = -1;
  if (in.options.has("nue_root")) {
    std::string why;
    fixed_root = f.find_switch(in.options.get("nue_root"), why);
    if (fixed_root < 0) {
      log.logf(LogLevel::kError, "%s: nue_root %s", kName, why.c_str());
      return false;
    }
  }

  const std::vector<nue::DestinationPort> ports = nue::destination_ports(f);
  if (num_sw == 0) {
    rep.add("layers", 0L);
    rep.add("escape_fallbacks", 0L);
    return true;
  }

  // The switch graph must be connected (the escape paths span it).
  const graph::Graph g = graph::switch_graph(f);
  {
    std::vector<int32_t> dist(num_sw), order(num_sw);
    const int32_t reached = graph::bfs(g, 0, dist, order);
    if (reached < num_sw) {
      int32_t lost = 0;
      while (dist[lost] >= 0) ++lost;
      log.logf(LogLevel::kError,
               "%s: the switch graph is disconnected: %d of %d switches (e.g. %s) cannot be "
               "reached from %s",
               kName, num_sw - reached, num_sw, describe(f, lost).c_str(), describe(f, 0).c_str());
      return false;
    }
  }

  // ---- Algorithm 2, line 1: destinations into layers ----
  std::vector<int32_t> layer_of;
  std::string err;
  const int layers = nue::assign_layers(g, ports, k, method, seed, layer_of, err);
  if (layers < 0) {
    log.logf(LogLevel::kError, "%s: partitioning the destinations failed: %s", kName, err.c_str());
    return false;
  }
  // Ports by layer, CA/router ports grouped by switch, switch LIDs last.
  std::vector<int32_t> by_layer(ports.size());
  std::iota(by_layer.begin(), by_layer.end(), 0);
  std::stable_sort(by_layer.begin(), by_layer.end(), [&](int32_t a, int32_t b) {
    const nue::DestinationPort &pa = ports[a], &pb = ports[b];
    if (layer_of[a] != layer_of[b]) return layer_of[a] < layer_of[b];
    if (pa.is_switch != pb.is_switch) return !pa.is_switch;
    return pa.sw != pb.sw ? pa.sw < pb.sw : pa.port < pb.port;
  });

  int64_t num_lids = 0;
  for (const nue::DestinationPort &p : ports) num_lids += p.num_lids;
  const int64_t w0 = nue::ChannelLoad::initial_weight(num_lids);
  std::vector<int64_t> weight(f.num_channels(), w0);
  // One LFT column (num_sw bytes) per LID, in by_layer order.
  std::vector<int32_t> column_of(ports.size());
  {
    int32_t next_column = 0;
    for (int32_t pi : by_layer) {
      column_of[pi] = next_column;
      next_column += ports[pi].num_lids;
    }
  }
  std::vector<uint8_t> columns(static_cast<size_t>(num_lids) * num_sw), best_columns;
  Totals total;

  // ---- lines 3-5 and 7 for every layer: N_i^d, convex subgraph, root, escape tree ----
  std::vector<std::unique_ptr<nue::LayerRouter>> routers;
  std::vector<size_t> layer_begin(layers + 1, 0);
  std::vector<int32_t> dest_count(num_sw), parent(num_sw), dest_switches;
  std::vector<double> centrality_weight(num_sw);
  // Escape trees are built before anything is routed, so every channel still
  // has the initial weight: minimum-depth trees with uniform costs.
  const std::vector<int64_t> tree_cost(f.num_channels(), 2 * w0);
  for (int layer = 0, pos = 0; layer < layers; ++layer) {
    size_t end = static_cast<size_t>(pos);
    std::fill(dest_count.begin(), dest_count.end(), 0);
    for (; end < by_layer.size() && layer_of[by_layer[end]] == layer; ++end)
      dest_count[ports[by_layer[end]].sw] += ports[by_layer[end]].num_lids;
    layer_begin[layer] = static_cast<size_t>(pos);
    layer_begin[layer + 1] = end;
    pos = static_cast<int>(end);
    dest_switches.clear();
    for (int32_t s = 0; s < num_sw; ++s)
      if (dest_count[s] > 0) dest_switches.push_back(s);
    int32_t root = fixed_root;
    int32_t hull_size = 0;
    if (root < 0) {
      const graph::ConvexSubgraph h = graph::convex_subgraph(g, dest_switches);
      hull_size = h.num_nodes;
      for (int32_t s = 0; s < num_sw; ++s) centrality_weight[s] = dest_count[s];
      const std::vector<double> c =
          graph::betweenness(g, h.node_in.data(), h.arc_in.data(), centrality_weight);
      root = graph::most_central(c, h.node_in.data());
    }
    graph::min_depth_spanning_tree(g, root, tree_cost, parent);
    routers.push_back(std::make_unique<nue::LayerRouter>(f));
    routers.back()->set_layer(layer, root, parent, dest_count);
    rep.add("root_layer" + std::to_string(layer), describe(f, root));
    if (log.enabled(LogLevel::kVerbose))
      log.logf(LogLevel::kVerbose,
               "%s: layer %d: %zu destination ports on %zu switches, root %s, convex subgraph %d "
               "switches",
               kName, layer, end - layer_begin[layer], dest_switches.size(),
               describe(f, root).c_str(), hull_size);
  }

  std::vector<nue::LayerOutcome> outcome(std::max(layers, 1));
  std::vector<int32_t> order;
  if (layers == 1) {
    // ---- lines 6-11 for every attempted destination order; keep the best ----
    const std::span<const int32_t> grouped(by_layer);
    std::vector<int64_t> attempt_weight, best_weight;
    int best_attempt = -1;
    best_columns.resize(columns.size());
    for (int attempt = 0; attempt < kOrderAttempts; ++attempt) {
      attempt_order(ports, grouped, attempt, static_cast<uint64_t>(seed) * 64, order);
      attempt_weight = weight;
      const int64_t abort_above =
          best_attempt >= 0 ? outcome[0].max_weight : std::numeric_limits<int64_t>::max();
      const nue::LayerOutcome o = routers[0]->route(ports, order, column_of, attempt_weight,
                                                    columns, abort_above, attempt, log);
      ++total.attempts;
      total.cycle_searches += o.cdg.cycle_searches;
      total.search_visits += o.cdg.dfs_visits;
      if (o.aborted) continue;
      if (best_attempt >= 0 &&
          (o.max_weight > outcome[0].max_weight ||
           (o.max_weight == outcome[0].max_weight && o.fallbacks >= outcome[0].fallbacks)))
        continue;
      outcome[0] = o;
      best_attempt = attempt;
      best_weight.swap(attempt_weight);
      best_columns.swap(columns);
      if (imbalance(best_weight, w0) <= kRetryImbalance) break;
    }
    columns.swap(best_columns);
  } else if (layers > 1) {
    // ---- lines 6-11, the layers taking turns ----
    // Every layer routes its destinations in its own seeded random order
    // (switch LIDs last), but the layers interleave in proportion to their
    // sizes instead of one after the other: the channel weights then see the
    // whole fabric's traffic grow evenly (figures in the comment at the top).
    std::vector<std::vector<int32_t>> layer_order(layers);
    std::vector<size_t> next(layers, 0), cas(layers, 0);
    for (int layer = 0; layer < layers; ++layer) {
      const std::span<const int32_t> grouped(by_layer.data() + layer_begin[layer],
                                             layer_begin[layer + 1] - layer_begin[layer]);
      attempt_order(ports, grouped, 0, static_cast<uint64_t>(seed) * 64 + layer,
                    layer_order[layer]);
      for (int32_t pi : layer_order[layer]) cas[layer] += ports[pi].is_switch ? 0 : 1;
      routers[layer]->begin(weight, outcome[layer]);
    }
    // Two rounds: CA/router ports of all layers, then the switch LIDs.
    for (int round = 0; round < 2; ++round) {
      for (;;) {
        int pick = -1;
        double pick_done = 2.0;
        for (int layer = 0; layer < layers; ++layer) {
          const size_t stop = round == 0 ? cas[layer] : layer_order[layer].size();
          if (next[layer] >= stop) continue;
          const double done =
              static_cast<double>(next[layer]) / static_cast<double>(layer_order[layer].size());
          if (done < pick_done) {
            pick_done = done;
            pick = layer;
          }
        }
        if (pick < 0) break;
        const int32_t pi = layer_order[pick][next[pick]++];
        const nue::DestinationPort &p = ports[pi];
        for (int i = 0; i < p.num_lids; ++i)
          routers[pick]->route_lid(p, i,
                                   columns.data() + static_cast<size_t>(column_of[pi] + i) * num_sw,
                                   weight, 0, log, outcome[pick]);
      }
    }
    for (int layer = 0; layer < layers; ++layer) {
      routers[layer]->end(outcome[layer]);
      ++total.attempts;
      total.cycle_searches += outcome[layer].cdg.cycle_searches;
      total.search_visits += outcome[layer].cdg.dfs_visits;
    }
  }

  // ---- line 10: the LFT columns and SLs ----
  for (int32_t pi : by_layer) {
    const nue::DestinationPort &p = ports[pi];
    for (int j = 0; j < p.num_lids; ++j) {
      const auto lid = static_cast<uint16_t>(p.lid + j);
      const uint8_t *col = columns.data() + static_cast<size_t>(column_of[pi] + j) * num_sw;
      for (int32_t s = 0; s < num_sw; ++s) out.set_out_port(s, lid, col[s]);
      out.set_dest_sl(lid, static_cast<uint8_t>(layer_of[pi]));
    }
  }
  for (int layer = 0; layer < layers; ++layer) {
    const nue::LayerOutcome &o = outcome[layer];
    total.lids += o.lids;
    total.fallbacks += o.fallbacks;
    total.backtracks += o.backtracks;
    total.repairs += o.repairs;
    total.shortcuts += o.shortcuts;
    total.escape_deps += o.escape_dependencies;
    total.blocked += o.cdg.blocked;
    if (log.enabled(LogLevel::kVerbose))
      log.logf(LogLevel::kVerbose,
               "%s: layer %d: %lld LIDs, %lld escape dependencies, %lld escape fallbacks", kName,
               layer, static_cast<long long>(o.lids), static_cast<long long>(o.escape_dependencies),
               static_cast<long long>(o.fallbacks));
  }

  for (int i = 0; i < std::max(layers, 1); ++i)
    out.set_uniform_sl2vl(static_cast<uint8_t>(i), static_cast<uint8_t>(i));

  // The engine's own assertion: every switch has a next hop to every LID.
  for (uint16_t lid : f.lids()) {
    for (int32_t s = 0; s < num_sw; ++s) {
      if (out.out_port(s, lid) != kNoPort) continue;
      log.logf(LogLevel::kError, "%s: internal error: switch %s has no route to LID %u", kName,
               describe(f, s).c_str(), lid);
      return false;
    }
  }

  out.vls_used = std::max(layers, 1);
  out.sls_used = std::max(layers, 1);
  rep.add("layers", static_cast<long>(layers));
  rep.add("escape_fallbacks", static_cast<long>(total.fallbacks));
  rep.add("backtracking", static_cast<long>(total.backtracks));
  rep.add("escape_repairs", static_cast<long>(total.repairs));
  rep.add("shortcuts", static_cast<long>(total.shortcuts));
  rep.add("escape_dependencies", static_cast<long>(total.escape_deps));
  rep.add("order_attempts", static_cast<long>(total.attempts));
  rep.add("cycle_searches", static_cast<long>(total.cycle_searches));
  rep.add("cycle_search_visits", static_cast<long>(total.search_visits));
  rep.add("blocked_dependencies", static_cast<long>(total.blocked));
  log.logf(LogLevel::kInfo,
           "%s: routed %lld LIDs in %d of %d layers (partition %s); %lld of them fell back to "
           "the escape paths; islands reached by backtracking %lld, by escape repair %lld; "
           "%lld shortcuts",
           kName, static_cast<long long>(total.lids), layers, k, method_name.c_str(),
           static_cast<long long>(total.fallbacks), static_cast<long long>(total.backtracks),
           static_cast<long long>(total.repairs), static_cast<long long>(total.shortcuts));
  return true;
}

}  // namespace

bool route_nue(const EngineInput &in, Routing &out, EngineReport &rep) {
  out.reset(in.fabric, Routing::SlScope::kPerDestination);
  try {
    return route(in, out, rep);
  } catch (const std::exception &e) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, e.what());
    return false;
  }
}

}  // namespace keiro

namespace keiro::nue {

namespace {
constexpr OptionSpec kOptions[] = {
    {"nue_root", OptionSpec::kGuidOrName, 0, 0, nullptr, "",
     "root switch of Nue's escape paths (GUID or node description); default: most central"},
    {"nue_partition", OptionSpec::kChoice, 0, 0, "metis|random|cluster", "metis",
     "how Nue splits destinations into virtual layers"},
    {"nue_seed", OptionSpec::kInt, 0, 2147483647, nullptr, "1",
     "seed for Nue's random choices (partitioning, METIS)"},
};
}  // namespace

constinit const EngineDesc kEngine = {
    "nue", "keiro-nue", route_nue,
    "Nue: deadlock-free routing inside the complete channel dependency graph, 1..15 VLs", kOptions};

}  // namespace keiro::nue
