// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The baseline of the ACRO paper's comparison (Sect. 4.1.1): LASH-style
// layer assignment on given routes. Every path (source switch, destination)
// goes whole into the first layer whose channel dependency graph stays
// acyclic with the path's dependencies added; a new layer is opened when no
// layer takes it. Paths are taken source by source, destinations in order.
//
// Each layer's CDG is a graph::DynamicDag over the channels: a topological
// order updated on edge insertion with the Pearce-Kelly online algorithm,
// so a cycle check only visits the part of the graph between the two ends
// of a new edge. A path whose insertion fails halfway has its new edges
// removed again, last first (removal never invalidates the order).
// Time: O(P * n * L * (affected region)) in practice; memory O(n * (C + E))
// for n layers, P paths of length L, E dependencies of a layer.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::acro {

struct LashLayers {
  int32_t num_layers = 0;
  std::vector<int64_t> paths_per_layer;
  double seconds = 0;
};

// Requires validated trees.
LashLayers lash_first_fit(const Fabric &f, const minimal::DestTrees &t);

}  // namespace keiro::acro
