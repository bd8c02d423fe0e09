// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// SL classes with levels decided late (core/vlmap/vlmap.h, method kTree,
// its placement): the paths of one SL, seen as the turns they use and the
// consecutive turn pairs ("arcs") between them, and the lowest VL per turn
// that makes every such path's labels descend.
//
// Why it suffices to look at arcs: a path's VLs are the SL2VL entries of
// its turns, and the label rule (vl_demand.h) only compares consecutive
// hops. For an arc z -> a (turn z = (c' -> c) at u, turn a = (c -> c'') at
// the next switch) the labels descend iff VL(z) > VL(a), or VL(z) = VL(a) = v
// and rank_v(c) > rank_v(c''): a condition on the two turns only, the same
// for every destination using the arc. So one SL's table is valid for a set
// of paths iff it satisfies the arcs they use, and the lowest such table is
// the least fixpoint
//   level(z) >= need(a, level(a)) = level(a) + (rank_level(a)(c) > rank_level(a)(c'') ? 0 : 1)
// over the arcs present, with level(z) >= lo of every path using z. A new
// path only adds arcs: levels rise (a worklist raises a turn and then every
// present predecessor whose arc it breaks) until the fixpoint or a level above
// its cap (V - 1, or the smallest hi of the paths using the turn): then the
// path does not fit and every change is undone. Every cycle of arcs contains
// one that needs a rise, so a cycle fails on the cap, too. Entries set
// early are thus never frozen: a later path may raise them as long as every
// path already in the SL stays valid, which is what first fit with fixed
// entries (core/vlmap/dest_dp.h) cannot do.
//
// The caller adds destination k's sources one at a time: add_source() walks
// from the source towards the root until it reaches a switch of k's tree
// already in this SL, so the shared suffix is added once per
// destination and SL.
// Time: O(path hops not yet in the SL + turns raised * predecessors) per
// add_source(), every raise undone on failure. Memory: 2 bytes per
// (SL, turn) and 1 bit per (SL, turn, predecessor slot).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/vlmap/turn_table.h"
#include "core/vlmap/vl_demand.h"

namespace keiro::vlmap {

class TurnLevels {
 public:
  // Up to num_sls SLs, levels 0..V-1. tt: turn numbering only.
  TurnLevels(const Fabric &f, const TurnTable &tt, const VlDemand &d, int V, int num_sls);

  int num_sls() const { return nsl_; }
  // Level of turn in SL q; -1: no path of q uses it.
  int level(int q, int32_t turn) const { return lvl_[idx(q, turn)]; }

  // Destination k's view (parents, turns, VL bounds per switch); call before
  // add_source() for k.
  void load(const minimal::DestTrees &t, int32_t k);
  // Adds the path from switch s to destination k (loaded) to SL q (q < 64).
  // Bit q of in[x] must be set exactly for the switches x of k's tree with
  // a source of SL q in their subtree (x's own path is then in q); on
  // success it is set on the switches of the new path. False (and nothing
  // changed) if the path does not fit.
  bool add_source(int q, int32_t s, std::span<uint64_t> in);

 private:
  size_t idx(int q, int32_t turn) const { return static_cast<size_t>(q) * T_ + turn; }
  int need(int32_t a, int v) const {
    if (!ordered_) return 0;
    return v + (((ok_[a] >> v) & 1u) ? 0 : 1);
  }
  bool raise(int q, int32_t turn, int level);
  bool set_cap(int q, int32_t turn, int hi);
  void rollback();

  const Fabric &f_;
  const TurnTable &tt_;
  const VlDemand &d_;
  int V_, nsl_;
  int32_t S_, T_, P_;  // switches, turns, predecessor slots (most in channels + 1)
  bool ordered_ = false, bounded_ = false;
  std::vector<uint16_t> ok_;       // per turn: bit v set when VL v may stay across it
  std::vector<int32_t> pred0_;     // per transit turn: its slot-0 predecessor; -1: source turn
  std::vector<int32_t> stride_;    // per turn: distance between its predecessors (degree)
  std::vector<uint8_t> npred_;     // per turn: predecessor count
  std::vector<uint8_t> slot_;      // per turn: its in slot
  std::vector<int8_t> lvl_, cap_;  // [q * T + turn]
  std::vector<uint64_t> arc_;      // bit ((q * T + a) * P + slot of z): arc z -> a present
  // Destination view.
  int32_t k_ = -1, root_ = -1;
  std::vector<int32_t> parent_, tsrc_, tin_;
  std::vector<uint8_t> lo_, hi_;
  // Undo log of the current add_source().
  struct Undo {
    uint64_t index;
    int8_t old;
    uint8_t kind;  // 0: level, 1: cap, 2: arc bit
  };
  std::vector<Undo> log_;
  std::vector<std::pair<int32_t, int8_t>> work_;
  std::vector<int32_t> chain_;
};

}  // namespace keiro::vlmap
