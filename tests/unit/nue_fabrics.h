// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Test and benchmark helpers for keiro-nue: small fabric generators (random
// regular graphs, tori with failed links, hand-made examples from the Nue
// paper), an ibsim .net writer for the same fabrics, and an independent
// checker that walks the LFTs and builds the (channel, VL) dependency graph
// of the routes to assert reachability, loop freedom and acyclicity.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::nuetest {

// A fabric of n switches with the given undirected switch links (parallel
// links allowed) and hcas CA ports per switch; LIDs assigned with lmc.
// Switch i is named "S<i>", GUID 0x1000 + i; port numbers: links first.
Fabric make_fabric(int32_t n, const std::vector<std::pair<int32_t, int32_t>> &links, int hcas,
                   uint8_t lmc = 0, uint8_t vls = 8);

// Edges of a random simple d-regular graph on n switches (connected),
// built from a circulant graph by seeded random double-edge swaps.
std::vector<std::pair<int32_t, int32_t>> random_regular_links(int32_t n, int d, uint64_t seed);

// Edges of an x*y*z torus (wrap links, no duplicates for size-2 rings) with
// round(fail_fraction * links) random links removed, keeping it connected.
std::vector<std::pair<int32_t, int32_t>> torus_links(int x, int y, int z, double fail_fraction,
                                                     uint64_t seed);

// The first channel from switch a to switch b, -1 if none.
int32_t channel_between(const Fabric &f, int32_t a, int32_t b);

// Writes an ibsim net file for f (switches "S<i>", CAs "H<i>"); returns false
// on I/O error. CA records come first so that the SM binds to a CA.
bool write_ibsim_net(const Fabric &f, const std::string &path);

struct RouteCheck {
  bool ok = true;
  std::string problem;               // first problem found
  int64_t paths = 0;                 // (switch, LID) walks
  int64_t max_hops = 0;              // longest switch-to-switch path
  double avg_hops = 0;               // average switch hops over CA->CA paths
  int64_t max_efi = 0, min_efi = 0;  // edge forwarding index over CA->CA paths
  double avg_efi = 0;
  int vls = 0;  // distinct VLs on switch-to-switch hops
};

// Walks every (switch, LID) route, checks that it reaches the LID's port
// without loops, and that the dependency graph over (channel, VL) (VL from
// the path SL of the LID and the SL2VL entry of each hop) is acyclic. Also
// computes the hop and edge-forwarding-index figures over all pairs of CA
// base LIDs.
RouteCheck check_routes(const Fabric &f, const Routing &r);

}  // namespace keiro::nuetest
