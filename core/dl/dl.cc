// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/dl.h"

#include <algorithm>

#include "core/dl/dest_search.h"
#include "core/log.h"
#include "core/minimal/balanced.h"
#include "core/minimal/forwarding_index.h"

namespace keiro::dl {

using minimal::dest_weight;

namespace {

// Score of a root for default_root(): terminal-weighted hops and next-hop
// choices of the sub-network 0 trees towards the sampled destinations.
struct RootScore {
  double hops = 0, choices = 0;
  bool better_than(const RootScore &o) const {
    if (hops != o.hops) return hops < o.hops;
    return choices > o.choices;
  }
};

RootScore score_root(const Fabric &f, int32_t root, std::span<const int32_t> sample,
                     std::span<const int64_t> weight) {
  RootScore sc;
  UpDown ud;
  std::string err;
  if (!build_updown(f, root, ud, err)) return {1e300, 0};
  const Ranks ranks(Restriction::kUD, 1);
  DestSearch search(f, ud, ranks);
  for (int32_t d : sample) {
    if (search.run(d) < 0) return {1e300, 0};
    for (int32_t s : search.order()) {
      if (s == d || !weight[s]) continue;
      int64_t choices = 0;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) choices += search.eligible(c);
      const double w = static_cast<double>(weight[s]) * static_cast<double>(weight[d]);
      sc.hops += w * search.depth(s);
      sc.choices += w * static_cast<double>(choices);
    }
  }
  return sc;
}

// Where a LID sits in its port's LMC range (0: the base LID).
int lmc_offset(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  if (o.kind == LidOwner::kTerminal) return lid - f.terminal(o.id).lid;
  if (o.kind == LidOwner::kSwitch) return lid - f.sw(o.id).lid;
  return 0;
}

// Weight of a LID as a destination for the loads of the path selection:
// the LIDs of terminals (every offset; each offset has its own load table),
// or those of switches in a fabric without terminals; 0 otherwise.
int64_t lid_weight(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  return (f.num_terminals() ? o.kind == LidOwner::kTerminal : o.kind == LidOwner::kSwitch) ? 1 : 0;
}

}  // namespace

int32_t default_root(const Fabric &f) {
  const int32_t S = f.num_switches();
  const int32_t c1 = central_root(f);
  if (S == 0) return c1;
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  const int64_t most = *std::max_element(weight.begin(), weight.end());
  std::vector<uint8_t> allowed(S);
  for (int32_t s = 0; s < S; ++s) allowed[s] = weight[s] == most;
  if (std::count(allowed.begin(), allowed.end(), 1) == S) return c1;  // c2 = c1
  const int32_t c2 = central_root(f, allowed);
  if (c2 == c1 || c2 < 0) return c1;
  // Up to 64 destination switches with terminals, spread over the ids.
  std::vector<int32_t> dests, sample;
  for (int32_t s = 0; s < S; ++s)
    if (weight[s]) dests.push_back(s);
  const size_t n = std::min<size_t>(64, dests.size());
  for (size_t i = 0; i < n; ++i) sample.push_back(dests[i * dests.size() / n]);
  const RootScore s1 = score_root(f, c1, sample, weight);
  const RootScore s2 = score_root(f, c2, sample, weight);
  return s2.better_than(s1) ? c2 : c1;
}

bool one_layer_suffices(const Fabric &f, Restriction restriction, int layers, int32_t root) {
  const int32_t S = f.num_switches();
  UpDown ud;
  std::string err;
  if (!build_updown(f, root, ud, err)) return false;
  const Ranks one(restriction, 1), all(restriction, layers);
  DestSearch s1(f, ud, one), sn(f, ud, all);
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  for (int32_t d = 0; d < S; ++d) {
    if (!weight[d]) continue;
    if (s1.run(d) < 0 || sn.run(d) < 0) return false;
    for (int32_t s = 0; s < S; ++s)
      if (weight[s] && s1.depth(s) != sn.depth(s)) return false;
  }
  return true;
}

