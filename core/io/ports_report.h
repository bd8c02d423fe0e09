// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The ports report of `ibnetdiscover -p` (infiniband-diags, dump_ports_report):
// one line per port of every node the discovery found, nodes in the
// library's order, ports from the highest down:
//   TYPE LID PORT GUID WIDTH SPEED - TYPE LID PORT GUID ( 'desc' - 'peer desc' )
//   TYPE LID PORT GUID WIDTH SPEED                      'desc'
// TYPE is SW, CA or RT; LID and PORT are decimal, GUID 0x hex. The second
// form is a port without a link: it is skipped (it still counts for the
// switch's port count). The LID of a switch port is the switch's port-0 LID,
// that of a CA/router port its own base LID; the GUID is the PORT GUID.
// WIDTH and SPEED (4x, QDR, ...) are read past and ignored: every keiro
// engine treats every link alike.
//
// What the format cannot say, and what keiro makes of it:
//  - a CA's node GUID is not shown, only the port GUID of each port: every CA
//    or router port is its own single-port node, keyed and named by its port
//    GUID (node GUID = port GUID, port number as given). A dual-port HCA thus
//    becomes two end ports of two nodes; routing is unaffected (keiro routes
//    end ports), but `keiro topo show` lists other node GUIDs than OpenSM's
//    opensm-subnet.lst of the same fabric would;
//  - a switch is keyed by the GUID of its lines (its port GUID, equal to its
//    node GUID on every switch known); its port count is the highest port
//    number seen for it (ibnetdiscover lists every port of a switch, linked or
//    not);
//  - there is no LMC (end ports get TopologyReadOptions::lmc) and no SM mark:
//    LIDs the file gives are kept, missing ones (LID 0) are given as OpenSM
//    would (core/io/opensm_lids.h), serving first the node whose description
//    is TopologyReadOptions::sm_node if one is set.
// Each link normally appears twice, once from each end; both are accepted and
// the link is added once. Lines that contradict each other (a port linked to
// two peers, or linked on one line and unlinked on another; a GUID that is a
// switch on one line and a CA on another; two LIDs for one switch or port)
// are errors, as are CA-to-CA links and loopback links on a switch (keiro's
// model has neither). Descriptions are taken as given; one that contains
// "' - '" cannot be told from the separator and is split at its first one.
//
// Also skipped: blank lines, '#' comment lines, and the "DR path ..."
// progress lines that `ibnetdiscover -s` mixes into its output.
//
// Time: O(L log L) for L lines. Memory: O(L).
#pragma once

#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/io/topology_options.h"

namespace keiro::io {

// True when line starts like a ports report line: TYPE LID PORT 0xGUID
// (leading blanks allowed). Format detection of read_topology(). O(line).
bool is_ports_report_line(std::string_view line);

// True for a progress line of `ibnetdiscover -s` ("DR path ..."). O(1).
bool is_discovery_progress_line(std::string_view line);

// Fills and finalizes out. On error returns false with err = "file:line: message"
// (or "file: message" when no line applies).
bool parse_ports_report(std::string_view text, const std::string &name, Fabric &out,
                        std::string &err, const TopologyReadOptions &opt);

}  // namespace keiro::io
