// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// LOREN's compact routing tables: Algorithm 1 of Kawano et al., "LOREN: A
// Scalable Routing Method for Layout-conscious Random Topologies", Sect. IV.
//
// Switch u holds at most t_max entries <v_dst, v_next>: "towards switch v_dst,
// leave on the channel to v_next", v_next being u's successor in a shortest-
// path tree G_v_dst. Three kinds, added in this order (Sect. IV-A):
//  (1) adjacent: <j, j> for every neighbour j of u (mandatory);
//  (2) grid neighbours: for every pair (i, j) at Manhattan distance 1 that is
//      not linked, entries <j, m_{k+1}> on every switch m_k of a shortest path
//      i -> j (mandatory; these make the forwarding rule livelock free);
//  (3) distant: a breadth-first search run on all trees G_v at once, starting
//      from the links; switch u in G_v gets <v, succ_v(u)> when its table has
//      room, and the search goes on to u's predecessors in G_v only when u
//      holds that entry. Never more than t_max entries per switch.
// Every switch's entries are kept sorted by h(u, v_dst) (Sect. V; ties keep
// the order in which they were added).
//
// Choices the paper leaves open, made here:
//  - The trees G_v start as the given shortest-path trees (keiro's balanced
//    minimal routing, core/minimal/balanced.h), so that LOREN with unlimited
//    tables is exactly that routing.
//  - The path P(i, j) of kind (2) is, among all shortest paths, one that
//    keeps the largest table on it smallest, then adds the fewest entries
//    (a path may end early on a switch that already holds an entry for j and
//    follow those entries); remaining ties follow the balanced tree. Pairs are
//    taken by destination in switch order, grid neighbours in the order
//    (x-1, y), (x+1, y), (x, y-1), (x, y+1).
//  - G_v is then made to agree with every mandatory entry for v (each such
//    switch's successor is its entry's next hop; all other switches keep the
//    balanced choice). So all entries for v, of all kinds, lie on one
//    shortest-path tree: following them from any switch that has one reaches
//    v in h hops, which is what the livelock-freedom proof of Sect. V needs.
//  - The search of (3) starts with the links in switch order, then port order.
//
// The mandatory entries alone may need more than t_max: `required` is the
// largest number of them on one switch, the smallest t_max that works.
//
// Time: O(S * (S + C)) for the BFS per destination and the path choices of
// (2) (each over the shortest-path DAG from i to j), plus O(Q * deg) for the
// search of (3) with Q <= S^2 queued pairs, plus sorting the tables.
// Memory: O(S^2) (hop matrix as int16, presence bitmap, the trees) plus
// O(S * t_max) entries; scratch sized once per run.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/loren/layout.h"
#include "core/minimal/dest_trees.h"

namespace keiro::loren {

struct LorenEntry {
  enum Kind : uint8_t { kAdjacent = 1, kGridNeighbour = 2, kDistant = 3 };
  int32_t dst = -1;      // v_dst (switch id)
  int32_t channel = -1;  // channel leaving the table's switch towards v_next
  int32_t hops = 0;      // h(u, v_dst)
  Kind kind = kAdjacent;
};

struct LorenTables {
  int32_t num_switches = 0;
  int32_t tmax = 0;              // the limit the tables were built with
  int32_t required = 0;          // most mandatory entries on one switch
  int32_t required_switch = -1;  // a switch that has that many
  std::vector<int32_t> start;    // CSR: switch u owns entries[start[u], start[u+1])
  std::vector<LorenEntry> entries;
  int64_t adjacent = 0, grid_neighbour = 0, distant = 0;  // entries of each kind

  std::span<const LorenEntry> table(int32_t u) const {
    return {entries.data() + start[u], entries.data() + start[u + 1]};
  }
  int32_t size(int32_t u) const { return start[u + 1] - start[u]; }
  int32_t max_size() const;
};

struct LorenTableOptions {
  int32_t tmax = 0;             // 0: the required number (the most compact tables)
  bool mandatory_only = false;  // stop after kinds (1) and (2)
  // Kind (2) paths simply follow the given trees (no table-size-aware
  // choice); for comparisons.
  bool tree_paths = false;
};

// shortest: one destination per switch, destination k rooted at switch k,
// every next hop on a shortest path (minimal::balanced_routing()'s output).
// Fails with one line in err when the trees do not fit the fabric, when the
// fabric is not connected, or when tmax is below `required` (out.required is
// set even then).
bool build_tables(const Fabric &f, const Layout &layout, const minimal::DestTrees &shortest,
                  const LorenTableOptions &opt, LorenTables &out, std::string &err);

}  // namespace keiro::loren
