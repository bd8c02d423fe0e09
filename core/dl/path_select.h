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
// Loads count routes, (source terminal, destination LID) pairs, as the edge
// forwarding index does (core/minimal/forwarding_index.h). Switches pick
// nearest first, so the path behind each candidate is already fixed; each
// pick puts the switch's own routes (its terminals times the destination's
// LIDs) on every channel of its path at once, so the switches behind it, and
// every later tree, see them (as DFSSSP and Nue update their weights per
// destination). With one tree per LID (dl.h) the next LID of the same switch
// thus takes other links where they are as short -- the spreading d-mod-k
// gives a fat tree. Each LMC offset has its own load table (offset j of
// every port is balanced among the offsets j, so the base LIDs -- the
// routes the edge forwarding index counts -- are as even as without LMC),
// and a candidate is first judged by how many of the port's lower offsets
// already leave s through it (siblings): the offsets of one port take
// different links wherever there are equally good ones. With kLoad the
// caller may take a tree's routes off again (remove()) and pick anew with
// everything else in place (rip-up and reroute, dl.h).
//
// Time O(C * H) per tree (H = longest path; plus O(C * siblings) with LMC),
// memory O(S + C * tables), no allocation per tree.
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
  // tables: load tables (LMC offsets), >= 1.
  // consistency (kLoad only, percent; 0: off): among the candidates that no
  // more siblings leave through, the first in port order whose path's
  // maximum load is within this many percent of the least, instead of the
  // least (minimal::BalancedOptions::consistency: every destination prefers
  // the same turns where the loads allow).
  PathSelector(const Fabric &f, Policy policy, uint64_t seed, std::span<const int64_t> weight,
               bool slack, int tables = 1, int consistency = 0);

  // Writes next[s] for every switch (-1 at d) from the labels of search,
  // and adds the routes to the loads of table as each switch picks (its
  // sources times dest_weight destinations on every channel of its path),
  // so the switches behind it see them. Only next[] entries of switches
  // nearer to d than s are read when s picks. table: the load table of this
  // destination (its LMC offset); siblings: next-hop rows of destinations
  // whose links a pick should avoid first (the lower LMC offsets of the
  // same port), each S entries. O(C * H).
  // base_next, base_rank (S entries each, or null): the switch's base tree
  // (dl.h); a switch whose hop there is above sub-network 0 takes the same
  // channel, every other one a channel that keeps its rank at most the base
  // rank (so the whole tree's ranks stay at most the base's: by induction
  // from d, the base choice always qualifies).
  // ahead (kLoad): while the tree is picked, each switch also puts on its
  // path, provisionally, the routes expected to reach it from behind (the
  // sources farther from d, split evenly over their equally short next
  // hops, expected()), so that switches without sources of their own (the
  // spines of a director, the middle of a tree) see what their siblings at
  // the same depth already drew and take other links: one tree for many
  // LIDs then spreads its sources over the links into d instead of sending
  // them all down the lowest port. The provisional loads are gone when
  // select() returns; the loads then hold the tree's routes as without it.
  void select(const DestSearch &search, int32_t d, int64_t dest_weight, std::span<int32_t> next,
              int table = 0, std::span<const int32_t *const> siblings = {},
              const int32_t *base_next = nullptr, const int16_t *base_rank = nullptr,
              bool ahead = false);

  // Takes the routes of a destination's tree off the loads of table. O(S).
  void remove(const DestSearch &search, int64_t dest_weight, std::span<const int32_t> next,
              int table = 0);

  // Copies of every load table, to go back to (rip-up passes kept only
  // where they help, dl.h). O(C * tables).
  void save_loads(std::vector<int64_t> &out) const { out = load_; }
  void restore_loads(const std::vector<int64_t> &in) { load_ = in; }

  // Rank of every switch's hop in the last tree selected (-1 at its root).
  std::span<const int16_t> ranks() const { return rank_; }

  // Routes per channel so far in one table.
  std::span<const int64_t> load(int table = 0) const {
    return {load_.data() + static_cast<size_t>(table) * C_, static_cast<size_t>(C_)};
  }

 private:
  const Fabric &f_;
  Policy policy_;
  bool slack_;
  int consistency_;
  struct Candidate {
    int32_t c, sib;
    int64_t max;
  };
  std::vector<Candidate> cand_;  // kLoad with consistency: the candidates of one switch
  int32_t C_;
  std::mt19937_64 rng_;
  // The sources expected to reach each switch from behind (ahead above):
  // own weight plus, farthest first, an even share of every switch one hop
  // farther that may pick it. O(S + C).
  void expected(const DestSearch &search);
  // Before s picks: its even shares leave the paths of its equally short
  // next hops (they were part of those switches' expected routes), so that
  // once every switch has picked the provisional loads are zero again.
  void withdraw(const DestSearch &search, int32_t s, int32_t d, std::span<const int32_t> next);
  std::vector<int64_t> weight_, load_, sub_, behind_, share_, prov_;
  int64_t ahead_weight_ = 0;
  std::vector<int16_t> rank_;
};

}  // namespace keiro::dl
