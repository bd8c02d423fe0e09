// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/graph/partition.h"

#include <metis.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace keiro::graph {

bool metis_partition(const Graph &g, std::span<const int64_t> node_weight, int k, int seed,
                     std::vector<int32_t> &part, std::string &err) {
  const int32_t n = g.num_nodes();
  part.assign(n, 0);
  if (k <= 1 || n == 0) return true;
  if (k >= n) {
    std::iota(part.begin(), part.end(), 0);
    return true;
  }
  // METIS wants a simple graph: merge parallel arcs into weighted ones and
  // drop self loops. mark[] remembers the slot of each neighbour of v.
  std::vector<idx_t> xadj(n + 1, 0), adjncy, adjwgt, vwgt(n);
  adjncy.reserve(g.num_arcs());
  adjwgt.reserve(g.num_arcs());
  std::vector<int64_t> slot(n, -1);
  for (int32_t v = 0; v < n; ++v) {
    const size_t row = adjncy.size();
    for (int32_t a = g.begin(v); a < g.end(v); ++a) {
      const int32_t u = g.head[a];
      if (u == v) continue;
      if (slot[u] >= static_cast<int64_t>(row)) {
        ++adjwgt[slot[u]];
      } else {
        slot[u] = static_cast<int64_t>(adjncy.size());
        adjncy.push_back(u);
        adjwgt.push_back(1);
      }
    }
    xadj[v + 1] = static_cast<idx_t>(adjncy.size());
    vwgt[v] = static_cast<idx_t>(std::max<int64_t>(1, node_weight[v]));
  }
  idx_t nvtxs = n, ncon = 1, nparts = k, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = seed;
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> p(n, 0);
  if (adjncy.empty()) adjncy.push_back(0), adjwgt.push_back(1);  // METIS dislikes null arrays
  const int rc =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                          adjwgt.data(), &nparts, nullptr, nullptr, options, &objval, p.data());
  if (rc != METIS_OK) {
    err = "METIS_PartGraphKway failed with code " + std::to_string(rc);
    return false;
  }
  for (int32_t v = 0; v < n; ++v) {
    if (p[v] < 0 || p[v] >= k) {
      err = "METIS_PartGraphKway returned part " + std::to_string(p[v]) + " out of range";
      return false;
    }
    part[v] = static_cast<int32_t>(p[v]);
  }
  return true;
}

std::vector<int32_t> balanced_random_partition(std::span<const int64_t> weight, int k,
                                               uint64_t seed) {
  const auto n = static_cast<int32_t>(weight.size());
  std::vector<int32_t> part(n, 0);
  if (k <= 1) return part;
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int64_t> load(k, 0);
  for (int32_t v : order) {
    const auto lightest =
        static_cast<int32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    part[v] = lightest;
    load[lightest] += weight[v];
  }
  return part;
}

}  // namespace keiro::graph
