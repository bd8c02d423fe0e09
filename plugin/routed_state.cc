// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/routed_state.h"

#include <algorithm>

namespace keiro::plugin {

std::unique_ptr<const RoutedState> RoutedState::build(Fabric fabric, Routing routing) {
  std::unique_ptr<RoutedState> s(new RoutedState(std::move(fabric), std::move(routing)));
  const Fabric &f = s->fabric_;
  // Only LIDs that the routing has rows for can be answered.
  const uint32_t top = std::min<uint32_t>(f.max_lid(), s->routing_.max_lid());
  s->src_switch_.assign(top + 1u, -1);
  for (uint32_t lid = 1; lid <= top; ++lid)
    s->src_switch_[lid] = f.lid_switch(static_cast<uint16_t>(lid));
  s->switch_by_guid_.reserve(f.num_switches());
  for (int32_t sw = 0; sw < f.num_switches(); ++sw) s->switch_by_guid_[f.sw(sw).guid] = sw;
  s->terminal_by_port_guid_.reserve(f.num_terminals());
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    s->terminal_by_port_guid_[f.terminal(t).port_guid] = t;
  return s;
}

bool RoutedState::switch_sl2vl(uint64_t node_guid, uint8_t in_port, uint8_t out_port,
                               uint8_t vl_by_sl[kNumSls]) const {
  const auto it = switch_by_guid_.find(node_guid);
  if (it == switch_by_guid_.end()) return false;
  const int32_t sw = it->second;
  const uint8_t ports = routing_.switch_ports(sw);
  if (in_port > ports || out_port > ports) return false;
  for (int sl = 0; sl < kNumSls; ++sl)
    vl_by_sl[sl] = routing_.vl(sw, in_port, out_port, static_cast<uint8_t>(sl));
  return true;
}

bool RoutedState::terminal_sl2vl(uint64_t port_guid, uint8_t vl_by_sl[kNumSls]) const {
  const auto it = terminal_by_port_guid_.find(port_guid);
  if (it == terminal_by_port_guid_.end()) return false;
  for (int sl = 0; sl < kNumSls; ++sl)
    vl_by_sl[sl] = routing_.terminal_vl(it->second, static_cast<uint8_t>(sl));
  return true;
}

}  // namespace keiro::plugin
