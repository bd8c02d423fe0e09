// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Parsers of infiniband-diags output, the live counterpart of OpenSM's dumps
// (keiro check --live):
//  - saquery -p [--slid S --dlid D]: "PathRecord dump:" blocks with
//    "slid....N", "dlid....N", "sl......0xN" lines -> source-LID SLs;
//  - smpquery sl2vl LID [PORT]: "# SL2VL table: Lid N" then
//    "ports: in  I, out  O: | v| v|..." rows -> SL2VL of that switch or CA;
//  - smpquery portinfo LID PORT: "# Port info: Lid N port P" then
//    "OperVLs:......VL0-7" -> the data VLs a switch port operates.
// ibnetdiscover output is a topology file (core/io/topology_file.h) and
// ibroute output an LFT dump (core/io/dumps.h).
// Time: O(size of the text).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::io {

// Adds every complete record to out (which must be reset). Returns the number
// of records used, or -1 with err set on malformed text.
int64_t parse_saquery_paths(const std::string &text, const std::string &name,
                            check::SourceLidSls &out, std::string &err);

// Applies every "ports: in I, out O" row to the switch or CA that owns the
// table's LID. Returns the rows applied, or -1 with err set.
int64_t parse_smpquery_sl2vl(const std::string &text, const std::string &name, const Fabric &f,
                             Routing &r, std::string &err);

// Reads the OperVLs of switch ports into port_vls[switch][port] (data VLs:
// "VL0" 1, "VL0-N" N + 1; 0 = not read), sized for every switch and port.
// Headers of LIDs that are not switch LIDs, or ports the switch lacks, are
// skipped. Returns the number of ports read.
int64_t parse_oper_vls(const std::string &text, const Fabric &f,
                       std::vector<std::vector<uint8_t>> &port_vls);

}  // namespace keiro::io
