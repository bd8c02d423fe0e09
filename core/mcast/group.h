// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Multicast groups and their forwarding tables, in keiro's dense ids.
//
// InfiniBand multicast (IBA vol. 1, 18.2.4.3.3 and 14.2.5.8): a packet to a
// multicast LID (0xC000..0xFFFE) is replicated by every switch to each port
// whose bit is set in its multicast forwarding table (MFT) entry for that
// MLID, except the port it came in on; port 0 delivers to the switch itself.
// The packets keep their SL; each hop's VL comes from the switch's SL2VL
// table (in port, out port, SL) like a unicast packet's. So a group's masks
// must form a tree over the switches (a cycle makes copies circle for ever:
// a storm), and the turns its packets make are channel dependencies that
// join the unicast ones on the same VLs.
//
// A Group is what the SA knows: the MLID, the SLs of the MCMemberRecords
// that share it, the member ports. A Tree is what a switch installs: per
// switch, the port mask of the MLID. Memory: O(members) and
// O(switches of the tree * 32 bytes).
#pragma once

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

namespace keiro::mcast {

inline constexpr uint16_t kFirstMlid = 0xC000;  // IB_LID_MCAST_START_HO
inline constexpr uint16_t kLastMlid = 0xFFFE;   // 0xFFFF is the permissive LID

using PortMask = std::bitset<256>;  // bit p: port p of a switch (0 = the switch itself)

struct Group {
  uint16_t mlid = 0;
  uint16_t sl_mask = 1;            // bit s: some MCMemberRecord of this MLID has SL s
  std::vector<int32_t> terminals;  // member CA/router ports (terminal ids), ascending
  std::vector<int32_t> switches;   // member switches (their port 0), ascending
  std::string name;                // the MGID(s) in words, for messages; may be empty
};

struct SwitchMask {
  int32_t sw = -1;
  PortMask ports;
};

struct Tree {
  uint16_t mlid = 0;
  int32_t root = -1;              // the switch the tree grew from; -1 when not known (read back)
  std::vector<SwitchMask> masks;  // ascending by switch, no empty mask
  const PortMask *mask_of(int32_t sw) const;  // nullptr: the switch has no entry
};

// "MLID 0xC001" / "MLID 0xC001 (ff12:401b:...)" for messages.
std::string describe(const Group &g);

}  // namespace keiro::mcast
