// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Generators of keiro topo: structure of each family, reproducibility from
// the seed, LRT degree and length limits, --fail-links, port limits, and that
// the written ibsim file reads back (io::read_topology) as the same fabric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
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

// clos3 R P: counts, degrees by level, and the Clos property (every leaf
// reaches every top switch in exactly 2 up-hops: leaf -> middle -> top).
// Levels are told by degree: leaves carry the HCAs, tops have no HCAs and
// only down-links to middles.
void expect_clos3(const GenFabric &g, int r, int pods, int h) {
  SCOPED_TRACE("clos3 " + std::to_string(r) + " " + std::to_string(pods));
  const int half = r / 2;
  const size_t leaves = static_cast<size_t>(pods) * half, tops = static_cast<size_t>(pods) * r / 4;
  ASSERT_EQ(g.sw.size(), 2 * leaves + tops);
  EXPECT_EQ(g.num_hcas(), static_cast<int>(leaves) * h);
  EXPECT_EQ(g.links.size(), 2 * leaves * half);  // leaf-middle and middle-top links
  EXPECT_TRUE(simple(g));
  const Adjacency adj = adjacency(g);
  std::vector<int> level(g.sw.size(), -1);  // 0 leaf, 1 middle, 2 top
  for (size_t s = 0; s < g.sw.size(); ++s)
    level[s] = g.sw[s].desc.find(" leaf ") != std::string::npos     ? 0
               : g.sw[s].desc.find(" middle ") != std::string::npos ? 1
                                                                    : 2;
  for (size_t s = 0; s < g.sw.size(); ++s) {
    EXPECT_EQ(g.sw[s].ports, r);
    EXPECT_EQ(g.sw[s].hcas, level[s] == 0 ? h : 0);
    EXPECT_EQ(static_cast<int>(adj[s].size()), level[s] == 0 ? half : r) << g.sw[s].desc;
    for (int32_t n : adj[s]) EXPECT_EQ(std::abs(level[n] - level[s]), 1) << g.sw[s].desc;
  }
  EXPECT_EQ(static_cast<size_t>(std::count(level.begin(), level.end(), 2)), tops);
  for (size_t s = 0; s < g.sw.size(); ++s) {
    if (level[s] != 0) continue;
    std::set<int32_t> reached;
    for (int32_t m : adj[s])
      for (int32_t t : adj[m])
        if (level[t] == 2) reached.insert(t);
    EXPECT_EQ(reached.size(), tops) << g.sw[s].desc;
  }
  EXPECT_TRUE(connected(adj));
}

TEST(TopoFamilies, Clos3) {
  expect_clos3(gen_clos3(16, 4, opts()), 16, 4, 8);
  expect_clos3(gen_clos3(8, 8, opts()), 8, 8, 4);  // P = R: the k-ary 3-level fat tree
  expect_clos3(gen_clos3(12, 6, opts(1, 3)), 12, 6, 3);
  // The fabric: 256 leaves + 256 middles + 128 tops, 8,192 HCAs.
  const GenFabric big = gen_clos3(64, 8, opts());
  EXPECT_EQ(big.sw.size(), 640u);
  EXPECT_EQ(big.num_hcas(), 8192);
  expect_clos3(big, 64, 8, 32);
  // A top switch spreads its R ports evenly: R/P middles in every pod.
  const GenFabric g = gen_clos3(16, 4, opts());
  const Adjacency adj = adjacency(g);
  std::map<std::string, int> per_pod;
  for (int32_t m : adj[0]) ++per_pod[g.sw[m].desc.substr(0, g.sw[m].desc.rfind(' '))];
  EXPECT_EQ(g.sw[0].desc, "clos3 top g0 t0");
  EXPECT_EQ(per_pod.size(), 4u);
  for (const auto &[pod, n] : per_pod) EXPECT_EQ(n, 4) << pod;
  EXPECT_THROW(gen_clos3(16, 3, opts()), TopoError);      // P odd
  EXPECT_THROW(gen_clos3(16, 6, opts()), TopoError);      // R/P not an integer
  EXPECT_THROW(gen_clos3(16, 32, opts()), TopoError);     // P > R
  EXPECT_THROW(gen_clos3(15, 3, opts()), TopoError);      // R odd
  EXPECT_THROW(gen_clos3(16, 4, opts(1, 9)), TopoError);  // 9 HCAs > R/2 down ports
  TopoOptions red = opts();
  red.redundancy = 2;
  EXPECT_THROW(gen_clos3(16, 4, red), TopoError);
}

