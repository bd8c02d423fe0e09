// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Following the linear forwarding tables towards one destination LID.
//
// Routing is destination based: the path from a switch to a LID is the same
// for every packet that enters the switch, whatever its source. So for one
// destination the LFTs form a functional graph over the switches, and
// DestinationWalk resolves it for every switch at once: each switch is visited
// once (memoized), which is O(S) time per destination. The scratch arrays are
// sized in the constructor (O(S) memory), so run() never allocates.
//
// hop_counts() uses it to build the hop table OpenSM keeps per switch:
// O(S * L) time and memory (S switches, L = max LID).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::check {

// Where a packet for the destination LID ends up once it enters a switch.
enum class Fate : uint8_t {
  kUnknown = 0,
  kDelivered,      // reaches the port that owns the LID
  kDropped,        // an LFT entry is 0xFF or names a port the switch does not have
  kDeadPort,       // an LFT entry names a port with nothing connected behind it
  kWrongTerminal,  // an LFT entry sends it to a CA/router port that does not own the LID
  kWrongSwitch,    // an LFT entry is port 0 on a switch that does not own the LID
  kLoop,           // it circles between switches forever
};

const char *fate_name(Fate f);

class DestinationWalk {
 public:
  DestinationWalk(const Fabric &f, const Routing &r);

  // Resolves every switch for dlid. dlid must be a LID in use in the fabric.
  // ports (optional): the LFT entries for dlid, ports[s * stride] for
  // switch s (a block copy of the LFT columns, read with fewer cache and TLB
  // misses than the Routing's rows); nullptr: read the Routing.
  void run(uint16_t dlid, const uint8_t *ports = nullptr, size_t stride = 1);

  // Makes the last run() the walk of dlid as well, without walking: for a
  // dlid of the same destination switch, owned by a CA/router port, whose
  // LFT entries equal the last run's at every other switch and which that
  // switch forwards to its own port, when the last run delivered from every
  // switch to a CA/router port (the caller checks this). O(1).
  void retarget(uint16_t dlid);

  uint16_t dlid() const { return dlid_; }
  LidOwner owner() const { return owner_; }
  int32_t dest_switch() const { return dest_sw_; }

  Fate fate(int32_t s) const { return static_cast<Fate>(fate_[s]); }
  // For kDelivered: links from switch s to the destination port (0 when s owns
  // the LID, 1 for a terminal on s or for the LID of a neighbour switch).
  uint16_t hops(int32_t s) const { return hops_[s]; }
  // The channel switch s forwards the LID on; -1 at the destination switch and
  // where the LFT entry of s itself is bad.
  int32_t next_channel(int32_t s) const { return next_[s]; }
  // The switch whose LFT entry is at fault for the walk from s (for loops: the
  // first switch of the loop that the walk from s entered).
  int32_t culprit(int32_t s) const { return culprit_[s]; }
  // The LFT entry of s for the LID.
  uint8_t entry(int32_t s) const;
  // The delivered switches ordered by increasing hops: iterating it backwards
  // visits every switch before the switch it forwards to.
  std::span<const int32_t> delivered_by_distance() const { return order_; }

 private:
  // order_: the delivered switches by hops (counting sort).
  void sort_delivered();
  const Fabric &f_;
  const Routing &r_;
  uint16_t dlid_ = 0;
  LidOwner owner_;
  int32_t dest_sw_ = -1;
  std::vector<uint8_t> fate_;
  std::vector<uint16_t> hops_;
  std::vector<int32_t> next_, culprit_, stack_, order_, bucket_;
};

// Hops from every switch to every LID, indexed [sw * (max_lid + 1) + lid]:
// 0 at the switch's own LID, 1 to a terminal on the switch, and so on along
// the LFT path; 0xFF when the LID is unused or not delivered from that switch
// (and 0xFE for paths of 254 hops or more). threads: workers over the LIDs
// (0: the machine's cores, capped; core/parallel.h), one walk each; the
// table is the same for every count.
std::vector<uint8_t> hop_counts(const Fabric &f, const Routing &r, int threads = 1);
// The same for the LIDs `lids` only, indexed [sw * lids.size() + i]
// (the plugin's hop rows: switch LIDs, install_tables.h).
std::vector<uint8_t> hop_counts_to(const Fabric &f, const Routing &r,
                                   std::span<const uint16_t> lids, int threads = 1);

}  // namespace keiro::check
