// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/mcast/group.h"

#include <algorithm>
#include <cstdio>

namespace keiro::mcast {

const PortMask *Tree::mask_of(int32_t sw) const {
  auto it = std::lower_bound(masks.begin(), masks.end(), sw,
                             [](const SwitchMask &m, int32_t s) { return m.sw < s; });
  return it != masks.end() && it->sw == sw ? &it->ports : nullptr;
}

std::string describe(const Group &g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "MLID 0x%04X", g.mlid);
  return g.name.empty() ? std::string(buf) : std::string(buf) + " (" + g.name + ")";
}

}  // namespace keiro::mcast
