// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Routing's compact SL2VL storage: one row per connected port and port 0,
// one row shared by the unconnected ports.
#include "core/routing.h"

#include <gtest/gtest.h>

#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// Switch A (8 ports): port 1 a CA, ports 3 and 5 parallel links to B.
using fixtures::two_switches_finalized;

TEST(Routing, Sl2vlConnectedPairsAreIndependent) {
  const Fabric f = two_switches_finalized();
  Routing r;
  r.reset(f);
  // Every (in, out) pair of connected ports and port 0 keeps its own value.
  const uint8_t ports[] = {0, 1, 3, 5};
  int v = 0;
  for (uint8_t in : ports)
    for (uint8_t out : ports) r.set_vl(0, in, out, 7, static_cast<uint8_t>(v++ % 8));
  v = 0;
  for (uint8_t in : ports)
    for (uint8_t out : ports)
      EXPECT_EQ(r.vl(0, in, out, 7), v++ % 8) << int(in) << "->" << int(out);
  // Other SLs and the other switch are untouched.
  EXPECT_EQ(r.vl(0, 1, 3, 6), 0);
  EXPECT_EQ(r.vl(1, 3, 1, 7), 0);
}

TEST(Routing, Sl2vlUnconnectedPortsShareOneRow) {
  const Fabric f = two_switches_finalized();
  Routing r;
  r.reset(f);
  r.set_uniform_sl2vl(2, 4);
  EXPECT_EQ(r.vl(0, 2, 3, 2), 4);  // port 2 unconnected: the uniform value
  EXPECT_EQ(r.vl(0, 8, 8, 2), 4);
  r.set_vl(0, 2, 3, 1, 6);         // written through one unconnected port ...
  EXPECT_EQ(r.vl(0, 7, 3, 1), 6);  // ... read through another
  EXPECT_EQ(r.vl(0, 1, 3, 1), 0);  // a connected port is not affected
}

}  // namespace
}  // namespace keiro
