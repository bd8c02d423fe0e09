// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/nue_fabrics.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <set>

namespace keiro::nuetest {

namespace {

bool connected(int32_t n, const std::vector<std::pair<int32_t, int32_t>> &edges) {
  std::vector<std::vector<int32_t>> adj(n);
  for (const auto &[a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  std::vector<char> seen(n, 0);
  std::vector<int32_t> stack = {0};
  seen[0] = 1;
  int32_t count = 1;
  while (!stack.empty()) {
    const int32_t v = stack.back();
    stack.pop_back();
    for (int32_t w : adj[v])
      if (!seen[w]) seen[w] = 1, ++count, stack.push_back(w);
  }
  return count == n;
}

}  // namespace

Fabric make_fabric(int32_t n, const std::vector<std::pair<int32_t, int32_t>> &links, int hcas,
                   uint8_t lmc, uint8_t vls) {
  std::vector<int> deg(n, 0);
  for (const auto &[a, b] : links) ++deg[a], ++deg[b];
  Fabric f;
  for (int32_t i = 0; i < n; ++i) {
    SwitchInfo si;
    si.guid = 0x1000 + static_cast<uint64_t>(i);
    si.name = "S" + std::to_string(i);
    si.num_ports = static_cast<uint8_t>(std::max(1, deg[i] + hcas));
    f.add_switch(si);
  }
  std::vector<uint8_t> next_port(n, 1);
  for (const auto &[a, b] : links) f.add_link(a, next_port[a]++, b, next_port[b]++, vls);
  int32_t h = 0;
  for (int32_t i = 0; i < n; ++i) {
    for (int j = 0; j < hcas; ++j, ++h) {
      TerminalInfo t;
      t.node_guid = 0x100000 + static_cast<uint64_t>(h);
      t.port_guid = 0x200000 + static_cast<uint64_t>(h);
      t.name = "H" + std::to_string(h);
      t.sw = i;
      t.sw_port = next_port[i]++;
      t.vls = vls;
      f.add_terminal(t);
    }
  }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

std::vector<std::pair<int32_t, int32_t>> random_regular_links(int32_t n, int d, uint64_t seed) {
  std::vector<std::pair<int32_t, int32_t>> e;
  for (int32_t i = 0; i < n; ++i)
    for (int j = 1; j <= d / 2; ++j) e.emplace_back(i, (i + j) % n);
  if (d % 2)
    for (int32_t i = 0; i < n / 2; ++i) e.emplace_back(i, i + n / 2);
  auto key = [n](int32_t a, int32_t b) { return a < b ? int64_t{a} * n + b : int64_t{b} * n + a; };
  std::set<int64_t> present;
  for (const auto &[a, b] : e) present.insert(key(a, b));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, e.size() - 1);
  const size_t swaps = 20 * e.size();
  for (size_t it = 0; it < swaps || !connected(n, e); ++it) {
    const size_t i = pick(rng), j = pick(rng);
    if (i == j) continue;
    auto [a, b] = e[i];
    auto [c, dd] = e[j];
    if (rng() & 1) std::swap(c, dd);
    // (a,b),(c,dd) -> (a,dd),(c,b)
    if (a == dd || c == b || present.count(key(a, dd)) || present.count(key(c, b))) continue;
    present.erase(key(a, b));
    present.erase(key(c, dd));
    present.insert(key(a, dd));
    present.insert(key(c, b));
    e[i] = {a, dd};
    e[j] = {c, b};
  }
  return e;
}

std::vector<std::pair<int32_t, int32_t>> torus_links(int x, int y, int z, double fail_fraction,
                                                     uint64_t seed) {
  const int dims[3] = {x, y, z};
  auto id = [&](int i, int j, int k) { return i + x * (j + y * k); };
  std::set<std::pair<int32_t, int32_t>> seen;
  std::vector<std::pair<int32_t, int32_t>> e;
  for (int k = 0; k < z; ++k)
    for (int j = 0; j < y; ++j)
      for (int i = 0; i < x; ++i)
        for (int dim = 0; dim < 3; ++dim) {
          if (dims[dim] < 2) continue;
          int c[3] = {i, j, k};
          c[dim] = (c[dim] + 1) % dims[dim];
          const int32_t a = id(i, j, k), b = id(c[0], c[1], c[2]);
          const auto p = std::minmax(a, b);
          if (seen.insert({p.first, p.second}).second) e.emplace_back(a, b);
        }
  const int32_t n = x * y * z;
  const auto fail = static_cast<size_t>(std::lround(fail_fraction * static_cast<double>(e.size())));
  std::mt19937_64 rng(seed);
  for (size_t removed = 0, tries = 0; removed < fail && tries < 100 * (fail + 1); ++tries) {
    std::uniform_int_distribution<size_t> pick(0, e.size() - 1);
    const size_t i = pick(rng);
    const auto victim = e[i];
    e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
    if (connected(n, e)) {
      ++removed;
    } else {
      e.insert(e.begin() + static_cast<std::ptrdiff_t>(i), victim);
    }
  }
  return e;
}

int32_t channel_between(const Fabric &f, int32_t a, int32_t b) {
  for (int32_t c = f.out_begin(a); c < f.out_end(a); ++c)
    if (f.channel(c).dst == b) return c;
  return -1;
}

bool write_ibsim_net(const Fabric &f, const std::string &path) {
  std::ofstream out(path);
  if (!out) return false;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    out << "Hca 1 \"" << ti.name << "\"\n[" << int{ti.port_num} << "] \"" << f.sw(ti.sw).name
        << "\"[" << int{ti.sw_port} << "]\n\n";
  }
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    out << "Switch " << int{f.sw(s).num_ports} << " \"" << f.sw(s).name << "\"\n";
    for (int p = 1; p <= f.sw(s).num_ports; ++p) {
      const PortPeer peer = f.peer(s, static_cast<uint8_t>(p));
      if (peer.kind == PortPeer::kSwitch) {
        const Channel &c = f.channel(peer.id);
        out << "[" << p << "] \"" << f.sw(c.dst).name << "\"[" << int{c.dst_port} << "]\n";
      } else if (peer.kind == PortPeer::kTerminal) {
        const TerminalInfo &ti = f.terminal(peer.id);
        out << "[" << p << "] \"" << ti.name << "\"[" << int{ti.port_num} << "]\n";
      }
    }
    out << "\n";
  }
  return static_cast<bool>(out);
}

RouteCheck check_routes(const Fabric &f, const Routing &r) {
  RouteCheck res;
  const int32_t ns = f.num_switches(), nc = f.num_channels();
  auto fail = [&](const std::string &why) {
    if (res.ok) res.problem = why;
    res.ok = false;
  };
  // Destination port of a LID on its switch.
  auto dest_port = [&](uint16_t lid) -> int {
    const LidOwner o = f.lid_owner(lid);
    return o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port;
  };
  // Next channel of switch s towards lid (-1 at the destination switch, -2 on error).
  auto next_channel = [&](int32_t s, uint16_t lid) -> int32_t {
    if (s == f.lid_switch(lid)) return -1;
    const uint8_t port = r.out_port(s, lid);
    const PortPeer p = f.peer(s, port);
    return p.kind == PortPeer::kSwitch ? p.id : -2;
  };

  // Reachability, loops, and dependency edges over (channel, VL).
  std::vector<std::vector<int32_t>> dep(static_cast<size_t>(nc) * kNumSls);
  std::vector<char> vl_seen(kNumSls, 0);
  std::vector<int32_t> stamp(ns, -1);
  int32_t walk = 0;
  for (uint16_t lid : f.lids()) {
    const int32_t dsw = f.lid_switch(lid);
    if (r.out_port(dsw, lid) != dest_port(lid))
      fail("switch " + f.sw(dsw).name + " does not deliver LID " + std::to_string(lid));
    for (int32_t s = 0; s < ns; ++s, ++walk) {
      ++res.paths;
      int32_t cur = s, prev = -1, prev_vl = -1, hops = 0;
      uint8_t in_port = 0;
      const uint8_t sl = r.path_sl(s, lid);
      while (cur != dsw) {
        if (stamp[cur] == walk) {
          fail("forwarding loop from " + f.sw(s).name + " to LID " + std::to_string(lid));
          break;
        }
        stamp[cur] = walk;
        const int32_t c = next_channel(cur, lid);
        if (c < 0) {
          fail("no route from " + f.sw(s).name + " to LID " + std::to_string(lid) + " at " +
               f.sw(cur).name);
          break;
        }
        const int vl = r.vl(cur, in_port, f.channel(c).src_port, sl);
        vl_seen[vl] = 1;
        if (prev >= 0) dep[prev * kNumSls + prev_vl].push_back(c * kNumSls + vl);
        prev = c;
        prev_vl = vl;
        in_port = f.channel(c).dst_port;
        cur = f.channel(c).dst;
        ++hops;
      }
      res.max_hops = std::max<int64_t>(res.max_hops, hops);
    }
  }
  for (int v = 0; v < kNumSls; ++v) res.vls += vl_seen[v];

  // Kahn's algorithm on the dependency graph.
  {
    const size_t nv = dep.size();
    std::vector<int32_t> indeg(nv, 0);
    for (const auto &adj : dep)
      for (int32_t w : adj) ++indeg[w];
    std::vector<int32_t> q;
    for (size_t v = 0; v < nv; ++v)
      if (indeg[v] == 0) q.push_back(static_cast<int32_t>(v));
    size_t done = 0;
    while (!q.empty()) {
      const int32_t v = q.back();
      q.pop_back();
      ++done;
      for (int32_t w : dep[v])
        if (--indeg[w] == 0) q.push_back(w);
    }
    if (done != nv) fail("credit loop: the (channel, VL) dependency graph has a cycle");
  }
  if (!res.ok) return res;

  // Hops and edge forwarding index over CA -> CA base LIDs.
  std::vector<int64_t> efi(nc, 0);
  int64_t pairs = 0, hop_sum = 0;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const uint16_t lid = f.terminal(t).lid;
    if (!lid) continue;
    for (int32_t s = 0; s < ns; ++s) {
      int64_t sources = 0;
      for (int32_t u : f.terminals_of(s))
        if (u != t && f.terminal(u).lid) ++sources;
      if (!sources) continue;
      int32_t cur = s, hops = 0;
      while (cur != f.terminal(t).sw) {
        const int32_t c = next_channel(cur, lid);
        efi[c] += sources;
        cur = f.channel(c).dst;
        ++hops;
      }
      pairs += sources;
      hop_sum += sources * hops;
    }
  }
  if (nc > 0) {
    res.max_efi = *std::max_element(efi.begin(), efi.end());
    res.min_efi = *std::min_element(efi.begin(), efi.end());
    int64_t sum = 0;
    for (int64_t e : efi) sum += e;
    res.avg_efi = static_cast<double>(sum) / nc;
  }
  res.avg_hops = pairs ? static_cast<double>(hop_sum) / static_cast<double>(pairs) : 0.0;
  return res;
}

}  // namespace keiro::nuetest
