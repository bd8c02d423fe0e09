// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Small fabrics and independent checks shared by keiro-acro's unit tests
// (minimal_*, acro_*, vlmap_*).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "tests/bench/random_regular.h"

namespace keiro::test {

// Switches 0..n-1 in a ring: port 1 of i goes to port 2 of i+1, so the
// channel ids are a_i = 2i (i -> i+1) and b_i = 2i+1 (i -> i-1).
inline Fabric ring(int32_t n, int32_t hcas = 0, uint8_t vls = 8) {
  Fabric f;
  for (int32_t s = 0; s < n; ++s)
    f.add_switch({static_cast<uint64_t>(0x100 + s), "R" + std::to_string(s),
                  static_cast<uint8_t>(2 + hcas)});
  for (int32_t s = 0; s < n; ++s) f.add_link(s, 1, (s + 1) % n, 2, vls);
  for (int32_t s = 0; s < n; ++s)
    for (int32_t i = 0; i < hcas; ++i) {
      TerminalInfo t;
      t.node_guid = t.port_guid = 0x1000 + static_cast<uint64_t>(s) * 16 + i;
      t.name = "h" + std::to_string(s) + "_" + std::to_string(i);
      t.sw = s;
      t.sw_port = static_cast<uint8_t>(3 + i);
      f.add_terminal(t);
    }
  assign_lids(f, 0);
  f.finalize();
  return f;
}

// Switches 0..n-1 joined by the given links (ports numbered in link order),
// no terminals.
inline Fabric graph_fabric(int32_t n, const std::vector<std::pair<int32_t, int32_t>> &links,
                           uint8_t vls = 8) {
  Fabric f;
  for (int32_t s = 0; s < n; ++s)
    f.add_switch({static_cast<uint64_t>(0x200 + s), "G" + std::to_string(s), 16});
  std::vector<uint8_t> used(n, 0);
  for (auto [a, b] : links)
    f.add_link(a, static_cast<uint8_t>(++used[a]), b, static_cast<uint8_t>(++used[b]), vls);
  assign_lids(f, 0);
  f.finalize();
  return f;
}

// The channel from switch a to switch b (the first one if parallel).
inline int32_t channel_between(const Fabric &f, int32_t a, int32_t b) {
  for (int32_t c = f.out_begin(a); c < f.out_end(a); ++c)
    if (f.channel(c).dst == b) return c;
  return -1;
}

// Destination trees given as "next switch" per (destination, switch); -1 at
// the root. One destination per listed root, holding that switch's LIDs.
inline minimal::DestTrees trees_from_next_switch(const Fabric &f, const std::vector<int32_t> &roots,
                                                 const std::vector<std::vector<int32_t>> &next_sw) {
  minimal::DestTrees t;
  t.reset(f.num_switches(), static_cast<int32_t>(roots.size()));
  std::vector<uint16_t> own;
  for (size_t k = 0; k < roots.size(); ++k) {
    t.root[k] = roots[k];
    minimal::switch_lids(f, roots[k], own);
    t.lids.insert(t.lids.end(), own.begin(), own.end());
    t.lid_start[k + 1] = static_cast<int32_t>(t.lids.size());
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (next_sw[k][s] >= 0)
        t.next[k * static_cast<size_t>(f.num_switches()) + s] =
            channel_between(f, s, next_sw[k][s]);
  }
  return t;
}

// BFS hop distances between all switch pairs: dist[a * S + b].
inline std::vector<int32_t> all_distances(const Fabric &f) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> dist(static_cast<size_t>(S) * S, -1), queue;
  for (int32_t a = 0; a < S; ++a) {
    int32_t *d = dist.data() + static_cast<size_t>(a) * S;
    d[a] = 0;
    queue.assign(1, a);
    for (size_t i = 0; i < queue.size(); ++i)
      for (int32_t c = f.out_begin(queue[i]); c < f.out_end(queue[i]); ++c)
        if (d[f.channel(c).dst] < 0) {
          d[f.channel(c).dst] = d[queue[i]] + 1;
          queue.push_back(f.channel(c).dst);
        }
  }
  return dist;
}

