// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// LID assignment as OpenSM 3.3.23's LID manager (osm_lid_mgr.c) does it on a
// fresh subnet: no guid2lid cache, reassign_lids off, lmc_esp0 off.
//  - A port keeps the LID it already has (the one the file gives) when that
//    LID is aligned to its block size and not yet taken; switches need one
//    LID, CA/router ports 2^lmc. Unaligned given LIDs are dropped.
//  - The free LIDs form ranges (the gaps between the kept blocks). The SM's
//    own port is served first, then every other port in the order of OpenSM's
//    port_guid_tbl: a cl_qmap keyed by the GUID in network byte order, so on
//    a little-endian host ports come in ascending order of the byte-swapped
//    GUID (0x100001 < 0x200001 < 0x100004).
//  - A port that needs a LID takes the first free range where an aligned block
//    fits; the block starts at the range start rounded up to 2^lmc (OpenSM's
//    "(lid + n) & mask"), and the LIDs skipped for alignment are lost.
// With LIDs given for no port this equals what OpenSM assigns on ibsim
// (checked against opensm-subnet.lst in tests/integration/topologies-up.sh).
//
// Time: O(P log P + P * R) for P ports and R free ranges (R = 1 without given
// LIDs). Memory: O(P + 0xC000 bits).
#pragma once

#include <string>

#include "core/fabric.h"

namespace keiro::io {

// Sets lid/lmc of every switch (lmc 0) and terminal (lmc) before finalize().
// sm is the SM's port (kSwitch or kTerminal id), or kind kNone. Throws
// FabricError when LIDs run out.
void assign_lids_opensm(Fabric &f, uint8_t lmc, LidOwner sm);

// The SM's port named by TopologyReadOptions::sm_node in a fabric being built
// (before finalize) from a format that names nodes by description only: the
// first switch with that description, else the first end port. False when
// nothing has it. O(S + T).
bool sm_by_description(const Fabric &f, const std::string &desc, LidOwner &sm);

// The last step of the topology readers: assign_lids_opensm, finalize() and
// move f into out. On a FabricError sets err to "name: <what>" and returns
// false.
bool finish_fabric(Fabric &f, uint8_t lmc, LidOwner sm, const std::string &name, Fabric &out,
                   std::string &err);

}  // namespace keiro::io
