// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/channel_load.h"

#include <algorithm>

#include "core/fabric.h"

namespace keiro::nue {

ChannelLoad::ChannelLoad(const Fabric &f) {
  const int32_t s = f.num_switches(), c = f.num_channels();
  dst_.resize(c);
  for (int32_t i = 0; i < c; ++i) dst_[i] = f.channel(i).dst;
  sources_.resize(s);
  for (int32_t v = 0; v < s; ++v) sources_[v] = 1 + static_cast<int64_t>(f.terminals_of(v).size());
  child_first_.resize(s + 2);
  child_list_.resize(s);
  order_.resize(s);
  load_.resize(s);
}

int64_t ChannelLoad::add_tree(int32_t d, std::span<const int32_t> next, std::span<int64_t> weight,
                              std::span<const int32_t> top_down) {
  const auto s = static_cast<int32_t>(next.size());
  int64_t top = 0;
  if (static_cast<int32_t>(top_down.size()) == s) {
    for (int32_t v = 0; v < s; ++v) load_[v] = sources_[v];
    for (int32_t i = s - 1; i >= 0; --i) {  // children before parents
      const int32_t v = top_down[i];
      if (next[v] < 0) continue;
      top = std::max(top, weight[next[v]] += load_[v]);
      load_[dst_[next[v]]] += load_[v];
    }
    return top;
  }
  // Children lists of the routing tree (counting sort by parent).
  std::fill(child_first_.begin(), child_first_.end(), 0);
  for (int32_t v = 0; v < s; ++v)
    if (next[v] >= 0) ++child_first_[dst_[next[v]] + 2];
  for (int32_t v = 0; v < s; ++v) child_first_[v + 2] += child_first_[v + 1];
  for (int32_t v = 0; v < s; ++v)
    if (next[v] >= 0) child_list_[child_first_[dst_[next[v]] + 1]++] = v;
  // Now child_first_[p] .. child_first_[p + 1] are p's children. Top-down
  // order from d, then subtree sums bottom-up.
  int32_t tail = 0;
  order_[tail++] = d;
  for (int32_t h = 0; h < tail; ++h) {
    const int32_t p = order_[h];
    for (int32_t i = child_first_[p]; i < child_first_[p + 1]; ++i) order_[tail++] = child_list_[i];
  }
  for (int32_t i = tail - 1; i >= 0; --i) {
    const int32_t v = order_[i];
    load_[v] = sources_[v];
    for (int32_t j = child_first_[v]; j < child_first_[v + 1]; ++j)
      load_[v] += load_[child_list_[j]];
    if (next[v] >= 0) top = std::max(top, weight[next[v]] += load_[v]);
  }
  return top;
}

}  // namespace keiro::nue
