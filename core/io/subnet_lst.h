// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// OpenSM's opensm-subnet.lst (osm_dump.c, dump_topology_node): one line per
// linked port of every node, both ends of a link in braces,
//   { SW[-SM] Ports:NN SystemGUID:G NodeGUID:G PortGUID:G VenID:V DevID:D Rev:R
//     {description} LID:LLLL PN:PP } { ...the remote end... } PHY=4x LOG=ACT SPD=2.5
// (numbers in hex; LID is the switch's port-0 LID or the CA port's own LID).
// Each link normally appears twice, once from each end; both are accepted,
// contradicting lines are an error. The file carries no LMC: CA/router ports
// get TopologyReadOptions::lmc. Ports with LID 0 get one as OpenSM would
// (core/io/opensm_lids.h) with the "-SM" port served first.
//
// Time: O(L log L) for L lines. Memory: O(L).
#pragma once

#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/io/topology_options.h"

namespace keiro::io {

// Fills and finalizes out. On error returns false with err = "file:line: message".
bool parse_subnet_lst(std::string_view text, const std::string &name, Fabric &out, std::string &err,
                      const TopologyReadOptions &opt);

}  // namespace keiro::io
