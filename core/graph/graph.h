// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A static directed multigraph in CSR form, the input of the generic graph
// algorithms in core/graph/. Nodes are 0..n-1, arcs 0..m-1; the arcs leaving
// node v are the contiguous range [begin(v), end(v)). An undirected graph
// stores every edge as two arcs that name each other in reverse[] (parallel
// edges are separate arc pairs).
//
// switch_graph() views a finalized Fabric as a Graph whose arc ids are the
// fabric's channel ids, so results indexed by arc (spanning-tree parents,
// masks) can be used as channel ids directly.
//
// Memory: O(n + m). Construction: O(n + m log m) (graph_from_edges sorts).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace keiro {
class Fabric;
}

namespace keiro::graph {

struct Graph {
  std::vector<int32_t> first;    // n + 1 offsets into the arc arrays
  std::vector<int32_t> tail;     // source node of each arc
  std::vector<int32_t> head;     // target node of each arc
  std::vector<int32_t> reverse;  // the opposite arc of the same edge, or -1

  int32_t num_nodes() const { return first.empty() ? 0 : static_cast<int32_t>(first.size()) - 1; }
  int32_t num_arcs() const { return static_cast<int32_t>(head.size()); }
  int32_t begin(int32_t v) const { return first[v]; }
  int32_t end(int32_t v) const { return first[v + 1]; }
  int32_t degree(int32_t v) const { return first[v + 1] - first[v]; }
};

// An undirected graph on n nodes from a list of edges {u, v} (u != v); every
// edge becomes two arcs. Arcs of a node keep the order of the edge list.
Graph graph_from_edges(int32_t n, std::span<const std::pair<int32_t, int32_t>> edges);

// The switch graph of a finalized fabric: node = switch, arc = channel (same ids).
Graph switch_graph(const Fabric &f);

}  // namespace keiro::graph
