// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue's complete channel dependency graph (Domke et al. 2016, Definition 6)
// over the directed switch-to-switch channels of a fabric, with the state of
// one virtual layer (Section 4.1) and the cycle search of Algorithm 3.
//
// Vertices are channel ids. The dependency (a, b) exists when b leaves the
// switch that a enters and b is not the reverse channel of a (no immediate
// U-turn over the same link; a turn back over a parallel link is an edge).
// Edges are numbered in CSR order: the out-edges of a are
// [first(a), first(a + 1)), one per channel leaving dst(a) except reverse(a),
// so edge(a, b) is O(1) arithmetic and no adjacency list is stored.
//
// Edge states: unused, used (committed by an earlier destination or an
// escape path), tentative (used by the destination being routed; committed
// or dropped when it is done), blocked (would close a cycle; permanent for
// the layer). The used + tentative edges always form an acyclic graph.
//
// Cycle search. Besides the ω labels of Section 4.6.1 (omega.h), the CDG
// keeps a topological order ord[] of the used + tentative edges, maintained
// incrementally with the Pearce-Kelly algorithm (ACM JEA 11, 2006): an edge
// (a, b) with ord[a] < ord[b] can never close a cycle, so condition (d)
// needs no search at all in that case; otherwise the DFS of Algorithm 3 only
// visits the channels between ord[b] and ord[a]: forward from b and backward
// from a, one channel of each in turn, until they meet (a cycle) or one runs
// out; a set that runs out with no edge leaving the window moves alone to
// the top (forward) or bottom (backward) of the order, else the other search
// completes and the two sets swap places. The searches follow per-channel
// bitmasks of the active out- and in-edges, not the edge states. A channel that
// is still unused (ω 0) has no used edge and just moves to either end of the
// order. Removing an edge keeps ord[] valid, so dropping tentative edges
// costs nothing. The order is only used to skip or bound searches: the DFS
// for a cycle still runs in condition (d) only; in (c) a merge may move a
// window of the order but never searches for a cycle.
//
// Orientation: a dependency (a, b) means "traffic that arrives over a leaves
// over b", the direction of the real routes. The paper runs Dijkstra from the
// destination over reversed channels; its CDG is the transpose of this one,
// which has the same cycles.
//
// Memory: O(C * Δ) bytes of edge state, 4 bytes per edge (its source
// channel) and two bits per edge (active out- and in-edge masks), plus O(C)
// words (C channels, Δ max switch degree). try_use: O(1) for conditions (a)-(c) when ord[a] <
// ord[b] (plus O(α) for ω); otherwise O(|W| log |W| + Δ |W|) for the window W of channels whose
// order lies between ord[b] and ord[a] and that are reachable from b or reach a (Pearce-Kelly), at
// most O(C log C + C Δ).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/nue/channel_index.h"
#include "core/nue/omega.h"

namespace keiro {
class Fabric;
}

namespace keiro::nue {

class CompleteCdg {
 public:
  enum State : uint8_t { kUnused = 0, kUsed = 1, kTentative = 2, kBlocked = 3 };

  explicit CompleteCdg(const Fabric &f);

  int32_t num_channels() const { return static_cast<int32_t>(ch_.dst.size()); }
  // The flat channel arrays (shared with CdgDijkstra).
  const ChannelIndex &channels() const { return ch_; }
  int32_t num_edges() const { return first_.back(); }
  // The dependency (a, b), or -1 when b does not continue a (or is its U-turn).
  int32_t edge(int32_t a, int32_t b) const {
    const int32_t v = ch_.dst[a];
    if (ch_.src[b] != v || b == ch_.rev[a]) return -1;
    return first_[a] + (b - ch_.out_begin[v]) - (b > ch_.rev[a] ? 1 : 0);
  }
  State state(int32_t e) const { return static_cast<State>(state_[e]); }
  // First out-edge of channel a (edge(a, b) = first_edge(a) + index of b
  // among the channels leaving dst(a), minus one past reverse(a)).
  int32_t first_edge(int32_t a) const { return first_[a]; }
  // ω of a channel (0 = unused).
  int32_t omega(int32_t channel) { return omega_.of(channel); }
  // Position of a channel in the topological order of used + tentative edges.
  int32_t order_of(int32_t channel) const { return slot_[channel].ord; }

