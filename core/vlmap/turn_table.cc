// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/vlmap/turn_table.h"

namespace keiro::vlmap {

TurnTable::TurnTable(const Fabric &f, int num_sls, int64_t num_hops) : f_(f), nsl_(num_sls) {
  const int32_t S = f.num_switches();
  in_slot_.assign(f.num_channels(), 0);
  for (int32_t s = 0; s < S; ++s) {
    int32_t i = 1;
    for (int32_t c : f.in_channels(s)) in_slot_[c] = i++;
  }
  turn_base_.assign(S + 1, 0);
  for (int32_t s = 0; s < S; ++s)
    turn_base_[s + 1] =
        turn_base_[s] + (static_cast<int32_t>(f.in_channels(s).size()) + 1) * f.degree(s);
  turn_sw_.resize(turn_base_[S]);
  for (int32_t s = 0; s < S; ++s)
    for (int32_t t = turn_base_[s]; t < turn_base_[s + 1]; ++t) turn_sw_[t] = s;
  const size_t entries = static_cast<size_t>(turn_base_[S]) * nsl_;
  vl_.assign(entries, -1);
  users_.assign(entries, 0);
  weight_.assign(entries, 0);
  head_.assign(entries, -1);
  next_.assign(num_hops, -1);
  prev_.assign(num_hops, -1);
}

void TurnTable::attach(int64_t e, int32_t hop, uint8_t vl, int64_t weight) {
  if (users_[e]++ == 0) vl_[e] = static_cast<int8_t>(vl);
  weight_[e] += weight;
  prev_[hop] = -1;
  next_[hop] = head_[e];
  if (head_[e] >= 0) prev_[head_[e]] = hop;
  head_[e] = hop;
}

void TurnTable::detach(int64_t e, int32_t hop, int64_t weight) {
  weight_[e] -= weight;
  if (prev_[hop] >= 0)
    next_[prev_[hop]] = next_[hop];
  else
    head_[e] = next_[hop];
  if (next_[hop] >= 0) prev_[next_[hop]] = prev_[hop];
  next_[hop] = prev_[hop] = -1;
  if (--users_[e] == 0) vl_[e] = -1;
}

int32_t TurnTable::turn_in(int32_t turn) const {
  const int32_t s = turn_sw_[turn];
  const int32_t slot = (turn - turn_base_[s]) / f_.degree(s);
  return slot == 0 ? -1 : f_.in_channels(s)[slot - 1];
}

int32_t TurnTable::turn_out(int32_t turn) const {
  const int32_t s = turn_sw_[turn];
  return f_.out_begin(s) + (turn - turn_base_[s]) % f_.degree(s);
}

void write_turn_vl(const Fabric &f, const TurnTable &tt, int32_t turn, uint8_t sl, uint8_t vl,
                   Routing &out) {
  const int32_t s = tt.turn_switch(turn), in = tt.turn_in(turn);
  const uint8_t out_port = f.channel(tt.turn_out(turn)).src_port;
  if (in >= 0) {
    out.set_vl(s, f.channel(in).dst_port, out_port, sl, vl);
    return;
  }
  out.set_vl(s, 0, out_port, sl, vl);
  for (int32_t term : f.terminals_of(s)) out.set_vl(s, f.terminal(term).sw_port, out_port, sl, vl);
}

}  // namespace keiro::vlmap
