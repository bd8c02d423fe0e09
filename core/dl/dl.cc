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

// The destinations of route(): every LID, grouped by switch (ascending
// LIDs, so the LMC offsets of a port are consecutive and offset j's base is
// j entries back).
struct Destinations {
  std::vector<int32_t> group{0};  // destinations of the i-th switch with LIDs
  std::vector<int32_t> roots;     // per LID: its switch
  std::vector<uint16_t> lids;
  std::vector<int> offset;      // per LID: lmc_offset()
  std::vector<int64_t> wlid;    // per LID: lid_weight()
  std::vector<int64_t> wgroup;  // per switch with LIDs: the weight of its base LIDs
  int tables = 1;               // load tables: the largest LMC offset + 1
  int32_t num_lids() const { return static_cast<int32_t>(roots.size()); }
  int32_t num_groups() const { return static_cast<int32_t>(group.size()) - 1; }
};

Destinations destinations(const Fabric &f) {
  Destinations ds;
  std::vector<uint16_t> own;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    minimal::switch_lids(f, s, own);
    if (own.empty()) continue;
    for (uint16_t lid : own) ds.roots.push_back(s), ds.lids.push_back(lid);
    ds.group.push_back(static_cast<int32_t>(ds.roots.size()));
  }
  const int32_t K = ds.num_lids(), G = ds.num_groups();
  ds.offset.resize(K);
  ds.wlid.resize(K);
  ds.wgroup.assign(G, 0);
  for (int32_t g = 0; g < G; ++g)
    for (int32_t k = ds.group[g]; k < ds.group[g + 1]; ++k) {
      ds.offset[k] = lmc_offset(f, ds.lids[k]);
      ds.wlid[k] = lid_weight(f, ds.lids[k]);
      if (ds.offset[k] == 0) ds.wgroup[g] += ds.wlid[k];
      ds.tables = std::max(ds.tables, ds.offset[k] + 1);
    }
  return ds;
}

// route() after the up*/down* tree: the trees of every destination, placed
// by the path selection. Per LID while routing (rows k), per switch the
// base tree (rows g).
class TreePlacer {
 public:
  TreePlacer(const Fabric &f, const DlOptions &opt, const UpDown &ud)
      : f_(f),
        S_(f.num_switches()),
        ds_(destinations(f)),
        ranks_(opt.restriction, opt.layers),
        search_(f, ud, ranks_),
        weight_(minimal::switch_weights(f)),
        select_(f, opt.policy, opt.seed, weight_, opt.slack, ds_.tables, opt.consistency),
        next_(static_cast<size_t>(ds_.num_lids()) * S_, -1),
        base_next_(static_cast<size_t>(ds_.num_groups()) * S_),
        rank_(static_cast<size_t>(ds_.num_lids()) * S_, -1),
        base_rank_(static_cast<size_t>(ds_.num_groups()) * S_),
        spread_(ds_.num_groups(), 0),
        free_(ds_.num_groups(), 0) {}

  // The base tree of every switch with LIDs; false (err) when one has no legal tree.
  bool base_trees(DlResult &out, std::string &err);
  // Spread the LIDs of the switches whose base tree stays in sub-network 0,
  // when these are the majority of the destinations then (see the header):
  // the engine then realizes only the others, so the realization's work
  // does not grow. Otherwise every switch keeps one tree.
  void spread_lids(bool allowed, bool upper_too);
  // Rip-up and reroute for the load-aware policy: every tree is placed
  // again with all other routes known; passes after the first place only
  // the whole-switch trees (the spread LIDs stay) and are kept only where
  // they lower the largest load. Extra memory O(G * S + C * tables).
  void reroute(int passes);
  // The trees, ranks and loads into out: one destination per LID of a
  // spread switch, one per other switch.
  void emit(DlResult &out) const;

