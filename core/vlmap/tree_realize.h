// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Method kTree of the VL realization (core/vlmap/vlmap.h describes it, with
// its cost); realize() calls it. Same contract as realize().
#pragma once

#include <string>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vl_demand.h"
#include "core/vlmap/vlmap_options.h"

namespace keiro::vlmap {

bool realize_tree(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                  const VlMapOptions &opt, Routing &out, VlMapStats &stats, std::string &err);

}  // namespace keiro::vlmap
