// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Connected random d-regular switch graphs for keiro-acro's tests and its
// reproduction of the ACRO paper's evaluation (Sect. 4.1.2: "surely
// connected regular random topologies"). Stubs are paired at random, never
// into a loop or a parallel link (Steger-Wormald style), restarting when the
// pairing gets stuck or the graph is not connected. O(N * d) per attempt.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"

namespace keiro::bench {

inline std::vector<std::pair<int32_t, int32_t>> random_regular_edges(int32_t n, int32_t d,
                                                                     uint64_t seed) {
  if (n < 2 || d < 1 || d >= n || (static_cast<int64_t>(n) * d) % 2)
    throw std::invalid_argument("no simple " + std::to_string(d) + "-regular graph on " +
                                std::to_string(n) + " vertices");
  std::mt19937_64 rng(seed);
  std::vector<std::pair<int32_t, int32_t>> edges;
  std::vector<int32_t> stubs;
  std::vector<std::vector<int32_t>> adj(n);
  auto linked = [&](int32_t u, int32_t v) {
    for (int32_t w : adj[u])
      if (w == v) return true;
    return false;
  };
  for (int attempt = 0; attempt < 10000; ++attempt) {
    edges.clear();
    stubs.clear();
    for (auto &a : adj) a.clear();
    for (int32_t v = 0; v < n; ++v)
      for (int32_t i = 0; i < d; ++i) stubs.push_back(v);
    bool stuck = false;
    while (!stubs.empty() && !stuck) {
      const auto m = static_cast<int32_t>(stubs.size());
      std::uniform_int_distribution<int32_t> pick(0, m - 1);
      int32_t a = -1, b = -1;
      for (int tries = 0; tries < 64 && a < 0; ++tries) {
        const int32_t i = pick(rng), j = pick(rng);
        if (stubs[i] != stubs[j] && !linked(stubs[i], stubs[j])) a = i, b = j;
      }
      for (int32_t i = 0; i < m && a < 0; ++i)  // few stubs left: look at every pair
        for (int32_t j = i + 1; j < m && a < 0; ++j)
          if (stubs[i] != stubs[j] && !linked(stubs[i], stubs[j])) a = i, b = j;
      if (a < 0) {
        stuck = true;
        break;
      }
      const int32_t u = stubs[a], v = stubs[b];
      edges.emplace_back(u, v);
      adj[u].push_back(v);
      adj[v].push_back(u);
      if (a < b) std::swap(a, b);  // remove the higher index first
      stubs[a] = stubs.back();
      stubs.pop_back();
      stubs[b] = stubs.back();
      stubs.pop_back();
    }
    if (stuck) continue;
    std::vector<int32_t> queue{0};
    std::vector<uint8_t> seen(n, 0);
    seen[0] = 1;
    for (size_t i = 0; i < queue.size(); ++i)
      for (int32_t w : adj[queue[i]])
        if (!seen[w]) seen[w] = 1, queue.push_back(w);
    if (static_cast<int32_t>(queue.size()) == n) return edges;
  }
  throw std::runtime_error("could not build a connected random regular graph");
}

// Switches S0..S{n-1} with d + hcas ports: links on ports 1..d, HCAs
// H<s>_<i> on ports d+1..d+hcas. LIDs as OpenSM would give them.
inline Fabric random_regular_fabric(int32_t n, int32_t d, int32_t hcas, uint64_t seed,
                                    uint8_t vls = 8, uint8_t lmc = 0) {
  Fabric f;
  for (int32_t s = 0; s < n; ++s)
    f.add_switch({0x0002c90000000000ull + static_cast<uint64_t>(s) + 1, "S" + std::to_string(s),
                  static_cast<uint8_t>(d + hcas)});
  std::vector<uint8_t> used(n, 0);
  for (auto [u, v] : random_regular_edges(n, d, seed))
    f.add_link(u, static_cast<uint8_t>(++used[u]), v, static_cast<uint8_t>(++used[v]), vls);
  for (int32_t s = 0; s < n; ++s)
    for (int32_t i = 0; i < hcas; ++i) {
      TerminalInfo t;
      t.node_guid = 0x0008f10000000000ull + static_cast<uint64_t>(s) * 64 + i + 1;
      t.port_guid = t.node_guid;
      t.name = "H" + std::to_string(s) + "_" + std::to_string(i);
      t.sw = s;
      t.sw_port = static_cast<uint8_t>(d + 1 + i);
      t.vls = vls;
      f.add_terminal(t);
    }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

}  // namespace keiro::bench
