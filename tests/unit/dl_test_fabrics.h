// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Test helpers for keiro-dl: fabric builders (hand-made, random irregular as
// in the DL paper's Section 5, 2D tori), and reference computations written
// independently of core/dl/: the up/down directions, the shortest legal
// up*/down* path of every pair (the baseline), the shortest legal DL path of
// every pair straight from the paper's rules (a lower bound for the
// destination trees), and a walk of the realized tables that checks the DL
// rules on the VLs the packets really get.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::dltest {

using Links = std::vector<std::pair<int32_t, int32_t>>;

// Switch i named names[i] (or "S<i>"), GUID 0x1000 + i, ports: its links in
// list order from port 1, then `hcas` CAs "H<i>_<h>". LIDs as OpenSM would
// give them on a fresh subnet (switches first).
inline Fabric make_fabric(int32_t n, const Links &links, int hcas,
                          const std::vector<std::string> &names = {}, uint8_t lmc = 0,
                          uint8_t vls = 8) {
  std::vector<int> used(n, 0);
  for (auto [a, b] : links) ++used[a], ++used[b];
  Fabric f;
  for (int32_t i = 0; i < n; ++i) {
    const std::string name =
        i < static_cast<int32_t>(names.size()) ? names[i] : "S" + std::to_string(i);
    f.add_switch({0x1000u + static_cast<uint64_t>(i), name,
                  static_cast<uint8_t>(std::max(8, used[i] + hcas))});
  }
  std::fill(used.begin(), used.end(), 0);
  for (auto [a, b] : links)
    f.add_link(a, static_cast<uint8_t>(++used[a]), b, static_cast<uint8_t>(++used[b]), vls);
  for (int32_t i = 0; i < n; ++i)
    for (int h = 0; h < hcas; ++h) {
      TerminalInfo t;
      t.node_guid = 0x100000ull + 2 * static_cast<uint64_t>(i * hcas + h);
      t.port_guid = t.node_guid + 1;
      t.name = "H" + std::to_string(i) + "_" + std::to_string(h);
      t.sw = i;
      t.sw_port = static_cast<uint8_t>(++used[i]);
      t.vls = vls;
      f.add_terminal(t);
    }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

// A connected random irregular topology as in the paper's Section 5: n
// switches, at most max_links switch links each, at most one link between
// two switches (random stub pairing, redrawn until connected).
inline Links random_irregular(int32_t n, int max_links, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (;;) {
    std::vector<int32_t> stubs;
    for (int32_t i = 0; i < n; ++i)
      for (int p = 0; p < max_links; ++p) stubs.push_back(i);
    std::shuffle(stubs.begin(), stubs.end(), rng);
    std::vector<std::vector<uint8_t>> linked(n, std::vector<uint8_t>(n, 0));
    Links links;
    for (int round = 0; round < 20 && stubs.size() > 1; ++round) {
      std::vector<int32_t> left;
      for (size_t i = 0; i + 1 < stubs.size(); i += 2) {
        const int32_t a = stubs[i], b = stubs[i + 1];
        if (a == b || linked[a][b]) {
          left.push_back(a);
          left.push_back(b);
          continue;
        }
        linked[a][b] = linked[b][a] = 1;
        links.push_back({a, b});
      }
      if (stubs.size() % 2) left.push_back(stubs.back());
      stubs.swap(left);
      std::shuffle(stubs.begin(), stubs.end(), rng);
    }
    // connected?
    std::vector<int32_t> comp(n);
    for (int32_t i = 0; i < n; ++i) comp[i] = i;
    auto find = [&](int32_t x) {
      while (comp[x] != x) x = comp[x] = comp[comp[x]];
      return x;
    };
    int32_t parts = n;
    for (auto [a, b] : links)
      if (find(a) != find(b)) comp[find(a)] = find(b), --parts;
    if (parts == 1) return links;
  }
}

// An x * y 2D torus (x, y >= 3); switch (i, j) is i * y + j.
inline Links torus2d(int x, int y) {
  Links links;
  for (int i = 0; i < x; ++i)
    for (int j = 0; j < y; ++j) {
      links.push_back({i * y + j, ((i + 1) % x) * y + j});
      links.push_back({i * y + j, i * y + (j + 1) % y});
    }
  return links;
}

// ---- reference computations, independent of core/dl ----

// Up/down as in Autonet/OpenSM: level from a BFS at root; a channel is up
// when it ends nearer the root, or at the same level on the lower GUID.
inline std::vector<uint8_t> reference_up(const Fabric &f, int32_t root) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> level(S, -1), queue{root};
  level[root] = 0;
  for (size_t i = 0; i < queue.size(); ++i)
    for (int32_t c = f.out_begin(queue[i]); c < f.out_end(queue[i]); ++c) {
      const int32_t t = f.channel(c).dst;
      if (level[t] < 0) level[t] = level[queue[i]] + 1, queue.push_back(t);
    }
  std::vector<uint8_t> up(f.num_channels());
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    up[c] = level[ch.dst] != level[ch.src] ? level[ch.dst] < level[ch.src]
                                           : f.sw(ch.dst).guid < f.sw(ch.src).guid;
  }
  return up;
}

// Whether layer v of a restriction ("ud", "ud-du", "ud-dudu") is up*/down*.
inline bool layer_ud(const std::string &restriction, int v) {
  if (restriction == "ud") return true;
  if (restriction == "ud-du") return v % 2 == 0;
  return v == 0;  // ud-dudu
}

// Whether a packet in layer v whose last hop there went `last_up` may take a
// hop `up` in the same layer.
inline bool turn_ok(bool ud, bool last_up, bool up) {
  return ud ? !(!last_up && up) : !(last_up && !up);
}

