// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Destinations and their partitioning into virtual layers.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/nue/layers.h"
#include "tests/unit/fabrics.h"

namespace keiro::nue {
namespace {

TEST(NueLayers, DestinationPortsCoverEveryLid) {
  const Fabric f =
      fixtures::from_links(6, fixtures::random_regular_links(6, 3, 1), {.hcas = 2, .lmc = 1});
  const std::vector<DestinationPort> ports = destination_ports(f);
  ASSERT_EQ(ports.size(), static_cast<size_t>(f.num_terminals() + f.num_switches()));
  std::vector<int> covered(f.max_lid() + 1, 0);
  for (const DestinationPort &p : ports) {
    EXPECT_EQ(p.num_lids, p.is_switch ? 1 : 2);
    for (int i = 0; i < p.num_lids; ++i) {
      ++covered[p.lid + i];
      EXPECT_EQ(f.lid_switch(static_cast<uint16_t>(p.lid + i)), p.sw);
    }
    if (p.is_switch) {
      EXPECT_EQ(p.port, 0);
    } else {
      EXPECT_EQ(f.peer(p.sw, p.port).kind, PortPeer::kTerminal);
    }
  }
  for (uint16_t lid : f.lids()) EXPECT_EQ(covered[lid], 1) << lid;
}

TEST(NueLayers, ParseMethod) {
  PartitionMethod m;
  EXPECT_TRUE(parse_partition_method("metis", m));
  EXPECT_EQ(m, PartitionMethod::kMetis);
  EXPECT_TRUE(parse_partition_method("cluster", m));
  EXPECT_EQ(m, PartitionMethod::kCluster);
  EXPECT_TRUE(parse_partition_method("random", m));
  EXPECT_EQ(m, PartitionMethod::kRandom);
  EXPECT_FALSE(parse_partition_method("Metis", m));
}

TEST(NueLayers, KLayersAllAssignedAndBalanced) {
  const Fabric f = fixtures::from_links(64, fixtures::random_regular_links(64, 4, 3), {.hcas = 3});
  const graph::Graph g = graph::switch_graph(f);
  const std::vector<DestinationPort> ports = destination_ports(f);
  int64_t total = 0;
  for (const DestinationPort &p : ports) total += p.num_lids;
  for (PartitionMethod m :
       {PartitionMethod::kMetis, PartitionMethod::kCluster, PartitionMethod::kRandom}) {
    for (int k : {1, 2, 4, 8}) {
      std::vector<int32_t> layer;
      std::string err;
      const int used = assign_layers(g, ports, k, m, 1, layer, err);
      ASSERT_EQ(used, k) << err;  // 64 switches: no layer stays empty
      ASSERT_EQ(layer.size(), ports.size());
      std::vector<int64_t> lids(k, 0);
      std::map<int32_t, int32_t> layer_of_switch;
      bool switches_whole = true;
      for (size_t i = 0; i < ports.size(); ++i) {
        ASSERT_GE(layer[i], 0);
        ASSERT_LT(layer[i], k);
        lids[layer[i]] += ports[i].num_lids;
        auto [it, fresh] = layer_of_switch.emplace(ports[i].sw, layer[i]);
        if (!fresh && it->second != layer[i]) switches_whole = false;
      }
      if (m != PartitionMethod::kRandom) {
        EXPECT_TRUE(switches_whole);
      }
      const int64_t hi = *std::max_element(lids.begin(), lids.end());
      const int64_t lo = *std::min_element(lids.begin(), lids.end());
      // Switch granularity: a switch carries 4 LIDs; METIS allows 3% more.
      const int64_t slack = m == PartitionMethod::kRandom ? 1 : 4 + total * 3 / (100 * k) + 4;
      EXPECT_LE(hi - lo, slack) << "method " << static_cast<int>(m) << " k=" << k;
    }
  }
}

TEST(NueLayers, EmptyLayersAreDropped) {
  // Three switches cannot fill eight layers at switch granularity.
  const Fabric f = fixtures::from_links(3, {{0, 1}, {1, 2}}, {.hcas = 1});
  const graph::Graph g = graph::switch_graph(f);
  const std::vector<DestinationPort> ports = destination_ports(f);
  std::vector<int32_t> layer;
  std::string err;
  EXPECT_EQ(assign_layers(g, ports, 8, PartitionMethod::kMetis, 1, layer, err), 3);
  for (int32_t l : layer) EXPECT_LT(l, 3);
  EXPECT_EQ(assign_layers(g, ports, 8, PartitionMethod::kRandom, 1, layer, err), 6);
  EXPECT_EQ(assign_layers(g, {}, 4, PartitionMethod::kMetis, 1, layer, err), 0);
}

}  // namespace
}  // namespace keiro::nue
