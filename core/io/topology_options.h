// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// How a fabric file is read into a Fabric: the settings every topology
// reader takes (read_topology() of core/io/topology_file.h and the format
// readers it dispatches to, e.g. parse_subnet_lst() of core/io/subnet_lst.h).
// Values only: no file format is known here, so the readers share it
// without including each other.
#pragma once

#include <cstdint>
#include <string>

namespace keiro::io {

struct TopologyReadOptions {
  uint8_t lmc = 0;  // LMC of CA/router ports (OpenSM's lmc option)
  uint8_t vls = 8;  // data VLs per port (ibsim offers 8)
  // Node that holds OpenSM's port, as ibsim's SIM_HOST names it (node id or
  // description). Empty: ibsim's default, the first port of the first node in
  // the file; for opensm-subnet.lst the node marked "-SM".
  std::string sm_node;
};

}  // namespace keiro::io