 private:
  int32_t *row(int32_t k) { return next_.data() + static_cast<size_t>(k) * S_; }
  const int32_t *brow(int32_t g) const { return base_next_.data() + static_cast<size_t>(g) * S_; }
  int32_t *brow(int32_t g) { return base_next_.data() + static_cast<size_t>(g) * S_; }
  const int16_t *brank(int32_t g) const { return base_rank_.data() + static_cast<size_t>(g) * S_; }
  int16_t *brank(int32_t g) { return base_rank_.data() + static_cast<size_t>(g) * S_; }
  int32_t lids_of(int32_t g) const { return ds_.group[g + 1] - ds_.group[g]; }
  // The base tree of switch g: all its routes as one destination.
  // ahead: PathSelector::select's provisional loads (trees kept for all
  // LIDs of a switch, in the rip-up pass).
  void place_base(int32_t g, bool ahead = false);
  // One LID of a spread switch: its own tree, at most the base's ranks
  // (any legal ranks for a switch spread by spread_upper), away from the
  // links its port's lower LMC offsets take.
  void place(int32_t g, int32_t k);

  const Fabric &f_;
  const int32_t S_;
  const Destinations ds_;
  const Ranks ranks_;
  DestSearch search_;
  const std::vector<int64_t> weight_;
  PathSelector select_;
  std::vector<int32_t> next_, base_next_;
  std::vector<int16_t> rank_, base_rank_;
  std::vector<uint8_t> spread_;
  std::vector<uint8_t> free_;  // per switch: spread by spread_upper (no base bound)
  std::vector<const int32_t *> siblings_;
};

void TreePlacer::place_base(int32_t g, bool ahead) {
  select_.select(search_, ds_.roots[ds_.group[g]], ds_.wgroup[g], std::span<int32_t>(brow(g), S_),
                 0, {}, nullptr, nullptr, ahead);
  std::copy(select_.ranks().begin(), select_.ranks().end(), brank(g));
}

void TreePlacer::place(int32_t g, int32_t k) {
  siblings_.clear();
  for (int j = 1; j <= ds_.offset[k]; ++j) siblings_.push_back(row(k - j));
  select_.select(search_, ds_.roots[k], ds_.wlid[k], std::span<int32_t>(row(k), S_), ds_.offset[k],
                 siblings_, free_[g] ? nullptr : brow(g), free_[g] ? nullptr : brank(g));
  std::copy(select_.ranks().begin(), select_.ranks().end(),
            rank_.begin() + static_cast<ptrdiff_t>(k) * S_);
}

bool TreePlacer::base_trees(DlResult &out, std::string &err) {
  for (int32_t g = 0; g < ds_.num_groups(); ++g) {
    const int32_t d = ds_.roots[ds_.group[g]];
    const int reruns = search_.run(d);
    if (reruns < 0) {
      err = strprintf("internal error: no legal tree towards switch '%s'", f_.sw(d).name.c_str());
      return false;
    }
    if (reruns) ++out.repaired_dests, out.reruns += reruns;
    place_base(g);
  }
  return true;
}

void TreePlacer::spread_lids(bool allowed, bool upper_too) {
  const int32_t G = ds_.num_groups();
  int32_t upper = 0, lower = 0;
  for (int32_t g = 0; g < G; ++g) {
    const bool low = *std::max_element(brank(g), brank(g) + S_) <= 1;
    spread_[g] = allowed && (low || upper_too) && lids_of(g) > 1;
    free_[g] = spread_[g] && !low;
    if (!low)
      ++upper;
    else
      lower += spread_[g] ? lids_of(g) : 1;
  }
  if (!upper_too && 2 * upper > upper + lower) std::fill(spread_.begin(), spread_.end(), 0);
  for (int32_t g = 0; g < G; ++g) {
    if (!spread_[g]) continue;
    search_.run(ds_.roots[ds_.group[g]]);
    select_.remove(search_, ds_.wgroup[g], std::span<const int32_t>(brow(g), S_));
    for (int32_t k = ds_.group[g]; k < ds_.group[g + 1]; ++k) place(g, k);
  }
}

