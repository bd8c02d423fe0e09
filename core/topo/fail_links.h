// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// --fail-links: removes round(f * L) of the L switch-to-switch links, chosen
// in a random order drawn from the seed, skipping any link whose removal
// would disconnect the switches. The removed links are returned (and noted at
// the top of the written file). Fails when fewer links can be removed.
//
// Time: O(L * (S + L)). Memory: O(S + L).
#pragma once

#include <cstdint>
#include <vector>

#include "core/topo/gen_fabric.h"

namespace keiro::topo {

std::vector<GenLink> fail_links(GenFabric &g, double fraction, uint64_t seed);

}  // namespace keiro::topo
