// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Generators of keiro topo: structure of each family, reproducibility from
// the seed, LRT degree and length limits, --fail-links, port limits, and that
// the written ibsim file reads back (io::read_topology) as the same fabric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/graph_metrics.h"
#include "core/topo/net_list.h"

namespace keiro::topo {
namespace {

TopoOptions opts(uint64_t seed = 1, int hcas = -1) {
  TopoOptions o;
  o.seed = seed;
  o.hcas = hcas;
  return o;
}

bool simple(const GenFabric &g) {
  std::set<std::pair<int, int>> seen;
  for (const GenLink &l : g.links)
    if (!seen.insert({std::min(l.a, l.b), std::max(l.a, l.b)}).second) return false;
  return true;
}

TEST(TopoFamilies, RandomRegular) {
  const GenFabric g = gen_random_regular(128, 8, opts(7, 4));
  EXPECT_EQ(g.sw.size(), 128u);
  EXPECT_EQ(g.links.size(), 128u * 8 / 2);
  const Adjacency adj = adjacency(g);
  for (const auto &nb : adj) EXPECT_EQ(nb.size(), 8u);
  EXPECT_TRUE(connected(adj));
  EXPECT_TRUE(simple(g));
  EXPECT_EQ(g.num_hcas(), 512);
  EXPECT_THROW(gen_random_regular(9, 3, opts()), TopoError);  // N d odd
  EXPECT_THROW(gen_random_regular(8, 8, opts()), TopoError);
}

TEST(TopoFamilies, SeedsReproducible) {
  EXPECT_EQ(write_net(gen_random_regular(40, 5, opts(3))),
            write_net(gen_random_regular(40, 5, opts(3))));
  EXPECT_NE(write_net(gen_random_regular(40, 5, opts(3))),
            write_net(gen_random_regular(40, 5, opts(4))));
  EXPECT_EQ(write_net(gen_lrt(64, 4, 2, opts(9))), write_net(gen_lrt(64, 4, 2, opts(9))));
  EXPECT_NE(write_net(gen_lrt(64, 4, 2, opts(9))), write_net(gen_lrt(64, 4, 2, opts(10))));
  GenFabric a = gen_torus({6, 6, 6}, false, opts()), b = a;
  fail_links(a, 0.01, 5);
  fail_links(b, 0.01, 5);
  EXPECT_EQ(write_net(a), write_net(b));
}

// LOREN's LRT(N, d, r): every switch of degree d, every link within
// Manhattan distance r on the n x n grid, connected.
TEST(TopoFamilies, LrtDegreeAndLength) {
  struct Case {
    int n, d, r;
  };
  for (const Case c : {Case{16, 4, 2}, Case{64, 4, 2}, Case{256, 4, 4}, Case{100, 6, 3}}) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const GenFabric g = gen_lrt(c.n, c.d, c.r, opts(seed));
      const Adjacency adj = adjacency(g);
      for (const auto &nb : adj) ASSERT_EQ(static_cast<int>(nb.size()), c.d);
      for (const GenLink &l : g.links) {
        const int len = std::abs(g.sw[l.a].x - g.sw[l.b].x) + std::abs(g.sw[l.a].y - g.sw[l.b].y);
        ASSERT_LE(len, c.r);
        ASSERT_GE(len, 1);
      }
      EXPECT_TRUE(connected(adj));
      EXPECT_TRUE(simple(g));
    }
  }
  // Layout file: one "GUID X Y NAME" line per switch.
  const GenFabric g = gen_lrt(16, 4, 2, opts());
  std::istringstream in(write_layout(g));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line[0], '#');
  int rows = 0;
  while (std::getline(in, line)) {
    unsigned long long guid;
    int x, y;
    char name[64];
    ASSERT_EQ(std::sscanf(line.c_str(), "%llx %d %d %63[^\n]", &guid, &x, &y, name), 4) << line;
    EXPECT_EQ(guid, g.switch_guid(rows));
    EXPECT_EQ(x, rows % 4);
    EXPECT_EQ(y, rows / 4);
    EXPECT_EQ(std::string(name), "lrt x=" + std::to_string(x) + " y=" + std::to_string(y));
    ++rows;
  }
  EXPECT_EQ(rows, 16);
  // A corner of a 4x4 grid has 2 switches at distance 1: d = 3 cannot be met.
  EXPECT_THROW(gen_lrt(16, 3, 1, opts()), TopoError);
  EXPECT_THROW(gen_lrt(15, 4, 2, opts()), TopoError);
}