// A minhop-like baseline in the manner of OpenSM's minhop: LIDs in ascending
// order; every switch picks, among its ports one hop closer to the LID's
// switch, the port that carries the fewest LIDs on that switch so far
// (lowest port on ties).
inline Routing minhop_like(const Fabric &f) {
  const std::vector<int32_t> dist = all_distances(f);
  const int32_t S = f.num_switches();
  Routing r;
  r.reset(f);
  std::vector<std::vector<int32_t>> used(S, std::vector<int32_t>(256, 0));
  for (uint16_t lid : f.lids()) {
    const int32_t d = f.lid_switch(lid);
    for (int32_t s = 0; s < S; ++s) {
      if (s == d) {
        const LidOwner o = f.lid_owner(lid);
        r.set_out_port(s, lid, o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0);
        continue;
      }
      int32_t best = -1;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
        const Channel &ch = f.channel(c);
        if (dist[static_cast<size_t>(ch.dst) * S + d] != dist[static_cast<size_t>(s) * S + d] - 1)
          continue;
        if (best < 0 || used[s][ch.src_port] < used[s][f.channel(best).src_port]) best = c;
      }
      ++used[s][f.channel(best).src_port];
      r.set_out_port(s, lid, f.channel(best).src_port);
    }
  }
  return r;
}

// Kahn's algorithm: true when the graph given as out-lists has no cycle.
inline bool acyclic(const std::vector<std::vector<int32_t>> &out) {
  std::vector<int32_t> indeg(out.size(), 0), queue;
  for (const auto &o : out)
    for (int32_t v : o) ++indeg[v];
  for (size_t v = 0; v < out.size(); ++v)
    if (!indeg[v]) queue.push_back(static_cast<int32_t>(v));
  for (size_t i = 0; i < queue.size(); ++i)
    for (int32_t w : out[queue[i]])
      if (--indeg[w] == 0) queue.push_back(w);
  return queue.size() == out.size();
}

// Four switches, two separate pairs (0-1 and 2-3), LIDs assigned.
inline Fabric two_separate_pairs() {
  Fabric f;
  for (int s = 0; s < 4; ++s)
    f.add_switch({static_cast<uint64_t>(s + 1), "D" + std::to_string(s), 4});
  f.add_link(0, 1, 1, 1);
  f.add_link(2, 1, 3, 1);
  assign_lids(f, 0);
  f.finalize();
  return f;
}

// Independent credit-loop test of installed-style tables: builds the graph
// over (channel, VL) from every (source switch, destination LID) path with
// the path SL and the SL2VL entries (first hop: in port 0), and looks for a
// cycle with Kahn's algorithm. Returns "" or a description of the problem.
inline std::string credit_loop_problem(const Fabric &f, const Routing &r) {
  const int32_t S = f.num_switches(), C = f.num_channels();
  const int V = kMaxDataVls + 1;
  std::vector<std::vector<int32_t>> out(static_cast<size_t>(C) * V);
  for (int32_t src = 0; src < S; ++src)
    for (uint16_t lid : f.lids()) {
      const int32_t dst = f.lid_switch(lid);
      const uint8_t sl = r.path_sl(src, lid);
      int32_t s = src, prev = -1, prev_node = -1;
      for (int hops = 0; s != dst; ++hops) {
        if (hops > S) return "forwarding loop to LID " + std::to_string(lid);
        const uint8_t port = r.out_port(s, lid);
        const PortPeer p = f.peer(s, port);
        if (p.kind != PortPeer::kSwitch) return "black hole to LID " + std::to_string(lid);
        const uint8_t in = prev < 0 ? 0 : f.channel(prev).dst_port;
        const int32_t node = p.id * V + r.vl(s, in, port, sl);
        if (prev_node >= 0) out[prev_node].push_back(node);
        prev_node = node;
        prev = p.id;
        s = f.channel(p.id).dst;
      }
    }
  for (auto &o : out) {
    std::sort(o.begin(), o.end());
    o.erase(std::unique(o.begin(), o.end()), o.end());
  }
  return acyclic(out) ? "" : "credit loop";
}

}  // namespace keiro::test
