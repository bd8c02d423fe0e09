// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fabric model every keiro algorithm works on: switches, end ports (CA and
// router ports, called terminals), and directed switch-to-switch channels.
//
// Dense integer ids everywhere: switches 0..S-1, terminals 0..T-1, channels
// 0..C-1. After finalize() the channels are stored sorted by (src, src_port),
// so the channels leaving switch s are the contiguous id range
// [out_begin(s), out_end(s)) (CSR). Parallel links are separate channels.
//
// Memory: O(S * P + T + C + max_lid) where P is the largest port count.
// finalize(): O(C log C + S * P + T).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace keiro {

inline constexpr uint8_t kNoPort = 0xFF;  // LFT value meaning "drop"
inline constexpr int kMaxDataVls = 15;
inline constexpr int kNumSls = 16;
// SL2VL value meaning "drop" (InfiniBand: a data packet whose SL maps to
// VL 15 is discarded).
inline constexpr uint8_t kDropVl = 15;

class FabricError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SwitchInfo {
  uint64_t guid = 0;
  std::string name;       // node description
  uint8_t num_ports = 0;  // external ports are numbered 1..num_ports
  uint16_t lid = 0;       // base LID of port 0; 0 = not assigned
  uint8_t lmc = 0;        // LMC of port 0 (only with enhanced port 0)
};

// An end port of a CA or router attached to a switch port.
struct TerminalInfo {
  uint64_t node_guid = 0;
  uint64_t port_guid = 0;
  std::string name;      // node description
  uint8_t port_num = 1;  // port number on its own node
  bool router = false;
  uint16_t lid = 0;  // base LID; 0 = not assigned
  uint8_t lmc = 0;
  int32_t sw = -1;      // switch it is attached to
  uint8_t sw_port = 0;  // port of that switch
  uint8_t vls = 8;      // data VLs of the CA link
};

// A directed switch-to-switch channel.
struct Channel {
  int32_t src = -1, dst = -1;  // switch ids
  uint8_t src_port = 0, dst_port = 0;
  uint8_t vls = 8;       // data VLs the link supports (VLCap of both ends, capped)
  int32_t reverse = -1;  // the channel in the opposite direction
};

// What is behind a switch port.
struct PortPeer {
  enum Kind : uint8_t { kNone, kSwitch, kTerminal };
  Kind kind = kNone;
  int32_t id = -1;  // kSwitch: id of the channel leaving through this port; kTerminal: terminal id
};

// Who owns a LID.
struct LidOwner {
  enum Kind : uint8_t { kNone, kSwitch, kTerminal };
  Kind kind = kNone;
  int32_t id = -1;
};

class Fabric {
 public:
  // ---- construction (before finalize) ----
  int32_t add_switch(SwitchInfo info);
  // t.sw and t.sw_port must name an existing switch port.
  int32_t add_terminal(TerminalInfo t);
  // A duplex link between two switch ports; adds both directed channels.
  void add_link(int32_t a, uint8_t port_a, int32_t b, uint8_t port_b, uint8_t vls = 8);
  // Builds the CSR arrays and the LID index. Throws FabricError on an
  // inconsistent fabric (port used twice, port beyond num_ports, LID clash).
  void finalize();
  bool finalized() const { return finalized_; }

  // ---- queries (after finalize) ----
  int32_t num_switches() const { return static_cast<int32_t>(switches_.size()); }
  int32_t num_terminals() const { return static_cast<int32_t>(terminals_.size()); }
  int32_t num_channels() const { return static_cast<int32_t>(channels_.size()); }

  const SwitchInfo &sw(int32_t s) const { return switches_[s]; }
  SwitchInfo &sw_mut(int32_t s) { return switches_[s]; }
  const TerminalInfo &terminal(int32_t t) const { return terminals_[t]; }
  TerminalInfo &terminal_mut(int32_t t) { return terminals_[t]; }
  const Channel &channel(int32_t c) const { return channels_[c]; }
  const std::vector<Channel> &channels() const { return channels_; }

  int32_t out_begin(int32_t s) const { return out_start_[s]; }
  int32_t out_end(int32_t s) const { return out_start_[s + 1]; }
  int32_t degree(int32_t s) const { return out_end(s) - out_begin(s); }
  // Ids of the channels entering switch s.
  std::span<const int32_t> in_channels(int32_t s) const {
    return {in_list_.data() + in_start_[s], in_list_.data() + in_start_[s + 1]};
  }
  // Ids of the terminals attached to switch s.
  std::span<const int32_t> terminals_of(int32_t s) const {
    return {term_list_.data() + term_start_[s], term_list_.data() + term_start_[s + 1]};
  }
  PortPeer peer(int32_t s, uint8_t port) const;

  // Highest LID in use (0 if none).
  uint16_t max_lid() const { return max_lid_; }
  LidOwner lid_owner(uint16_t lid) const { return lid <= max_lid_ ? lid_owner_[lid] : LidOwner{}; }
  // The switch a LID belongs to or is attached to; -1 for an unused LID.
  int32_t lid_switch(uint16_t lid) const;
  // All LIDs in use, ascending (LMC ranges expanded).
  const std::vector<uint16_t> &lids() const { return lids_; }

  // Smallest VL count over the switch-to-switch channels (kMaxDataVls if none).
  uint8_t min_switch_vls() const;
  // The switch with this GUID, or -1.
  int32_t find_switch(uint64_t guid) const;
  // The switch named by an option or a layout file: a GUID (0x... or plain
  // hex) or a node description. Returns -1 and sets err to one sentence when
  // the text names no switch, or names several (a description that several
  // switches share: the caller must then use the GUID). O(S).
  int32_t find_switch(std::string_view guid_or_description, std::string &err) const;
  // "'name' (0x0002c90000000001)": how messages name switch s.
  std::string describe(int32_t s) const;

 private:
  // finalize()'s steps. Channels sorted by (src, src_port), reverse ids remapped.
  void sort_channels();
  // Per switch its out channels (CSR order), in channels and terminals.
  void index_channels();
  // The port table; throws FabricError on an invalid or doubly used port.
  void index_ports();
  // The LID owners and lids_; throws FabricError on LIDs above 0xBFFF or used twice.
  void index_lids();
  bool finalized_ = false;
  std::vector<SwitchInfo> switches_;
  std::vector<TerminalInfo> terminals_;
  std::vector<Channel> channels_;
  std::vector<int32_t> out_start_, in_start_, in_list_, term_start_, term_list_;
  std::vector<int32_t> port_start_;  // port_start_[s] + port -> index in port_peer_
  std::vector<PortPeer> port_peer_;
  std::vector<LidOwner> lid_owner_;
  std::vector<uint16_t> lids_;
  uint16_t max_lid_ = 0;
};

// Gives LIDs to every switch and terminal that has none, as OpenSM would on a
// fresh fabric: switches first in id order, then terminals, each port getting
// an aligned block of 2^lmc LIDs (switches get one LID unless sw_lmc is set).
// Must be called before finalize(). Throws FabricError when LIDs run out.
void assign_lids(Fabric &f, uint8_t lmc, bool switches_use_lmc = false);

}  // namespace keiro
