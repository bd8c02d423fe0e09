// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A directed graph that stays acyclic while edges are added one at a time:
// add_edge() refuses (and does not add) an edge that would close a cycle.
// It keeps a topological order ord[] and updates it with the Pearce-Kelly
// algorithm (D. J. Pearce, P. H. J. Kelly, "A dynamic topological sort
// algorithm for directed acyclic graphs", ACM JEA 11, 2006): an edge (u, v)
// with ord[u] < ord[v] is accepted at once; otherwise a forward search from
// v over the nodes ordered before u and a backward search from u over the
// nodes ordered after v either meet (a cycle: refused) or give the two sets
// whose order positions are swapped. Removing the most recently added edge
// (undo) keeps the order valid.
//
// Used by the incremental re-route (core/reroute/incremental.h) on the dependency
// graph of (channel, VL) pairs, by the multicast trees (core/mcast/trees.h:
// unicast dependencies plus every tree's, trees removed on rebuild) and by
// the LASH-style layers of ACRO's
// comparison (core/layers/lash_layers.h) on one layer's channels; keiro-nue's
// CDG (core/nue/cdg.h) has its own, specialised to one layer's channel turns
// (edge states and tentative use).
//
// Time: add_edge O(deg) when the order already agrees, else
// O(W log W + edges of W) for the window W of nodes searched; build_order
// O(N + E). Memory: O(N + E) (adjacency lists both ways, 3 ints per node).
#pragma once

#include <cstdint>
#include <vector>

namespace keiro::graph {

class DynamicDag {
 public:
  explicit DynamicDag(int32_t nodes = 0) { reset(nodes); }
  void reset(int32_t nodes);
  int32_t num_nodes() const { return static_cast<int32_t>(out_.size()); }
  bool has_edge(int32_t u, int32_t v) const;

  // Adds (u, v) without any cycle test; call build_order() before the next
  // add_edge(). For loading a graph known (or to be shown) acyclic.
  void add_edge_unchecked(int32_t u, int32_t v);
  // Topological order of the edges so far (Kahn); false if they hold a cycle.
  bool build_order();

  // Adds (u, v) unless it closes a cycle. Returns false (graph unchanged)
  // on a cycle; true if added or already present (added_new tells which).
  bool add_edge(int32_t u, int32_t v, bool *added_new = nullptr);
  // Removes (u, v), which must be the last edge added out of u and into v
  // (undo in reverse order of addition).
  void remove_last_edge(int32_t u, int32_t v);
  // Removes (u, v) wherever it was added (a removal never breaks the order);
  // false if there is no such edge. O(deg(u) + deg(v)).
  bool remove_edge(int32_t u, int32_t v);

  int64_t num_edges() const { return edges_; }
  const std::vector<int32_t> &successors(int32_t u) const { return out_[u]; }

 private:
  bool search_forward(int32_t v, int32_t upper);
  void search_backward(int32_t u, int32_t lower);
  // Depth first from start along adj (out_ or in_), marked with stamp_:
  // every node reached through nodes with inside(w) into found (start
  // first); false as soon as a node with stop(w) is seen.
  template <typename Inside, typename Stop>
  bool collect(int32_t start, const std::vector<std::vector<int32_t>> &adj,
               std::vector<int32_t> &found, Inside inside, Stop stop);
  std::vector<std::vector<int32_t>> out_, in_;
  std::vector<int32_t> ord_;
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  std::vector<int32_t> fwd_, bwd_, stack_, pos_;
  int64_t edges_ = 0;
};

}  // namespace keiro::graph
