// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/layers/lash_layers.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "core/graph/dynamic_dag.h"

namespace keiro::acro {

LashLayers lash_first_fit(const Fabric &f, const minimal::DestTrees &t) {
  const auto t0 = std::chrono::steady_clock::now();
  const int32_t S = f.num_switches();
  // One CDG per layer over the channels: (x, y) when y follows x on a path.
  std::vector<std::unique_ptr<graph::DynamicDag>> layers;
  LashLayers out;
  std::vector<int32_t> path;
  std::vector<std::pair<int32_t, int32_t>> added;  // the edges a path added, for its undo
  for (int32_t src = 0; src < S; ++src) {
    for (int32_t k = 0; k < t.num_dests(); ++k) {
      if (src == t.root[k]) continue;
      path.clear();
      for (int32_t s = src; s != t.root[k]; s = f.channel(path.back()).dst)
        path.push_back(t.hop(k, s));
      size_t i = 0;
      for (;; ++i) {
        if (i == layers.size()) {
          layers.push_back(std::make_unique<graph::DynamicDag>(f.num_channels()));
          out.paths_per_layer.push_back(0);
        }
        graph::DynamicDag &g = *layers[i];
        added.clear();
        size_t j = 0;
        for (bool is_new = false; j + 1 < path.size() && g.add_edge(path[j], path[j + 1], &is_new);
             ++j)
          if (is_new) added.emplace_back(path[j], path[j + 1]);
        if (j + 1 >= path.size()) break;
        for (auto e = added.rbegin(); e != added.rend(); ++e)
          g.remove_last_edge(e->first, e->second);
      }
      ++out.paths_per_layer[i];
    }
  }
  out.num_layers = static_cast<int32_t>(layers.size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace keiro::acro
