// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/dynamic_dag.h"

#include <algorithm>
#include <cassert>

namespace keiro::graph {

void DynamicDag::reset(int32_t nodes) {
  out_.assign(nodes, {});
  in_.assign(nodes, {});
  ord_.resize(nodes);
  for (int32_t i = 0; i < nodes; ++i) ord_[i] = i;
  mark_.assign(nodes, 0);
  stamp_ = 0;
  edges_ = 0;
}

bool DynamicDag::has_edge(int32_t u, int32_t v) const {
  // Out-lists are short here (a switch's channels times the VLs).
  const std::vector<int32_t> &o = out_[u];
  return std::find(o.begin(), o.end(), v) != o.end();
}

void DynamicDag::add_edge_unchecked(int32_t u, int32_t v) {
  if (has_edge(u, v)) return;
  out_[u].push_back(v);
  in_[v].push_back(u);
  ++edges_;
}

bool DynamicDag::build_order() {
  const int32_t n = num_nodes();
  std::vector<int32_t> indeg(n, 0), queue;
  queue.reserve(n);
  for (int32_t u = 0; u < n; ++u) indeg[u] = static_cast<int32_t>(in_[u].size());
  for (int32_t u = 0; u < n; ++u)
    if (indeg[u] == 0) queue.push_back(u);
  for (size_t h = 0; h < queue.size(); ++h) {
    const int32_t u = queue[h];
    ord_[u] = static_cast<int32_t>(h);
    for (int32_t v : out_[u])
      if (--indeg[v] == 0) queue.push_back(v);
  }
  return static_cast<int32_t>(queue.size()) == n;
}

template <typename Inside, typename Stop>
bool DynamicDag::collect(int32_t start, const std::vector<std::vector<int32_t>> &adj,
                         std::vector<int32_t> &found, Inside inside, Stop stop) {
  stack_.assign(1, start);
  mark_[start] = stamp_;
  while (!stack_.empty()) {
    const int32_t x = stack_.back();
    stack_.pop_back();
    found.push_back(x);
    for (int32_t w : adj[x]) {
      if (stop(w)) return false;
      if (mark_[w] != stamp_ && inside(w)) {
        mark_[w] = stamp_;
        stack_.push_back(w);
      }
    }
  }
  return true;
}

// Nodes reachable from v whose order is below upper, into fwd_; false when
// the node at position upper (the edge's tail) is reached: a cycle.
bool DynamicDag::search_forward(int32_t v, int32_t upper) {
  return collect(
      v, out_, fwd_, [&](int32_t w) { return ord_[w] < upper; },
      [&](int32_t w) { return ord_[w] == upper; });
}

// Nodes that reach u and whose order is above lower, into bwd_.
void DynamicDag::search_backward(int32_t u, int32_t lower) {
  collect(
      u, in_, bwd_, [&](int32_t w) { return ord_[w] > lower; }, [](int32_t) { return false; });
}

bool DynamicDag::add_edge(int32_t u, int32_t v, bool *added_new) {
  if (added_new) *added_new = false;
  if (u == v) return false;
  if (has_edge(u, v)) return true;
  const int32_t lower = ord_[v], upper = ord_[u];
  if (lower < upper) {
    if (++stamp_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0);
      stamp_ = 1;
    }
    fwd_.clear();
    bwd_.clear();
    if (!search_forward(v, upper)) return false;
    search_backward(u, lower);
    // The nodes that reach u move before those reachable from v, reusing
    // the positions both sets held.
    auto by_ord = [this](int32_t a, int32_t b) { return ord_[a] < ord_[b]; };
    std::sort(fwd_.begin(), fwd_.end(), by_ord);
    std::sort(bwd_.begin(), bwd_.end(), by_ord);
    pos_.clear();
    for (int32_t x : bwd_) pos_.push_back(ord_[x]);
    for (int32_t x : fwd_) pos_.push_back(ord_[x]);
    std::sort(pos_.begin(), pos_.end());
    size_t i = 0;
    for (int32_t x : bwd_) ord_[x] = pos_[i++];
    for (int32_t x : fwd_) ord_[x] = pos_[i++];
  }
  out_[u].push_back(v);
  in_[v].push_back(u);
  ++edges_;
  if (added_new) *added_new = true;
  return true;
}

void DynamicDag::remove_last_edge(int32_t u, int32_t v) {
  assert(!out_[u].empty() && out_[u].back() == v && !in_[v].empty() && in_[v].back() == u);
  out_[u].pop_back();
  in_[v].pop_back();
  --edges_;
}

bool DynamicDag::remove_edge(int32_t u, int32_t v) {
  std::vector<int32_t> &o = out_[u];
  auto i = std::find(o.begin(), o.end(), v);
  if (i == o.end()) return false;
  o.erase(i);  // erase, not swap: remove_last_edge() relies on the order of addition
  std::vector<int32_t> &in = in_[v];
  in.erase(std::find(in.begin(), in.end(), u));
  --edges_;
  return true;
}

}  // namespace keiro::graph
