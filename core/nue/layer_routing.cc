// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/layer_routing.h"

#include <algorithm>
#include <limits>

#include "core/fabric.h"

namespace keiro::nue {

LayerRouter::LayerRouter(const Fabric &f)
    : f_(f), cdg_(f), escape_(f), dijkstra_(f, cdg_), load_(f) {
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
  const CdgDijkstra::Outcome o = dijkstra_.route(p.sw, weight, &escape_);
  if (o.reached_all) {
    dijkstra_.commit();
    out.backtracks += o.backtracks;
    out.repairs += o.repairs;
    out.shortcuts += o.shortcuts;
  } else {
    // Unsolvable impasse: the whole destination uses the escape paths.
    dijkstra_.abandon();
    escape_.route_to(p.sw, dijkstra_.next_mut());
    ++out.fallbacks;
    out.fallback_lids.push_back(static_cast<uint16_t>(p.lid + offset));
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
      out.max_weight, load_.add_tree(p.sw, dijkstra_.next(), weight, dijkstra_.settle_order()));
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
