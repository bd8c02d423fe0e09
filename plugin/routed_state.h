// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What the plugin keeps of the last successful routing of one engine, for
// the OpenSM callbacks that run after it: path_sl (SA PathRecords, from
// several SA threads at once), update_sl2vl (QoS setup) and the path-SL
// dump. Built once per routing run; read-only afterwards, so concurrent
// readers need no lock. No OpenSM header (unit-tested).
//
// Memory: the Fabric and Routing it owns, plus one int32 per LID and two
// hash maps over switches and terminals. build(): O(S + T + L).
// path_sl(): O(1), no allocation. switch_sl2vl()/terminal_sl2vl(): one hash
// lookup + 16 table reads.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::plugin {

class RoutedState {
 public:
  // Takes the fabric and the checked routing of a successful run.
  static std::unique_ptr<const RoutedState> build(Fabric fabric, Routing routing);

  // The SL of the path slid -> dlid (host-order LIDs). A LID that the
  // routing does not know (added later, cached-routing sweeps, out of
  // range) gets the hint OpenSM proposed.
  uint8_t path_sl(uint16_t slid, uint16_t dlid, uint8_t hint) const {
    if (slid >= src_switch_.size() || dlid >= src_switch_.size()) return hint;
    const int32_t src = src_switch_[slid];
    if (src < 0 || src_switch_[dlid] < 0) return hint;
    return routing_.path_sl(src, dlid);
  }

  // SL -> VL of switch node_guid for packets entering at in_port and
  // leaving at out_port. False (vl_by_sl untouched) for an unknown switch or
  // port.
  bool switch_sl2vl(uint64_t node_guid, uint8_t in_port, uint8_t out_port,
                    uint8_t vl_by_sl[kNumSls]) const;
  // SL -> VL of the CA/router port port_guid. False for an unknown port.
  bool terminal_sl2vl(uint64_t port_guid, uint8_t vl_by_sl[kNumSls]) const;

  // Switch id of a node GUID / terminal id of a CA or router port GUID;
  // -1 when the routing does not know it (multicast members, mcast_trees.h).
  int32_t switch_of(uint64_t node_guid) const {
    const auto it = switch_by_guid_.find(node_guid);
    return it == switch_by_guid_.end() ? -1 : it->second;
  }
  int32_t terminal_of(uint64_t port_guid) const {
    const auto it = terminal_by_port_guid_.find(port_guid);
    return it == terminal_by_port_guid_.end() ? -1 : it->second;
  }

  const Fabric &fabric() const { return fabric_; }
  const Routing &routing() const { return routing_; }

 private:
  RoutedState(Fabric f, Routing r) : fabric_(std::move(f)), routing_(std::move(r)) {}
  Fabric fabric_;
  Routing routing_;
  std::vector<int32_t> src_switch_;  // LID -> switch it is on/attached to, -1 unused
  std::unordered_map<uint64_t, int32_t> switch_by_guid_, terminal_by_port_guid_;
};

}  // namespace keiro::plugin
