// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Dragonfly (Kim et al., ISCA'08) with parameters (a, p, h, g): router R of
// group G is switch G * a + R; local ports 1..a-1 (port of R towards R' is R'
// + 1 when R' < R, else R'); global ports a..a+h-1; HCAs from port a+h.
// Every pair of groups gets floor(a*h/(g-1)) global links; a group's t-th
// global link uses router t mod a, global port a + t / a.
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

GenFabric gen_dragonfly(int a, int p, int h, int groups, const TopoOptions &o) {
  if (a < 1 || p < 0 || h < 0 || groups < 1) throw TopoError("dragonfly: bad parameters");
  if (static_cast<long>(a) * groups > 1000000) throw TopoError("dragonfly: too many switches");
  const int per_pair = groups > 1 ? a * h / (groups - 1) : 0;
  if (groups > 1 && per_pair == 0)
    throw TopoError("dragonfly: a*h global ports per group cannot reach g-1 other groups");
  GenFabric g;
  g.family = Family::kDragonfly;
  g.radix = o.radix;
  for (int G = 0; G < groups; ++G)
    for (int R = 0; R < a; ++R) {
      const int32_t s = g.add_switch("dragonfly g" + std::to_string(G) + " r" + std::to_string(R),
                                     (static_cast<uint64_t>(G) << 16) | static_cast<uint64_t>(R));
      g.sw[s].hca_port = a + h;
    }
  for (int G = 0; G < groups; ++G)
    for (int R = 0; R < a; ++R)
      for (int R2 = R + 1; R2 < a; ++R2) g.link(G * a + R, R2, G * a + R2, R + 1);
  std::vector<int> used(groups, 0);
  for (int G = 0; G < groups; ++G)
    for (int G2 = G + 1; G2 < groups; ++G2)
      for (int m = 0; m < per_pair; ++m) {
        const int t = used[G]++, t2 = used[G2]++;
        g.link(G * a + t % a, a + t / a, G2 * a + t2 % a, a + t2 / a);
      }
  apply_redundancy(g, o.redundancy);
  g.place_hcas(o.hcas < 0 ? p : o.hcas, "dragonfly a=" + std::to_string(a) +
                                            " p=" + std::to_string(p) + " h=" + std::to_string(h) +
                                            " g=" + std::to_string(groups));
  return g;
}

}  // namespace keiro::topo
