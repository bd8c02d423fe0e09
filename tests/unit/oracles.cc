// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/oracles.h"

#include <algorithm>

namespace keiro::fixtures {

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

  if (!acyclic(dep)) fail("credit loop: the (channel, VL) dependency graph has a cycle");
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

}  // namespace keiro::fixtures
