// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro topo's labellings and the families of real fabrics: --relabel SEED
// writes the same fabric (checked on what io::parse_topology reads back, by an
// invariant computed here: colour refinement of the switch graph from
// (degree, HCAs)) with GUIDs, node order and switch ports really permuted and
// the same text for the same seed; the director family has 18 spine and 36
// line chips per chassis, every line chip linked once to every spine; the
// fat tree's port splits put HCAs and up-links where real leaf switches have
// them (low or high half, or alternating), leaf level first.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/net_list.h"

namespace keiro::topo {
namespace {

Fabric read_back(const std::string &text) {
  Fabric f;
  std::string err;
  EXPECT_TRUE(io::parse_topology(text, "generated", f, err)) << err;
  return f;
}

// Colour refinement (1-dimensional Weisfeiler-Leman) of the switch multigraph,
// started from (degree, HCAs); the sorted final colours of all switches. Equal
// for isomorphic fabrics whatever their labels.
std::vector<std::string> refined_colours(const Fabric &f) {
  const int32_t n = f.num_switches();
  std::vector<int> hcas(n, 0);
  for (int32_t t = 0; t < f.num_terminals(); ++t) ++hcas[f.terminal(t).sw];
  std::vector<std::string> colour(n);
  for (int32_t s = 0; s < n; ++s)
    colour[s] = std::to_string(f.degree(s)) + "/" + std::to_string(hcas[s]);
  for (int round = 0; round < 4; ++round) {
    std::map<std::string, int> id;
    for (const std::string &c : colour) id.emplace(c, 0);
    int next = 0;
    for (auto &[c, v] : id) v = next++;
    std::vector<std::string> refined(n);
    for (int32_t s = 0; s < n; ++s) {
      std::vector<int> nb;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
        nb.push_back(id[colour[f.channel(c).dst]]);
      std::sort(nb.begin(), nb.end());
      refined[s] = std::to_string(id[colour[s]]) + ":";
      for (int v : nb) refined[s] += std::to_string(v) + ",";
    }
    colour.swap(refined);
  }
  std::sort(colour.begin(), colour.end());
  return colour;
}

// "switch description[port]" -> description of what is linked there.
std::map<std::string, std::string> port_peers(const Fabric &f) {
  std::map<std::string, std::string> out;
  for (const Channel &c : f.channels())
    out[f.sw(c.src).name + "[" + std::to_string(c.src_port) + "]"] = f.sw(c.dst).name;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    out[f.sw(ti.sw).name + "[" + std::to_string(ti.sw_port) + "]"] = ti.name;
  }
  return out;
}

std::vector<GenFabric> families() {
  TopoOptions o;
  std::vector<GenFabric> out = {gen_fat_tree(4, 3, o), gen_director(1, 8, o), gen_clos3(8, 4, o),
                                gen_random_regular(24, 4, TopoOptions{.hcas = 2, .seed = 3})};
  GenFabric torus = gen_torus({4, 4, 3}, false, TopoOptions{.hcas = 1});
  fail_links(torus, 0.05, 2);
  out.push_back(torus);
  return out;
}

TEST(TopoRelabel, SameFabricOtherLabels) {
  for (const GenFabric &g : families()) {
    const NetList plain = net_list(g);
    const Relabelled r = relabel(plain, 11);
    const Fabric a = read_back(write_net_list(plain)), b = read_back(write_net_list(r.net));
    ASSERT_EQ(a.num_switches(), b.num_switches());
    ASSERT_EQ(a.num_terminals(), b.num_terminals());
    ASSERT_EQ(a.num_channels(), b.num_channels());
    EXPECT_EQ(refined_colours(a), refined_colours(b)) << g.sw[0].desc;
    // The same GUID sets, held by other nodes: the description (unique in
    // these fabrics) names the node.
    std::map<std::string, uint64_t> guid_a;
    std::multiset<uint64_t> sw_a, sw_b, ca_a, ca_b;
    for (int32_t s = 0; s < a.num_switches(); ++s) {
      guid_a[a.sw(s).name] = a.sw(s).guid;
      sw_a.insert(a.sw(s).guid);
      sw_b.insert(b.sw(s).guid);
    }
    for (int32_t t = 0; t < a.num_terminals(); ++t) {
      ca_a.insert(a.terminal(t).node_guid);
      ca_b.insert(b.terminal(t).node_guid);
    }
    EXPECT_EQ(sw_a, sw_b);
    EXPECT_EQ(ca_a, ca_b);
    int moved = 0;
    for (int32_t s = 0; s < b.num_switches(); ++s) moved += guid_a.at(b.sw(s).name) != b.sw(s).guid;
    EXPECT_GT(moved, b.num_switches() * 3 / 4) << g.sw[0].desc;
    std::map<std::string, uint64_t> ca_guid_a;
    for (int32_t t = 0; t < a.num_terminals(); ++t)
      ca_guid_a[a.terminal(t).name] = a.terminal(t).node_guid;
    int ca_moved = 0;
    for (int32_t t = 0; t < b.num_terminals(); ++t)
      ca_moved += ca_guid_a.at(b.terminal(t).name) != b.terminal(t).node_guid;
    EXPECT_GT(ca_moved, b.num_terminals() * 3 / 4) << g.sw[0].desc;
    // Ports: what sits behind port p of a switch (named by descriptions)
    // changes for most ports.
    const std::map<std::string, std::string> ports_a = port_peers(a), ports_b = port_peers(b);
    int changed = 0;
    for (const auto &[port, peer] : ports_b)
      changed += !ports_a.count(port) || ports_a.at(port) != peer;
    EXPECT_GT(changed, static_cast<int>(ports_b.size()) * 3 / 4) << g.sw[0].desc;
    // Node order: the file lists the switches in another order.
    int same_place = 0;
    for (int32_t s = 0; s < a.num_switches(); ++s) same_place += a.sw(s).name == b.sw(s).name;
    EXPECT_LT(same_place, a.num_switches() / 4);
  }
}

// Every link of the input is a link of the output under the permutation the
// relabelling reports, port for port.
TEST(TopoRelabel, PermutationMapsEveryLink) {
  const NetList plain = net_list(gen_fat_tree(4, 3, TopoOptions{}));
  const Relabelled r = relabel(plain, 3);
  std::vector<int32_t> to_node(r.of_node.size());
  for (size_t k = 0; k < r.of_node.size(); ++k) to_node[r.of_node[k]] = static_cast<int32_t>(k);
  std::set<std::tuple<int32_t, int, int32_t, int>> out;
  for (size_t k = 0; k < r.net.nodes.size(); ++k)
    for (const NetPeer &p : r.net.nodes[k].peers)
      out.insert(
          {static_cast<int32_t>(k), r.of_port[k][p.port], p.node, r.of_port[p.node][p.peer_port]});
  size_t links = 0;
  for (size_t old = 0; old < plain.nodes.size(); ++old)
    for (const NetPeer &p : plain.nodes[old].peers) {
      ++links;
      EXPECT_TRUE(out.count({to_node[old], p.port, to_node[p.node], p.peer_port}));
    }
  EXPECT_EQ(out.size(), links);
}

TEST(TopoRelabel, SeedDecides) {
  const NetList plain = net_list(gen_torus({3, 3, 3}, false, TopoOptions{.hcas = 2}));
  EXPECT_EQ(write_net_list(relabel(plain, 7).net), write_net_list(relabel(plain, 7).net));
  EXPECT_NE(write_net_list(relabel(plain, 7).net), write_net_list(relabel(plain, 8).net));
  EXPECT_NE(write_net_list(relabel(plain, 7).net), write_net_list(plain));
}

// An LRT's layout file names the switches by the GUIDs the relabelled file
// gives them: every "GUID X Y NAME" line's GUID is the switch described NAME.
TEST(TopoRelabel, LayoutFollowsTheGuids) {
  const GenFabric g = gen_lrt(25, 4, 2, TopoOptions{.seed = 2});
  const NetList net = relabel(net_list(g), 5).net;
  const Fabric f = read_back(write_net_list(net));
  std::map<std::string, uint64_t> plain;  // description -> GUID as generated
  for (size_t i = 0; i < g.sw.size(); ++i)
    plain[g.sw[i].desc] = g.switch_guid(static_cast<int32_t>(i));
  std::istringstream layout(write_layout(g, net));
  std::string line;
  int lines = 0, moved = 0;
  while (std::getline(layout, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string guid, x, y, name;
    in >> guid >> x >> y;
    std::getline(in >> std::ws, name);
    const int32_t s = f.find_switch(std::stoull(guid, nullptr, 16));
    ASSERT_GE(s, 0) << line;
    EXPECT_EQ(f.sw(s).name, name) << line;
    EXPECT_EQ(name, "lrt x=" + x + " y=" + y);
    moved += std::stoull(guid, nullptr, 16) != plain.at(name);
    ++lines;
  }
  EXPECT_EQ(lines, 25);
  EXPECT_GT(moved, 0);
}

bool has(const std::string &s, const char *part) {
  return s.find(part) != std::string::npos;
}

TEST(TopoDirector, ChipsAndCabling) {
  const GenFabric g = gen_director(3, 52, TopoOptions{});
  const Fabric f = read_back(write_net(g));
  ASSERT_EQ(f.num_switches(), 3 * 54 + 52);
  EXPECT_GE(f.num_switches(), 200);
  EXPECT_EQ(f.num_terminals(), 52 * 18);
  std::map<std::string, std::vector<int32_t>> spines, lines;  // by chassis
  std::vector<int32_t> racks;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const std::string &d = f.sw(s).name;
    const std::string chassis = d.substr(0, d.find(':'));
    if (has(d, "SX6536/S"))
      spines[chassis].push_back(s);
    else if (has(d, "SX6536/L"))
      lines[chassis].push_back(s);
    else
      racks.push_back(s);
  }
  ASSERT_EQ(spines.size(), 3u);
  std::map<std::pair<int32_t, int32_t>, int> links;
  for (const Channel &c : f.channels()) ++links[{c.src, c.dst}];
  for (const auto &[chassis, sp] : spines) {
    EXPECT_EQ(sp.size(), 18u) << chassis;
    ASSERT_EQ(lines[chassis].size(), 36u) << chassis;
    for (int32_t l : lines[chassis]) {
      for (int32_t s : sp) EXPECT_EQ((links[{l, s}]), 1) << f.sw(l).name << " " << f.sw(s).name;
      // 18 internal links and the rack cables on its external ports 1..18.
      int external = 0;
      for (int32_t c = f.out_begin(l); c < f.out_end(l); ++c) {
        const bool to_spine = has(f.sw(f.channel(c).dst).name, "SX6536/S");
        EXPECT_EQ(to_spine, f.channel(c).src_port > 18) << f.sw(l).name;
        external += !to_spine;
      }
      EXPECT_LE(external, 18);
      EXPECT_GE(external, 52 * 6 / 36);  // 312 cables per chassis over 36 chips
    }
    for (int32_t s : sp) EXPECT_EQ(f.degree(s), 36);
  }
  // Rack switches: 18 up-links, 6 into each chassis, on 6 different line chips.
  for (int32_t r : racks) {
    EXPECT_EQ(f.degree(r), 18);
    std::set<int32_t> far;
    std::map<std::string, int> per_chassis;
    for (int32_t c = f.out_begin(r); c < f.out_end(r); ++c) {
      far.insert(f.channel(c).dst);
      const std::string &d = f.sw(f.channel(c).dst).name;
      ++per_chassis[d.substr(0, d.find(':'))];
    }
    EXPECT_EQ(far.size(), 18u) << f.sw(r).name;
    for (const auto &[chassis, n] : per_chassis) EXPECT_EQ(n, 6) << f.sw(r).name << " " << chassis;
    EXPECT_EQ(per_chassis.size(), 3u);
  }
  EXPECT_THROW(gen_director(1, 37, TopoOptions{.hcas = 18}), TopoError);  // 666 > 648 cables
}

TEST(TopoFatTree, PortSplitOfRealLeaves) {
  for (const PortSplit split : {PortSplit::kHcaLow, PortSplit::kHcaHigh, PortSplit::kInterleaved}) {
    const Fabric f = read_back(write_net(gen_fat_tree(4, 3, TopoOptions{.port_split = split})));
    const bool low = split == PortSplit::kHcaLow, alternate = split == PortSplit::kInterleaved;
    // Down ports (and HCAs): the low half, the high half, or the odd ports.
    auto down_port = [&](int p) { return alternate ? p % 2 == 1 : (p <= 4) == low; };
    ASSERT_EQ(f.num_switches(), 48);
    // Leaf level first: the first 16 switches hold every HCA.
    for (int32_t t = 0; t < f.num_terminals(); ++t) {
      EXPECT_LT(f.terminal(t).sw, 16);
      EXPECT_TRUE(down_port(f.terminal(t).sw_port)) << f.terminal(t).name;
      EXPECT_LE(f.terminal(t).sw_port, 8);
    }
    for (int32_t s = 0; s < 16; ++s) EXPECT_TRUE(has(f.sw(s).name, "fattree l2")) << f.sw(s).name;
    EXPECT_TRUE(has(f.sw(47).name, "fattree l0"));
    // GUIDs ascend from the leaves.
    EXPECT_LT(f.sw(0).guid, f.sw(16).guid);
    EXPECT_LT(f.sw(16).guid, f.sw(32).guid);
    // Up-links: to the next level up, on the other ports.
    auto level = [&](int32_t s) { return f.sw(s).name[9] - '0'; };
    for (const Channel &c : f.channels()) {
      const bool up = level(c.dst) < level(c.src);
      EXPECT_EQ(down_port(c.src_port), !up) << f.sw(c.src).name << " port " << int{c.src_port};
      EXPECT_LE(c.src_port, 8);
    }
  }
}

}  // namespace
}  // namespace keiro::topo
