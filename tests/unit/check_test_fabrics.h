// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Small hand-built fabrics and routings for the check, dump and metrics tests.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::testing {

// A ring of n switches S1..Sn (8 ports each): Si port 2 -> S(i+1) port 3, one
// CA Hi on port 1 of each switch. LIDs: switches 1..n, then the CAs (LMC lmc).
inline Fabric ring(int n, uint8_t lmc = 0, uint8_t vls = 8) {
  Fabric f;
  for (int i = 0; i < n; ++i) f.add_switch({0x1000u + i, "S" + std::to_string(i + 1), 8});
  for (int i = 0; i < n; ++i) f.add_link(i, 2, (i + 1) % n, 3, vls);
  for (int i = 0; i < n; ++i) {
    TerminalInfo t;
    t.node_guid = 0x2000u + 2 * i;
    t.port_guid = 0x2001u + 2 * i;
    t.name = "H" + std::to_string(i + 1);
    t.sw = i;
    t.sw_port = 1;
    t.vls = vls;
    f.add_terminal(t);
  }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

// The port switch `at` of a ring of n uses towards switch `to`:
// neighbours directly, the opposite switch of a 4-ring clockwise from odd
// switches (S1, S3) and counter-clockwise from even ones (S2, S4), which is
// deadlock free with one VL; clockwise_only sends everything clockwise.
inline uint8_t ring_port(int n, int at, int to, bool clockwise_only) {
  if (clockwise_only) return 2;
  const int fwd = (to - at + n) % n;
  if (fwd == 1) return 2;
  if (fwd == n - 1) return 3;
  if (2 * fwd == n) return at % 2 == 0 ? 2 : 3;
  return fwd < n - fwd ? 2 : 3;
}

// Fills the LFTs of a ring() fabric; SLs 0, SL2VL all VL 0.
inline void route_ring(const Fabric &f, Routing &r, bool clockwise_only,
                       Routing::SlScope scope = Routing::SlScope::kPerDestination) {
  r.reset(f, scope);
  const int n = f.num_switches();
  for (int s = 0; s < n; ++s)
    for (const uint16_t lid : f.lids()) {
      const LidOwner o = f.lid_owner(lid);
      const int to = f.lid_switch(lid);
      uint8_t port;
      if (to == s)
        port = o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port;
      else
        port = ring_port(n, s, to, clockwise_only);
      r.set_out_port(s, lid, port);
    }
}

// A random fabric of n switches with `degree` switch-to-switch ports each
// (ports 1..degree; pairings that would repeat or loop are retried, a few
// ports may stay unused) and `hcas` CAs per switch on the next ports.
inline Fabric random_fabric(int n, int degree, int hcas, uint32_t seed, uint8_t lmc = 0) {
  std::mt19937 rng(seed);
  Fabric f;
  for (int i = 0; i < n; ++i)
    f.add_switch({0x10000u + i, "S" + std::to_string(i + 1), static_cast<uint8_t>(degree + hcas)});
  std::vector<std::pair<int, int>> stubs;  // (switch, port)
  for (int i = 0; i < n; ++i)
    for (int p = 1; p <= degree; ++p) stubs.push_back({i, p});
  std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
  std::shuffle(stubs.begin(), stubs.end(), rng);
  for (int round = 0; round < 50 && stubs.size() > 1; ++round) {
    std::vector<std::pair<int, int>> left;
    for (size_t i = 0; i + 1 < stubs.size(); i += 2) {
      const auto [a, pa] = stubs[i];
      const auto [b, pb] = stubs[i + 1];
      if (a == b || linked[a][b]) {
        left.push_back(stubs[i]);
        left.push_back(stubs[i + 1]);
        continue;
      }
      linked[a][b] = linked[b][a] = true;
      f.add_link(a, static_cast<uint8_t>(pa), b, static_cast<uint8_t>(pb));
    }
    if (stubs.size() % 2) left.push_back(stubs.back());
    stubs.swap(left);
    std::shuffle(stubs.begin(), stubs.end(), rng);
  }
  for (int i = 0; i < n; ++i)
    for (int h = 0; h < hcas; ++h) {
      TerminalInfo t;
      t.node_guid = 0x100000000ull + 2 * (i * hcas + h);
      t.port_guid = t.node_guid + 1;
      t.name = "H" + std::to_string(i * hcas + h + 1);
      t.sw = i;
      t.sw_port = static_cast<uint8_t>(degree + 1 + h);
      f.add_terminal(t);
    }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

// Shortest-path LFTs: every switch forwards on its lowest-numbered port that
// lies on a shortest path to the destination switch. SL 0, SL2VL VL 0.
inline void route_min_hop(const Fabric &f, Routing &r) {
  r.reset(f);
  const int n = f.num_switches();
  std::vector<int> dist(n), queue(n);
  for (int d = 0; d < n; ++d) {
    std::fill(dist.begin(), dist.end(), -1);
    int head = 0, tail = 0;
    dist[d] = 0;
    queue[tail++] = d;
    while (head < tail) {
      const int u = queue[head++];
      for (const int32_t c : f.in_channels(u)) {
        const int v = f.channel(c).src;
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          queue[tail++] = v;
        }
      }
    }
    std::vector<uint8_t> port(n, kNoPort);
    for (int s = 0; s < n; ++s)
      for (int32_t c = f.out_begin(s); c < f.out_end(s) && s != d; ++c)
        if (dist[f.channel(c).dst] == dist[s] - 1 && dist[s] > 0) {
          port[s] = f.channel(c).src_port;
          break;
        }
    for (const uint16_t lid : f.lids()) {
      if (f.lid_switch(lid) != d) continue;
      const LidOwner o = f.lid_owner(lid);
      for (int s = 0; s < n; ++s)
        r.set_out_port(
            s, lid,
            s == d ? (o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port) : port[s]);
    }
  }
}

// Routing along a BFS spanning tree of the switches rooted at switch 0 (up
// to the common ancestor, then down): a special case of up*/down*, deadlock
// free whatever the SLs and SL2VL tables. SL 0, SL2VL VL 0.
inline void route_tree(const Fabric &f, Routing &r) {
  r.reset(f);
  const int n = f.num_switches();
  std::vector<int32_t> parent_ch(n, -1), order;
  std::vector<bool> seen(n, false);
  seen[0] = true;
  order.push_back(0);
  for (size_t h = 0; h < order.size(); ++h)
    for (int32_t c = f.out_begin(order[h]); c < f.out_end(order[h]); ++c) {
      const int v = f.channel(c).dst;
      if (seen[v]) continue;
      seen[v] = true;
      parent_ch[v] = f.channel(c).reverse;  // v -> parent
      order.push_back(v);
    }
  // Euler-tour intervals: d is below s iff tin[s] <= tin[d] < tout[s].
  std::vector<std::vector<int32_t>> kids(n);  // channels s -> child
  for (int v = 0; v < n; ++v)
    if (parent_ch[v] >= 0)
      kids[f.channel(parent_ch[v]).dst].push_back(f.channel(parent_ch[v]).reverse);
  std::vector<int> tin(n), tout(n);
  int clock = 0;
  std::vector<std::pair<int, size_t>> st = {{0, 0}};
  tin[0] = clock++;
  while (!st.empty()) {
    auto &[u, i] = st.back();
    if (i < kids[u].size()) {
      const int v = f.channel(kids[u][i++]).dst;
      tin[v] = clock++;
      st.push_back({v, 0});
    } else {
      tout[u] = clock;
      st.pop_back();
    }
  }
  for (const uint16_t lid : f.lids()) {
    const LidOwner o = f.lid_owner(lid);
    const int d = f.lid_switch(lid);
    for (int s = 0; s < n; ++s) {
      uint8_t port = kNoPort;
      if (s == d) {
        port = o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port;
      } else if (tin[s] <= tin[d] && tin[d] < tout[s]) {
        for (const int32_t c : kids[s]) {
          const int v = f.channel(c).dst;
          if (tin[v] <= tin[d] && tin[d] < tout[v]) port = f.channel(c).src_port;
        }
      } else if (parent_ch[s] >= 0) {
        port = f.channel(parent_ch[s]).src_port;
      }
      r.set_out_port(s, lid, port);
    }
  }
}

}  // namespace keiro::testing
