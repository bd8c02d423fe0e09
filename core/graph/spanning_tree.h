// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Minimum-depth spanning tree of an undirected graph: every node hangs below
// a node of the previous BFS level, so each tree path to the root is a
// shortest path (Nue's escape paths, Section 4.2/4.3, want short tree paths).
// Among the candidate parents a node takes the arc of smallest cost (lets the
// caller steer the tree away from loaded links without making it deeper),
// then, when node heights are given, a parent whose tree path does not turn
// there as a valley (the parent lower than both its own parent and the node),
// then, among parents that are valleys, the one of least valley_weight,
// then the parent with the fewest children so far, then the smallest arc id.
// With heights, the nodes of a level choose in the order of their number of
// candidate parents (fewest first; BFS order among equals), so that the
// fewest-children rule follows the structure more than the order of the ids.
// The children rule makes the tree bushy: traffic that has to follow the
// tree (Nue's escape paths and escape repairs) spreads over more links
// instead of a few long chains.
//
// Time O(n + m), memory O(n).
#pragma once

#include <cstdint>
#include <span>

#include "core/graph/graph.h"

namespace keiro::graph {

// parent_arc[v] = arc (parent -> v) for every reached v != root, -1 for the
// root and for unreachable nodes. arc_cost may be empty (all equal). Returns
// the number of nodes reached (including root). height may be empty (no
// valley rule); otherwise height[v] for every node (Nue passes the heights of
// a layered fabric, nue/escape_paths.h layered_heights). valley_weight
// (empty: all equal) weighs a node as a valley: Nue passes the end ports of
// every switch, since routes that must turn at a valley of the escape tree
// (switch routes on irregular fabrics) pin that switch's own routes to its
// tree channel (docs/nue.md, "Valleys at light switches").
int32_t min_depth_spanning_tree(const Graph &g, int32_t root, std::span<const int64_t> arc_cost,
                                std::span<int32_t> parent_arc, std::span<const int32_t> height = {},
                                std::span<const int64_t> valley_weight = {});

}  // namespace keiro::graph
