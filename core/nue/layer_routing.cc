// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/layer_routing.h"

#include <algorithm>
#include <limits>

#include "core/fabric.h"

namespace keiro::nue {

LayerRouter::LayerRouter(const Fabric &f)
    : f_(f), cdg_(f), escape_(f), dijkstra_(f, cdg_), load_(f), tree_balance_(f, cdg_.channels()) {
  layered_ = layered_heights(f, height_);
}

void LayerRouter::set_layer(int32_t root, std::span<const int32_t> parent_channel,
                            std::span<const int32_t> dest_count) {
  root_ = root;
  parent_.assign(parent_channel.begin(), parent_channel.end());
  dest_count_.assign(dest_count.begin(), dest_count.end());
}

void LayerRouter::begin(std::span<const int64_t> weight, LayerOutcome &out) {
  out = LayerOutcome{};
  // Lines 6-7: a new complete CDG holding the escape paths.
  cdg_.reset();
  out.escape_dependencies = escape_.build(root_, parent_, dest_count_, cdg_, all_escape_turns_);
  if (layered_) out.reserved_dependencies = reserve_monotone_turns(height_, cdg_);
  out.max_weight = weight.empty() ? 0 : *std::max_element(weight.begin(), weight.end());
}

void LayerRouter::route_lid(const DestinationPort &p, int offset, uint8_t *col,
                            std::span<int64_t> weight, LayerOutcome &out) {
  route_lid_tree(p, offset, col, weight, out);
  add_lid_weight(p, weight, out);
}

void LayerRouter::route_lid_tree(const DestinationPort &p, int offset, uint8_t *col,
                                 std::span<const int64_t> weight, LayerOutcome &out) {
  const int32_t num_sw = f_.num_switches();
  // On a layered fabric every up-down turn is reserved before routing, and
  // the minimal routes towards a switch without end ports (a middle or top
  // of a 3-level Clos) need valleys, nearly all of which close a cycle: a
  // full cycle search each, for management traffic only (`keiro topo clos3
  // 64 8`, 1 VL: 438,290 searches, 25 s). Switch LIDs there take only
  // dependencies the CDG holds already (no search, no new dependency), and
  // the escape paths where those do not reach every switch (clos3 64 8:
  // 2.7 s, the CA routes unchanged).
  const bool used_only = layered_ && p.is_switch;
  dijkstra_.set_used_only(used_only);
  const CdgDijkstra::Outcome o = dijkstra_.route(p.sw, weight, &escape_);
  rebalanced_ = false;
  if (o.reached_all) {
    dijkstra_.commit();
    if (layered_ && balance_on_ && !p.is_switch) {
      out.rebalanced_switches +=
          tree_balance_.run(p.sw, dijkstra_.next_mut(), weight, cdg_, top_down_);
      rebalanced_ = static_cast<int32_t>(top_down_.size()) == num_sw;
    }
    out.backtracks += o.backtracks;
    out.repairs += o.repairs;
    out.shortcuts += o.shortcuts;
  } else {
    // Unsolvable impasse: the whole destination uses the escape paths.
    dijkstra_.abandon();
    escape_.route_to(p.sw, dijkstra_.next_mut());
    if (used_only) {
      ++out.switch_lid_escapes;
    } else {
      ++out.fallbacks;
      out.fallback_lids.push_back(static_cast<uint16_t>(p.lid + offset));
    }
  }
  // Line 10: the LID's forwarding entry on every switch.
  const std::span<const int32_t> next = dijkstra_.next();
  for (int32_t s = 0; s < num_sw; ++s)
    col[s] = s == p.sw ? p.port : (next[s] >= 0 ? f_.channel(next[s]).src_port : kNoPort);
}

void LayerRouter::add_lid_weight(const DestinationPort &p, std::span<int64_t> weight,
                                 LayerOutcome &out) {
  // Line 11: weights.
  out.max_weight = std::max(
      out.max_weight,
      load_.add_tree(p.sw, dijkstra_.next(), weight,
                     rebalanced_ ? std::span<const int32_t>(top_down_) : dijkstra_.settle_order()));
  ++out.lids;
}

LayerOutcome LayerRouter::route(std::span<const DestinationPort> ports,
                                std::span<const int32_t> order, std::span<const int32_t> column_of,
                                std::span<int64_t> weight, std::span<uint8_t> columns,
                                int64_t abort_above, int64_t w0) {
  AbortSignal abort;
  abort.above.store(abort_above, std::memory_order_relaxed);
  return route(ports, order, column_of, weight, columns, abort, w0);
}

LayerOutcome LayerRouter::route(std::span<const DestinationPort> ports,
                                std::span<const int32_t> order, std::span<const int32_t> column_of,
                                std::span<int64_t> weight, std::span<uint8_t> columns,
                                const AbortSignal &abort, int64_t w0) {
  LayerOutcome out;
  begin(weight, out);
  const size_t num_sw = static_cast<size_t>(f_.num_switches());
  bool scored = false;
  const auto score = [&] {
    scored = true;
    out.score = out.max_weight;
    int64_t top = 0, sum = 0;
    for (int64_t w : weight) {
      top = std::max(top, w - w0);
      sum += w - w0;
    }
    out.imbalance = sum > 0 ? static_cast<double>(top) * static_cast<double>(weight.size()) /
                                  static_cast<double>(sum)
                            : 0.0;
  };
  int64_t done = 0;
  for (int32_t pi : order) {
    const DestinationPort &p = ports[pi];
    if (progress_) progress_(done++);
    if (!scored && p.is_switch) score();
    for (int i = 0; i < p.num_lids; ++i) {
      route_lid(p, i, columns.data() + static_cast<size_t>(column_of[pi] + i) * num_sw, weight,
                out);
      if (abort.cancel.load(std::memory_order_relaxed) ||
          (!scored && out.max_weight > abort.above.load(std::memory_order_relaxed))) {
        out.aborted = true;
        end(out);
        return out;
      }
    }
  }
  if (!scored) score();
  end(out);
  return out;
}

}  // namespace keiro::nue