TEST(TopoFamilies, TorusAndMesh) {
  const GenFabric t = gen_torus({4, 4, 4}, false, opts());
  EXPECT_EQ(t.sw.size(), 64u);
  EXPECT_EQ(t.links.size(), 192u);
  for (const auto &nb : adjacency(t)) EXPECT_EQ(nb.size(), 6u);
  EXPECT_EQ(t.sw[1].desc, "torus 1,0,0");
  EXPECT_EQ(t.switch_guid(1), 0x0203000001000000ULL);  // coordinates 1,0,0 in the GUID
  EXPECT_EQ(diameter(adjacency(t)), 6);
  // A dimension of size 2: two parallel links, degree stays 2n.
  const GenFabric t2 = gen_torus({2, 3}, false, opts());
  for (const auto &nb : adjacency(t2)) EXPECT_EQ(nb.size(), 4u);
  EXPECT_FALSE(simple(t2));
  const GenFabric m = gen_torus({3, 3}, true, opts());
  EXPECT_EQ(m.links.size(), 12u);
  EXPECT_EQ(adjacency(m)[0].size(), 2u);
  EXPECT_EQ(adjacency(m)[4].size(), 4u);
  EXPECT_EQ(diameter(adjacency(m)), 4);
}

TEST(TopoFamilies, FatTree) {
  const GenFabric g = gen_fat_tree(4, 3, opts());
  EXPECT_EQ(g.sw.size(), 48u);
  EXPECT_EQ(g.links.size(), 128u);
  EXPECT_EQ(g.num_hcas(), 64);
  const Adjacency adj = adjacency(g);
  for (int s = 0; s < 16; ++s) EXPECT_EQ(adj[s].size(), 4u);   // top: down only
  for (int s = 16; s < 32; ++s) EXPECT_EQ(adj[s].size(), 8u);  // middle
  for (int s = 32; s < 48; ++s) {
    EXPECT_EQ(adj[s].size(), 4u);  // leaves: up only
    EXPECT_EQ(g.sw[s].hcas, 4);
  }
  // Leaves reach each other in at most 2 (n - 1) hops.
  std::vector<int32_t> d;
  bfs(adj, 32, d);
  for (int s = 32; s < 48; ++s) EXPECT_LE(d[s], 4);
  // The Nue paper's 10-ary 3-tree: 300 switches, 2,000 channels.
  const GenFabric big = gen_fat_tree(10, 3, opts());
  EXPECT_EQ(big.sw.size(), 300u);
  EXPECT_EQ(big.links.size(), 2000u);
}

// The sizes a generated fabric must have (-1: not checked) and whether its
// switch graph must be connected; a mismatch names the fabric.
struct Sizes {
  int64_t switches = -1, hcas = -1, links = -1;
  bool connected = false;
};
void expect_sizes(const std::string &name, const GenFabric &g, const Sizes &want) {
  SCOPED_TRACE(name);
  if (want.switches >= 0) {
    EXPECT_EQ(static_cast<int64_t>(g.sw.size()), want.switches);
  }
  if (want.hcas >= 0) {
    EXPECT_EQ(g.num_hcas(), want.hcas);
  }
  if (want.links >= 0) {
    EXPECT_EQ(static_cast<int64_t>(g.links.size()), want.links);
  }
  if (want.connected) {
    EXPECT_TRUE(connected(adjacency(g)));
  }
}

// The Nue paper's Table 1 configurations.
TEST(TopoFamilies, NueTable1Sizes) {
  expect_sizes("dragonfly", gen_dragonfly(12, 6, 6, 15, opts()),
               {.switches = 180, .hcas = 1080, .links = 1515, .connected = true});
  TopoOptions kr = opts(1, 7);
  kr.redundancy = 2;
  expect_sizes("kautz", gen_kautz(5, 3, kr),
               {.switches = 150, .hcas = 1050, .links = 1500, .connected = true});
  TopoOptions tr = opts(1, 7);
  tr.redundancy = 4;
  expect_sizes("torus", gen_torus({6, 5, 5}, false, tr), {.switches = 150, .links = 1800});
  expect_sizes("random regular", gen_random_regular(125, 16, opts(1, 8)),
               {.hcas = 1000, .links = 1000});
}

