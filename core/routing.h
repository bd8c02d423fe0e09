// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The tables a routing engine produces, in the form OpenSM installs them:
//  - the linear forwarding table of every switch (output port per LID),
//  - the service level of every path (what path_sl answers the SA),
//  - the SL-to-VL mapping of every switch (in port, out port, SL) -> VL, and
//    of every CA/router port (SL -> VL on its own output).
//
// A path's SL depends on the destination LID and, for engines that need it,
// on the source switch (the switch a source LID sits on or is attached to).
// Memory: LFT S * (L+1) bytes; SL L+1 or S * (L+1) bytes; SL2VL
// sum over switches (c+2)^2 * 16 bytes + T * 16 bytes (S switches, L = max
// LID, c connected ports of the switch, T terminals). The SL2VL matrix of a
// switch has one row/column for port 0, one per connected port and one shared
// by all unconnected ports (they carry no traffic), so a 36-port switch with
// 12 cables needs 3 KB instead of 22 KB, and Routing::reset touches little
// fresh memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"

namespace keiro {

class Routing {
 public:
  enum class SlScope : uint8_t { kPerDestination, kPerSourceSwitch };

  // Sizes every table for the fabric: LFT entries kNoPort, SL 0 everywhere,
  // every SL2VL entry VL 0.
  void reset(const Fabric &f, SlScope scope = SlScope::kPerDestination);

  int32_t num_switches() const { return num_switches_; }
  uint16_t max_lid() const { return static_cast<uint16_t>(stride_ - 1); }

  // ---- LFT ----
  uint8_t out_port(int32_t sw, uint16_t lid) const { return lft_[idx(sw, lid)]; }
  void set_out_port(int32_t sw, uint16_t lid, uint8_t port) { lft_[idx(sw, lid)] = port; }
  // The whole LFT row of a switch, indexed by LID 0..max_lid.
  const uint8_t *lft_row(int32_t sw) const { return lft_.data() + idx(sw, 0); }
  uint8_t *lft_row_mut(int32_t sw) { return lft_.data() + idx(sw, 0); }

  // ---- path SLs ----
  SlScope sl_scope() const { return scope_; }
  uint8_t path_sl(int32_t src_sw, uint16_t dlid) const {
    return scope_ == SlScope::kPerDestination ? sl_[dlid] : sl_[idx(src_sw, dlid)];
  }
  void set_dest_sl(uint16_t dlid, uint8_t sl) { sl_[dlid] = sl; }  // kPerDestination
  void set_path_sl(int32_t src_sw, uint16_t dlid, uint8_t sl) {    // kPerSourceSwitch
    sl_[idx(src_sw, dlid)] = sl;
  }

  // ---- SL2VL ----
  uint8_t vl(int32_t sw, uint8_t in, uint8_t out, uint8_t sl) const {
    return sl2vl_[sl2vl_idx(sw, in, out) + sl];
  }
  void set_vl(int32_t sw, uint8_t in, uint8_t out, uint8_t sl, uint8_t vl) {
    sl2vl_[sl2vl_idx(sw, in, out) + sl] = vl;
  }
  // Sets SL -> VL for every (in, out) pair of every switch and every terminal.
  void set_uniform_sl2vl(uint8_t sl, uint8_t vl);
  uint8_t terminal_vl(int32_t t, uint8_t sl) const { return term_sl2vl_[t * kNumSls + sl]; }
  void set_terminal_vl(int32_t t, uint8_t sl, uint8_t vl) { term_sl2vl_[t * kNumSls + sl] = vl; }
  uint8_t switch_ports(int32_t sw) const { return sw_ports_[sw]; }
  // Renames SLs: a path SL p becomes to[p] (kNoPathSl-style values >= 16
  // stay), and the SL2VL entry of SL i of every (switch, in, out) and every
  // terminal moves to SL to[i]. to must be a permutation of 0..15. O(tables).
  void permute_sls(const std::array<uint8_t, kNumSls> &to);
  // The SL2VL entries of SL from, on every (switch, in, out) and every
  // terminal, copied to SL to (path SLs untouched). O(tables).
  void copy_sl(uint8_t from, uint8_t to);

  // ---- what the engine reports about itself ----
  std::string engine;  // e.g. "keiro-nue"
  int vls_used = 1;    // distinct VLs on switch-to-switch hops
  int sls_used = 1;    // distinct path SLs

 private:
  size_t idx(int32_t sw, uint16_t lid) const { return static_cast<size_t>(sw) * stride_ + lid; }
  size_t sl2vl_idx(int32_t sw, uint8_t in, uint8_t out) const {
    const uint8_t *slot = port_slot_.data() + port_slot_start_[sw];
    const size_t n = sl2vl_slots_[sw];
    return sl2vl_start_[sw] + (slot[in] * n + slot[out]) * kNumSls;
  }
  SlScope scope_ = SlScope::kPerDestination;
  int32_t num_switches_ = 0;
  size_t stride_ = 1;
  std::vector<uint8_t> lft_, sl_, sl2vl_, term_sl2vl_, sw_ports_;
  std::vector<size_t> sl2vl_start_;
  std::vector<uint8_t> port_slot_, sl2vl_slots_;  // per switch port: its row; per switch: rows
  std::vector<size_t> port_slot_start_;           // per switch: first entry in port_slot_
};

}  // namespace keiro
