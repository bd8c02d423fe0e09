// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Kautz graphs K(d, k): vertices are the strings s1..sk over {0..d} with
// s_i != s_{i+1}, numbered in lexicographic order; every arc
// s1..sk -> s2..sk x (x != sk) becomes one switch-to-switch link. Position
// code = the symbols, 4 bits each.
#include <map>
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

GenFabric gen_kautz(int d, int k, const TopoOptions &o) {
  if (d < 1 || d > 15 || k < 1 || k > 10) throw TopoError("kautz: need 1 <= d <= 15, 1 <= k <= 10");
  std::vector<std::vector<int>> words;
  std::vector<int> w(k);
  // Enumerate in lexicographic order.
  auto rec = [&](auto &self, int i) -> void {
    if (i == k) {
      words.push_back(w);
      return;
    }
    for (int x = 0; x <= d; ++x) {
      if (i && x == w[i - 1]) continue;
      w[i] = x;
      self(self, i + 1);
    }
  };
  rec(rec, 0);
  if (words.size() > 1000000) throw TopoError("kautz: too many switches");
  if (words.size() < 2) throw TopoError("kautz: needs at least two vertices");
  GenFabric g;
  g.family = Family::kKautz;
  g.radix = o.radix;
  std::map<std::vector<int>, int32_t> id;
  for (const auto &s : words) {
    std::string desc = "kautz ";
    uint64_t pos = 0;
    for (int x : s) {
      desc += "0123456789abcdef"[x];
      pos = (pos << 4) | static_cast<uint64_t>(x);
    }
    id[s] = g.add_switch(desc, pos);
  }
  for (const auto &s : words) {
    std::vector<int> t(s.begin() + 1, s.end());
    t.push_back(0);
    for (int x = 0; x <= d; ++x) {
      if (x == s.back()) continue;
      t.back() = x;
      g.link(id[s], 0, id[t], 0);
    }
  }
  number_ports_in_order(g);
  apply_redundancy(g, o.redundancy);
  g.place_hcas(o.hcas < 0 ? 1 : o.hcas, "kautz d=" + std::to_string(d) + " k=" + std::to_string(k));
  return g;
}

}  // namespace keiro::topo