bool route(const Fabric &f, const DlOptions &opt, DlResult &out, std::string &err) {
  const int32_t S = f.num_switches();
  if (S == 0) {
    err = "the fabric has no switch";
    return false;
  }
  if (opt.layers < 1 || opt.layers > kMaxDataVls) {
    err = strprintf("%d layers requested; DL uses 1 to %d", opt.layers, kMaxDataVls);
    return false;
  }
  const int32_t root = opt.root >= 0 ? opt.root : default_root(f);
  if (!build_updown(f, root, out.updown, err)) return false;

  // Destinations: every LID, grouped by switch (ascending LIDs, so the LMC
  // offsets of a port are consecutive and offset j's base is j entries back).
  std::vector<uint16_t> own;
  std::vector<int32_t> group{0};  // destinations of the i-th switch with LIDs
  std::vector<int32_t> roots;
  std::vector<uint16_t> lids;
  for (int32_t s = 0; s < S; ++s) {
    minimal::switch_lids(f, s, own);
    if (own.empty()) continue;
    for (uint16_t lid : own) roots.push_back(s), lids.push_back(lid);
    group.push_back(static_cast<int32_t>(roots.size()));
  }
  const auto K = static_cast<int32_t>(roots.size());
  const auto G = static_cast<int32_t>(group.size()) - 1;
  std::vector<int> offset(K);
  std::vector<int64_t> wlid(K), wgroup(G, 0);
  int tables = 1;
  for (int32_t g = 0; g < G; ++g)
    for (int32_t k = group[g]; k < group[g + 1]; ++k) {
      offset[k] = lmc_offset(f, lids[k]);
      wlid[k] = lid_weight(f, lids[k]);
      if (offset[k] == 0) wgroup[g] += wlid[k];
      tables = std::max(tables, offset[k] + 1);
    }
  out.restriction = opt.restriction;
  out.layers = opt.layers;
  out.layers_needed = 1;
  out.repaired_dests = out.reruns = out.spread_trees = 0;

  const Ranks ranks(opt.restriction, opt.layers);
  DestSearch search(f, out.updown, ranks);
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  PathSelector select(f, opt.policy, opt.seed, weight, opt.slack, tables, opt.consistency);
  // Per LID while routing (rows k), per switch the base tree (rows g).
  std::vector<int32_t> next(static_cast<size_t>(K) * S, -1), base_next(static_cast<size_t>(G) * S);
  std::vector<int16_t> rank(static_cast<size_t>(K) * S, -1), base_rank(static_cast<size_t>(G) * S);
  std::vector<uint8_t> spread(G, 0);
  std::vector<const int32_t *> siblings;
  auto row = [&](int32_t k) { return next.data() + static_cast<size_t>(k) * S; };
  auto brow = [&](int32_t g) { return base_next.data() + static_cast<size_t>(g) * S; };
  auto brank = [&](int32_t g) { return base_rank.data() + static_cast<size_t>(g) * S; };
  // The base tree of switch g: all its routes as one destination.
  auto place_base = [&](int32_t g) {
    select.select(search, roots[group[g]], wgroup[g], std::span<int32_t>(brow(g), S));
    std::copy(select.ranks().begin(), select.ranks().end(), brank(g));
  };
  // One LID of a spread switch: its own tree, at most the base's ranks, away
  // from the links its port's lower LMC offsets take.
  auto place = [&](int32_t g, int32_t k) {
    siblings.clear();
    for (int j = 1; j <= offset[k]; ++j) siblings.push_back(row(k - j));
    select.select(search, roots[k], wlid[k], std::span<int32_t>(row(k), S), offset[k], siblings,
                  brow(g), brank(g));
    std::copy(select.ranks().begin(), select.ranks().end(),
              rank.begin() + static_cast<ptrdiff_t>(k) * S);
  };
  for (int32_t g = 0; g < G; ++g) {
    const int32_t d = roots[group[g]];
    const int reruns = search.run(d);
    if (reruns < 0) {
      err = strprintf("internal error: no legal tree towards switch '%s'", f.sw(d).name.c_str());
      return false;
    }
    if (reruns) ++out.repaired_dests, out.reruns += reruns;
    place_base(g);
  }
  // Spread the LIDs of the switches whose base tree stays in sub-network 0,
  // when these are the majority of the destinations then (see the header):
  // the engine then realizes only the others, so the realization's work
  // does not grow. Otherwise every switch keeps one tree.
  int32_t upper = 0, lower = 0;
  for (int32_t g = 0; g < G; ++g) {
    const bool low = *std::max_element(brank(g), brank(g) + S) <= 1;
    spread[g] = opt.spread_lids && low && group[g + 1] - group[g] > 1;
    if (!low)
      ++upper;
    else
      lower += spread[g] ? group[g + 1] - group[g] : 1;
  }
  if (2 * upper > upper + lower) std::fill(spread.begin(), spread.end(), 0);
  for (int32_t g = 0; g < G; ++g) {
    if (!spread[g]) continue;
    search.run(roots[group[g]]);
    select.remove(search, wgroup[g], std::span<const int32_t>(brow(g), S));
    for (int32_t k = group[g]; k < group[g + 1]; ++k) place(g, k);
  }
  // Rip-up and reroute for the load-aware policy: every tree is placed
  // again with all other routes known.
  const int passes = opt.policy == Policy::kLoad ? opt.reroute_passes : 0;
  for (int pass = 0; pass < passes; ++pass)
    for (int32_t g = 0; g < G; ++g) {
      search.run(roots[group[g]]);
      if (!spread[g]) {
        select.remove(search, wgroup[g], std::span<const int32_t>(brow(g), S));
        place_base(g);
        continue;
      }
      for (int32_t k = group[g]; k < group[g + 1]; ++k) {
        select.remove(search, wlid[k], std::span<const int32_t>(row(k), S), offset[k]);
        place(g, k);
      }
    }
  // The destinations: one per LID of a spread switch, one per other switch.
  int32_t K2 = 0;
  for (int32_t g = 0; g < G; ++g) K2 += spread[g] ? group[g + 1] - group[g] : 1;
  out.trees.reset(S, K2);
  out.rank.assign(static_cast<size_t>(K2) * S, -1);
  int32_t k2 = 0;
  auto emit = [&](int32_t d, const int32_t *nx, const int16_t *rk, int32_t lo, int32_t hi) {
    out.trees.root[k2] = d;
    out.trees.lids.insert(out.trees.lids.end(), lids.begin() + lo, lids.begin() + hi);
    out.trees.lid_start[k2 + 1] = static_cast<int32_t>(out.trees.lids.size());
    std::copy_n(nx, S, out.trees.next.begin() + static_cast<ptrdiff_t>(k2) * S);
    std::copy_n(rk, S, out.rank.begin() + static_cast<ptrdiff_t>(k2) * S);
    ++k2;
  };
  for (int32_t g = 0; g < G; ++g) {
    const int32_t d = roots[group[g]];
    if (!spread[g]) {
      emit(d, brow(g), brank(g), group[g], group[g + 1]);
      continue;
    }
    for (int32_t k = group[g]; k < group[g + 1]; ++k)
      emit(d, row(k), rank.data() + static_cast<size_t>(k) * S, k, k + 1);
    out.spread_trees += group[g + 1] - group[g];
  }
  int top_rank = 0;
  for (int16_t r : out.rank) top_rank = std::max<int>(top_rank, r);
  out.layers_needed = Ranks::layer_of(top_rank) + 1;
  out.load.assign(select.load(0).begin(), select.load(0).end());
  return true;
}

