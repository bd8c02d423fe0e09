// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Director-based fabrics: D director chassis and R rack (leaf) switches.
//
// A 648-port director (Mellanox SX6536 class) is a two-level fat tree of 36-
// port switch chips inside one chassis: 18 spine chips and 36 line chips.
// Every line chip has 18 external ports (1..18, the chassis' front panel) and
// 18 internal links, one to each spine chip (line port 18 + 1 + s to spine s,
// spine port 1 + l to line chip l). ibnetdiscover shows every chip as a
// switch of its own; Mellanox chassis name them "MF0;<chassis>:<model>/<board>/
// <chip>", line boards L01..L36 and spine boards S01..S18, one chip U1 each,
// and so does this generator ("MF0;dir1:SX6536/L05/U1").
//
// Rack switch r ("MF0;rack001:SX6036/U1") has its HCAs on ports 1..h and its
// u up-links on ports h+1..h+u; up-link j goes to director j mod D, and a
// director takes its cables in arrival order on line chip t mod 36, external
// port 1 + t / 36 (t = cables it took so far), so that one rack's cables into
// one director land on different line chips.
//
// Listed director by director (spines, then line chips), then the rack
// switches. Position codes: spine d << 16 | 1 << 8 | s, line chip d << 16 |
// 2 << 8 | l, rack switch 1 << 32 | r.
#include <cstdio>
#include <string>

#include "core/topo/families.h"

namespace keiro::topo {

namespace {

constexpr int kSpines = 18, kLines = 36, kChipPorts = 36, kExternal = 18;

std::string chip_desc(int d, char board, int i) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "MF0;dir%d:SX6536/%c%02d/U1", d + 1, board, i + 1);
  return buf;
}

std::string rack_desc(int r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "MF0;rack%03d:SX6036/U1", r + 1);
  return buf;
}

// The chips of director d and its internal links; returns its first line chip.
int32_t add_director(GenFabric &g, int d) {
  const uint64_t base = static_cast<uint64_t>(d) << 16;
  int32_t first_spine = -1, first_line = -1;
  for (int s = 0; s < kSpines; ++s) {
    const int32_t i = g.add_switch(chip_desc(d, 'S', s), base | 1u << 8 | static_cast<uint64_t>(s));
    g.sw[i].ports = kChipPorts;
    if (s == 0) first_spine = i;
  }
  for (int l = 0; l < kLines; ++l) {
    const int32_t i = g.add_switch(chip_desc(d, 'L', l), base | 2u << 8 | static_cast<uint64_t>(l));
    g.sw[i].ports = kChipPorts;
    if (l == 0) first_line = i;
  }
  for (int l = 0; l < kLines; ++l)
    for (int s = 0; s < kSpines; ++s)
      g.link(first_line + l, kExternal + 1 + s, first_spine + s, 1 + l);
  return first_line;
}

}  // namespace

GenFabric gen_director(int directors, int racks, const TopoOptions &o) {
  if (directors < 1 || racks < 1) throw TopoError("director: need D >= 1 and R >= 1");
  if (directors > 200 || racks > 100000) throw TopoError("director: too many switches");
  const int h = o.hcas < 0 ? 18 : o.hcas;
  const int u = o.uplinks < 0 ? h : o.uplinks;
  if (u < 1) throw TopoError("director: a rack switch needs at least one up-link");
  if (static_cast<long>(racks) * u > static_cast<long>(directors) * kLines * kExternal)
    throw TopoError("director: " + std::to_string(racks) + " x " + std::to_string(u) +
                    " up-links exceed the " + std::to_string(directors) + " x " +
                    std::to_string(kLines * kExternal) + " external ports of the directors");
  GenFabric g;
  g.family = Family::kDirector;
  g.radix = o.radix;
  std::vector<int32_t> first_line(directors);
  for (int d = 0; d < directors; ++d) first_line[d] = add_director(g, d);
  std::vector<int> taken(directors, 0);
  for (int r = 0; r < racks; ++r) {
    const int32_t rs = g.add_switch(rack_desc(r), uint64_t{1} << 32 | static_cast<uint64_t>(r));
    g.sw[rs].hcas = h;
    g.sw[rs].hca_port = 1;
    for (int j = 0; j < u; ++j) {
      const int d = j % directors, t = taken[d]++;
      g.link(rs, h + 1 + j, first_line[d] + t % kLines, 1 + t / kLines);
    }
  }
  g.check_ports("director " + std::to_string(directors) + " " + std::to_string(racks));
  return g;
}

}  // namespace keiro::topo
