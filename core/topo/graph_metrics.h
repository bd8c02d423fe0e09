// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Switch-graph measures used by the generators and their tests: adjacency
// (parallel links kept), connectivity, BFS distances, diameter.
//
// adjacency(): O(S + L). connected()/bfs(): O(S + L). diameter(): O(S * (S + L)).
#pragma once

#include <cstdint>
#include <vector>

#include "core/topo/gen_fabric.h"

namespace keiro::topo {

using Adjacency = std::vector<std::vector<int32_t>>;

Adjacency adjacency(const GenFabric &g);
// Links with skip[i] set are left out.
Adjacency adjacency(const GenFabric &g, const std::vector<char> &skip);
bool connected(const Adjacency &adj);
// Hop distances from src (-1 = unreachable); dist is resized.
void bfs(const Adjacency &adj, int32_t src, std::vector<int32_t> &dist);
// Largest finite distance from src.
int32_t eccentricity(const Adjacency &adj, int32_t src);
// -1 when disconnected.
int32_t diameter(const Adjacency &adj);

}  // namespace keiro::topo
