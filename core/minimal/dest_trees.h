// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Destination-based next-hop tables ("destination trees"): the input that
// ACRO (core/acro/) and the VL realization (core/vlmap/) take from any
// deterministic, destination-based routing.
//
// A destination k is a set of LIDs that every switch forwards the same way:
// its root switch root(k) (the switch the LIDs belong to or are attached to)
// and, for every switch s != root(k), the channel next(k, s) that leaves s
// towards root(k). Following next() from any switch reaches the root without
// revisiting a switch, so the channels {next(k, s)} form an in-tree rooted at
// root(k) (the paper's T'_{n_d}, ACRO Sect. 3.2).
//
// Sources are switches: every switch is the first switch of the paths of its
// own LIDs and of the terminals attached to it.
//
// Memory: K * S next-hop entries (K destinations, S switches) plus the LIDs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::minimal {

struct DestTrees {
  int32_t num_switches = 0;
  std::vector<int32_t> root;  // per destination: its switch
  std::vector<int32_t>
      lid_start;  // CSR over lids: destination k owns lids[lid_start[k], lid_start[k+1])
  std::vector<uint16_t> lids;
  std::vector<int32_t> next;  // next[k * S + s]: channel leaving s towards root(k); -1 at the root

  int32_t num_dests() const { return static_cast<int32_t>(root.size()); }
  int32_t hop(int32_t k, int32_t s) const {
    return next[static_cast<size_t>(k) * num_switches + s];
  }
  std::span<const uint16_t> dest_lids(int32_t k) const {
    return {lids.data() + lid_start[k], lids.data() + lid_start[k + 1]};
  }
  // Resets to K destinations over S switches with every next hop -1 and no LIDs.
  void reset(int32_t num_switches, int32_t num_dests);
};

// The LIDs that belong to switch s or to the terminals attached to it
// (every LMC offset), ascending. O(LIDs of s).
void switch_lids(const Fabric &f, int32_t s, std::vector<uint16_t> &out);

// Checks that every next hop leaves its own switch, that every non-root
// switch has one, and that following them from any switch reaches the root
// without a loop. On failure sets err to one line. O(K * S).
bool validate_trees(const Fabric &f, const DestTrees &t, std::string &err);

// The first forwarding loop of destination k, for trees whose next hops are
// all valid channels (root(k) has none): returns the switch where a walk
// towards root(k) comes back to itself, with from = the switch the walk
// started at; -1 if every switch reaches the root. state and walk are
// scratch (resized). O(S).
int32_t first_loop(const Fabric &f, const DestTrees &t, int32_t k, std::vector<uint8_t> &state,
                   std::vector<int32_t> &walk, int32_t &from);

// Hop count from every switch to root(k) along the tree; depth[root] = 0.
// Requires validated trees. O(S); depth must have S entries.
void tree_depths(const Fabric &f, const DestTrees &t, int32_t k, std::span<int32_t> depth);

// The switches ordered by depth, deepest first (counting sort), so that a
// pass in this order sees every subtree before its root. count is scratch
// (resized); order must have as many entries as depth. O(S).
void deepest_first(std::span<const int32_t> depth, std::vector<int32_t> &count,
                   std::span<int32_t> order);

// Writes the LFT entry of every LID of every destination on every switch:
// the tree's next hop, and at the root port 0 for the switch's own LIDs and
// the terminal's port for terminal LIDs. LIDs not in any destination keep
// their entry. O(S * LIDs).
void write_lfts(const Fabric &f, const DestTrees &t, Routing &r);

// Groups destinations whose root and every next hop agree into one
// destination: its LIDs are the union of theirs (ascending), and the
// destinations are ordered by their first LID (destinations without LIDs
// last, in their previous order). Work that depends only on the trees (ACRO,
// the VL realization, per-tree metrics) is then done once per distinct tree.
// Time O(K * S) expected (hashing), memory O(K * S) for the result.
void merge_identical(DestTrees &t);

// The inverse: reads the LFTs of r and groups LIDs whose next hops agree on
// every switch into one destination. Fails (one line in err) when a LID is
// dropped or leaves the fabric before its switch, or forwards in a loop.
// Time O(S * LIDs), memory O(S * K).
bool trees_from_lfts(const Fabric &f, const Routing &r, DestTrees &out, std::string &err);

}  // namespace keiro::minimal
