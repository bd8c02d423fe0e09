// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Betweenness centrality (Freeman 1977) with Brandes' algorithm (2001) for
// unweighted graphs, on a subgraph given by node and arc masks, with optional
// per-node pair weights:
//
//   C(v) = sum over ordered pairs (s, t), s != v != t, s != t, of
//          w(s) * w(t) * sigma_st(v) / sigma_st
//
// sigma_st counts the shortest s-t paths (parallel arcs count as distinct
// paths), sigma_st(v) those through v. With all weights 1 this is the usual
// betweenness over ordered pairs (twice the undirected convention). Nue uses
// the number of destination LIDs of a switch as its weight, so the centre is
// taken with respect to the destinations of a layer (Section 4.3).
//
// Time O(n' * (n' + m')) for the subgraph's n' nodes and m' arcs (one BFS
// and one reverse sweep per source of nonzero weight). Memory O(n + m).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/graph/graph.h"

namespace keiro::graph {

// node_in / arc_in may be null (whole graph); weight may be empty (all 1).
std::vector<double> betweenness(const Graph &g, const uint8_t *node_in, const uint8_t *arc_in,
                                std::span<const double> weight = {});

// The node of the subgraph with the largest value (ties: smallest id), -1 if
// the subgraph is empty. Values within a relative 1e-9 count as equal.
int32_t most_central(std::span<const double> centrality, const uint8_t *node_in);

// The same choice with the exact ties (within the same 1e-9) broken by the
// structure instead of the ids: the smallest weighted distance sum to the
// subgraph's nodes (sum of weight[t] * hops, all weights 1 when empty), then
// the smallest eccentricity over the nodes of nonzero weight, and only among
// nodes equal in all three the smallest id (on symmetric fabrics such nodes
// are usually images of each other under an automorphism). A BFS in the
// subgraph per tied node: O(ties * (n' + m')) on top of the betweenness.
int32_t most_central(const Graph &g, std::span<const double> centrality, const uint8_t *node_in,
                     const uint8_t *arc_in, std::span<const double> weight = {});

}  // namespace keiro::graph
