// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/minimal/balanced.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "core/graph/bfs.h"
#include "core/log.h"

namespace keiro::minimal {

std::vector<int64_t> switch_weights(const Fabric &f) {
  std::vector<int64_t> w(f.num_switches());
  for (int32_t s = 0; s < f.num_switches(); ++s)
    w[s] = f.num_terminals() ? static_cast<int64_t>(f.terminals_of(s).size()) : 1;
  return w;
}

namespace {

// Scratch and loads of one run.
class Balancer {
 public:
  Balancer(const Fabric &f, DestTrees &t)
      : f_(f),
        t_(t),
        S_(f.num_switches()),
        weight_(switch_weights(f)),
        dist_(S_),
        bfs_(S_),
        sub_(S_),
        cost_(S_),
        load_(f.num_channels(), 0),
        trees_(f.num_channels(), 0) {}

  // BFS from d; false if some switch cannot reach d.
  bool distances(int32_t d) { return graph::switch_bfs(f_, d, dist_, bfs_) == S_; }
  int32_t unreached() const {
    int32_t s = 0;
    while (dist_[s] >= 0) ++s;
    return s;
  }

  // Step 2: the least-loaded shortest path from every switch (needs distances(d)).
  void route(int32_t d) {
    int32_t *next = t_.next.data() + static_cast<size_t>(d) * S_;
    cost_[d] = 0;
    for (int32_t i = 1; i < S_; ++i) {
      const int32_t s = bfs_[i];
      int32_t best = -1;
      int64_t best_cost = 0;
      for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
        const int32_t y = f_.channel(c).dst;
        if (dist_[y] != dist_[s] - 1) continue;
        const int64_t v = load_[c] + cost_[y];
        if (best < 0 || v < best_cost || (v == best_cost && trees_[c] < trees_[best])) {
          best = c;
          best_cost = v;
        }
      }
      next[s] = best;
      cost_[s] = best_cost;
    }
  }

  // Step 3: adds (sign 1) or removes (sign -1) the loads of d's tree (needs distances(d)).
  void account(int32_t d, int64_t sign) {
    const int32_t *next = t_.next.data() + static_cast<size_t>(d) * S_;
    for (int32_t s = 0; s < S_; ++s) sub_[s] = weight_[s];
    for (int32_t i = S_ - 1; i > 0; --i) {  // farthest first: subtree weights are final
      const int32_t s = bfs_[i], c = next[s];
      load_[c] += sign * sub_[s] * weight_[d];
      trees_[c] += sign;
      sub_[f_.channel(c).dst] += sub_[s];
    }
  }

 private:
  const Fabric &f_;
  DestTrees &t_;
  int32_t S_;
  std::vector<int64_t> weight_;
  std::vector<int32_t> dist_, bfs_;
  std::vector<int64_t> sub_, cost_, load_, trees_;
};

}  // namespace

bool balanced_routing(const Fabric &f, const BalancedOptions &opt, DestTrees &out,
                      std::string &err) {
  const int32_t S = f.num_switches();
  out.reset(S, S);
  std::vector<uint16_t> own;
  for (int32_t d = 0; d < S; ++d) {
    out.root[d] = d;
    switch_lids(f, d, own);
    out.lids.insert(out.lids.end(), own.begin(), own.end());
    out.lid_start[d + 1] = static_cast<int32_t>(out.lids.size());
  }
  std::vector<int32_t> dests(S);
  std::iota(dests.begin(), dests.end(), 0);
  if (opt.seed) std::shuffle(dests.begin(), dests.end(), std::mt19937_64(opt.seed));

  Balancer b(f, out);
  for (int32_t d : dests) {
    if (!b.distances(d)) {
      err = strprintf("switch '%s' cannot reach switch '%s': the fabric is not connected",
                      f.sw(b.unreached()).name.c_str(), f.sw(d).name.c_str());
      return false;
    }
    b.route(d);
    b.account(d, 1);
  }
  for (int32_t pass = 0; pass < opt.refine; ++pass)
    for (int32_t d : dests) {
      b.distances(d);
      b.account(d, -1);
      b.route(d);
      b.account(d, 1);
    }
  return true;
}

}  // namespace keiro::minimal