  // Starts a new layer: every edge unused, every ω 0. O(C * Δ).
  void reset();

  // A new ω label (e.g. one for all escape paths of the layer).
  int32_t fresh_label() { return omega_.fresh(); }
  // Marks (a, b) used for good and puts both channels into subgraph `label`
  // (escape paths, Definition 7). The caller guarantees that no cycle closes.
  void mark_used(int32_t a, int32_t b, int32_t label);

  // Algorithm 3 for the dependency e = edge(a, b) != -1. Returns true when
  // (a, b) can be used without closing a cycle; it is then used or tentative.
  //  (a) e blocked                      -> false
  //  (b) e used or tentative            -> true
  //  (c) ω(a) != ω(b), or either is 0   -> merge ω, e tentative, true
  //  (d) ω(a) == ω(b)                   -> search from b for a over used and
  //      tentative edges (only if ord[b] < ord[a]); found: a cycle, e is
  //      blocked (if block_on_cycle, or if b reaches a over used edges
  //      alone: used edges stay for the layer, so that cycle is permanent)
  //      and false; else e tentative, true.
  // Every edge made tentative is appended to the log.
  bool try_use(int32_t a, int32_t b, int32_t e, bool block_on_cycle = true) {
    const uint8_t st = state_[e];
    if (st == kBlocked) return false;                  // (a)
    if (st == kUsed || st == kTentative) return true;  // (b)
    return use_unused(a, b, e, block_on_cycle);        // (c), (d)
  }

  // Log of tentative edges: the position to roll back to.
  size_t log_mark() const { return log_.size(); }
  // Edges made tentative after `mark` that are still tentative become unused.
  void rollback(size_t mark);
  // A tentative edge becomes unused (no-op for other states).
  void release(int32_t e) {
    if (state_[e] == kTentative) {
      state_[e] = kUnused;
      clear_active(edge_src_[e], e);
    }
  }
  // Ends a destination: the tentative edges in keep become used, every other
  // tentative edge becomes unused; the log is emptied.
  void commit(std::span<const int32_t> keep);

  // For tests: force a state (blocking or unblocking never breaks ord[];
  // use mark_used or try_use to add edges) or an ω label.
  void set_state(int32_t e, State s);
  void assign_omega(int32_t channel, int32_t label) { omega_.assign(channel, label); }

  struct Stats {
    int64_t cycle_searches = 0;  // condition (d) searches (ord[b] < ord[a])
    int64_t dfs_visits = 0;      // channels visited by all searches
    int64_t blocked = 0;         // edges blocked
    int64_t merges = 0;          // condition (c) merges of two used subgraphs
  };
  const Stats &stats() const { return stats_; }

