// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/vlmap/dest_dp.h"

#include <algorithm>
#include <cassert>

namespace keiro::vlmap {

DestDp::DestDp(const Fabric &f, const minimal::DestTrees &t, const VlDemand &d, const TurnTable &tt)
    : f_(f), t_(t), d_(d), tt_(tt), S_(f.num_switches()) {
  depth_.resize(S_);
  order_.resize(S_);
  parent_.resize(S_);
  tsrc_.resize(S_);
  tin_.resize(S_);
  cnt_.resize(S_);
  a_.resize(S_);
  lo_.resize(S_);
  hi_.resize(S_);
  top_.resize(S_);
  ok_.resize(S_);
}

void DestDp::load(int32_t k, int V) {
  assert(V >= 1 && V <= kMaxDataVls && "DestDp::load: V out of range");
  k_ = k;
  V_ = V;
  root_ = t_.root[k];
  minimal::tree_depths(f_, t_, k, depth_);
  minimal::deepest_first(depth_, count_, order_);
  const bool bounded = !d_.lo.empty();
  const bool ranked = d_.ranked();
  const int32_t C = f_.num_channels();
  const size_t kb = static_cast<size_t>(k) * S_;
  for (int32_t x = 0; x < S_; ++x) {
    if (x == root_) {
      parent_[x] = -1;
      continue;
    }
    const int32_t c = t_.hop(k, x);
    const int32_t p = f_.channel(c).dst;
    parent_[x] = p;
    tsrc_[x] = tt_.turn(-1, c);
    lo_[x] = bounded ? d_.lo[kb + x] : 0;
    hi_[x] = static_cast<uint8_t>(std::min<int>(bounded ? d_.hi[kb + x] : V - 1, V - 1));
    if (p == root_) {
      tin_[x] = -1;
      top_[x] = 1;
      continue;
    }
    const int32_t cp = t_.hop(k, p);
    tin_[x] = tt_.turn(c, cp);
    top_[x] = !ranked && !d_.non_increasing;
    ok_[x] = d_.same_vl_mask(c, cp, V, C);
  }
  h_.resize(static_cast<size_t>(S_) * V);
  acc_.resize(static_cast<size_t>(S_) * (V + 1));
}

void DestDp::bottom_up(const int8_t *entries, std::span<const int8_t> sl) {
  const int V = V_;
  auto entry = [&](int32_t turn) -> int { return entries ? entries[turn] : -1; };
  std::fill(acc_.begin(), acc_.end(), 0);
  std::fill(cnt_.begin(), cnt_.end(), 0);
  // Bottom-up: H(x, t) and each subtree's share in its parent's acc.
  for (int32_t i = 0; i < S_; ++i) {
    const int32_t x = order_[i];
    if (x == root_) continue;
    const bool pending = sl[x] < 0;
    const int32_t cnt = cnt_[x] + (pending ? 1 : 0);
    cnt_[x] = cnt;
    if (cnt == 0) continue;
    const int hi = hi_[x];
    const int es = pending ? entry(tsrc_[x]) : -1;
    const int64_t *acc = acc_.data() + static_cast<size_t>(x) * (V + 1);
    int64_t *h = h_.data() + static_cast<size_t>(x) * V;
    auto score = [&](int a) {
      int64_t s = acc[a];
      if (pending) {
        if (es >= 0) {
          if (a <= es && es <= hi) s += kServed;
        } else if (a <= hi) {
          s += kServed - kNew - cost(tsrc_[x], pick(tsrc_[x], a, hi));
        }
      }
      return s;
    };
    if (top_[x]) {
      const int64_t s = score(std::min<int>(lo_[x], V));
      for (int t = 0; t < V; ++t) h[t] = s;
    } else {
      for (int t = 0; t < V; ++t) h[t] = score(std::min(first(x, t), V));
    }
    const int32_t p = parent_[x];
    if (tin_[x] < 0) continue;  // p is the root
    cnt_[p] += cnt;
    // x's share at p for the range [a, hi(p)]: max(0, max over v in it).
    int64_t *pacc = acc_.data() + static_cast<size_t>(p) * (V + 1);
    const int e = entry(tin_[x]);
    int64_t m = 0;
    for (int v = hi_[p]; v >= 0; --v) {
      if (e < 0)
        m = std::max(m, h[v] - kNew - cost(tin_[x], v));
      else if (v == e)
        m = std::max(m, h[v]);
      pacc[v] += m;
    }
  }
}

int32_t DestDp::serve(std::span<int8_t> entries, std::span<int8_t> sl, int q, int &max_vl,
                      std::span<uint8_t> top) {
  const int V = V_;
  const bool table = !entries.empty();
  auto entry = [&](int32_t turn) -> int { return table ? entries[turn] : -1; };
  bottom_up(table ? entries.data() : nullptr, sl);

  // Top-down: replay the choices, write the new entries, give the SL.
  int32_t served = 0;
  for (int32_t i = S_ - 1; i >= 0; --i) {
    const int32_t x = order_[i];
    if (x == root_) continue;
    a_[x] = V + 1;  // unused
    if (cnt_[x] == 0) continue;
    const int64_t *h = h_.data() + static_cast<size_t>(x) * V;
    int a;
    if (tin_[x] < 0) {
      if (h[0] <= 0) continue;
      a = lo_[x];
    } else {
      const int32_t p = parent_[x];
      const int ap = a_[p], hp = hi_[p];
      if (ap > hp) continue;
      const int e = entry(tin_[x]);
      int v = -1;
      int64_t best = 0;
      if (e >= 0) {
        if (ap <= e && e <= hp && h[e] > 0) v = e;
      } else {
        for (int w = ap; w <= hp; ++w)
          if (h[w] - kNew - cost(tin_[x], w) > best) best = h[w] - kNew - cost(tin_[x], w), v = w;
      }
      if (v < 0) continue;
      if (e < 0 && table) entries[tin_[x]] = static_cast<int8_t>(v);
      if (!record_.empty())
        record_[tin_[x]] = std::max<int8_t>(record_[tin_[x]], static_cast<int8_t>(v));
      max_vl = std::max(max_vl, v);
      a = first(x, v);
    }
    a_[x] = a;
    if (sl[x] >= 0 || a > hi_[x]) continue;
    const int es = entry(tsrc_[x]);
    if (es >= 0) {
      if (es < a || es > hi_[x]) continue;
      max_vl = std::max(max_vl, es);
      if (!top.empty()) top[x] = static_cast<uint8_t>(es);
    } else {
      const int v = pick(tsrc_[x], a, hi_[x]);
      if (table) entries[tsrc_[x]] = static_cast<int8_t>(v);
      if (!record_.empty())
        record_[tsrc_[x]] = std::max<int8_t>(record_[tsrc_[x]], static_cast<int8_t>(v));
      max_vl = std::max(max_vl, v);
      if (!top.empty()) top[x] = static_cast<uint8_t>(v);
    }
    sl[x] = static_cast<int8_t>(q);
    ++served;
  }
  return served;
}

}  // namespace keiro::vlmap