// Port splits: leaf level first, HCAs and down ports on the low or the high
// half; --fail-links keeps the switches connected.
TEST(TopoFamilies, Clos3PortSplitAndFailedLinks) {
  for (const PortSplit split : {PortSplit::kTopFirst, PortSplit::kHcaLow, PortSplit::kHcaHigh}) {
    TopoOptions o = opts();
    o.port_split = split;
    const GenFabric g = gen_clos3(8, 4, o);
    expect_clos3(g, 8, 4, 4);
    const bool leaves_first = split != PortSplit::kTopFirst;
    EXPECT_EQ(g.sw[0].desc.find("clos3 leaf") == 0, leaves_first) << g.sw[0].desc;
    EXPECT_LT(g.switch_guid(0), g.switch_guid(static_cast<int32_t>(g.sw.size()) - 1));
    const bool high = split == PortSplit::kHcaHigh;
    for (const GenSwitch &s : g.sw) {
      if (s.hcas) {
        EXPECT_EQ(s.hca_port, high ? 5 : 1) << s.desc;
      }
    }
    for (const GenLink &l : g.links) {  // a: the middle, b: its leaf or top
      const bool down = g.sw[l.b].desc.find(" leaf ") != std::string::npos;
      EXPECT_EQ(l.pa <= 4, down != high) << g.sw[l.a].desc << " port " << l.pa;
    }
  }
  GenFabric f = gen_clos3(16, 4, opts());
  const std::vector<GenLink> gone = fail_links(f, 0.02, 3);
  EXPECT_EQ(gone.size(), 10u);  // round(0.02 * 512)
  EXPECT_TRUE(connected(adjacency(f)));
}

// --relabel keeps the structure: read back from the relabelled file, the
// fabric still has P*R/2 leaves with R/2 HCAs, and every leaf reaches every
// top switch (no HCAs, no leaf neighbours) in 2 hops.
TEST(TopoFamilies, Clos3RelabelKeepsTheStructure) {
  const GenFabric g = gen_clos3(16, 4, opts());
  for (uint64_t seed : {1u, 2u, 3u}) {
    Fabric f;
    std::string err;
    ASSERT_TRUE(
        io::parse_topology(write_net_list(relabel(net_list(g), seed).net), "relabelled", f, err))
        << err;
    ASSERT_EQ(f.num_switches(), 80);
    std::vector<int> hcas(f.num_switches(), 0);
    for (int32_t t = 0; t < f.num_terminals(); ++t) ++hcas[f.terminal(t).sw];
    std::vector<int32_t> leaves, tops;
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      bool near_leaf = false;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
        near_leaf |= hcas[f.channel(c).dst] > 0;
      if (hcas[s]) leaves.push_back(s);
      if (!hcas[s] && !near_leaf) tops.push_back(s);
      EXPECT_EQ(f.degree(s), hcas[s] ? 8 : 16) << f.sw(s).name;
      EXPECT_EQ(f.sw(s).num_ports, 16);
    }
    ASSERT_EQ(leaves.size(), 32u);
    ASSERT_EQ(tops.size(), 16u);
    for (int32_t l : leaves) {
      EXPECT_EQ(hcas[l], 8);
      std::set<int32_t> reached;
      for (int32_t c = f.out_begin(l); c < f.out_end(l); ++c) {
        const int32_t m = f.channel(c).dst;
        for (int32_t e = f.out_begin(m); e < f.out_end(m); ++e)
          if (std::count(tops.begin(), tops.end(), f.channel(e).dst))
            reached.insert(f.channel(e).dst);
      }
      EXPECT_EQ(reached.size(), tops.size()) << f.sw(l).name;
    }
  }
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
