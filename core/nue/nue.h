// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue routing (J. Domke, T. Hoefler, S. Matsuoka, "Routing on the Dependency
// Graph: A New Approach to Deadlock-Free High-Performance Routing", HPDC
// 2016), Algorithm 2: the destinations are split into k virtual layers
// (Section 4.5), and every destination LID is routed by the modified
// Dijkstra of Algorithm 1 inside the complete channel dependency graph of
// its layer (Sections 4.1, 4.6), with the layer's escape paths (Section 4.2)
// as the fallback. nue.cc maps the paper's lines to the code; the engine
// around it (options, Routing tables, report, log lines) is
// core/nue/engine.h.
//
// nue::route() guarantees, when it returns true:
//  - every switch has an out port towards every LID of the fabric (every
//    LMC offset): port 0 for its own LIDs, the terminal's port for the LIDs
//    of a terminal attached to it, otherwise a switch-to-switch port;
//  - the routes towards each LID form a tree: no forwarding loops;
//  - every LID belongs to one layer 0..layers-1 and all its routes use only
//    dependencies of that layer's acyclic CDG, so with path SL = layer and
//    SL i -> VL i on every hop the tables are free of credit loops;
//  - the same fabric and options give the same tables.
// Preconditions: f is finalized; 1 <= opt.layers <= kMaxDataVls; opt.root is
// -1 or a switch id. It fails (false, one sentence in err, out unspecified)
// when the switch graph is disconnected, when METIS fails, and when its own
// final check finds a switch without a route (an internal error).
//
// Time (S switches, C channels, Δ max degree, L LIDs, k layers, A order
// attempts): O(k * (S * C + S * Δ^2) + A * L * (C + S log S) + cycle
// searches) of work; with NueOptions::threads = T, the k layers' preparation,
// the interleaved routing of several layers (in waves of up to k LIDs, one
// per layer: nue.cc) and a single layer's attempts run on up to T workers
// (wall time about divided by min(T, k) there, and by min(T, A) for the
// attempts). Memory O(k * C * Δ + S * L), the S * L bytes of tables included
// (with one layer, the attempts in progress or not yet decided and the best
// one: at most min(T + 1, A) times, and one CDG per worker).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/nue/layers.h"

