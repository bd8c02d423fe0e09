// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/minimal/dest_trees.h"

#include <algorithm>
#include <cassert>
#include <unordered_map>

#include "core/log.h"

namespace keiro::minimal {

void DestTrees::reset(int32_t s, int32_t k) {
  num_switches = s;
  root.assign(k, -1);
  lid_start.assign(k + 1, 0);
  lids.clear();
  next.assign(static_cast<size_t>(k) * s, -1);
}

void switch_lids(const Fabric &f, int32_t s, std::vector<uint16_t> &out) {
  out.clear();
  auto add = [&](uint16_t lid, uint8_t lmc) {
    if (!lid) return;
    for (uint32_t l = lid; l < lid + (1u << lmc); ++l) out.push_back(static_cast<uint16_t>(l));
  };
  add(f.sw(s).lid, f.sw(s).lmc);
  for (int32_t t : f.terminals_of(s)) add(f.terminal(t).lid, f.terminal(t).lmc);
  std::sort(out.begin(), out.end());
}

bool validate_trees(const Fabric &f, const DestTrees &t, std::string &err) {
  const int32_t S = f.num_switches();
  if (t.num_switches != S || t.next.size() != static_cast<size_t>(t.num_dests()) * S ||
      t.lid_start.size() != static_cast<size_t>(t.num_dests()) + 1) {
    err = "destination trees do not match the fabric";
    return false;
  }
  std::vector<uint8_t> state;
  std::vector<int32_t> walk;
  for (int32_t k = 0; k < t.num_dests(); ++k) {
    const int32_t r = t.root[k];
    if (r < 0 || r >= S) {
      err = strprintf("destination %d has no root switch", k);
      return false;
    }
    if (t.hop(k, r) != -1) {
      err = strprintf("destination %d: root switch '%s' has a next hop", k, f.sw(r).name.c_str());
      return false;
    }
    const unsigned first_lid = t.lid_start[k] < t.lid_start[k + 1] ? t.lids[t.lid_start[k]] : 0u;
    for (int32_t s = 0; s < S; ++s) {
      const int32_t c = t.hop(k, s);
      if (s != r && (c < 0 || c >= f.num_channels() || f.channel(c).src != s)) {
        err = strprintf("destination %d (LID %u): switch '%s' has no valid next hop", k, first_lid,
                        f.sw(s).name.c_str());
        return false;
      }
    }
    int32_t from = -1;
    const int32_t at = first_loop(f, t, k, state, walk, from);
    if (at >= 0) {
      err = strprintf("destination %d (LID %u): forwarding loop through switch '%s'", k, first_lid,
                      f.sw(at).name.c_str());
      return false;
    }
  }
  return true;
}

int32_t first_loop(const Fabric &f, const DestTrees &t, int32_t k, std::vector<uint8_t> &state,
                   std::vector<int32_t> &walk, int32_t &from) {
  const int32_t S = f.num_switches();
  // state: 0 unknown, 1 on the current walk, 2 reaches the root
  state.assign(S, 0);
  state[t.root[k]] = 2;
  for (int32_t s0 = 0; s0 < S; ++s0) {
    walk.clear();
    int32_t s = s0;
    while (state[s] == 0) {
      state[s] = 1;
      walk.push_back(s);
      s = f.channel(t.hop(k, s)).dst;
    }
    if (state[s] == 1) {
      from = s0;
      return s;
    }
    for (int32_t w : walk) state[w] = 2;
  }
  return -1;
}

void tree_depths(const Fabric &f, const DestTrees &t, int32_t k, std::span<int32_t> depth) {
  const int32_t S = f.num_switches();
  assert(static_cast<int32_t>(depth.size()) == S &&
         "tree_depths: depth needs one entry per switch");
  assert(t.num_switches == S && "tree_depths: trees of another fabric");
  std::fill(depth.begin(), depth.end(), -1);
  depth[t.root[k]] = 0;
  for (int32_t s0 = 0; s0 < S; ++s0) {
    // Walk up to a switch of known depth, then unwind. Each switch is
    // resolved once, so the whole pass is O(S).
    int32_t s = s0, n = 0;
    while (depth[s] < 0) {
      s = f.channel(t.hop(k, s)).dst;
      ++n;
    }
    int32_t d = depth[s] + n;
    for (s = s0; depth[s] < 0; s = f.channel(t.hop(k, s)).dst) depth[s] = d--;
  }
}

void deepest_first(std::span<const int32_t> depth, std::vector<int32_t> &count,
                   std::span<int32_t> order) {
  const auto S = static_cast<int32_t>(depth.size());
  assert(order.size() == depth.size() && "deepest_first: order needs one entry per depth");
  const int32_t dmax = S ? *std::max_element(depth.begin(), depth.end()) : 0;
  count.assign(dmax + 2, 0);
  for (int32_t s = 0; s < S; ++s) ++count[dmax - depth[s] + 1];
  for (int32_t i = 0; i <= dmax; ++i) count[i + 1] += count[i];
  for (int32_t s = 0; s < S; ++s) order[count[dmax - depth[s]]++] = s;
}

void write_lfts(const Fabric &f, const DestTrees &t, Routing &r) {
  for (int32_t k = 0; k < t.num_dests(); ++k) {
    const int32_t root = t.root[k];
    for (uint16_t lid : t.dest_lids(k)) {
      for (int32_t s = 0; s < f.num_switches(); ++s) {
        if (s != root) {
          r.set_out_port(s, lid, f.channel(t.hop(k, s)).src_port);
          continue;
        }
        const LidOwner o = f.lid_owner(lid);
        r.set_out_port(s, lid, o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0);
      }
    }
  }
}

namespace {
// FNV-1a over a destination's root and next hops.
uint64_t tree_hash(const DestTrees &t, int32_t k) {
  uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(t.root[k]);
  const int32_t *n = t.next.data() + static_cast<size_t>(k) * t.num_switches;
  for (int32_t s = 0; s < t.num_switches; ++s)
    h = (h ^ static_cast<uint64_t>(n[s] + 1)) * 1099511628211ull;
  return h;
}
}  // namespace

void merge_identical(DestTrees &t) {
  const int32_t K = t.num_dests(), S = t.num_switches;
  // group[k]: the first destination (in index order) with k's tree.
  std::vector<int32_t> group(K);
  std::unordered_multimap<uint64_t, int32_t> by_hash;
  by_hash.reserve(static_cast<size_t>(K));
  for (int32_t k = 0; k < K; ++k) {
    const uint64_t h = tree_hash(t, k);
    const int32_t *nk = t.next.data() + static_cast<size_t>(k) * S;
    int32_t found = -1;
    auto range = by_hash.equal_range(h);
    for (auto it = range.first; it != range.second && found < 0; ++it) {
      const int32_t j = it->second;
      if (t.root[j] == t.root[k] &&
          std::equal(nk, nk + S, t.next.data() + static_cast<size_t>(j) * S))
        found = j;
    }
    if (found < 0) {
      found = k;
      by_hash.emplace(h, k);
    }
    group[k] = found;
  }
  // Gather each group's LIDs, sort them, then order the groups.
  std::vector<int32_t> reps, count(K, 0);
  for (int32_t k = 0; k < K; ++k) {
    if (group[k] == k) reps.push_back(k);
    count[group[k]] += t.lid_start[k + 1] - t.lid_start[k];
  }
  std::vector<int32_t> start(K + 1, 0);
  for (int32_t k = 0; k < K; ++k) start[k + 1] = start[k] + count[k];
  std::vector<uint16_t> lids(t.lids.size());
  std::vector<int32_t> fill(start.begin(), start.end() - 1);
  for (int32_t k = 0; k < K; ++k)
    for (uint16_t lid : t.dest_lids(k)) lids[fill[group[k]]++] = lid;
  for (int32_t g : reps) std::sort(lids.begin() + start[g], lids.begin() + start[g + 1]);
  auto first_lid = [&](int32_t g) {
    return start[g] < start[g + 1] ? static_cast<int32_t>(lids[start[g]]) : 0x10000;
  };
  std::stable_sort(reps.begin(), reps.end(),
                   [&](int32_t a, int32_t b) { return first_lid(a) < first_lid(b); });

  DestTrees out;
  const auto G = static_cast<int32_t>(reps.size());
  out.num_switches = S;
  out.root.resize(G);
  out.lid_start.assign(G + 1, 0);
  out.lids.reserve(lids.size());
  out.next.resize(static_cast<size_t>(G) * S);
  for (int32_t i = 0; i < G; ++i) {
    const int32_t g = reps[i];
    out.root[i] = t.root[g];
    out.lids.insert(out.lids.end(), lids.begin() + start[g], lids.begin() + start[g + 1]);
    out.lid_start[i + 1] = static_cast<int32_t>(out.lids.size());
    std::copy_n(t.next.data() + static_cast<size_t>(g) * S, S,
                out.next.data() + static_cast<size_t>(i) * S);
  }
  t = std::move(out);
}

bool trees_from_lfts(const Fabric &f, const Routing &r, DestTrees &out, std::string &err) {
  const int32_t S = f.num_switches();
  const std::vector<uint16_t> &all = f.lids();
  std::vector<int32_t> column(S);
  std::vector<int32_t> dest_of(all.size(), -1);
  std::unordered_multimap<uint64_t, int32_t> by_hash;
  std::vector<int32_t> roots;
  std::vector<int32_t> next;  // grows by S per new destination
  for (size_t i = 0; i < all.size(); ++i) {
    const uint16_t lid = all[i];
    const int32_t root = f.lid_switch(lid);
    uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(root);
    for (int32_t s = 0; s < S; ++s) {
      int32_t c = -1;
      if (s != root) {
        const uint8_t port = r.out_port(s, lid);
        const PortPeer p = f.peer(s, port);
        if (p.kind != PortPeer::kSwitch) {
          err = strprintf("LID %u is %s on switch '%s' (port %u), before reaching its switch '%s'",
                          lid, port == kNoPort ? "dropped" : "sent off the switch fabric",
                          f.sw(s).name.c_str(), port, f.sw(root).name.c_str());
          return false;
        }
        c = p.id;
      }
      column[s] = c;
      h = (h ^ static_cast<uint64_t>(c + 1)) * 1099511628211ull;
    }
    int32_t found = -1;
    auto range = by_hash.equal_range(h);
    for (auto it = range.first; it != range.second && found < 0; ++it) {
      const int32_t k = it->second;
      if (roots[k] == root &&
          std::equal(column.begin(), column.end(), next.begin() + static_cast<size_t>(k) * S))
        found = k;
    }
    if (found < 0) {
      found = static_cast<int32_t>(roots.size());
      roots.push_back(root);
      next.insert(next.end(), column.begin(), column.end());
      by_hash.emplace(h, found);
    }
    dest_of[i] = found;
  }
  const auto K = static_cast<int32_t>(roots.size());
  out.num_switches = S;
  out.root = std::move(roots);
  out.next = std::move(next);
  out.lid_start.assign(K + 1, 0);
  for (int32_t k : dest_of) ++out.lid_start[k + 1];
  for (int32_t k = 0; k < K; ++k) out.lid_start[k + 1] += out.lid_start[k];
  out.lids.assign(all.size(), 0);
  std::vector<int32_t> fill(out.lid_start.begin(), out.lid_start.end() - 1);
  for (size_t i = 0; i < all.size(); ++i) out.lids[fill[dest_of[i]]++] = all[i];
  return validate_trees(f, out, err);
}

}  // namespace keiro::minimal
