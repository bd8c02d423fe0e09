// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Data-VL counts from PortInfo's encoded VLCap / max_op_vls values
// (1 = VL0, 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14), computed the way
// OpenSM's link manager will program OperVLs: the smaller VLCap of the two
// ends, capped by OpenSM's max_op_vls. The current OperVLs are not used:
// during the first sweep they are stale (routing runs before the link
// manager sets them). No OpenSM header; O(1).
#pragma once

#include <algorithm>
#include <cstdint>

namespace keiro::plugin {

// Data VLs of an encoded VLCap/OperVLs value; 0 (non-compliant) counts as 1.
inline uint8_t data_vls_of_code(uint8_t code) {
  if (code <= 1) return 1;
  if (code >= 5) return 15;
  return static_cast<uint8_t>(1u << (code - 1));
}

// Data VLs a link will be operated with.
inline uint8_t link_data_vls(uint8_t vl_cap_a, uint8_t vl_cap_b, uint8_t max_op_vls) {
  uint8_t code = std::min({vl_cap_a, vl_cap_b, max_op_vls});
  return data_vls_of_code(code);
}

}  // namespace keiro::plugin
