// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// METIS k-way partitioning wrapper and the balanced random partition.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/graph/partition.h"

namespace keiro::graph {
namespace {

using Edges = std::vector<std::pair<int32_t, int32_t>>;

Graph grid(int w, int h) {
  Edges e;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (x + 1 < w) e.emplace_back(y * w + x, y * w + x + 1);
      if (y + 1 < h) e.emplace_back(y * w + x, (y + 1) * w + x);
    }
  return graph_from_edges(w * h, e);
}

std::vector<int64_t> part_weights(const std::vector<int32_t> &part, const std::vector<int64_t> &w,
                                  int k) {
  std::vector<int64_t> load(k, 0);
  for (size_t i = 0; i < part.size(); ++i) {
    EXPECT_GE(part[i], 0);
    EXPECT_LT(part[i], k);
    if (part[i] >= 0 && part[i] < k) load[part[i]] += w[i];
  }
  return load;
}

TEST(MetisPartition, KPartsBalancedOnAGrid) {
  const Graph g = grid(12, 12);
  const std::vector<int64_t> w(g.num_nodes(), 3);
  for (int k : {2, 3, 4, 8}) {
    std::vector<int32_t> part;
    std::string err;
    ASSERT_TRUE(metis_partition(g, w, k, 1, part, err)) << err;
    ASSERT_EQ(part.size(), static_cast<size_t>(g.num_nodes()));
    const std::vector<int64_t> load = part_weights(part, w, k);
    const int64_t total = std::accumulate(load.begin(), load.end(), int64_t{0});
    for (int i = 0; i < k; ++i) {
      EXPECT_GT(load[i], 0) << "k=" << k << " part " << i << " empty";
      // METIS' default tolerance is 3%, plus one vertex of rounding.
      EXPECT_LE(load[i], total * 103 / (100 * k) + 3) << "k=" << k;
    }
    // A grid splits into compact regions: far fewer cut edges than random.
    int cut = 0;
    for (int32_t a = 0; a < g.num_arcs(); ++a) cut += part[g.tail[a]] != part[g.head[a]];
    EXPECT_LT(cut / 2, 12 * 12 * 2 / 4) << "k=" << k;
  }
}

TEST(MetisPartition, SeedIsDeterministicAndWeightsCount) {
  const Graph g = grid(8, 8);
  std::vector<int64_t> w(g.num_nodes(), 1);
  for (int i = 0; i < 8; ++i) w[i] = 20;  // the first row is heavy
  std::vector<int32_t> a, b;
  std::string err;
  ASSERT_TRUE(metis_partition(g, w, 4, 7, a, err));
  ASSERT_TRUE(metis_partition(g, w, 4, 7, b, err));
  EXPECT_EQ(a, b);
  const std::vector<int64_t> load = part_weights(a, w, 4);
  const int64_t total = std::accumulate(load.begin(), load.end(), int64_t{0});
  for (int64_t l : load) EXPECT_LE(l, total / 4 + 20 + total * 3 / 400 + 1);
}

TEST(MetisPartition, TrivialCases) {
  const Graph g = grid(2, 2);
  const std::vector<int64_t> w(4, 1);
  std::vector<int32_t> part;
  std::string err;
  ASSERT_TRUE(metis_partition(g, w, 1, 1, part, err));
  EXPECT_EQ(part, (std::vector<int32_t>{0, 0, 0, 0}));
  ASSERT_TRUE(metis_partition(g, w, 4, 1, part, err));
  EXPECT_EQ(part, (std::vector<int32_t>{0, 1, 2, 3}));
  ASSERT_TRUE(metis_partition(g, w, 8, 1, part, err));
  EXPECT_EQ(part, (std::vector<int32_t>{0, 1, 2, 3}));
  // Parallel edges and isolated nodes are fine.
  const Graph multi = graph_from_edges(5, Edges{{0, 1}, {0, 1}, {1, 2}, {2, 3}});
  ASSERT_TRUE(metis_partition(multi, std::vector<int64_t>(5, 1), 2, 1, part, err)) << err;
  EXPECT_EQ(part.size(), 5u);
}

TEST(BalancedRandomPartition, BalancesAndUsesSeed) {
  std::vector<int64_t> w(101, 1);
  const std::vector<int32_t> a = balanced_random_partition(w, 4, 3);
  const std::vector<int64_t> load = part_weights(a, w, 4);
  EXPECT_EQ(
      *std::max_element(load.begin(), load.end()) - *std::min_element(load.begin(), load.end()), 1);
  EXPECT_EQ(a, balanced_random_partition(w, 4, 3));
  EXPECT_NE(a, balanced_random_partition(w, 4, 4));
  // Mixed weights: the spread never exceeds the heaviest item.
  std::vector<int64_t> mixed(60);
  for (int i = 0; i < 60; ++i) mixed[i] = 1 + i % 7;
  const std::vector<int64_t> ml = part_weights(balanced_random_partition(mixed, 5, 1), mixed, 5);
  EXPECT_LE(*std::max_element(ml.begin(), ml.end()) - *std::min_element(ml.begin(), ml.end()), 7);
  EXPECT_EQ(balanced_random_partition(w, 1, 1), std::vector<int32_t>(101, 0));
}

}  // namespace
}  // namespace keiro::graph
