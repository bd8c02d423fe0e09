// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The convex subgraph of a node set T in an undirected graph (Nue, Definition
// 8): every node and edge that lies on some shortest path between two nodes
// of T, plus T itself.
//
// Computed with one BFS per node x of T (forward step) and one reverse sweep
// over the shortest-path DAG from the other nodes of T back to x (backward
// step). Time O(|T| * (n + m)), memory O(n + m).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/graph/graph.h"

namespace keiro::graph {

struct ConvexSubgraph {
  std::vector<uint8_t> node_in;  // per node: 1 if in the subgraph
  std::vector<uint8_t> arc_in;   // per arc: 1 if in the subgraph (both arcs of an edge)
  int32_t num_nodes = 0;
};

// g must be undirected (every arc has a reverse). Duplicates in terminals are
// allowed. If terminals holds every node, the result is the whole graph.
ConvexSubgraph convex_subgraph(const Graph &g, std::span<const int32_t> terminals);

}  // namespace keiro::graph