namespace keiro::nue {

// Destination orders tried for one VL when the fixed-SL search asks for it
// (EngineInput::one_vl_routes; keiro-acro's one-VL routes too,
// core/acro/one_vl.h). Max EFI of the 6x6x6 torus with 2 HCAs per switch:
// 3108 with 3 orders, 1894 with 12, 1570 with 24; random 64 switches of
// degree 6, seed 5: 392, 286, 286 (measured 2026-11-27). Each order is a
// whole routing: at most kOneVlWork (switch, LID) entries in all, and at
// least the usual 3 (a 1,000-switch fabric with 9,000 LIDs keeps 3).
constexpr int kOneVlOrderAttempts = 24;
constexpr int64_t kOneVlWork = 20'000'000;
inline int one_vl_order_attempts(const Fabric &f) {
  const int64_t entries = std::max<int64_t>(
      1, static_cast<int64_t>(f.num_switches()) * static_cast<int64_t>(f.lids().size()));
  return static_cast<int>(std::clamp<int64_t>(kOneVlWork / entries, 3, kOneVlOrderAttempts));
}

// nue_partition=auto tries three partitions (NueOptions::partition_attempts)
// while switches x LIDs is at most this: each is a whole routing. The paper
// (Section 4.1) leaves the best partition open: METIS's compact regions
// balance best on tori, random fabrics and dragonflies, single ports spread
// at random on the director fabric with uneven up-links, where METIS's
// layers also follow the labelling (`keiro topo director 3 52 --uplinks
// 16`, 8 VLs, max EFI METIS 1,494-2,376 over four labellings, random
// 1,260-1,386; measured 2026-11-27). 2,000,000 covers a 12-ary 3-tree and
// a 214-switch director fabric; a 10x10x10 torus with 4 HCAs per switch
// (5,000,000) keeps one routing.
constexpr int64_t kPartitionWork = 2'000'000;

struct NueOptions {
  int layers = 1;  // k: most virtual layers, 1..kMaxDataVls; empty ones are dropped
  PartitionMethod partition = PartitionMethod::kMetis;  // Algorithm 2 line 1
  // nue_partition=auto (the engine, core/nue/engine.cc): with several layers
  // and a fabric of at most kPartitionWork (switch, LID) entries, METIS,
  // cluster and random partitions are each routed and the one with the
  // smallest max edge forwarding index is kept (route() itself routes
  // `partition` only).
  bool partition_attempts = false;
  int seed = 1;       // destination orders, random partitions, METIS
  int32_t root = -1;  // escape-tree root of every layer; -1: the most central
                      // switch of each layer's convex subgraph (line 5)
  // The layer (= SL) multicast groups use: its escape tree gets every turn
  // reserved, so that the tree fits the layer's routes as a multicast tree
  // (core/mcast/trees.h tries it first). -1: none.
  int mcast_layer = -1;
  // Re-routing (docs/rerouting.md): the previous layer by destination base
  // LID (0xFF: none); such destinations keep it instead of the partition's
  // (pin_previous_layers in layers.h). Empty: partition only.
  std::vector<uint8_t> previous_layer;
  // Destination-order attempts of a single layer (nue.cc): at most 3 by
  // default, ended early when one is balanced enough. More (the fixed-SL
  // search's one-VL run, EngineInput::one_vl_routes): every one runs, the
  // best kept; one VL shares one acyclic CDG among all destinations, where
  // the order decides the balance (max EFI on a 6x6x6 torus 3108 with 3,
  // 1570 with 24).
  int order_attempts = 3;
  // Worker threads (0: the machine's cores, at most 8). Used where the
  // algorithm allows, with the same tables for every value: the per-layer
  // preparation (lines 3-7) of several layers, and the destination-order
  // attempts of a single layer (routed side by side, decided in order).
  int threads = 0;
  // Optional: (destination ports routed, ports to route) as routing goes on,
  // for a progress line; with one layer every order attempt counts anew.
  std::function<void(int64_t, int64_t)> progress = {};
};

struct NueLayer {
  int32_t root = -1;            // escape-tree root (switch id)
  int32_t ports = 0;            // destination ports (base LIDs) in the layer
  int32_t switches = 0;         // switches those ports are on or attached to
  int32_t convex_subgraph = 0;  // switches of H_i; 0 when NueOptions::root was given
  int64_t lids = 0;             // destination LIDs routed in the layer
  int64_t escape_dependencies = 0;
  int64_t escape_fallbacks = 0;         // LIDs routed entirely over the escape paths
  std::vector<uint16_t> fallback_lids;  // those LIDs, in routing order
};

struct NueResult {
  int mcast_layer = -1;      // NueOptions::mcast_layer, when that layer exists
  int layers = 0;            // non-empty layers = SLs = VLs of the tables (0: no destination)
  int32_t pinned_ports = 0;  // destination ports kept in NueOptions::previous_layer
  PartitionMethod partition = PartitionMethod::kMetis;  // the partition of these tables
  int partitions_tried = 1;                             // NueOptions::partition_attempts
  // Totals over the layers (of the kept attempt with one layer).
  int64_t lids = 0;
  int64_t escape_fallbacks = 0;  // LIDs routed entirely over the escape paths
  // Layered fabrics: switch LIDs routed over the escape paths because the
  // dependencies already used did not reach every switch (layer_routing.cc)
  int64_t switch_lid_escapes = 0;
  // Layered fabrics: next hops moved by the second pass (tree_balance.h)
  int64_t rebalanced_switches = 0;
  int64_t backtracking = 0;         // islands reached by local backtracking (4.6.2)
  int64_t escape_repairs = 0;       // islands reached over their escape path
  int64_t shortcuts = 0;            // settled switches rerouted over an island (4.6.3)
  int64_t escape_dependencies = 0;  // dependencies the escape paths put into the CDGs
  // up-down turns reserved before routing (fat trees: reserve_monotone_turns)
  int64_t reserved_dependencies = 0;
  int64_t blocked_dependencies = 0;
  // Work over every attempt, kept or not.
  int64_t order_attempts = 0;       // layer routings (one per layer, two for a retried one)
  int64_t cycle_searches = 0;       // Algorithm 3 searches that ran
  int64_t cycle_search_visits = 0;  // channels those searches visited
  std::vector<NueLayer> layer;      // per layer

  // The tables, one column of num_switches bytes per destination LID:
  // column j holds, for every switch s, out_port[j * num_switches + s] towards
  // LID column_lid[j], whose layer (path SL) is column_layer[j].
  int32_t num_switches = 0;
  std::vector<uint16_t> column_lid;
  std::vector<uint8_t> column_layer;
  std::vector<uint8_t> out_port;
  uint8_t port(int32_t s, int32_t column) const {
    return out_port[static_cast<size_t>(column) * num_switches + s];
  }
  int32_t num_columns() const { return static_cast<int32_t>(column_lid.size()); }
};

// Routes every LID of f (see the guarantees above). out is overwritten.
bool route(const Fabric &f, const NueOptions &opt, NueResult &out, std::string &err);

}  // namespace keiro::nue
