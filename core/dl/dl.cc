// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/dl.h"

#include <algorithm>

#include "core/dl/dest_search.h"
#include "core/log.h"
#include "core/minimal/balanced.h"
#include "core/minimal/forwarding_index.h"

namespace keiro::dl {

using minimal::dest_weight;

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
  const int32_t root = opt.root >= 0 ? opt.root : central_root(f);
  if (!build_updown(f, root, out.updown, err)) return false;

  // Destinations: the switches with LIDs.
  std::vector<uint16_t> own;
  std::vector<int32_t> dests;
  for (int32_t s = 0; s < S; ++s) {
    minimal::switch_lids(f, s, own);
    if (!own.empty()) dests.push_back(s);
  }
  const auto K = static_cast<int32_t>(dests.size());
  out.trees.reset(S, K);
  for (int32_t k = 0; k < K; ++k) {
    out.trees.root[k] = dests[k];
    minimal::switch_lids(f, dests[k], own);
    out.trees.lids.insert(out.trees.lids.end(), own.begin(), own.end());
    out.trees.lid_start[k + 1] = static_cast<int32_t>(out.trees.lids.size());
  }
  out.rank.assign(static_cast<size_t>(K) * S, -1);
  out.restriction = opt.restriction;
  out.layers = opt.layers;
  out.layers_needed = 1;
  out.repaired_dests = out.reruns = 0;

  const Ranks ranks(opt.restriction, opt.layers);
  DestSearch search(f, out.updown, ranks);
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  PathSelector select(f, opt.policy, opt.seed, weight, opt.slack);
  int top_rank = 0;
  for (int32_t k = 0; k < K; ++k) {
    const int32_t d = dests[k];
    const int reruns = search.run(d);
    if (reruns < 0) {
      err = strprintf("internal error: no legal tree towards switch '%s'", f.sw(d).name.c_str());
      return false;
    }
    if (reruns) ++out.repaired_dests, out.reruns += reruns;
    const size_t row = static_cast<size_t>(k) * S;
    select.select(search, d, dest_weight(f, out.trees, k),
                  std::span<int32_t>(out.trees.next.data() + row, S));
    std::copy(select.ranks().begin(), select.ranks().end(), out.rank.begin() + row);
  }
  // Rip-up and reroute for the load-aware policy: every tree is placed
  // again with all other routes known.
  const int passes = opt.policy == Policy::kLoad ? opt.reroute_passes : 0;
  for (int pass = 0; pass < passes; ++pass)
    for (int32_t k = 0; k < K; ++k) {
      const int32_t d = dests[k];
      search.run(d);
      const size_t row = static_cast<size_t>(k) * S;
      const std::span<int32_t> next(out.trees.next.data() + row, S);
      const int64_t wd = dest_weight(f, out.trees, k);
      select.remove(search, d, wd, next);
      select.select(search, d, wd, next);
      std::copy(select.ranks().begin(), select.ranks().end(), out.rank.begin() + row);
    }
  for (int16_t r : out.rank) top_rank = std::max<int>(top_rank, r);
  out.layers_needed = Ranks::layer_of(top_rank) + 1;
  out.load.assign(select.load().begin(), select.load().end());
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
