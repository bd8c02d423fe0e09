// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue's modified Dijkstra inside the complete CDG (Domke et al. 2016,
// Algorithm 1), with the impasse handling of Section 4.6: local backtracking
// into islands (4.6.2) and islands used as shortcuts (4.6.3).
//
// One run computes, for one destination switch d, the channel next[v] that
// every switch v uses towards d (a destination-based routing tree). Starting
// at d (the paper's fake source channel: the first hop into d depends on
// nothing), a switch u is reached over a channel q = (u -> v) of a settled
// switch v only if the dependency (q, next[v]) can be used without closing a
// cycle in the layer's CDG (Algorithm 3, CompleteCdg::try_use). Every switch
// holds at most one channel, so the heap holds switches: one run costs
// O(C + S log S) heap and relaxation work plus the cycle searches.
//
// When the heap runs dry with switches unreached (an impasse):
//  1. Local backtracking (4.6.2) looks at every unreached switch z, every
//     reached neighbour y and every other channel a = (y -> w) of y to a
//     reached w (the 2-hop neighbourhood of z): y may switch to a if
//     (a, next[w]), (z->y, a) and the dependency of every switch already
//     routed through y on a can all be used. The candidates of z are tried
//     cheapest first (the per-node "stack of alternatives" of the paper is
//     every other channel of y, checked when needed).
//  2. Escape repair (keiro's addition, before giving up): z takes its escape
//     path towards d (Definition 7), and so do the switches on that path up
//     to the first one that already uses its escape channel; this works if
//     every switch routed through one of them can follow. The dependencies
//     along an escape path are used already, so only the dependants need
//     checks. This repairs one island without moving the whole destination
//     onto the escape paths.
// After either step reaches z, Dijkstra continues from z, and a settled
// switch that can now be reached more cheaply switches over if all its
// dependants can keep their routes (shortcut, 4.6.3). Such a switch goes
// back into the heap with its shorter distance, so the switches routed
// through it and its other neighbours see it too (they follow, or take
// further shortcuts). A distance only ever falls, so this ends. If nothing works for
// any unreached switch, the run fails and the caller moves the whole
// destination onto the escape paths (keeping the routing destination-based).
//
// Balance at settle time (keiro's addition to Section 4.4). The channel
// weights only change after a whole destination, so all switches of one run
// see the same stale weights and pile onto the same cheapest channels near d
// (on a fat tree: one down-link of d for the whole fabric). Instead, a switch
// u that leaves the heap (before any switch depends on it) picks again among
// its channels q towards settled switches v with as many hops as its best
// route: the cheapest by dist[v] + weight[q] plus the in-run load, i.e. the
// sources (switch + end ports) of the switches settled earlier in this run
// whose routes cross q or v's path; the dependency (q, next[v]) must pass
// try_use. Then u's own sources are added along its path. Costs O(Δ * depth)
// per switch (depth = hops of the routing tree) on top of the relaxation.
//
// All dependencies of the tree are tentative in the CDG while the run is in
// progress; commit() keeps exactly those of the final tree, abandon() drops
// them all. A forwarding loop would be a cycle of used dependencies, so the
// acyclic CDG also guarantees loop-free trees.
//
// Memory O(S + C + Δ^2); route() allocates nothing. Time per run O((C + S log S)
// + S * Δ * depth) plus the cycle searches.
#pragma once

#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "core/graph/indexed_heap.h"
#include "core/nue/cdg.h"

namespace keiro {
class Fabric;
}

namespace keiro::nue {

class EscapePaths;

class CdgDijkstra {
 public:
  CdgDijkstra(const Fabric &f, CompleteCdg &cdg);

  struct Outcome {
    bool reached_all = false;
    int32_t backtracks = 0;  // islands reached by local backtracking
    int32_t repairs = 0;     // islands reached over their escape path
    int32_t shortcuts = 0;   // settled switches rerouted over an island
  };
  // Routes every switch to destination switch d with channel weights weight.
  // escape (may be null) provides the escape paths for the repair step.
  Outcome route(int32_t d, std::span<const int64_t> weight, EscapePaths *escape);

  // Switches routes choose at settle time (balance); w0 is the weight of an
  // unloaded channel (ChannelLoad::initial_weight), 0 turns it off.
  void set_balance(int64_t w0) { w0_ = w0; }
  // Used dependencies only (layered fabrics' switch LIDs, layer_routing.cc):
  // route() takes only dependencies the CDG holds (used or tentative),
  // without settle-time balance, and ends at the first impasse with
  // reached_all false (no backtracking, no escape repair).
  void set_used_only(bool on) { used_only_ = on; }

  // Per switch: channel towards the last destination, -1 at the destination
  // (and at unreached switches after a failed run).
  std::span<const int32_t> next() const { return next_; }
  // Lets the caller install another tree (the escape paths).
  std::span<int32_t> next_mut() { return next_; }
  // The switches in the order they were settled, every one after its next
  // hop, when the last run needed no impasse handling; empty otherwise.
  std::span<const int32_t> settle_order() const {
    return order_valid_ ? std::span<const int32_t>(order_.data(), order_len_)
                        : std::span<const int32_t>();
  }

