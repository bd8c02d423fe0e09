// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Random regular switch graphs: the pairing algorithm of Steger and Wormald
// (pick two random free stubs, accept when they join distinct, not yet
// adjacent switches; when random draws keep failing, choose among all
// acceptable pairs; restart when none is left), repeated until connected.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "core/topo/families.h"
#include "core/topo/graph_metrics.h"
#include "core/topo/rng.h"

namespace keiro::topo {

namespace {
uint64_t key(int32_t u, int32_t v) {
  if (u > v) std::swap(u, v);
  return (static_cast<uint64_t>(u) << 32) | static_cast<uint32_t>(v);
}

// One attempt; false when the pairing got stuck.
bool pair_stubs(int n, int d, Rng &rng, std::vector<std::pair<int32_t, int32_t>> &edges) {
  std::vector<int32_t> stubs;
  stubs.reserve(static_cast<size_t>(n) * d);
  for (int v = 0; v < n; ++v)
    for (int j = 0; j < d; ++j) stubs.push_back(v);
  std::unordered_set<uint64_t> adj;
  edges.clear();
  auto take = [&](size_t i, size_t j) {  // removes stubs i and j
    if (i < j) std::swap(i, j);
    stubs[i] = stubs.back();
    stubs.pop_back();
    stubs[j] = stubs.back();
    stubs.pop_back();
  };
  while (!stubs.empty()) {
    bool done = false;
    for (int tries = 0; tries < 64 && !done; ++tries) {
      const size_t i = rng.below(stubs.size()), j = rng.below(stubs.size());
      const int32_t u = stubs[i], v = stubs[j];
      if (i == j || u == v || adj.count(key(u, v))) continue;
      adj.insert(key(u, v));
      edges.emplace_back(std::min(u, v), std::max(u, v));
      take(i, j);
      done = true;
    }
    if (done) continue;
    // Enumerate the acceptable stub pairs and pick one.
    std::vector<std::pair<size_t, size_t>> ok;
    for (size_t i = 0; i < stubs.size(); ++i)
      for (size_t j = i + 1; j < stubs.size(); ++j)
        if (stubs[i] != stubs[j] && !adj.count(key(stubs[i], stubs[j]))) ok.emplace_back(i, j);
    if (ok.empty()) return false;
    const auto [i, j] = ok[rng.below(ok.size())];
    const int32_t u = stubs[i], v = stubs[j];
    adj.insert(key(u, v));
    edges.emplace_back(std::min(u, v), std::max(u, v));
    take(i, j);
  }
  return true;
}
}  // namespace

GenFabric gen_random_regular(int n, int d, const TopoOptions &o) {
  if (n < 2) throw TopoError("random: need at least 2 switches");
  if (d < 1 || d >= n) throw TopoError("random: degree must be between 1 and N-1");
  if ((static_cast<long>(n) * d) % 2) throw TopoError("random: N * d must be even");
  if (n > 2 && d < 2) throw TopoError("random: degree 1 cannot connect more than 2 switches");
  Rng rng(o.seed);
  GenFabric g;
  g.family = Family::kRandom;
  g.radix = o.radix;
  for (int v = 0; v < n; ++v) g.add_switch("random " + std::to_string(v), v);
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 1000) throw TopoError("random: no connected graph found in 1000 attempts");
    if (!pair_stubs(n, d, rng, edges)) continue;
    g.links.clear();
    std::sort(edges.begin(), edges.end());
    for (auto [u, v] : edges) g.link(u, 0, v, 0);
    if (connected(adjacency(g))) break;
  }
  number_ports_in_order(g);
  apply_redundancy(g, o.redundancy);
  g.place_hcas(o.hcas < 0 ? 1 : o.hcas, "random " + std::to_string(n) + " " + std::to_string(d));
  return g;
}

}  // namespace keiro::topo
