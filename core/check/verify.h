// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Verification of installed-style tables: reachability of every destination
// LID from every source LID without forwarding loops or black holes, and
// absence of credit loops in the dependency graph over (directed switch-to-
// switch channel, VL), using the path SLs and SL2VL entries of the Routing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro {

struct CheckResult {
  bool ok = false;
  int64_t pairs_checked = 0;   // (source LID, destination LID) pairs
  int64_t unreachable = 0;     // pairs whose walk ends in a dropped entry (black hole)
  int64_t loops = 0;           // pairs whose walk revisits a switch
  bool credit_loop = false;
  std::vector<std::string> cycle;  // one offending cycle, "switch port VL" per hop
  std::string first_problem;       // one line: the first failure found
  int vls_used = 0, sls_used = 0;  // distinct VLs on switch-to-switch hops, distinct path SLs
};

CheckResult verify_routing(const Fabric &f, const Routing &r);

}  // namespace keiro
