// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// k-ary n-trees. Switch <w, l>: level l (0 = top), w = digits w_0..w_{n-2}
// (w = sum w_i k^i); <w, l> links to <w', l+1> when w and w' agree in every
// digit except digit l. The parent uses down port 1 + w'_l, the child up port
// k + 1 + w_l (PortSplit::kHcaHigh swaps the halves: down ports k + 1 + w'_l,
// up ports 1 + w_l; PortSplit::kInterleaved alternates them: down ports
// 1 + 2 w'_l, up ports 2 + 2 w_l, and a leaf's HCAs on ports 1, 3, 5, ...).
// Listed top first, index = l * k^(n-1) + w and position
// code = l << 32 | w; with a port split the list starts at the leaves, with
// n - 1 - l in place of l.
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

namespace {

void add_fat_tree_switches(GenFabric &g, int k, int n, long per_level, bool leaves_first) {
  for (int i = 0; i < n; ++i) {
    const int l = leaves_first ? n - 1 - i : i;
    for (long w = 0; w < per_level; ++w) {
      std::string desc = "fattree l" + std::to_string(l);
      long rest = w;
      for (int d = 0; d < n - 1; ++d) {
        desc += (d ? "," : " ") + std::to_string(rest % k);
        rest /= k;
      }
      g.add_switch(desc, (static_cast<uint64_t>(i) << 32) | static_cast<uint64_t>(w));
    }
  }
}

}  // namespace

GenFabric gen_fat_tree(int k, int n, const TopoOptions &o) {
  if (k < 2 || n < 1) throw TopoError("fattree: need k >= 2 and n >= 1");
  long per_level = 1;
  for (int i = 0; i < n - 1; ++i) {
    per_level *= k;
    if (per_level * n > 1000000) throw TopoError("fattree: too many switches");
  }
  GenFabric g;
  g.family = Family::kFatTree;
  g.radix = o.radix;
  const bool leaves_first = o.port_split != PortSplit::kTopFirst;
  const bool up_low = o.port_split == PortSplit::kHcaHigh;
  const bool alternate = o.port_split == PortSplit::kInterleaved;
  add_fat_tree_switches(g, k, n, per_level, leaves_first);
  // Index of switch <w, l> in the list.
  auto at = [&](int l, long w) {
    return static_cast<int32_t>((leaves_first ? n - 1 - l : l) * per_level + w);
  };
  const int down0 = up_low ? k + 1 : 1, up0 = up_low ? 1 : k + 1;
  // Port of down-link c and of up-link c (c < k).
  auto down = [&](int c) { return alternate ? 1 + 2 * c : down0 + c; };
  auto up = [&](int c) { return alternate ? 2 + 2 * c : up0 + c; };
  long kl = 1;  // k^l
  for (int l = 0; l < n - 1; ++l, kl *= k) {
    for (long w = 0; w < per_level; ++w) {
      const int wl = static_cast<int>((w / kl) % k);
      for (int c = 0; c < k; ++c) {
        const long child = w + (c - wl) * kl;
        g.link(at(l, w), down(c), at(l + 1, child), up(wl));
      }
    }
  }
  apply_redundancy(g, o.redundancy);
  const int h = o.hcas < 0 ? k : o.hcas;
  if (h > k * o.redundancy && n > 1)
    throw TopoError("fattree: at most k HCAs fit on the down ports of a leaf");
  for (long w = 0; w < per_level; ++w) {
    GenSwitch &s = g.sw[at(n - 1, w)];
    s.hcas = h;
    s.hca_port = (down0 - 1) * o.redundancy + 1;
    if (alternate) s.hca_step = 2 * o.redundancy;
  }
  g.check_ports("fattree " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree");
  return g;
}

}  // namespace keiro::topo
