// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Second pass over a destination's routing tree (core/nue/tree_balance.h).
#include "core/nue/tree_balance.h"

#include <algorithm>
#include <utility>

#include "core/fabric.h"

namespace keiro::nue {

TreeBalance::TreeBalance(const Fabric &f, const ChannelIndex &ch)
    : dst_(ch.dst), out_begin_(ch.out_begin) {
  const int32_t s = f.num_switches();
  sources_.resize(s);
  for (int32_t v = 0; v < s; ++v) sources_[v] = 1 + static_cast<int64_t>(f.terminals_of(v).size());
  sub_.resize(s);
  depth_.resize(s);
  child_first_.resize(s + 2);
  child_list_.resize(s);
}

void TreeBalance::add_path(int32_t v, std::span<const int32_t> next, int64_t delta) {
  for (int32_t u = dst_[next[v]]; next[u] >= 0; u = dst_[next[u]]) sub_[u] += delta;
}

int32_t TreeBalance::choose(int32_t v, std::span<const int32_t> next,
                            std::span<const int64_t> weight, const CompleteCdg &cdg) const {
  // Bottleneck of the path over channel c with v's subtree added (sub_
  // holds the loads without it), then the sum over the path: a path whose
  // bottleneck is shared (the destination's down-link) still avoids the
  // busier up-links.
  const auto score = [&](int32_t c) {
    int64_t m = weight[c] + sub_[v], sum = m;
    for (int32_t u = dst_[c]; next[u] >= 0; u = dst_[next[u]]) {
      const int64_t w = weight[next[u]] + sub_[u] + sub_[v];
      m = std::max(m, w);
      sum += w;
    }
    return std::pair<int64_t, int64_t>(m, sum);
  };
  const auto used = [&](int32_t a, int32_t b) {
    const int32_t e = cdg.edge(a, b);
    return e >= 0 && cdg.state(e) == CompleteCdg::kUsed;
  };
  int32_t best = next[v];
  std::pair<int64_t, int64_t> best_score = score(best);
  for (int32_t c = out_begin_[v]; c < out_begin_[v + 1]; ++c) {
    const int32_t x = dst_[c];
    if (c == next[v] || depth_[x] != depth_[v] - 1) continue;
    if (next[x] >= 0 && !used(c, next[x])) continue;
    bool fits = true;
    for (int32_t i = child_first_[v]; fits && i < child_first_[v + 1]; ++i)
      fits = used(next[child_list_[i]], c);
    if (!fits) continue;
    const std::pair<int64_t, int64_t> sc = score(c);
    if (sc < best_score) {
      best = c;
      best_score = sc;
    }
  }
  return best;
}

int64_t TreeBalance::run(int32_t d, std::span<int32_t> next, std::span<const int64_t> weight,
                         const CompleteCdg &cdg, std::vector<int32_t> &top_down) {
  const auto s = static_cast<int32_t>(next.size());
  // Children of the tree (counting sort by parent), breadth first from d.
  const auto children = [&](std::span<const int32_t> of) {
    std::fill(child_first_.begin(), child_first_.end(), 0);
    for (int32_t w : of)
      if (next[w] >= 0) ++child_first_[dst_[next[w]] + 2];
    for (int32_t v = 0; v < s; ++v) child_first_[v + 2] += child_first_[v + 1];
    for (int32_t w : of)
      if (next[w] >= 0) child_list_[child_first_[dst_[next[w]] + 1]++] = w;
  };
  std::vector<int32_t> all(s);
  for (int32_t v = 0; v < s; ++v) all[v] = v;
  children(all);
  top_down.assign(1, d);
  depth_[d] = 0;
  for (size_t h = 0; h < top_down.size(); ++h) {
    const int32_t p = top_down[h];
    for (int32_t i = child_first_[p]; i < child_first_[p + 1]; ++i) {
      top_down.push_back(child_list_[i]);
      depth_[child_list_[i]] = depth_[p] + 1;
    }
  }
  if (static_cast<int32_t>(top_down.size()) != s) return 0;  // not a spanning tree: leave it
  for (int32_t v = 0; v < s; ++v) sub_[v] = sources_[v];
  for (int32_t i = s - 1; i > 0; --i) sub_[dst_[next[top_down[i]]]] += sub_[top_down[i]];
  // Levels farthest first; a level's children (one level farther) are final.
  int64_t moved = 0;
  int32_t end = s;
  while (end > 1) {
    const int32_t level = depth_[top_down[end - 1]];
    int32_t begin = end;
    while (begin > 0 && depth_[top_down[begin - 1]] == level) --begin;
    if (level == 0) break;
    children(std::span<const int32_t>(top_down).subspan(end, s - end));
    // Largest subtrees first: they have the most leverage (ids only on ties).
    std::stable_sort(top_down.begin() + begin, top_down.begin() + end,
                     [&](int32_t a, int32_t b) { return sub_[a] > sub_[b]; });
    for (int32_t i = begin; i < end; ++i) {
      const int32_t v = top_down[i];
      // A switch without children routes only its own sources: the
      // Dijkstra's settle-time balance saw all of them already.
      if (child_first_[v] == child_first_[v + 1]) continue;
      add_path(v, next, -sub_[v]);
      const int32_t c = choose(v, next, weight, cdg);
      if (c != next[v]) {
        next[v] = c;
        ++moved;
      }
      add_path(v, next, sub_[v]);
    }
    end = begin;
  }
  return moved;
}

}  // namespace keiro::nue
