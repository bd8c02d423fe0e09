// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/dest_search.h"

#include <algorithm>

namespace keiro::dl {

DestSearch::DestSearch(const Fabric &f, const UpDown &ud, const Ranks &ranks)
    : f_(f), ud_(ud), ranks_(ranks) {
  const int32_t S = f.num_switches();
  depth_.assign(S, -1);
  rank_.assign(S, -1);
  best_.assign(S, 0);
  cap_.assign(S, 0);
  limit_.assign(S, 0);
  esc_next_.assign(S, -1);
  esc_rank_.assign(S, 0);
  order_.reserve(S);
  frontier_.reserve(S);
}

bool DestSearch::label(int32_t d) {
  const auto R = static_cast<int16_t>(ranks_.num_ranks());
  std::fill(depth_.begin(), depth_.end(), -1);
  std::fill(best_.begin(), best_.end(), R);
  order_.clear();
  depth_[d] = 0;
  rank_[d] = -1;
  order_.push_back(d);
  size_t round_begin = 0;
  for (int32_t D = 0; round_begin < order_.size(); ++D) {
    const size_t round_end = order_.size();
    frontier_.clear();
    for (size_t i = round_begin; i < round_end; ++i) {
      const int32_t t = order_[i];
      for (int32_t c : f_.in_channels(t)) {
        const int32_t s = f_.channel(c).src;
        if (depth_[s] >= 0) continue;
        const auto r = static_cast<int16_t>(ranks_.first(ud_.up[c] != 0, rank_[t]));
        if (r > cap_[s] || r >= best_[s]) continue;
        if (best_[s] == R) frontier_.push_back(s);
        best_[s] = r;
      }
    }
    for (int32_t s : frontier_) {
      depth_[s] = D + 1;
      rank_[s] = best_[s];
      best_[s] = R;
      order_.push_back(s);
    }
    round_begin = round_end;
  }
  return order_.size() == static_cast<size_t>(f_.num_switches());
}

void DestSearch::escape_tree(int32_t d) {
  // Layer 0 is up*/down* in every restriction: rank 0 = down, rank 1 = up.
  std::fill(esc_next_.begin(), esc_next_.end(), -2);
  frontier_.clear();
  esc_next_[d] = -1;
  esc_rank_[d] = -1;
  frontier_.push_back(d);
  // 1. Down-only paths: BFS backwards over down channels.
  for (size_t i = 0; i < frontier_.size(); ++i) {
    const int32_t t = frontier_[i];
    for (int32_t c : f_.in_channels(t)) {
      const int32_t s = f_.channel(c).src;
      if (esc_next_[s] != -2 || ud_.up[c]) continue;
      esc_next_[s] = c;
      esc_rank_[s] = 0;
      frontier_.push_back(s);
    }
  }
  // 2. Everything else: an up hop onto a switch already in the tree.
  for (size_t i = 0; i < frontier_.size(); ++i) {
    const int32_t t = frontier_[i];
    for (int32_t c : f_.in_channels(t)) {
      const int32_t s = f_.channel(c).src;
      if (esc_next_[s] != -2 || !ud_.up[c]) continue;
      esc_next_[s] = c;
      esc_rank_[s] = 1;
      frontier_.push_back(s);
    }
  }
}

int DestSearch::run(int32_t d) {
  const auto top = static_cast<int16_t>(ranks_.num_ranks() - 1);
  std::fill(cap_.begin(), cap_.end(), top);
  int reruns = 0;
  while (!label(d)) {
    if (reruns > f_.num_switches()) return -1;  // cannot happen: each rerun caps a new switch
    if (reruns == 0) escape_tree(d);
    ++reruns;
    const int32_t S = f_.num_switches();
    for (int32_t s = 0; s < S; ++s) {
      if (depth_[s] >= 0) continue;
      // The escape tree spans a connected fabric (build_updown checked it).
      for (int32_t x = s; x != d; x = f_.channel(esc_next_[x]).dst)
        cap_[x] = std::min(cap_[x], esc_rank_[x]);
    }
  }
  limits(d);
  return reruns;
}

void DestSearch::limits(int32_t d) {
  std::fill(limit_.begin(), limit_.end(), static_cast<int16_t>(ranks_.num_ranks() - 1));
  // Farthest first: when s passes its bound on, every switch that guards
  // through s has done so already.
  for (size_t i = order_.size(); i-- > 1;) {
    const int32_t s = order_[i];
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
      if (!eligible(c)) continue;
      const int32_t t = f_.channel(c).dst;
      if (t != d)
        limit_[t] =
            std::min(limit_[t], static_cast<int16_t>(ranks_.last(ud_.up[c] != 0, limit_[s])));
      break;  // the guard: the first label-keeping channel
    }
  }
}

}  // namespace keiro::dl