 private:
  // Pearce-Kelly for a new edge (a, b) with ord[b] < ord[a]: false if a is
  // reachable from b (cycle); else reorders the affected window and returns true.
  bool use_unused(int32_t a, int32_t b, int32_t e, bool block_on_cycle);
  bool reorder(int32_t a, int32_t b);
  // reorder()'s two-way search (cdg.cc).
  struct Search;
  // The packed keys (order_key()) of the channels set[0 .. n) into keys, sorted.
  void sorted_keys(const int32_t *set, int32_t n, std::vector<uint64_t> &keys);
  // reorder() when both searches completed: the backward set (visited
  // channels bvisit_[0 .. nb)) takes the lowest of the positions the two sets
  // held, the forward set (visit_[0 .. nf)) the rest, each in its own order.
  void swap_sets(int32_t nf, int32_t nb);
  // Is `to` reachable from `from` over used (not tentative) edges?
  bool used_path(int32_t from, int32_t to);
  // The order compacted to 0 .. C - 1 (before the free ends run out).
  void renumber();
  // Restores the order for a new edge (a, b) known not to close a cycle;
  // wa / wb are the ω of a / b before the edge was added.
  void place(int32_t a, int32_t b, int32_t wa, int32_t wb);
  bool active(int32_t e) const { return state_[e] == kUsed || state_[e] == kTentative; }
  // act_ mirrors active(): bit i of word w of channel a is set iff out-edge
  // first_[a] + 64 w + i is used or tentative, so the forward search visits
  // the active out-edges only; in_act_ does the same for the backward search.
  void set_active(int32_t a, int32_t e) {
    const int32_t i = e - first_[a], b = edge_dst(a, i);
    act_[static_cast<size_t>(a) * words_ + (i >> 6)] |= uint64_t{1} << (i & 63);
    const int32_t j = in_pos_[a];
    in_act_[static_cast<size_t>(b) * words_ + (j >> 6)] |= uint64_t{1} << (j & 63);
  }
  void clear_active(int32_t a, int32_t e) {
    const int32_t i = e - first_[a], b = edge_dst(a, i);
    act_[static_cast<size_t>(a) * words_ + (i >> 6)] &= ~(uint64_t{1} << (i & 63));
    const int32_t j = in_pos_[a];
    in_act_[static_cast<size_t>(b) * words_ + (j >> 6)] &= ~(uint64_t{1} << (j & 63));
  }
  // The channel b of out-edge i of channel a.
  int32_t edge_dst(int32_t a, int32_t i) const {
    const int32_t base = ch_.out_begin[ch_.dst[a]];
    return base + i + (i >= ch_.rev[a] - base ? 1 : 0);
  }
  void set_tentative(int32_t a, int32_t e) {
    state_[e] = kTentative;
    set_active(a, e);
    log_.push_back(e);
  }
  void next_epoch();

  ChannelIndex ch_;
  std::vector<int32_t> first_;     // per channel + 1: first out-edge
  std::vector<uint8_t> state_;     // per edge
  std::vector<int32_t> edge_src_;  // per edge: its first channel a
  std::vector<uint64_t> act_;      // per channel: words_ words of active out-edge bits
  std::vector<uint64_t> in_act_;  // per channel b: bit j set iff (in-channel j of src(b), b) active
  std::vector<int32_t> in_pos_;   // per channel: its index among the channels entering its dst
  size_t words_ = 1;
  OmegaLabels omega_;
  // Per channel: its topological position (distinct) and its visit stamp,
  // side by side: the searches read the stamp right after the position.
  struct Slot {
    int32_t ord = 0;
    uint32_t seen = 0;
  };
  std::vector<Slot> slot_;
  int32_t ord_low_ = -1, ord_high_ = 0;  // next free position below / above all others
  std::vector<int32_t> log_;             // tentative edges of the current destination
  std::vector<int32_t> stack_, bstack_, visit_, bvisit_;  // search scratch (size C each)
  // (position, channel) packed so that the integer order is the position order.
  uint64_t order_key(int32_t x) const {
    return (uint64_t{static_cast<uint32_t>(slot_[x].ord) ^ 0x80000000u} << 32) |
           static_cast<uint32_t>(x);
  }
  static int32_t key_channel(uint64_t k) { return static_cast<int32_t>(static_cast<uint32_t>(k)); }
  static int32_t key_order(uint64_t k) {
    return static_cast<int32_t>(static_cast<uint32_t>(k >> 32) ^ 0x80000000u);
  }
  std::vector<uint64_t> fwd_, bwd_, pool_;  // sorted keys of the search sets, merged keys
  uint32_t epoch_ = 0;
  Stats stats_;
};

}  // namespace keiro::nue
