// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The SL2VL entries the VL realization works on, one per (switch, in slot,
// out channel, SL), and the placed path hops that use each entry.
//
// In slot 0 of a switch stands for every in port that starts a path there
// (its terminals and port 0); slot i >= 1 is the i-th channel entering the
// switch. A turn is (switch, in slot, out channel); entry = turn * SLs + SL.
// Every entry keeps its VL (-1: unset), its number of users, the sum of
// their weights (the repair's eviction cost) and an intrusive
// doubly linked list of the hops using it (hop ids are the caller's).
// attach/detach O(1); memory 17 bytes per entry + 8 bytes per hop.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::vlmap {

class TurnTable {
 public:
  TurnTable(const Fabric &f, int num_sls, int64_t num_hops);

  int num_sls() const { return nsl_; }
  int32_t num_turns() const { return static_cast<int32_t>(turn_sw_.size()); }
  // in_channel -1: the source slot.
  int32_t turn(int32_t in_channel, int32_t out_channel) const {
    const int32_t s = f_.channel(out_channel).src;
    const int32_t slot = in_channel < 0 ? 0 : in_slot_[in_channel];
    return turn_base_[s] + slot * f_.degree(s) + (out_channel - f_.out_begin(s));
  }
  int64_t entry(int32_t turn, int sl) const { return static_cast<int64_t>(turn) * nsl_ + sl; }

  int8_t vl(int64_t e) const { return vl_[e]; }
  int32_t users(int64_t e) const { return users_[e]; }
  // Sum of the weights the users were attached with.
  int64_t weight(int64_t e) const { return weight_[e]; }
  int32_t first_hop(int64_t e) const { return head_[e]; }
  int32_t next_hop(int32_t hop) const { return next_[hop]; }

  // Adds hop (of a path of the given weight) to entry e; sets the VL if e was
  // unset (it must agree otherwise).
  void attach(int64_t e, int32_t hop, uint8_t vl, int64_t weight = 1);
  // Removes hop from e; e becomes unset with its last user.
  void detach(int64_t e, int32_t hop, int64_t weight = 1);

  // For writing the tables: the switch of a turn, its in channel (-1 for the
  // source slot) and its out channel.
  int32_t turn_switch(int32_t turn) const { return turn_sw_[turn]; }
  int32_t turn_in(int32_t turn) const;
  int32_t turn_out(int32_t turn) const;

 private:
  const Fabric &f_;
  int nsl_;
  std::vector<int32_t> turn_base_, in_slot_, turn_sw_;
  std::vector<int8_t> vl_;
  std::vector<int32_t> users_, head_, next_, prev_;
  std::vector<int64_t> weight_;
};

// Writes VL vl for SL sl on turn `turn` into out's SL2VL table: the turn's
// (in port, out port) entry, or for a source slot (no in channel) the
// entries of port 0 and of every terminal attached to the switch, which all
// share it. O(1 + terminals of the switch).
void write_turn_vl(const Fabric &f, const TurnTable &tt, int32_t turn, uint8_t sl, uint8_t vl,
                   Routing &out);

}  // namespace keiro::vlmap