void vl_demand(const Fabric &f, const DlResult &r, bool exact, vlmap::VlDemand &out) {
  const int32_t S = f.num_switches(), C = f.num_channels();
  const Ranks ranks(r.restriction, r.layers);
  out = vlmap::VlDemand{};
  out.rank_rows = r.layers;
  out.rank.resize(static_cast<size_t>(r.layers) * C);
  for (int v = 0; v < r.layers; ++v) {
    const bool ud = ranks.layer_is_ud(v);
    int32_t *row = out.rank.data() + static_cast<size_t>(v) * C;
    for (int32_t c = 0; c < C; ++c) {
      const int32_t p = r.updown.pos[f.channel(c).src];
      if (r.updown.up[c])
        row[c] = ud ? S + p : p;
      else
        row[c] = ud ? S - 1 - p : 2 * S - 1 - p;
    }
  }
  if (exact) {
    out.lo.resize(r.rank.size());
    out.hi.resize(r.rank.size());
    for (size_t i = 0; i < r.rank.size(); ++i)
      out.lo[i] = out.hi[i] = static_cast<uint8_t>(r.rank[i] < 0 ? 0 : Ranks::layer_of(r.rank[i]));
  }
}

void upper_part(const DlResult &r, DlResult &out) {
  const int32_t S = r.trees.num_switches, K = r.trees.num_dests();
  out.restriction = r.restriction;
  out.layers = r.layers;
  out.updown = r.updown;
  out.layers_needed = r.layers_needed;
  std::vector<int32_t> keep;
  for (int32_t k = 0; k < K; ++k) {
    const auto row = r.rank.begin() + static_cast<ptrdiff_t>(k) * S;
    if (*std::max_element(row, row + S) >= 2) keep.push_back(k);
  }
  out.trees.reset(S, static_cast<int32_t>(keep.size()));
  out.rank.resize(keep.size() * static_cast<size_t>(S));
  for (size_t i = 0; i < keep.size(); ++i) {
    const int32_t k = keep[i];
    out.trees.root[i] = r.trees.root[k];
    const auto lids = r.trees.dest_lids(k);
    out.trees.lids.insert(out.trees.lids.end(), lids.begin(), lids.end());
    out.trees.lid_start[i + 1] = static_cast<int32_t>(out.trees.lids.size());
    std::copy_n(r.trees.next.begin() + static_cast<ptrdiff_t>(k) * S, S,
                out.trees.next.begin() + static_cast<ptrdiff_t>(i) * S);
    std::copy_n(r.rank.begin() + static_cast<ptrdiff_t>(k) * S, S,
                out.rank.begin() + static_cast<ptrdiff_t>(i) * S);
  }
}

double average_hops(const Fabric &f, const minimal::DestTrees &t) {
  const int32_t S = f.num_switches();
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  std::vector<int32_t> depth(S);
  double hops = 0, pairs = 0;
  int64_t total = 0;
  for (int64_t w : weight) total += w;
  for (int32_t k = 0; k < t.num_dests(); ++k) {
    const int64_t wd = dest_weight(f, t, k);
    if (!wd) continue;
    minimal::tree_depths(f, t, k, depth);
    for (int32_t s = 0; s < S; ++s) hops += static_cast<double>(depth[s]) * weight[s] * wd;
    pairs += static_cast<double>(wd) * (total - 1);
  }
  return pairs > 0 ? hops / pairs : 0;
}

}  // namespace keiro::dl
