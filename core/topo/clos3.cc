// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// 3-level folded Clos of R-port switches in P pods (families.h, clos3).
//
// Pod p has R/2 leaves <p, i> and R/2 middles <p, j>; every leaf links to
// every middle of its pod. Middle j belongs to group j / (R/P); the P/2
// groups have R/2 top switches each, and top <g, t> links to every middle of
// group g in every pod (R/P per pod, R in all). Ports, as fattree: with
// PortSplit::kTopFirst and kHcaLow the down ports (and a leaf's HCAs) are
// 1..R/2 and the up ports R/2+1..R, kHcaHigh swaps the halves; a top switch
// has down ports only, 1..R (the middle m of pod p in its group on port
// 1 + p * (R/P) + m). Leaf i uses down port i of a middle and up port j of
// itself for middle j; middle j uses up port t for top <g, t>.
//
// Listed top level first (tops, middles, leaves), with a port split leaf
// level first (leaves, middles, tops). Position code: index of the level in
// the list << 32 | p << 16 | i (tops: g << 16 | t), so GUIDs ascend in list
// order.
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

namespace {

enum Level { kLeaf = 0, kMiddle = 1, kTop = 2 };

struct Clos3Shape {
  int r = 0, pods = 0;
  int half() const { return r / 2; }
  int per_group() const { return r / pods; }  // middles of one group in one pod
  int groups() const { return pods / 2; }
  // Switches of a level, in list order: pods (or groups) times R/2.
  int count(Level l) const { return (l == kTop ? groups() : pods) * half(); }
};

std::string clos3_desc(Level l, int outer, int inner) {
  switch (l) {
    case kLeaf:
      return "clos3 leaf p" + std::to_string(outer) + " l" + std::to_string(inner);
    case kMiddle:
      return "clos3 middle p" + std::to_string(outer) + " m" + std::to_string(inner);
    case kTop:
      break;
  }
  return "clos3 top g" + std::to_string(outer) + " t" + std::to_string(inner);
}

void check_clos3(int r, int pods) {
  if (r < 2 || r % 2 || r > 254) throw TopoError("clos3: R must be even, 2..254");
  if (pods < 2 || pods % 2 || r % pods)
    throw TopoError("clos3: P must be even, at least 2, and divide R (R/P middles per group)");
  if (static_cast<long>(pods) * r > 200000) throw TopoError("clos3: too many switches");
}

}  // namespace

GenFabric gen_clos3(int r, int pods, const TopoOptions &o) {
  check_clos3(r, pods);
  if (o.redundancy != 1) throw TopoError("clos3: R is the port count; no --redundancy");
  const Clos3Shape c{r, pods};
  const int h = o.hcas < 0 ? c.half() : o.hcas;
  if (h > c.half()) throw TopoError("clos3: at most R/2 HCAs fit on the down ports of a leaf");
  GenFabric g;
  g.family = Family::kClos3;
  g.radix = r;
  const bool leaves_first = o.port_split != PortSplit::kTopFirst;
  const bool up_low = o.port_split == PortSplit::kHcaHigh;
  const Level order[3] = {leaves_first ? kLeaf : kTop, kMiddle, leaves_first ? kTop : kLeaf};
  int32_t first[3] = {0, 0, 0};
  for (int li = 0; li < 3; ++li) {
    const Level l = order[li];
    first[l] = static_cast<int32_t>(g.sw.size());
    for (int k = 0; k < c.count(l); ++k) {
      const int outer = k / c.half(), inner = k % c.half();
      const int32_t s =
          g.add_switch(clos3_desc(l, outer, inner), static_cast<uint64_t>(li) << 32 |
                                                        static_cast<uint64_t>(outer) << 16 |
                                                        static_cast<uint64_t>(inner));
      g.sw[s].ports = r;
    }
  }
  const int down0 = up_low ? c.half() + 1 : 1, up0 = up_low ? 1 : c.half() + 1;
  for (int p = 0; p < pods; ++p) {
    for (int j = 0; j < c.half(); ++j) {
      const int32_t mid = first[kMiddle] + p * c.half() + j;
      for (int i = 0; i < c.half(); ++i)
        g.link(mid, down0 + i, first[kLeaf] + p * c.half() + i, up0 + j);
      const int grp = j / c.per_group(), m = j % c.per_group();
      for (int t = 0; t < c.half(); ++t)
        g.link(mid, up0 + t, first[kTop] + grp * c.half() + t, 1 + p * c.per_group() + m);
    }
  }
  for (int k = 0; k < c.count(kLeaf); ++k) {
    GenSwitch &s = g.sw[first[kLeaf] + k];
    s.hcas = h;
    s.hca_port = down0;
  }
  g.check_ports("clos3 " + std::to_string(r) + " " + std::to_string(pods));
  return g;
}

}  // namespace keiro::topo
