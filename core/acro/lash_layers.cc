// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/acro/lash_layers.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace keiro::acro {

namespace {

// The CDG of one layer over the channels, with a topological order kept by
// Pearce-Kelly (Pearce & Kelly, "A dynamic topological sort algorithm for
// directed acyclic graphs", JEA 2006). Edge (x, y): y follows x on a path,
// so y leaves the switch x enters; counts are stored per (x, slot of y).
class LayerCdg {
 public:
  LayerCdg(const Fabric &f, int32_t maxdeg)
      : f_(f),
        maxdeg_(maxdeg),
        cnt_(static_cast<size_t>(f.num_channels()) * maxdeg, 0),
        ord_(f.num_channels()),
        at_(f.num_channels()),
        seen_(f.num_channels(), 0) {
    for (int32_t c = 0; c < f.num_channels(); ++c) ord_[c] = at_[c] = c;
  }

  // Adds one use of edge (x, y); false (and nothing changed) if it would
  // close a cycle.
  bool add(int32_t x, int32_t y) {
    int32_t &n = cnt_[slot(x, y)];
    if (n > 0 || ord_[x] < ord_[y]) {
      ++n;
      return true;
    }
    // Pearce-Kelly: the affected region is ord in [ord[y], ord[x]].
    const int32_t lb = ord_[y], ub = ord_[x];
    ++stamp_;
    fwd_.clear();
    if (!forward(y, x, ub)) return false;
    back_.clear();
    backward(x, lb);
    auto by_ord = [&](int32_t a, int32_t b) { return ord_[a] < ord_[b]; };
    std::sort(fwd_.begin(), fwd_.end(), by_ord);
    std::sort(back_.begin(), back_.end(), by_ord);
    pos_.clear();
    for (int32_t v : back_) pos_.push_back(ord_[v]);
    for (int32_t v : fwd_) pos_.push_back(ord_[v]);
    std::sort(pos_.begin(), pos_.end());
    size_t i = 0;
    for (int32_t v : back_) place(v, pos_[i++]);
    for (int32_t v : fwd_) place(v, pos_[i++]);
    ++n;
    return true;
  }
  void remove(int32_t x, int32_t y) { --cnt_[slot(x, y)]; }

 private:
  size_t slot(int32_t x, int32_t y) const {
    return static_cast<size_t>(x) * maxdeg_ + (y - f_.out_begin(f_.channel(x).dst));
  }
  void place(int32_t v, int32_t p) {
    ord_[v] = p;
    at_[p] = v;
  }
  // Depth-first search from start over nodes not seen in this round, each
  // appended to out. step(v, push) offers v's neighbours through push(w)
  // and returns false to stop the search (then dfs returns false).
  template <class Step>
  bool dfs(int32_t start, std::vector<int32_t> &out, Step step) {
    stack_.clear();
    stack_.push_back(start);
    seen_[start] = stamp_;
    auto push = [&](int32_t w) {
      if (seen_[w] == stamp_) return;
      seen_[w] = stamp_;
      stack_.push_back(w);
    };
    while (!stack_.empty()) {
      const int32_t v = stack_.back();
      stack_.pop_back();
      out.push_back(v);
      if (!step(v, push)) return false;
    }
    return true;
  }
  // DFS along edges from y over nodes with ord <= ub; false when x is found.
  bool forward(int32_t y, int32_t x, int32_t ub) {
    return dfs(y, fwd_, [&](int32_t v, auto &push) {
      const int32_t sw = f_.channel(v).dst;
      for (int32_t w = f_.out_begin(sw); w < f_.out_end(sw); ++w) {
        if (!cnt_[slot(v, w)]) continue;
        if (w == x) return false;
        if (ord_[w] < ub) push(w);
      }
      return true;
    });
  }
  // DFS against edges from x over nodes with ord >= lb.
  void backward(int32_t x, int32_t lb) {
    dfs(x, back_, [&](int32_t v, auto &push) {
      for (int32_t w : f_.in_channels(f_.channel(v).src))
        if (cnt_[slot(w, v)] && ord_[w] > lb) push(w);
      return true;
    });
  }

  const Fabric &f_;
  int32_t maxdeg_;
  std::vector<int32_t> cnt_, ord_, at_;
  std::vector<uint32_t> seen_;
  uint32_t stamp_ = 0;
  std::vector<int32_t> stack_, fwd_, back_, pos_;
};

}  // namespace

LashLayers lash_first_fit(const Fabric &f, const minimal::DestTrees &t) {
  const auto t0 = std::chrono::steady_clock::now();
  const int32_t S = f.num_switches();
  int32_t maxdeg = 1;
  for (int32_t s = 0; s < S; ++s) maxdeg = std::max(maxdeg, f.degree(s));
  std::vector<std::unique_ptr<LayerCdg>> layers;
  LashLayers out;
  std::vector<int32_t> path;
  for (int32_t src = 0; src < S; ++src) {
    for (int32_t k = 0; k < t.num_dests(); ++k) {
      if (src == t.root[k]) continue;
      path.clear();
      for (int32_t s = src; s != t.root[k]; s = f.channel(path.back()).dst)
        path.push_back(t.hop(k, s));
      size_t i = 0;
      for (;; ++i) {
        if (i == layers.size()) {
          layers.push_back(std::make_unique<LayerCdg>(f, maxdeg));
          out.paths_per_layer.push_back(0);
        }
        LayerCdg &g = *layers[i];
        size_t j = 0;
        while (j + 1 < path.size() && g.add(path[j], path[j + 1])) ++j;
        if (j + 1 >= path.size()) break;
        while (j > 0) {
          --j;
          g.remove(path[j], path[j + 1]);
        }
      }
      ++out.paths_per_layer[i];
    }
  }
  out.num_layers = static_cast<int32_t>(layers.size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace keiro::acro
