// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/routing.h"

#include <algorithm>

namespace keiro {

void Routing::reset(const Fabric &f, SlScope scope) {
  scope_ = scope;
  num_switches_ = f.num_switches();
  stride_ = static_cast<size_t>(f.max_lid()) + 1;
  lft_.assign(static_cast<size_t>(num_switches_) * stride_, kNoPort);
  sl_.assign(scope == SlScope::kPerDestination ? stride_ : lft_.size(), 0);
  sw_ports_.resize(num_switches_);
  sl2vl_start_.resize(num_switches_);
  sl2vl_slots_.resize(num_switches_);
  port_slot_start_.resize(num_switches_);
  port_slot_.clear();
  size_t total = 0;
  for (int32_t s = 0; s < num_switches_; ++s) {
    const uint8_t ports = f.sw(s).num_ports;
    sw_ports_[s] = ports;
    port_slot_start_[s] = port_slot_.size();
    // Row 0: port 0; then one per connected port; one shared by the rest.
    uint8_t rows = 1;
    bool unconnected = false;
    port_slot_.push_back(0);
    for (unsigned p = 1; p <= ports; ++p) {
      const bool connected = f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone;
      port_slot_.push_back(connected ? rows++ : kNoPort);
      unconnected = unconnected || !connected;
    }
    if (unconnected) {
      for (unsigned p = 1; p <= ports; ++p)
        if (port_slot_[port_slot_start_[s] + p] == kNoPort)
          port_slot_[port_slot_start_[s] + p] = rows;
      ++rows;
    }
    sl2vl_slots_[s] = rows;
    sl2vl_start_[s] = total;
    total += static_cast<size_t>(rows) * rows * kNumSls;
  }
  sl2vl_.assign(total, 0);
  term_sl2vl_.assign(static_cast<size_t>(f.num_terminals()) * kNumSls, 0);
  vls_used = 1;
  sls_used = 1;
}

void Routing::set_uniform_sl2vl(uint8_t sl, uint8_t v) {
  for (size_t i = sl; i < sl2vl_.size(); i += kNumSls) sl2vl_[i] = v;
  for (size_t i = sl; i < term_sl2vl_.size(); i += kNumSls) term_sl2vl_[i] = v;
}

void Routing::permute_sls(const std::array<uint8_t, kNumSls> &to) {
  for (uint8_t &sl : sl_)
    if (sl < kNumSls) sl = to[sl];
  auto move_rows = [&](std::vector<uint8_t> &table) {
    std::array<uint8_t, kNumSls> row;
    for (size_t b = 0; b + kNumSls <= table.size(); b += kNumSls) {
      for (int i = 0; i < kNumSls; ++i) row[to[i]] = table[b + i];
      std::copy(row.begin(), row.end(), table.begin() + static_cast<std::ptrdiff_t>(b));
    }
  };
  move_rows(sl2vl_);
  move_rows(term_sl2vl_);
}

void Routing::copy_sl(uint8_t from, uint8_t to) {
  for (std::vector<uint8_t> *table : {&sl2vl_, &term_sl2vl_})
    for (size_t b = 0; b + kNumSls <= table->size(); b += kNumSls)
      (*table)[b + to] = (*table)[b + from];
}

}  // namespace keiro
