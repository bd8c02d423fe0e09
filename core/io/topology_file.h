// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Readers of fabric descriptions into the core Fabric model:
//  - ibsim net files and ibnetdiscover output (the same format family:
//    "Switch N "id" # "desc" ... lid L", "[p] "remote"[rp]" lines, "Hca"/"Ca"/"Rt",
//    switchguid=/caguid= directives),
//  - OpenSM's opensm-subnet.lst dump.
// LIDs found in the file are kept; LIDs that are missing are given by
// assign_lids() with the requested LMC. The result is finalized.
#pragma once

#include <string>

#include "core/fabric.h"

namespace keiro {

struct TopologyReadOptions {
  uint8_t lmc = 0;       // LMC for ports whose LID the file does not give
  uint8_t vls = 8;       // data VLs per port (ibsim offers 8)
};

// Detects the format from the content. On error returns false and sets err to
// one line with the file name and line number.
bool read_topology(const std::string &path, Fabric &out, std::string &err,
                   const TopologyReadOptions &opt = {});

}  // namespace keiro
