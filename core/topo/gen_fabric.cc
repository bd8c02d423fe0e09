// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/gen_fabric.h"

#include <algorithm>

namespace keiro::topo {

namespace {
constexpr uint64_t kMaxPos = uint64_t{1} << 40;
}  // namespace

int32_t GenFabric::add_switch(std::string desc, uint64_t pos) {
  if (pos >= kMaxPos) throw TopoError("switch position does not fit the GUID encoding");
  GenSwitch s;
  s.desc = std::move(desc);
  s.pos = pos;
  sw.push_back(std::move(s));
  return static_cast<int32_t>(sw.size() - 1);
}

std::vector<int> GenFabric::max_link_port() const {
  std::vector<int> m(sw.size(), 0);
  for (const GenLink &l : links) {
    m[l.a] = std::max(m[l.a], l.pa);
    m[l.b] = std::max(m[l.b], l.pb);
  }
  return m;
}

void GenFabric::place_hcas(int h, const std::string &what) {
  if (h < 0) throw TopoError("negative HCA count");
  if (h > 127) throw TopoError("at most 127 HCAs per switch");
  const std::vector<int> m = max_link_port();
  for (size_t s = 0; s < sw.size(); ++s) {
    sw[s].hcas = h;
    if (!sw[s].hca_port) sw[s].hca_port = m[s] + 1;
  }
  check_ports(what);
}

void GenFabric::check_ports(const std::string &what) const {
  int need = 0;
  std::vector<std::vector<char>> used(sw.size());
  auto use = [&](int32_t s, int p) {
    if (p < 1)
      throw TopoError(what + ": port number " + std::to_string(p) + " on switch " + sw[s].desc);
    if (sw[s].ports && p > sw[s].ports)
      throw TopoError(what + ": port " + std::to_string(p) + " of the " +
                      std::to_string(sw[s].ports) + "-port switch " + sw[s].desc);
    if (!sw[s].ports) need = std::max(need, p);
    if (static_cast<int>(used[s].size()) <= p) used[s].resize(p + 1, 0);
    if (used[s][p])
      throw TopoError(what + ": port " + std::to_string(p) + " of switch " + sw[s].desc +
                      " used twice");
    used[s][p] = 1;
  };
  for (const GenLink &l : links) {
    if (l.a == l.b) throw TopoError(what + ": loopback link on switch " + sw[l.a].desc);
    use(l.a, l.pa);
    use(l.b, l.pb);
  }
  for (size_t s = 0; s < sw.size(); ++s)
    for (int j = 0; j < sw[s].hcas; ++j)
      use(static_cast<int32_t>(s), hca_port_of(static_cast<int32_t>(s), j));
  if (need > radix)
    throw TopoError(what + " needs " + std::to_string(need) + "-port switches, more than " +
                    std::to_string(radix) +
                    (radix < 48 ? " (use --radix 48 if your switches have 48)" : ""));
}

uint64_t GenFabric::switch_guid(int32_t s) const {
  return (uint64_t{0x02} << 56) | (uint64_t{static_cast<uint8_t>(family)} << 48) | (sw[s].pos << 8);
}

uint64_t GenFabric::hca_guid(int32_t s, int j) const {
  return (uint64_t{0x01} << 56) | (uint64_t{static_cast<uint8_t>(family)} << 48) |
         (sw[s].pos << 8) | static_cast<uint64_t>(2 * j);
}

int GenFabric::num_hcas() const {
  int n = 0;
  for (const GenSwitch &s : sw) n += s.hcas;
  return n;
}

void number_ports_in_order(GenFabric &g) {
  std::vector<int> next(g.sw.size(), 1);
  for (GenLink &l : g.links) {
    l.pa = next[l.a]++;
    l.pb = next[l.b]++;
  }
}

}  // namespace keiro::topo
