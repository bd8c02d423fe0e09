// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The per-destination search of destination-based DL routing (paper Section
// 3.3, adapted to one output port per (switch, destination)).
//
// The paper searches one shortest legal path per pair of switches. OpenSM
// needs one next hop per (switch, destination), so the paths to destination
// d form an in-tree, and the path from switch s onwards is the same for
// every source that reaches s. With hop ranks (restriction.h) a path is
// legal iff its ranks never increase towards d; along a fixed suffix the
// lowest legal rank of each hop is unique (computed backwards: the last hop
// takes the lowest rank of its direction, each earlier hop the lowest rank
// of its direction not below the next one). So the state of switch s -- its
// layer and restriction phase -- is one number, rank(s), the lowest rank of
// its hop, and the whole tree is legal iff for every switch s with next hop
// c into t:  rank(s) = first(dir(c), rank(t)) <= 2n-1.
// A lower rank(t) never hurts the switches behind t (every predecessor
// allowed by rank r is allowed by any r' <= r), but may cost t hops.
//
// Search: label setting in order of (depth, rank), depth = hops to d. Round
// D+1 gives every unlabelled switch s that has a channel c into a switch t
// labelled in round D the label (D+1, min over such c of
// first(dir(c), rank(t))), if that rank is within the budget (and s's cap).
// So every switch gets the shortest path that its labelled neighbours allow,
// and among those the lowest layer at its own hop -- the paper's rule of
// starting in the lowest sub-network that still gives a shortest path and
// changing sub-networks only when the restriction forces it.
// Afterwards the choice among equally good channels (same depth, same rank)
// changes no label, so the path-selection policy (path_select.h) can take
// any of them.
//
// Slack. A switch may also take a channel that keeps its depth but gives it
// a higher rank than its label (a higher layer), as long as no switch
// behind it loses its last legal choice. limits() makes this safe: every
// switch s names one label-keeping channel into t as its guard (the first
// one), and, farthest first, bounds t by the highest rank that still lets
// s's guard hop stay within s's own bound:
//   limit(t) = min over guards s -> t of last(dir, limit(s)),  limit <= 2n-1.
// By induction limit(s) >= rank(s). The selection (nearest first) lets s
// take a channel c into t only if first(dir(c), rank of t's pick) <=
// limit(s); since t's pick respects limit(t), s's guard always qualifies,
// so every switch keeps a choice, every path stays legal within the n
// layers and as short as its label.
//
// Why a repair step. The unconstrained per-pair optimum cannot always be
// kept in one tree: t's shortest path may need a high rank, while s, behind
// t, could only use t at a lower rank. Greedy labels can then leave a switch
// with no legal neighbour (e.g. with UD-(DU)* and 2 layers, a leaf whose
// only neighbour's shortest path needs the top rank, a down hop in layer 1,
// which no up hop may precede). (UD)* never needs it: every non-root switch
// has an up channel, which may precede any rank, and the root reaches d
// down its BFS tree path. Repair: an escape tree E inside
// layer 0 always exists (switches with a down-only path to d take their
// shortest one, rank 0; every other switch an up hop, rank 1, towards the
// root, which reaches d down-only). For each unlabelled switch, every switch
// on its E path is capped at its E rank and the search runs again. A capped
// switch always finds a label: its E successor is capped too and, by
// induction from d, labelled with a rank <= its E rank, and first() is
// monotone. A switch left unlabelled is never capped, so each rerun caps a
// new switch: at most S reruns, in practice none or one.
//
// Time O(C + S) per round set, O(R * (C + S)) with R reruns, plus O(C) for
// the limits; no allocation after construction (scratch sized for the
// fabric).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/dl/restriction.h"
#include "core/dl/updown.h"
#include "core/fabric.h"

namespace keiro::dl {

class DestSearch {
 public:
  DestSearch(const Fabric &f, const UpDown &ud, const Ranks &ranks);

  // Labels every switch for destination switch d. Returns the number of
  // reruns the repair needed (0 normally); -1 would mean a switch stayed
  // unlabelled, which the repair rules out on a connected fabric.
  int run(int32_t d);

  int32_t depth(int32_t s) const { return depth_[s]; }
  // Lowest legal rank of the hop out of s; -1 at the destination.
  int rank(int32_t s) const { return rank_[s]; }
  // The switches in labelling order (non-decreasing depth, destination first).
  std::span<const int32_t> order() const { return {order_.data(), order_.size()}; }
  // Whether channel c (out of a non-destination switch) gives its source
  // the same (depth, rank) label: one of the equally good choices.
  bool eligible(int32_t c) const {
    const Channel &ch = f_.channel(c);
    return depth_[ch.dst] + 1 == depth_[ch.src] &&
           ranks_.first(ud_.up[c] != 0, rank_[ch.dst]) == rank_[ch.src];
  }
  // The highest rank s may take without taking the last choice from a
  // switch behind it ("Slack" above); >= rank(s).
  int limit(int32_t s) const { return limit_[s]; }
  // Whether channel c keeps its source's depth when the switch it leads to
  // has (actual) rank next_rank, and gives the source a rank within its limit.
  bool allows(int32_t c, int next_rank) const {
    const Channel &ch = f_.channel(c);
    return depth_[ch.dst] + 1 == depth_[ch.src] &&
           ranks_.first(ud_.up[c] != 0, next_rank) <= limit_[ch.src];
  }
  // The rank a hop over channel c gets when the next switch has rank next_rank.
  int hop_rank(int32_t c, int next_rank) const { return ranks_.first(ud_.up[c] != 0, next_rank); }

 private:
  bool label(int32_t d);  // one pass; false if a switch stayed unlabelled
  void escape_tree(int32_t d);
  void limits(int32_t d);

  const Fabric &f_;
  const UpDown &ud_;
  const Ranks &ranks_;
  std::vector<int32_t> depth_, order_, frontier_;
  std::vector<int16_t> rank_, best_, cap_, limit_;
  std::vector<int32_t> esc_next_;  // escape tree: channel out of s, -1 at d
  std::vector<int16_t> esc_rank_;
};

}  // namespace keiro::dl
