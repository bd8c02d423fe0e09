// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// k-ary n-dimensional tori and meshes. Switch index = c0 + k0 * (c1 + k1 * (c2 ...)),
// position code = the coordinates, 8 bits each, dimension 0 in the high byte.
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

GenFabric gen_torus(const std::vector<int> &dims, bool mesh, const TopoOptions &o) {
  const char *fam = mesh ? "mesh" : "torus";
  if (dims.empty() || dims.size() > 5) throw TopoError(std::string(fam) + ": 1 to 5 dimensions");
  long total = 1;
  for (int k : dims) {
    if (k < 2 || k > 255) throw TopoError(std::string(fam) + ": sizes must be 2..255");
    total *= k;
    if (total > 1000000) throw TopoError(std::string(fam) + ": too many switches");
  }
  const int n = static_cast<int>(dims.size());
  GenFabric g;
  g.family = mesh ? Family::kMesh : Family::kTorus;
  g.radix = o.radix;
  std::vector<int> c(n, 0);
  for (long v = 0; v < total; ++v) {
    long rest = v;
    std::string desc = fam;
    uint64_t pos = 0;
    for (int i = 0; i < n; ++i) {
      c[i] = static_cast<int>(rest % dims[i]);
      rest /= dims[i];
      desc += (i ? "," : " ") + std::to_string(c[i]);
      pos = (pos << 8) | static_cast<uint64_t>(c[i]);
    }
    const int32_t s = g.add_switch(desc, pos);
    g.sw[s].hca_port = 2 * n + 1;
  }
  long stride = 1;
  for (int i = 0; i < n; ++i) {
    for (long v = 0; v < total; ++v) {
      const int ci = static_cast<int>((v / stride) % dims[i]);
      if (mesh && ci + 1 == dims[i]) continue;
      const long w = ci + 1 == dims[i] ? v - ci * stride : v + stride;
      g.link(static_cast<int32_t>(v), 2 * i + 1, static_cast<int32_t>(w), 2 * i + 2);
    }
    stride *= dims[i];
  }
  apply_redundancy(g, o.redundancy);
  std::string what = fam;
  for (int i = 0; i < n; ++i) what += (i ? "x" : " ") + std::to_string(dims[i]);
  g.place_hcas(o.hcas < 0 ? 1 : o.hcas, what);
  return g;
}

}  // namespace keiro::topo
