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
  size_t total = 0;
  for (int32_t s = 0; s < num_switches_; ++s) {
    sw_ports_[s] = f.sw(s).num_ports;
    sl2vl_start_[s] = total;
    const size_t n = sw_ports_[s] + 1u;
    total += n * n * kNumSls;
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

}  // namespace keiro
