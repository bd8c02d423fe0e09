// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue's destinations and their split into k virtual layers (Domke et al.
// 2016, Algorithm 2 line 1 and Section 4.5).
//
// A destination port is a switch's port 0 or a CA/router port; all its LIDs
// (LMC) share one layer. Partitioning methods (option nue_partition):
//  - metis:   METIS k-way partitioning of the switch graph, each switch
//             weighted by its number of destination LIDs, edges by the number
//             of parallel links; a port takes its switch's layer. Layers are
//             then compact regions of the fabric, which keeps each layer's
//             convex subgraph small and its escape paths cheap (the paper
//             found multilevel k-way best).
//  - cluster: whole switches (the paper's "partial clustering": all ports of
//             a switch together), in a seeded random order, each to the
//             layer with the fewest LIDs so far.
//  - random:  single ports in a seeded random order, each to the layer with
//             the fewest LIDs so far.
// Layers that end up empty are dropped and the rest renumbered 0..m-1, so
// the layer number is the path SL and VL.
//
// Time: O(S + C + P log P) plus METIS' O(S + C). Memory O(S + C + P).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace keiro {
class Fabric;
}

namespace keiro::nue {

struct DestinationPort {
  int32_t sw = -1;   // switch the LIDs belong to or hang off
  uint8_t port = 0;  // egress port on sw (0 for the switch's own LIDs)
  bool is_switch = false;
  uint16_t lid = 0;       // base LID
  uint16_t num_lids = 1;  // 2^LMC
};

// Every port with a LID: CA/router ports in terminal order, then switches.
std::vector<DestinationPort> destination_ports(const Fabric &f);

enum class PartitionMethod { kMetis, kCluster, kRandom };
// "metis", "cluster", "random"; false for anything else.
bool parse_partition_method(const std::string &name, PartitionMethod &m);
// The word of m ("metis", "cluster", "random").
const char *partition_name(PartitionMethod m);

// layer[i] for every port i (0..m-1); returns m, the number of non-empty
// layers, or -1 with err set when METIS fails.
int assign_layers(const graph::Graph &switches, std::span<const DestinationPort> ports, int k,
                  PartitionMethod method, int seed, std::vector<int32_t> &layer, std::string &err);

// Re-routing (docs/rerouting.md): every port whose base LID has a previous
// layer previous[lid] < k takes that layer (its path SL stays), the others
// keep layer[i]. A layer below the highest that would be left empty gets
// one port without a previous layer; if there is none, layer is left as it
// was and -1 returned. Returns the layer count; pinned = ports pinned.
// O(P + k).
int pin_previous_layers(std::span<const DestinationPort> ports, std::span<const uint8_t> previous,
                        int k, std::vector<int32_t> &layer, int32_t &pinned);

}  // namespace keiro::nue
