// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/families.h"

namespace keiro::topo {

void apply_redundancy(GenFabric &g, int r) {
  if (r < 1) throw TopoError("redundancy must be at least 1");
  if (r == 1) return;
  std::vector<GenLink> out;
  out.reserve(g.links.size() * r);
  for (const GenLink &l : g.links)
    for (int c = 0; c < r; ++c)
      out.push_back({l.a, l.b, (l.pa - 1) * r + 1 + c, (l.pb - 1) * r + 1 + c});
  g.links.swap(out);
  for (GenSwitch &s : g.sw)
    if (s.hca_port) s.hca_port = (s.hca_port - 1) * r + 1;
}

}  // namespace keiro::topo
