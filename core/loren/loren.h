// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// LOREN, layout-oriented routing with entries for neighbours (R. Kawano,
// H. Nakahara, I. Fujiwara, H. Matsutani, M. Koibuchi, H. Amano, "LOREN: A
// Scalable Routing Method for Layout-conscious Random Topologies", CANDAR
// 2016: Algorithm 1 and Sect. V), as one call: balanced shortest-path
// trees (core/minimal/balanced.h) -> compact tables (Algorithm 1,
// core/loren/tables.h) -> the forwarding rule of Sect. V expanded into
// destination-based next hops and checked for livelock
// (core/loren/forward.h). Deadlock freedom is added by the engine
// (core/loren/engine.h) through ACRO and the VL realization.
//
// Time: O(S * (S + C) + S^2 * t) for S switches, C channels, t = t_max.
// Memory: O(S^2).
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/loren/layout.h"
#include "core/loren/tables.h"
#include "core/minimal/dest_trees.h"

namespace keiro::loren {

struct LorenOptions {
  int32_t tmax = 0;   // 0: the smallest t_max that works (LorenTables::required)
  uint64_t seed = 0;  // balanced minimal routing's destination order (0: switch order)
};

struct LorenRouting {
  minimal::DestTrees shortest;  // the balanced shortest-path trees the tables start from
  LorenTables tables;
  minimal::DestTrees trees;  // LOREN's next hops, destination k = switch k
  // Hop counts over ordered pairs of distinct switches (the paper's "average
  // path length"), LOREN's and the shortest.
  double avg_hops = 0, avg_min_hops = 0;
  int32_t max_hops = 0, max_min_hops = 0;
  double max_stretch = 1;  // largest LOREN hops / shortest hops over the pairs
};

// Fails with one line in err (not connected, t_max too small, livelock).
bool route(const Fabric &f, const Layout &layout, const LorenOptions &opt, LorenRouting &out,
           std::string &err);

}  // namespace keiro::loren
