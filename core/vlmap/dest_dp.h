// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// One destination's share of the VL realization (core/vlmap/vlmap.h, method
// kTree): a dynamic program over its in-tree that, for one SL, gives as many
// of its pending sources as possible that SL, agreeing with the SL2VL entries
// already set and setting the fewest new ones.
//
// Why a tree: routing is destination based, so all sources of destination k
// that reach switch x leave it on the same channel c_x = next(k, x), and the
// entry of the turn at p = next(x) entered from x is (p, c_x, c_p, SL) for
// all of them. Per SL the VLs of destination k's turns are therefore one value
// u(x) per tree edge x -> p (the turn at p entered from x) plus one per
// source slot (the turn at x entered from a terminal or port 0). The label
// constraint of a path (VlDemand, vl_demand.h) only ties a turn at x to the
// turn at p: every turn at x (from any child or the source slot) must take a
// VL v in [first(x, u(x)), hi(k, x)] where
//   first(x, t) = max(lo(k, x), t)      if rank_t(c_x) > rank_t(c_p) (or no
//                                       rank and non_increasing),
//               = max(lo(k, x), t + 1)  otherwise,
// and first(x, .) = lo(k, x) when p is the root (the last hop) or without
// any order. first is non-decreasing in t, so a lower VL never hurts.
//
// serve(): bottom-up (deepest switch first) H(x, t) = the best score of x's
// subtree when the turn at p entered from x holds t; score = pending sources
// given this SL * 2^40 - new entries * 2^8 - how far each new entry's VL is
// from its turn's target (set_targets(); the survey gives every turn the
// highest VL any destination's lowest vector puts there, so that entries
// set early suit the destinations that come later; without targets: the
// lowest VLs). A child's share for a range [a, hi] is the
// suffix maximum of its H (only its set value when its entry is set), so
// each switch costs O(V). Then top-down the choices are replayed and the new
// entries written. Subtrees without pending sources are skipped.
// Time: O(S * V) per call (load: O(S * V) rank look-ups). Memory: O(S * V).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/vlmap/turn_table.h"
#include "core/vlmap/vl_demand.h"

namespace keiro::vlmap {

class DestDp {
 public:
  // tt is used for its turn numbering only.
  DestDp(const Fabric &f, const minimal::DestTrees &t, const VlDemand &d, const TurnTable &tt);

  // Prepares destination k with VLs 0..V-1 (V <= kMaxDataVls).
  void load(int32_t k, int V);
  int32_t dest() const { return k_; }
  // Preferred VL per turn for new entries (-1: lowest); empty: lowest.
  void set_targets(std::span<const int8_t> t) { target_ = t; }
  // Survey mode: raise want[turn] to the VL every used turn gets.
  void set_record(std::span<int8_t> want) { record_ = want; }

  // One SL. entries: that SL's VL per turn (-1: unset), or empty for an empty
  // table (nothing is written then). sl: per switch the destination's path
  // SL, -1 = pending (the root's entry is ignored); every source served gets
  // sl = q. Returns the number served; max_vl is raised to the highest VL a
  // served path uses.
  // With top non-empty, each source served gets top[x] = the VL of its first
  // hop.
  int32_t serve(std::span<int8_t> entries, std::span<int8_t> sl, int q, int &max_vl,
                std::span<uint8_t> top = {});

  // The turns destination k uses from switch x (after load): the source slot
  // turn at x, and the turn at next(x) entered from x (-1 if next(x) is the
  // root).
  int32_t source_turn(int32_t x) const { return tsrc_[x]; }
  int32_t transit_turn(int32_t x) const { return tin_[x]; }
  int32_t parent(int32_t x) const { return parent_[x]; }

  static constexpr int64_t kServed = int64_t{1} << 40;
  static constexpr int64_t kNew = int64_t{1} << 8;

 private:
  void bottom_up(const int8_t *entries, std::span<const int8_t> sl);
  int first(int32_t x, int t) const {
    if (top_[x]) return lo_[x];
    const int a = t + (((ok_[x] >> t) & 1u) ? 0 : 1);
    return a > lo_[x] ? a : lo_[x];
  }

  const Fabric &f_;
  const minimal::DestTrees &t_;
  const VlDemand &d_;
  const TurnTable &tt_;
  int32_t S_, k_ = -1, root_ = -1;
  int V_ = 1;
  std::vector<int32_t> depth_, order_, count_, parent_, tsrc_, tin_, cnt_, a_;
  std::vector<uint8_t> lo_, hi_, top_;
  std::vector<uint16_t> ok_;  // bit t: v = t allowed at x when the turn at next(x) holds t
  std::vector<int64_t> h_, acc_;
  std::span<const int8_t> target_;
  std::span<int8_t> record_;
  // Penalty of a new entry at turn with VL v, and the best v in [a, hi].
  int64_t cost(int32_t turn, int v) const {
    if (target_.empty() || target_[turn] < 0) return v;
    const int d = v - target_[turn];
    return d < 0 ? -d : d;
  }
  int pick(int32_t turn, int a, int hi) const {
    if (target_.empty() || target_[turn] < 0) return a;
    return target_[turn] < a ? a : (target_[turn] > hi ? hi : target_[turn]);
  }
};

}  // namespace keiro::vlmap
