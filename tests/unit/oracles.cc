// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/oracles.h"

#include <algorithm>

#include "tests/unit/fabrics.h"

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
    for (int32_t s = 0; s < ns; ++s) {
      // Traffic enters s on port 0 (its own) and on each CA's cable port.
      std::vector<uint8_t> entries{0};
      for (int32_t t : f.terminals_of(s)) entries.push_back(f.terminal(t).sw_port);
      for (const uint8_t entry : entries) {
        ++walk;
        res.paths += entry == 0;
        int32_t cur = s, prev = -1, prev_vl = -1, hops = 0;
        uint8_t in_port = entry;
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

Routing updown_routing(const Fabric &f, int32_t root, bool balanced) {
  const int32_t S = f.num_switches();
  const std::vector<uint8_t> up = reference_up(f, root);
  Routing r;
  r.reset(f);
  // Per destination switch d: dist[s] and down_only[s] (-1: no label).
  std::vector<int32_t> dist(S);
  std::vector<int8_t> down_only(S);
  std::vector<std::vector<int32_t>> bucket;  // by 2 * dist + (down_only ? 0 : 1)
  std::vector<std::vector<int32_t>> used(S, std::vector<int32_t>(256, 0));
  int32_t routed_for = -1;
  for (uint16_t lid : f.lids()) {
    const int32_t d = f.lid_switch(lid);
    if (d != routed_for) {  // recomputed whenever d changes (f.lids() is in LID order)
      routed_for = d;
      std::fill(dist.begin(), dist.end(), -1);
      std::fill(down_only.begin(), down_only.end(), -1);
      bucket.assign(static_cast<size_t>(2 * S + 2), {});
      bucket[0].push_back(d);
      std::vector<int32_t> key(S, -1);  // best key pushed so far
      key[d] = 0;
      for (size_t k = 0; k < bucket.size(); ++k)
        for (size_t i = 0; i < bucket[k].size(); ++i) {
          const int32_t t = bucket[k][i];
          if (down_only[t] >= 0) continue;  // labelled at a smaller key
          dist[t] = static_cast<int32_t>(k / 2);
          down_only[t] = k % 2 == 0;
          // s -> t: down only onto a down-only t (s stays down-only), up always.
          for (int32_t c = f.out_begin(t); c < f.out_end(t); ++c) {
            const int32_t s = f.channel(c).dst;
            if (down_only[s] >= 0) continue;
            for (int32_t b = f.out_begin(s); b < f.out_end(s); ++b) {
              if (f.channel(b).dst != t || (!up[b] && !down_only[t])) continue;
              const int32_t nk = 2 * (dist[t] + 1) + (up[b] ? 1 : 0);
              if (key[s] < 0 || nk < key[s]) {
                key[s] = nk;
                bucket[nk].push_back(s);
              }
            }
          }
        }
    }
    for (int32_t s = 0; s < S; ++s) {
      if (s == d) {
        const LidOwner o = f.lid_owner(lid);
        r.set_out_port(s, lid, o.kind == LidOwner::kSwitch ? 0 : f.terminal(o.id).sw_port);
        continue;
      }
      int32_t best = -1;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
        const int32_t t = f.channel(c).dst;
        if (down_only[s] < 0 || down_only[t] < 0 || dist[t] != dist[s] - 1) continue;
        if (down_only[s] ? (up[c] || !down_only[t]) : !up[c]) continue;
        if (best < 0 ||
            (balanced && used[s][f.channel(c).src_port] < used[s][f.channel(best).src_port]))
          best = c;
        if (!balanced) break;
      }
      take_channel(f, r, s, lid, best, used);
    }
  }
  return r;
}

std::string loren_walk(const Fabric &f, const loren::Layout &l, const loren::LorenTables &t,
                       std::vector<int32_t> *next) {
  const int32_t S = f.num_switches();
  // The rule, plainly: the first entry with the smallest md(dst, v).
  auto rule = [&](int32_t u, int32_t v) -> int32_t {
    int32_t best = -1, best_md = 0;
    for (const loren::LorenEntry &e : t.table(u)) {
      const int32_t md = e.dst == v ? -1 : l.md(e.dst, v);
      if (best < 0 || md < best_md) best = e.channel, best_md = md;
    }
    return best;
  };
  if (next) next->assign(static_cast<size_t>(S) * S, -1);
  std::vector<int32_t> seen(S, -1);
  for (int32_t v = 0; v < S; ++v)
    for (int32_t src = 0; src < S; ++src) {
      const int32_t walk = v * S + src;
      for (int32_t u = src; u != v;) {
        if (seen[u] == walk)
          return "livelock from '" + f.sw(src).name + "' to '" + f.sw(v).name + "' at '" +
                 f.sw(u).name + "'";
        seen[u] = walk;
        const int32_t c = rule(u, v);
        if (c < 0) return "empty table at '" + f.sw(u).name + "'";
        if (next) (*next)[static_cast<size_t>(v) * S + u] = c;
        u = f.channel(c).dst;
      }
    }
  return "";
}

}  // namespace keiro::fixtures
