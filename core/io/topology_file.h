// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Readers of fabric descriptions into the core Fabric model:
//  - ibsim net files and ibnetdiscover output (the same format family:
//    "Switch N "id" # "desc" ... lid L", "[p] "remote"[rp]" lines, "Hca"/"Ca"/"Rt",
//    switchguid=/caguid=/rtguid= directives), read the way ibsim 0.12 reads them
//    (core/io/net_file.h) so that GUIDs computed offline equal the ones OpenSM
//    sees on ibsim;
//  - OpenSM's opensm-subnet.lst dump (core/io/subnet_lst.h);
//  - the ports report of `ibnetdiscover -p`, with or without `-s`
//    (core/io/ports_report.h: one node per CA port, its rules differ).
// The format is detected from the first line that is neither blank, nor a
// comment, nor a "DR path" progress line of `ibnetdiscover -s`: '{' starts an
// opensm-subnet.lst, "TYPE LID PORT 0xGUID" (TYPE SW, CA or RT) a ports
// report, anything else is a net file. LIDs, the SM port and GUID 0 below
// are the rules of net files; the other readers state theirs.
//
// LIDs found in the file are kept. LIDs that are missing are given the way
// OpenSM 3.3.23's LID manager gives them on a fresh subnet (core/io/opensm_lids.h):
// the SM's port first, then every other port in OpenSM's port-GUID map order.
// The result is finalized.
//
// Nodes whose GUID is 0 are left out (OpenSM ignores them: "Got Zero Node
// GUID"); ibsim gives GUID 0 to the first router of a file without rtguid=.
// Only CA/router ports that are linked to a switch become terminals.
//
// Time: O(L + N log N) for L lines and N nodes. Memory: O(file size).
#pragma once

#include <string>
#include <string_view>

#include "core/fabric.h"
#include "core/io/topology_options.h"

namespace keiro::io {

// Detects the format from the content. On error returns false and sets err to
// one line "file:line: message" (or "file: message" when no line applies).
bool read_topology(const std::string &path, Fabric &out, std::string &err,
                   const TopologyReadOptions &opt = {});

// The same on text already in memory; name is used in error messages (and to
// resolve relative include files of net files).
bool parse_topology(std::string_view text, const std::string &name, Fabric &out, std::string &err,
                    const TopologyReadOptions &opt = {});

}  // namespace keiro::io