// Hop counts of the shortest legal DL path from every switch to every switch,
// searched per pair straight from the paper's rules (a packet may start in
// any layer, may change to any lower layer at any hop, and inside a layer
// obeys its rule). dist[s * S + t]. layers = 1 with "ud" is up*/down*.
inline std::vector<int32_t> pair_distances(const Fabric &f, int32_t root,
                                           const std::string &restriction, int layers) {
  const int32_t S = f.num_switches();
  const std::vector<uint8_t> up = reference_up(f, root);
  std::vector<int32_t> out(static_cast<size_t>(S) * S, -1);
  // state = (switch * layers + layer) * 2 + last_up
  std::vector<int32_t> dist(static_cast<size_t>(S) * layers * 2);
  std::vector<int32_t> queue;
  for (int32_t s = 0; s < S; ++s) {
    std::fill(dist.begin(), dist.end(), -1);
    queue.clear();
    out[static_cast<size_t>(s) * S + s] = 0;
    auto push = [&](int32_t t, int v, bool u, int32_t d) {
      const int32_t st = (t * layers + v) * 2 + (u ? 1 : 0);
      if (dist[st] >= 0) return;
      dist[st] = d;
      queue.push_back(st);
      int32_t &o = out[static_cast<size_t>(s) * S + t];
      if (o < 0 || d < o) o = d;
    };
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
      for (int v = 0; v < layers; ++v) push(f.channel(c).dst, v, up[c], 1);
    for (size_t i = 0; i < queue.size(); ++i) {
      const int32_t st = queue[i];
      const int32_t u = st / 2 / layers;
      const int v = st / 2 % layers;
      const bool last_up = st % 2;
      for (int32_t c = f.out_begin(u); c < f.out_end(u); ++c) {
        const int32_t t = f.channel(c).dst;
        if (turn_ok(layer_ud(restriction, v), last_up, up[c])) push(t, v, up[c], dist[st] + 1);
        for (int w = 0; w < v; ++w) push(t, w, up[c], dist[st] + 1);
      }
    }
  }
  return out;
}

// Plain shortest-path hop counts, dist[s * S + t] (no routing restriction).
inline std::vector<int32_t> minimal_distances(const Fabric &f) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> out(static_cast<size_t>(S) * S, -1), queue;
  for (int32_t s = 0; s < S; ++s) {
    int32_t *d = out.data() + static_cast<size_t>(s) * S;
    queue.assign(1, s);
    d[s] = 0;
    for (size_t i = 0; i < queue.size(); ++i)
      for (int32_t c = f.out_begin(queue[i]); c < f.out_end(queue[i]); ++c) {
        const int32_t t = f.channel(c).dst;
        if (d[t] < 0) d[t] = d[queue[i]] + 1, queue.push_back(t);
      }
  }
  return out;
}

// Average of dist over ordered pairs of distinct terminals (each switch's
// terminal count as weight; switches when there are no terminals).
inline double average_pair_hops(const Fabric &f, const std::vector<int32_t> &dist) {
  const int32_t S = f.num_switches();
  std::vector<double> w(S, 0);
  for (int32_t s = 0; s < S; ++s)
    w[s] = f.num_terminals() ? static_cast<double>(f.terminals_of(s).size()) : 1.0;
  double total = 0, hops = 0;
  for (double x : w) total += x;
  for (int32_t s = 0; s < S; ++s)
    for (int32_t t = 0; t < S; ++t) hops += w[s] * w[t] * dist[static_cast<size_t>(s) * S + t];
  return hops / (total * (total - 1));
}

// Walks every (source switch, destination LID) path of the installed tables
// with its path SL and the SL2VL entries, and checks the DL rules on the VLs
// the packets get (VL = sub-network): VLs below `layers`, never rising, and
// every turn inside one VL allowed by that layer's rule. Also counts the
// switch-to-switch hops per VL. Returns "" or the first problem.
inline std::string check_dl_rules(const Fabric &f, const Routing &r, int32_t root,
                                  const std::string &restriction, int layers,
                                  std::vector<int64_t> *hops_per_vl = nullptr) {
  const std::vector<uint8_t> up = reference_up(f, root);
  if (hops_per_vl) hops_per_vl->assign(16, 0);
  for (int32_t s0 = 0; s0 < f.num_switches(); ++s0)
    for (uint16_t lid : f.lids()) {
      const int32_t dst = f.lid_switch(lid);
      const uint8_t sl = r.path_sl(s0, lid);
      int prev_vl = -1;
      bool prev_up = false;
      uint8_t in = 0;
      int32_t s = s0;
      for (int steps = 0; s != dst; ++steps) {
        if (steps > f.num_switches()) return "loop";
        const uint8_t port = r.out_port(s, lid);
        const PortPeer p = f.peer(s, port);
        if (p.kind != PortPeer::kSwitch) return "path leaves the switches early";
        const int32_t c = p.id;
        const int vl = r.vl(s, in, port, sl);
        if (vl >= layers) return "VL beyond the sub-networks";
        if (prev_vl >= 0 && vl > prev_vl) return "VL rises along a path";
        if (prev_vl == vl && !turn_ok(layer_ud(restriction, vl), prev_up, up[c]))
          return "forbidden turn inside sub-network " + std::to_string(vl) + " at switch " +
                 f.sw(s).name;
        if (hops_per_vl) ++(*hops_per_vl)[vl];
        prev_vl = vl;
        prev_up = up[c];
        in = f.channel(c).dst_port;
        s = f.channel(c).dst;
      }
    }
  return "";
}

}  // namespace keiro::dltest
