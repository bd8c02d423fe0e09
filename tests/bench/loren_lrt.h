// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Layout-conscious random topologies LRT(N = n^2, d, r) for keiro-loren's
// tests and its reproduction of the LOREN paper's evaluation, made exactly as
// `keiro topo lrt N d r --hcas-per-switch h --seed s` makes them (the topology
// generator core/topo/families.h, LOREN paper Sect. II-B): the net file and
// the layout file are written and read back through the same readers OpenSM
// runs and keiro-loren use (core/io/topology_file.h, core/loren/layout.h), so
// GUIDs, LIDs and positions are the ones an ibsim run sees.
//
// Time: the generator's O(N * d) per attempt plus O(file size) to read back.
#pragma once

#include <stdexcept>
#include <string>

#include "core/fabric.h"
#include "core/io/topology_file.h"
#include "core/loren/layout.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/net_list.h"

namespace keiro::bench {

struct LrtFabric {
  int n = 0, d = 0, r = 0;  // LRT(n * n, d, r)
  std::string net, layout;  // the ibsim net file and the layout file
  Fabric f;
  loren::Layout l;
};

inline LrtFabric make_lrt(int n, int d, int r, int hcas, uint64_t seed) {
  LrtFabric x;
  x.n = n, x.d = d, x.r = r;
  topo::TopoOptions o;
  o.hcas = hcas;
  o.seed = seed;
  const topo::GenFabric g = topo::gen_lrt(n * n, d, r, o);
  x.net = topo::write_net(g);
  x.layout = topo::write_layout(g);
  std::string err;
  if (!io::parse_topology(x.net, "lrt.net", x.f, err)) throw std::runtime_error(err);
  if (!loren::parse_layout(x.layout, "lrt.layout", x.f, x.l, err)) throw std::runtime_error(err);
  return x;
}

}  // namespace keiro::bench
