// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Tiny hand-made fabrics shared by unit tests.
#pragma once

#include "core/fabric.h"

namespace keiro::testfab {

// Two 8-port switches A and B joined by two parallel links (ports 3 and 5;
// the link on port 3 has 4 VLs, the other 8), one CA on port 1 of each.
// Not finalized: LIDs and finalize() are up to the test.
inline Fabric two_switches() {
  Fabric f;
  const int a = f.add_switch({0x10, "A", 8});
  const int b = f.add_switch({0x20, "B", 8});
  f.add_link(a, 3, b, 3, 4);
  f.add_link(a, 5, b, 5, 8);
  f.add_terminal({0x100, 0x101, "ha", 1, false, 0, 0, a, 1});
  f.add_terminal({0x200, 0x201, "hb", 1, false, 0, 0, b, 1});
  return f;
}

// The same with LIDs (LMC 0) and finalized.
inline Fabric two_switches_finalized() {
  Fabric f = two_switches();
  assign_lids(f, 0);
  f.finalize();
  return f;
}

}  // namespace keiro::testfab
