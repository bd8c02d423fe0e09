// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Routing of one virtual layer (Domke et al. 2016, Algorithm 2 lines 6-11):
// a new complete CDG with the layer's escape paths (and, on layered fabrics
// such as fat trees, every up-down turn that fits next to them:
// reserve_monotone_turns in escape_paths.h), then, for every
// destination LID in the given order, the modified Dijkstra (or the escape
// paths after an unsolvable impasse), the LFT column of the LID, and the
// channel weight update.
//
// The result goes into a column buffer (one byte per switch and LID of the
// layer) so that the driver (nue.cc) can route a layer several times, in
// different destination orders, and keep the best attempt.
//
// route(): O(L_i * (C + S log S) + condition (d) searches) for the layer's
// L_i LIDs; no allocation per destination (except to list a LID that falls
// back to the escape paths). Memory O(C * Δ + S).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/nue/cdg.h"
#include "core/nue/channel_load.h"
#include "core/nue/dijkstra.h"
#include "core/nue/escape_paths.h"
#include "core/nue/layers.h"
#include "core/nue/tree_balance.h"

namespace keiro {
class Fabric;
}  // namespace keiro

namespace keiro::nue {

struct LayerOutcome {
  int64_t lids = 0;
  int64_t fallbacks = 0;                // LIDs routed over the escape paths
  std::vector<uint16_t> fallback_lids;  // those LIDs, in routing order
  // Layered fabrics: switch LIDs whose used-dependency routes (below) did
  // not reach every switch and that took the escape paths instead; not
  // counted in fallbacks.
  int64_t switch_lid_escapes = 0;
  // Layered fabrics: next hops the second pass over a tree moved
  // (tree_balance.h), over every CA/router LID.
  int64_t rebalanced_switches = 0;
  int64_t backtracks = 0;  // islands reached by local backtracking (in routed LIDs)
  int64_t repairs = 0;     // islands reached over their escape path
  int64_t shortcuts = 0;
  int64_t escape_dependencies = 0;
  int64_t reserved_dependencies = 0;  // up-down turns reserved on layered fabrics
  int64_t max_weight = 0;             // largest channel weight afterwards
  // route() only: the balance score, taken after the CA/router-port LIDs
  // (switch LIDs come last in every order and carry management traffic
  // only): the largest channel weight then, and the largest channel load
  // (weight above W0) over the mean channel load.
  int64_t score = 0;
  double imbalance = 0;
  bool aborted = false;  // stopped early: the score exceeded abort_above
  CompleteCdg::Stats cdg;
};

// Lets another thread stop LayerRouter::route(): it gives up (aborted) once
// a channel weight exceeds `above` before the first switch LID, and at the
// next LID once `cancel` is set.
struct AbortSignal {
  std::atomic<int64_t> above{INT64_MAX};
  std::atomic<bool> cancel{false};
};

class LayerRouter {
 public:
  explicit LayerRouter(const Fabric &f);

  // The layer's escape tree: parent_channel[v] = channel (parent -> v), -1 at
  // the root; dest_count[v] = destination LIDs of the layer on switch v.
  void set_layer(int32_t root, std::span<const int32_t> parent_channel,
                 std::span<const int32_t> dest_count);
  // The same layer as o (its root, escape tree and destination counts).
  void set_layer_from(const LayerRouter &o) {
    set_layer(o.root_, o.parent_, o.dest_count_);
    all_escape_turns_ = o.all_escape_turns_;
  }
  // Every turn of the escape tree reserved, not only those towards the
  // layer's destinations (EscapePaths::build's all_turns): the layer that
  // carries multicast (NueOptions::mcast_layer).
  void set_all_escape_turns(bool on) { all_escape_turns_ = on; }

  // Routes the LIDs of ports[order[i]] in that order. column_of[order[i]] is
  // the first column of the port's LIDs (one column per LID, num_switches
  // bytes each) in columns. weight is updated. Gives up (aborted) as soon as
  // a channel weight exceeds abort_above before the first switch LID: the
  // attempt cannot win any more. w0: the weight of an unloaded channel.
  // Same as begin(), route_lid() for every LID, end().
  LayerOutcome route(std::span<const DestinationPort> ports, std::span<const int32_t> order,
                     std::span<const int32_t> column_of, std::span<int64_t> weight,
                     std::span<uint8_t> columns, int64_t abort_above, int64_t w0);
  // The same, with the abort threshold (and a cancel flag) read before every
  // LID, so that another thread may lower it while the layer is routed.
  LayerOutcome route(std::span<const DestinationPort> ports, std::span<const int32_t> order,
                     std::span<const int32_t> column_of, std::span<int64_t> weight,
                     std::span<uint8_t> columns, const AbortSignal &abort, int64_t w0);

  // The same one LID at a time, so that several layers (each with its own
  // router and CDG) can take turns. begin(): lines 6-7 (a new complete CDG
  // with the escape paths) and out.max_weight from weight.
  void begin(std::span<const int64_t> weight, LayerOutcome &out);
  // Lines 8-11 for LID p.lid + offset: its LFT column col (num_switches
  // bytes) and the weight update.
  void route_lid(const DestinationPort &p, int offset, uint8_t *col, std::span<int64_t> weight,
                 LayerOutcome &out);
  // route_lid() in two steps, so that the routes of several layers' LIDs
  // can be built side by side against the same weights: lines 8-10 (reads
  // weight only), then line 11 for that LID (before the router's next
  // route_lid_tree()).
  void route_lid_tree(const DestinationPort &p, int offset, uint8_t *col,
                      std::span<const int64_t> weight, LayerOutcome &out);
  void add_lid_weight(const DestinationPort &p, std::span<int64_t> weight, LayerOutcome &out);
  void end(LayerOutcome &out) const { out.cdg = cdg_.stats(); }
  // w0: weight of an unloaded channel; > 0 balances each LID's routes as
  // they are built (CdgDijkstra::set_balance).
  void set_balance(int64_t w0) {
    dijkstra_.set_balance(w0);
    balance_on_ = w0 > 0;
  }
  // Called after every routed destination port of route(): ports done so far
  // in this call (the caller knows the total). Optional; for progress lines.
  void set_progress(std::function<void(int64_t)> fn) { progress_ = std::move(fn); }

 private:
  const Fabric &f_;
  CompleteCdg cdg_;
  EscapePaths escape_;
  CdgDijkstra dijkstra_;
  ChannelLoad load_;
  // Layered fabrics with balance on: the second pass over every CA/router
  // LID's tree (tree_balance.h), and the top-down order of the result.
  TreeBalance tree_balance_;
  std::vector<int32_t> top_down_;
  bool balance_on_ = false, rebalanced_ = false;
  bool all_escape_turns_ = false;
  int32_t root_ = -1;
  bool layered_ = false;         // layered_heights() held: reserve up-down turns
  std::vector<int32_t> height_;  // per switch, when layered_
  std::vector<int32_t> parent_, dest_count_;
  std::function<void(int64_t)> progress_;
};

}  // namespace keiro::nue
