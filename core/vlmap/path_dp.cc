// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/vlmap/path_dp.h"

namespace keiro::vlmap {

PathDp::PathDp(const VlDemand &d, int32_t num_channels, int max_vls)
    : d_(d), C_(num_channels), V_(max_vls) {}

int64_t PathDp::solve(std::span<const Hop> hops, std::span<uint8_t> vls) {
  const auto L = static_cast<int32_t>(hops.size());
  const int V = V_;
  if (best_.size() < static_cast<size_t>(L) * V) {
    best_.resize(static_cast<size_t>(L) * V);
    arg_.resize(static_cast<size_t>(L) * V);
  }
  const bool ranked = d_.ranked();
  for (int32_t j = L - 1; j >= 0; --j) {
    const Hop &hp = hops[j];
    int64_t *b = best_.data() + static_cast<size_t>(j) * V;
    int8_t *a = arg_.data() + static_cast<size_t>(j) * V;
    const int64_t *nb = j + 1 < L ? best_.data() + static_cast<size_t>(j + 1) * V : nullptr;
    // Prefix minimum over the next hop's VLs below v, kept while v rises.
    int64_t pre = kInfeasible;
    int8_t pre_arg = -1;
    int64_t all = kInfeasible;
    int8_t all_arg = -1;
    if (nb && !ranked && !d_.non_increasing)
      for (int v = 0; v < V; ++v)
        if (nb[v] < all) all = nb[v], all_arg = static_cast<int8_t>(v);
    for (int v = 0; v < V; ++v) {
      int64_t tail = 0;
      int8_t targ = -1;
      if (nb) {
        if (!ranked && !d_.non_increasing) {
          tail = all, targ = all_arg;
        } else {
          tail = pre, targ = pre_arg;
          const bool same_ok = ranked ? rank(v, hp.channel) > rank(v, hops[j + 1].channel) : true;
          if (same_ok && nb[v] < tail) tail = nb[v], targ = static_cast<int8_t>(v);
          if (nb[v] < pre) pre = nb[v], pre_arg = static_cast<int8_t>(v);
        }
      }
      a[v] = targ;
      if (v < hp.lo || v > hp.hi || tail >= kInfeasible) {
        b[v] = kInfeasible;
        continue;
      }
      int64_t own = v;
      if (hp.entry_vl < 0)
        own += kNew;
      else if (hp.entry_vl != v)
        own += hp.weight * kEvict + kNew;
      b[v] = own + tail;
    }
  }
  int64_t cost = kInfeasible;
  int v0 = -1;
  for (int v = 0; v < V; ++v)
    if (best_[v] < cost) cost = best_[v], v0 = v;
  if (v0 < 0) return kInfeasible;
  int v = v0;
  for (int32_t j = 0; j < L; ++j) {
    vls[j] = static_cast<uint8_t>(v);
    v = arg_[static_cast<size_t>(j) * V + v];
  }
  return cost;
}

}  // namespace keiro::vlmap
