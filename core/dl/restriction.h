// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The routing restrictions of Descending Layers routing (Koibuchi, Jouraku,
// Watanabe, Amano, "Descending Layers Routing: A Deadlock-Free Deterministic
// Routing using Virtual Channels in System Area Networks with Irregular
// Topologies", ICPP 2003), Section 3.2, written as one total order of hop
// "ranks".
//
// The fabric is split into n sub-networks (layers) 0..n-1 of the same
// topology, one per VL. Inside layer v a packet obeys one of two rules:
//   UD  up*/down*: never a down channel followed by an up channel,
//   DU  down*/up*: never an up channel followed by a down channel;
// and it may only move from a layer to a lower one (any turn is allowed at
// such a move). The restrictions of the paper choose the rule per layer:
//   (UD)*     every layer UD                              Restriction::kUD
//   (UD-DU)*  even layers UD, odd layers DU               Restriction::kUDDU
//   UD-(DU)*  layer 0 UD, every other layer DU            Restriction::kUDThenDU
// Layer 0 is UD in all three, which keeps every pair of switches connected
// inside layer 0 (the paper's condition for sub-network 0). (L-turn)* is not
// implemented.
//
// Ranks. A hop is (channel direction, layer). Give it the rank
//   2v + 0 for the direction a layer-v packet may take after either one
//          (down in a UD layer, up in a DU layer),
//   2v + 1 for the other direction (up in UD, down in DU).
// Then a path obeys the DL rules iff its hop ranks never increase from the
// source to the destination: inside a layer the only forbidden turn is
// "rank 2v followed by rank 2v+1", and every hop of a higher layer outranks
// every hop of a lower one. So the hop ranks 0..2n-1 are the states of the
// paper's path search (layer and restriction phase; the phase of a path
// inside a layer is the direction of its last hop there).
//
// All queries O(1); memory O(n).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keiro::dl {

enum class Restriction : uint8_t { kUD, kUDDU, kUDThenDU };

// Option spelling: "ud" (UD)*, "ud-du" (UD-DU)*, "ud-dudu" UD-(DU)*.
bool parse_restriction(std::string_view text, Restriction &out);
const char *restriction_name(Restriction r);    // "(UD)*", ...
const char *restriction_option(Restriction r);  // "ud", ...

class Ranks {
 public:
  Ranks(Restriction r, int layers);

  Restriction restriction() const { return restriction_; }
  int layers() const { return layers_; }
  int num_ranks() const { return 2 * layers_; }
  // Whether layer v follows the up*/down* rule (else down*/up*).
  bool layer_is_ud(int v) const;
  static int layer_of(int rank) { return rank >> 1; }
  // Direction of the hops of a rank.
  bool rank_is_up(int rank) const { return up_[rank] != 0; }
  // The lowest rank a hop of this direction may have when the next hop of
  // the path has rank `after` (-1: this hop ends at the destination), or
  // num_ranks() when no rank below the layer budget is possible.
  int first(bool up, int after) const {
    return first_[(up ? 1 : 0) * (num_ranks() + 1) + after + 1];
  }
  // The inverse bound: the highest rank the next hop may have so that a hop
  // of this direction gets a rank <= limit (-1: only the destination).
  int last(bool up, int limit) const { return last_[(up ? 1 : 0) * (num_ranks() + 1) + limit + 1]; }

 private:
  Restriction restriction_;
  int layers_;
  std::vector<uint8_t> up_;
  std::vector<int16_t> first_, last_;
};

}  // namespace keiro::dl
