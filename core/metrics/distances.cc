// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/distances.h"

#include <algorithm>

#include "core/graph/bfs.h"

namespace keiro::metrics {

SwitchDistances::SwitchDistances(const Fabric &f) : n_(f.num_switches()) {
  d_.assign(static_cast<size_t>(n_) * n_, kUnreachable);
  std::vector<int32_t> dist(n_), order(n_);
  for (int32_t a = 0; a < n_; ++a) {
    const int32_t reached = graph::switch_bfs(f, a, dist, order);
    uint8_t *row = d_.data() + static_cast<size_t>(a) * n_;
    for (int32_t i = 0; i < reached; ++i)
      row[order[i]] = static_cast<uint8_t>(std::min(dist[order[i]], 254));
  }
}

}  // namespace keiro::metrics
