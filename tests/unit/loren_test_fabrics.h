// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Small fabrics, layouts and independent checks for keiro-loren's unit tests.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/loren/layout.h"
#include "core/loren/tables.h"
#include "core/minimal/dest_trees.h"

namespace keiro::loren_test {

// Switches "L0".."L<n-1>" (GUID 0x300 + i) joined by links with ports
// numbered in link order, hcas terminals per switch after the link ports.
inline Fabric graph(int32_t n, const std::vector<std::pair<int32_t, int32_t>> &links,
                    int hcas = 0) {
  Fabric f;
  for (int32_t s = 0; s < n; ++s)
    f.add_switch({static_cast<uint64_t>(0x300 + s), "L" + std::to_string(s), 20});
  std::vector<uint8_t> used(n, 0);
  for (auto [a, b] : links)
    f.add_link(a, static_cast<uint8_t>(++used[a]), b, static_cast<uint8_t>(++used[b]));
  for (int32_t s = 0; s < n; ++s)
    for (int j = 0; j < hcas; ++j) {
      TerminalInfo t;
      t.node_guid = 0x9000 + static_cast<uint64_t>(s) * 16 + j;
      t.port_guid = t.node_guid;
      t.name = "h" + std::to_string(s) + "_" + std::to_string(j);
      t.sw = s;
      t.sw_port = static_cast<uint8_t>(used[s] + 1 + j);
      f.add_terminal(t);
    }
  assign_lids(f, 0);
  f.finalize();
  return f;
}

inline loren::Layout layout(const Fabric &f, const std::vector<std::pair<int32_t, int32_t>> &pos) {
  std::vector<int32_t> x, y;
  for (auto [a, b] : pos) x.push_back(a), y.push_back(b);
  loren::Layout l;
  std::string err;
  if (!loren::make_layout(f, x, y, l, err)) throw std::runtime_error(err);
  return l;
}

// Shortest-path trees, one per switch (destination k at switch k): every
// switch takes its first channel (port order) one hop closer to k.
inline minimal::DestTrees first_trees(const Fabric &f) {
  const int32_t S = f.num_switches();
  minimal::DestTrees t;
  t.reset(S, S);
  std::vector<uint16_t> own;
  std::vector<int32_t> dist(S), q;
  for (int32_t k = 0; k < S; ++k) {
    t.root[k] = k;
    minimal::switch_lids(f, k, own);
    t.lids.insert(t.lids.end(), own.begin(), own.end());
    t.lid_start[k + 1] = static_cast<int32_t>(t.lids.size());
    std::fill(dist.begin(), dist.end(), -1);
    dist[k] = 0;
    q.assign(1, k);
    for (size_t h = 0; h < q.size(); ++h)
      for (int32_t c : f.in_channels(q[h]))
        if (dist[f.channel(c).src] < 0) {
          dist[f.channel(c).src] = dist[q[h]] + 1;
          q.push_back(f.channel(c).src);
        }
    for (int32_t s = 0; s < S; ++s) {
      if (s == k) continue;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
        if (dist[f.channel(c).dst] == dist[s] - 1) {
          t.next[static_cast<size_t>(k) * S + s] = c;
          break;
        }
    }
  }
  return t;
}

// "dst>next@hops" for every entry of switch u's table, in table order.
inline std::string dump(const Fabric &f, const loren::LorenTables &t, int32_t u) {
  std::string out;
  for (const loren::LorenEntry &e : t.table(u))
    out += (out.empty() ? "" : " ") + std::to_string(e.dst) + ">" +
           std::to_string(f.channel(e.channel).dst) + "@" + std::to_string(e.hops);
  return out;
}

}  // namespace keiro::loren_test
