// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Splitting weighted items into k parts of similar total weight:
//  - metis_partition: METIS multilevel k-way partitioning (Karypis & Kumar
//    1998) of an undirected graph, minimising the edge cut (parallel edges
//    become one edge of that multiplicity) under METIS' default 3% imbalance
//    tolerance. Time O(n + m) (METIS), memory O(n + m).
//  - balanced_random_partition: items visited in a seeded random order, each
//    put into the currently lightest part. Time O(n log n + n k), memory O(n).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace keiro::graph {

// part[v] in 0..k-1 for every node of g. node_weight: one entry per node
// (values below 1 are raised to 1: METIS needs positive weights). k >= 1;
// with k == 1, or k >= n, no METIS call is made (all in part 0, or one node
// per part). Returns false and sets err when METIS fails.
bool metis_partition(const Graph &g, std::span<const int64_t> node_weight, int k, int seed,
                     std::vector<int32_t> &part, std::string &err);

std::vector<int32_t> balanced_random_partition(std::span<const int64_t> weight, int k,
                                               uint64_t seed);

}  // namespace keiro::graph