  // After a successful route(): the dependencies of next() become used, every
  // other tentative dependency is dropped.
  void commit();
  // Drops every tentative dependency (after a failed route()).
  void abandon();

 private:
  void relax_into(int32_t v, std::span<const int64_t> weight, bool after_impasse, Outcome &out);
  bool backtrack(std::span<const int64_t> weight);
  bool attempt_island(int32_t z, int32_t q, int32_t a, std::span<const int64_t> weight);
  bool escape_repair(int32_t d, std::span<const int64_t> weight, EscapePaths &escape);
  bool attempt_shortcut(int32_t u, int32_t q, int64_t nd);
  // Balance at settle time: u picks, among its channels towards settled
  // switches of the same hop class, the one whose path carries the least
  // weight plus in-run load, then adds its sources along its path.
  void rebind(int32_t u, std::span<const int64_t> weight);
  void add_in_run(int32_t u);
  // The in-run load on v's path, or some value >= stop once the partial sum
  // reaches stop (loads are not negative, so the rest cannot bring it below).
  int64_t path_in_run(int32_t v, int64_t stop = INT64_MAX) const {
    int64_t sum = 0;
    for (int32_t x = v; hop_[x].up >= 0 && sum < stop; x = hop_[x].up) sum += hop_[x].run;
    return sum;
  }
  // The dependency that u's route uses at its next hop, or -1. u and its
  // next hop must have been reached in this run (next_ of other switches is
  // stale).
  int32_t dependency_of(int32_t u) const {
    assert(reached(u) && "dependency_of: switch not reached in this run");
    const int32_t q = next_[u];
    if (q < 0) return -1;
    assert(reached(ch_.dst[q]) && "dependency_of: next hop not reached in this run");
    const int32_t c = next_[ch_.dst[q]];
    return c < 0 ? -1 : cdg_.edge(q, c);
  }
  // Checks that every switch routed through v (except those marked in
  // skip_) can continue on channel c, making those dependencies tentative;
  // false if one cannot.
  bool dependants_accept(int32_t v, int32_t c, bool use_skip = false);
  // v switches from its current channel to c: drops the dependencies that
  // v and its dependants had on the old channel.
  void switch_channel(int32_t v, int32_t c);
  // node_[v].mark == base_: reached this run; base_ + 1: settled (popped).
  bool reached(int32_t v) const {
    assert(v >= 0 && v < num_switches_ && "reached: not a switch id");
    return node_[v].mark >= base_;
  }
  bool settled(int32_t v) const { return node_[v].mark == base_ + 1; }

  CompleteCdg &cdg_;
  int32_t num_switches_ = 0;
  const ChannelIndex &ch_;  // the CDG's channel arrays
  struct InArc {
    int32_t q, u, first, rev;  // channel u -> v, its tail, its first CDG out-edge, its reverse
  };
  std::vector<InArc> in_arcs_;  // ch_.in_list with what relax_into needs, contiguous
  // Per switch: distance and reach stamp side by side (relax_into reads
  // both for every in-arc).
  struct Node {
    int64_t dist = 0;
    uint32_t mark = 0;
  };
  std::vector<Node> node_;
  std::vector<int32_t> next_;
  std::vector<uint32_t> skip_;
  uint32_t base_ = 0, skip_epoch_ = 0;
  int32_t num_reached_ = 0;
  graph::IndexedHeap<graph::StoredKeys<int64_t>> heap_;
  struct Candidate {
    int64_t cost;
    int32_t q, a;
  };
  std::vector<Candidate> cand_;
  std::vector<int32_t> keep_, escape_next_, path_, order_;
  int64_t w0_ = 0;  // balance at settle time when > 0
  bool used_only_ = false;
  std::vector<int32_t> sources_;  // per switch: 1 + attached end ports
  // Per switch settled in this run (before an impasse, with balance on): run
  // = sources of this run routed over its channel next_[v], up = the switch
  // that channel enters (-1 at the destination). One entry per hop keeps the
  // path walks of rebind() on one cache line per hop.
  struct Hop {
    int32_t run = 0;  // at most the sources of the fabric (< 2^31: LIDs are 16 bits)
    int32_t up = -1;
  };
  std::vector<Hop> hop_;
  // Balance at settle time: per switch u, the channels u -> v over which a
  // settled v relaxed into u in this run (rebind's candidates), in
  // seen_[out_begin[u] ..], seen_n_[u] of them (valid when seen_at_[u] ==
  // base_).
  std::vector<int32_t> seen_;
  std::vector<uint32_t> seen_at_;
  std::vector<uint16_t> seen_n_;
  int32_t order_len_ = 0;
  bool order_valid_ = false;
  int32_t escape_for_ = -1;  // destination whose escape paths are in escape_next_
};

}  // namespace keiro::nue
