// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/escape_paths.h"

#include <algorithm>

#include "core/fabric.h"
#include "core/nue/cdg.h"

namespace keiro::nue {

bool layered_heights(const Fabric &f, std::vector<int32_t> &height) {
  const int32_t s = f.num_switches();
  height.assign(s, -1);
  std::vector<int32_t> queue;
  queue.reserve(s);
  for (int32_t v = 0; v < s; ++v)
    if (!f.terminals_of(v).empty()) {
      height[v] = 0;
      queue.push_back(v);
    }
  if (queue.empty() || static_cast<int32_t>(queue.size()) == s) return false;
  for (size_t i = 0; i < queue.size(); ++i) {
    const int32_t v = queue[i];
    for (int32_t c = f.out_begin(v); c < f.out_end(v); ++c) {
      const int32_t w = f.channel(c).dst;
      if (height[w] >= 0) continue;
      height[w] = height[v] + 1;
      queue.push_back(w);
    }
  }
  if (static_cast<int32_t>(queue.size()) != s) return false;
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const int32_t d = height[f.channel(c).src] - height[f.channel(c).dst];
    if (d != 1 && d != -1) return false;
  }
  return true;
}

int64_t reserve_monotone_turns(std::span<const int32_t> height, CompleteCdg &cdg) {
  const ChannelIndex &ch = cdg.channels();
  const int32_t c = cdg.num_channels();
  // The channels in a topological order of the turns to reserve: up
  // channels from the lowest, then down channels from the highest. Every
  // reserved turn goes forward in it, so the CDG's order rarely has to move.
  int32_t top = 0;
  for (int32_t h : height) top = std::max(top, h);
  const auto rank = [&](int32_t a) {
    const int32_t hs = height[ch.src[a]];
    return hs < height[ch.dst[a]] ? hs : 2 * top + 1 - hs;
  };
  std::vector<int32_t> order(c), keep;
  for (int32_t a = 0; a < c; ++a) order[a] = a;
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t x, int32_t y) { return rank(x) < rank(y); });
  for (int32_t a : order) {
    const int32_t x = ch.dst[a];
    const bool from_above = height[ch.src[a]] > height[x];
    for (int32_t b = ch.out_begin[x]; b < ch.out_begin[x + 1]; ++b) {
      if (b == ch.rev[a]) continue;
      if (from_above && height[ch.dst[b]] > height[x]) continue;  // a valley
      const int32_t e = cdg.edge(a, b);
      if (cdg.try_use(a, b, e) && cdg.state(e) == CompleteCdg::kTentative) keep.push_back(e);
    }
  }
  cdg.commit(keep);
  return static_cast<int64_t>(keep.size());
}

EscapePaths::EscapePaths(const Fabric &f) {
  const int32_t c = f.num_channels(), s = f.num_switches();
  dst_.resize(c);
  rev_.resize(c);
  for (int32_t i = 0; i < c; ++i) {
    dst_[i] = f.channel(i).dst;
    rev_[i] = f.channel(i).reverse;
  }
  tree_first_.assign(s + 1, 0);
  tree_out_.reserve(s > 0 ? 2 * (s - 1) : 0);
  queue_.resize(s);
  seen_.assign(s, 0);
}

int64_t EscapePaths::build(int32_t root, std::span<const int32_t> parent_channel,
                           std::span<const int32_t> dest_count, CompleteCdg &cdg, bool all_turns) {
  const auto s = static_cast<int32_t>(parent_channel.size());
  root_ = root;
  // Tree adjacency (CSR): for every tree edge parent->child both directions.
  std::fill(tree_first_.begin(), tree_first_.end(), 0);
  for (int32_t v = 0; v < s; ++v) {
    const int32_t p = parent_channel[v];
    if (p < 0) continue;
    ++tree_first_[dst_[rev_[p]] + 1];  // the parent
    ++tree_first_[v + 1];
  }
  for (int32_t v = 0; v < s; ++v) tree_first_[v + 1] += tree_first_[v];
  tree_out_.assign(tree_first_[s], -1);
  std::vector<int32_t> fill(tree_first_.begin(), tree_first_.end() - 1);
  for (int32_t v = 0; v < s; ++v) {
    const int32_t p = parent_channel[v];
    if (p < 0) continue;
    tree_out_[fill[dst_[rev_[p]]]++] = p;  // parent -> v
    tree_out_[fill[v]++] = rev_[p];        // v -> parent
  }

  // Destinations below every node: sub[v] (BFS order from the root, then
  // accumulated bottom-up).
  std::vector<int64_t> sub(s, 0);
  int32_t tail = 0;
  queue_[tail++] = root;
  for (int32_t h = 0; h < tail; ++h) {
    const int32_t x = queue_[h];
    for (int32_t i = tree_first_[x]; i < tree_first_[x + 1]; ++i) {
      const int32_t o = tree_out_[i];
      if (parent_channel[dst_[o]] == o) queue_[tail++] = dst_[o];
    }
  }
  int64_t total = 0;
  for (int32_t v = 0; v < s; ++v) total += dest_count[v];
  for (int32_t i = tail - 1; i >= 0; --i) {
    const int32_t v = queue_[i];
    sub[v] += dest_count[v];
    if (parent_channel[v] >= 0) sub[dst_[rev_[parent_channel[v]]]] += sub[v];
  }

  // Mark (a->x, x->b) for every pair of tree neighbours a != b of x whose
  // side behind b holds a destination.
  const int32_t label = cdg.fresh_label();
  int64_t marked = 0;
  for (int32_t x = 0; x < s; ++x) {
    for (int32_t j = tree_first_[x]; j < tree_first_[x + 1]; ++j) {
      const int32_t out = tree_out_[j];
      const int32_t b = dst_[out];
      const bool b_is_child = parent_channel[b] == out;
      const int64_t behind = b_is_child ? sub[b] : total - sub[x];
      if (behind <= 0 && !all_turns) continue;
      for (int32_t i = tree_first_[x]; i < tree_first_[x + 1]; ++i) {
        if (i == j) continue;
        cdg.mark_used(rev_[tree_out_[i]], out, label);
        ++marked;
      }
    }
  }
  return marked;
}

void EscapePaths::route_to(int32_t d, std::span<int32_t> next) {
  if (++epoch_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    epoch_ = 1;
  }
  int32_t tail = 0;
  queue_[tail++] = d;
  seen_[d] = epoch_;
  next[d] = -1;
  for (int32_t h = 0; h < tail; ++h) {
    const int32_t x = queue_[h];
    for (int32_t i = tree_first_[x]; i < tree_first_[x + 1]; ++i) {
      const int32_t b = dst_[tree_out_[i]];
      if (seen_[b] == epoch_) continue;
      seen_[b] = epoch_;
      next[b] = rev_[tree_out_[i]];  // b -> x
      queue_[tail++] = b;
    }
  }
}

}  // namespace keiro::nue
