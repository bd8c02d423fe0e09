// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Path selection of DL routing (paper Section 3.3, step 4): once the search
// (dest_search.h) has labelled every switch, each switch picks one of its
// equally short legal channels: with "lowest" choices those that keep its
// lowest rank (the paper's step 3: start in the lowest sub-network that
// still gives a shortest path); with "slack" choices every channel that
// keeps its hop count and stays within the search's limit(), i.e. may use a
// higher sub-network where that leaves every switch behind a legal choice.
// Either way every path stays legal and as short as the search made it.
//
// Policies (the paper's "path selection algorithms"):
//   kLowPort  the channel on the lowest port ("low-port first"),
//   kRandom   a uniformly random one (seeded, reproducible),
//   kLoad     a static analysis of the paths already placed, in the spirit
//             of Sancho's and Koibuchi's methods: the candidate whose whole
//             path to d has the smallest maximum channel load, then the
//             smallest sum of loads, then the lowest port.
// Loads count routes, (source terminal, destination terminal) pairs, as the
// edge forwarding index does (core/minimal/forwarding_index.h). Switches
// pick nearest first, so the path behind each candidate is already fixed;
// each pick puts the switch's own routes (its terminals times the
// destination's) on every channel of its path. With kLoad the caller may
// take a destination's routes off again (remove()) and pick anew with
// everything else in place (rip-up and reroute, dl.h).
//
// Time O(C * H) per destination (H = longest path), memory O(S + C), no
// allocation per destination.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string_view>
#include <vector>

#include "core/dl/dest_search.h"
#include "core/fabric.h"

namespace keiro::dl {

enum class Policy : uint8_t { kLowPort, kRandom, kLoad };

// Option spelling: "lowport", "random", "load".
bool parse_policy(std::string_view text, Policy &out);
const char *policy_name(Policy p);

class PathSelector {
 public:
  // weight: per switch, its sources (terminals, or 1 per switch without terminals).
  // slack: pick among all channels that keep the depth and stay within the
  // search's limit() (else only among those that keep the search's rank).
  PathSelector(const Fabric &f, Policy policy, uint64_t seed, std::span<const int64_t> weight,
               bool slack);

  // Writes next[s] for every switch (-1 at d) from the labels of search,
  // and adds the routes to the channel loads. Only next[] entries of
  // switches nearer to d than s are read when s picks. dest_weight: destinations
  // (terminal base LIDs) the tree serves.
  void select(const DestSearch &search, int32_t d, int64_t dest_weight, std::span<int32_t> next);

  // Takes the routes of a destination's tree off the channel loads.
  void remove(const DestSearch &search, int32_t d, int64_t dest_weight,
              std::span<const int32_t> next);

  // Rank of every switch's hop in the last tree selected (-1 at its root).
  std::span<const int16_t> ranks() const { return rank_; }

  // Routes per channel so far.
  std::span<const int64_t> load() const { return load_; }

 private:
  const Fabric &f_;
  Policy policy_;
  bool slack_;
  std::mt19937_64 rng_;
  std::vector<int64_t> weight_, load_;
  std::vector<int16_t> rank_;
};

}  // namespace keiro::dl