void TreePlacer::reroute(int passes) {
  if (passes < 1) return;
  for (int32_t g = 0; g < ds_.num_groups(); ++g) {
    search_.run(ds_.roots[ds_.group[g]]);
    if (!spread_[g]) {
      select_.remove(search_, ds_.wgroup[g], std::span<const int32_t>(brow(g), S_));
      place_base(g, true);
      continue;
    }
    for (int32_t k = ds_.group[g]; k < ds_.group[g + 1]; ++k) {
      select_.remove(search_, ds_.wlid[k], std::span<const int32_t>(row(k), S_), ds_.offset[k]);
      place(g, k);
    }
  }
  // Further passes place the whole-switch trees again, each kept only if it
  // lowers the largest load (base LIDs); else the previous pass stands.
  if (std::count(spread_.begin(), spread_.end(), 0) == 0) return;
  std::vector<int32_t> keep_next;
  std::vector<int16_t> keep_rank;
  std::vector<int64_t> keep_load;
  for (int pass = 1; pass < passes; ++pass) {
    const int64_t before = *std::max_element(select_.load(0).begin(), select_.load(0).end());
    keep_next = base_next_;
    keep_rank = base_rank_;
    select_.save_loads(keep_load);
    for (int32_t g = 0; g < ds_.num_groups(); ++g) {
      if (spread_[g]) continue;
      search_.run(ds_.roots[ds_.group[g]]);
      select_.remove(search_, ds_.wgroup[g], std::span<const int32_t>(brow(g), S_));
      place_base(g, true);
    }
    if (*std::max_element(select_.load(0).begin(), select_.load(0).end()) < before) continue;
    base_next_.swap(keep_next);
    base_rank_.swap(keep_rank);
    select_.restore_loads(keep_load);
    return;
  }
}

void TreePlacer::emit(DlResult &out) const {
  const int32_t G = ds_.num_groups();
  int32_t K2 = 0;
  for (int32_t g = 0; g < G; ++g) K2 += spread_[g] ? lids_of(g) : 1;
  out.trees.reset(S_, K2);
  out.rank.assign(static_cast<size_t>(K2) * S_, -1);
  int32_t k2 = 0;
  auto add = [&](int32_t d, const int32_t *nx, const int16_t *rk, int32_t lo, int32_t hi) {
    out.trees.root[k2] = d;
    out.trees.lids.insert(out.trees.lids.end(), ds_.lids.begin() + lo, ds_.lids.begin() + hi);
    out.trees.lid_start[k2 + 1] = static_cast<int32_t>(out.trees.lids.size());
    std::copy_n(nx, S_, out.trees.next.begin() + static_cast<ptrdiff_t>(k2) * S_);
    std::copy_n(rk, S_, out.rank.begin() + static_cast<ptrdiff_t>(k2) * S_);
    ++k2;
  };
  for (int32_t g = 0; g < G; ++g) {
    const int32_t d = ds_.roots[ds_.group[g]];
    if (!spread_[g]) {
      add(d, brow(g), brank(g), ds_.group[g], ds_.group[g + 1]);
      continue;
    }
    for (int32_t k = ds_.group[g]; k < ds_.group[g + 1]; ++k)
      add(d, next_.data() + static_cast<size_t>(k) * S_, rank_.data() + static_cast<size_t>(k) * S_,
          k, k + 1);
    out.spread_trees += lids_of(g);
  }
  for (int32_t g = 0; g < G; ++g) out.unspread_groups += !spread_[g] && lids_of(g) > 1;
  int top_rank = 0;
  for (int16_t r : out.rank) top_rank = std::max<int>(top_rank, r);
  out.layers_needed = Ranks::layer_of(top_rank) + 1;
  out.load.assign(select_.load(0).begin(), select_.load(0).end());
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
  if (f.num_switches() == 0) {
    err = "the fabric has no switch";
    return false;
  }
  if (opt.layers < 1 || opt.layers > kMaxDataVls) {
    err = strprintf("%d layers requested; DL uses 1 to %d", opt.layers, kMaxDataVls);
    return false;
  }
  const int32_t root = opt.root >= 0 ? opt.root : default_root(f);
  if (!build_updown(f, root, out.updown, err)) return false;
  out.restriction = opt.restriction;
  out.layers = opt.layers;
  out.layers_needed = 1;
  out.repaired_dests = out.reruns = out.spread_trees = out.unspread_groups = 0;
  TreePlacer placer(f, opt, out.updown);
  if (!placer.base_trees(out, err)) return false;
  placer.spread_lids(opt.spread_lids, opt.spread_upper);
  placer.reroute(opt.policy == Policy::kLoad ? opt.reroute_passes : 0);
  placer.emit(out);
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