TEST(TopoFamilies, Kautz) {
  const GenFabric g = gen_kautz(2, 3, opts());
  EXPECT_EQ(g.sw.size(), 12u);  // (d+1) d^(k-1)
  EXPECT_EQ(g.links.size(), 24u);
  for (const auto &nb : adjacency(g)) EXPECT_EQ(nb.size(), 4u);
  EXPECT_EQ(g.sw[0].desc, "kautz 010");
  EXPECT_EQ(diameter(adjacency(g)), 3);
}

TEST(TopoFamilies, FailLinksKeepConnectivity) {
  GenFabric g = gen_torus({6, 6, 6}, false, opts(1, 2));
  const size_t before = g.links.size();
  const std::vector<GenLink> gone = fail_links(g, 0.01, 1);
  EXPECT_EQ(gone.size(), 6u);  // round(0.01 * 648)
  EXPECT_EQ(g.links.size(), before - 6);
  EXPECT_TRUE(connected(adjacency(g)));
  int notes = 0;
  for (const std::string &n : g.notes) notes += n.rfind("failed link: ", 0) == 0;
  EXPECT_EQ(notes, 6);
  // Many removals on a sparse graph: still connected, or refused.
  GenFabric r = gen_random_regular(30, 3, opts(2));
  fail_links(r, 0.3, 2);
  EXPECT_TRUE(connected(adjacency(r)));
  GenFabric ring = gen_torus({8}, false, opts());
  EXPECT_THROW(fail_links(ring, 0.5, 1), TopoError);  // a ring survives one cut only
}

TEST(TopoFamilies, PortLimits) {
  TopoOptions o = opts(1, 13);
  o.redundancy = 4;
  EXPECT_THROW(gen_torus({6, 5, 5}, false, o), TopoError);  // 24 + 13 > 36
  o.radix = 48;
  EXPECT_NO_THROW(gen_torus({6, 5, 5}, false, o));
  EXPECT_THROW(gen_random_regular(64, 40, opts()), TopoError);
  EXPECT_THROW(gen_fat_tree(20, 2, opts()), TopoError);  // 40 ports
}

// The net file written for a generated fabric reads back as the same fabric,
// with the GUIDs the file's directives give.
TEST(TopoFamilies, NetFileRoundTrip) {
  for (const GenFabric &g :
       {gen_torus({3, 2}, false, opts(1, 2)), gen_random_regular(16, 4, opts(5, 1)),
        gen_fat_tree(2, 3, opts()), gen_dragonfly(3, 1, 1, 4, opts())}) {
    Fabric f;
    std::string err;
    ASSERT_TRUE(io::parse_topology(write_net(g), "gen.net", f, err)) << err;
    ASSERT_EQ(f.num_switches(), static_cast<int>(g.sw.size()));
    EXPECT_EQ(f.num_channels(), 2 * static_cast<int>(g.links.size()));
    EXPECT_EQ(f.num_terminals(), g.num_hcas());
    for (int s = 0; s < f.num_switches(); ++s) {
      EXPECT_EQ(f.sw(s).guid, g.switch_guid(s));
      EXPECT_EQ(f.sw(s).name, g.sw[s].desc);
      EXPECT_EQ(f.sw(s).num_ports, 36);
    }
    for (const GenLink &l : g.links) {
      const PortPeer p = f.peer(l.a, static_cast<uint8_t>(l.pa));
      ASSERT_EQ(p.kind, PortPeer::kSwitch);
      EXPECT_EQ(f.channel(p.id).dst, l.b);
      EXPECT_EQ(f.channel(p.id).dst_port, l.pb);
    }
    for (int t = 0; t < f.num_terminals(); ++t) {
      const TerminalInfo &ti = f.terminal(t);
      const int j = ti.sw_port - g.sw[ti.sw].hca_port;
      EXPECT_EQ(ti.node_guid, g.hca_guid(ti.sw, j));
      EXPECT_EQ(ti.port_guid, ti.node_guid + 1);
    }
  }
}

}  // namespace
}  // namespace keiro::topo
