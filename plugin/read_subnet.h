// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Builds keiro's Fabric from OpenSM's discovered subnet (osm_subn_t):
//  - switches from sw_guid_tbl, in ascending node-GUID order (deterministic,
//    and for ibsim the order of the net file);
//  - switch-to-switch links from every switch port's p_remote_physp (links
//    that went down are already unlinked by OpenSM; port state is not
//    filtered because routing runs while new links are still INIT);
//  - CA and router end ports from port_guid_tbl, attached where their
//    physical port's remote is a switch port, with their LID range
//    (osm_port_get_lid_range_ho, so LMC > 0 is included);
//  - switch LIDs (and LMC with enhanced port 0) from the switch's port 0;
//  - data VLs per link from VLCap of both ends capped by max_op_vls
//    (plugin/vl_cap.h), never from the current OperVLs.
// Time O(S * P + T + C log C); memory O(S * P + T + max LID).
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"

struct osm_subn;
struct osm_switch;

namespace keiro::plugin {

struct SubnetFabric {
  Fabric fabric;
  std::vector<struct osm_switch *> osm_switch;  // keiro switch id -> OpenSM switch
  int skipped_ports = 0;  // end ports left out (no LID, or not attached to a switch)
};

// Returns false and sets err (one line) if the subnet cannot be represented.
bool read_subnet(struct osm_subn &subn, SubnetFabric &out, std::string &err);

}  // namespace keiro::plugin
