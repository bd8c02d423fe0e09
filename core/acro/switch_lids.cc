// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/acro/switch_lids.h"

#include <string>
#include <vector>

#include "core/dl/dest_search.h"
#include "core/dl/dl.h"
#include "core/dl/restriction.h"
#include "core/dl/updown.h"
#include "core/graph/bfs.h"
#include "core/minimal/balanced.h"

namespace keiro::acro {

bool updown_switch_lids(const Fabric &f, const minimal::DestTrees &t, minimal::DestTrees &out,
                        SwitchLidRoutes &res) {
  res = SwitchLidRoutes{};
  const int32_t S = f.num_switches(), K = t.num_dests();
  // Destinations whose LIDs all have weight 0: switch LIDs only.
  std::vector<uint8_t> switch_only(K, 0);
  bool any = false;
  for (int32_t k = 0; k < K; ++k) {
    bool only = t.lid_start[k] < t.lid_start[k + 1];
    for (uint16_t lid : t.dest_lids(k)) only = only && minimal::lid_weight(f, lid) == 0;
    switch_only[k] = only;
    any = any || only;
  }
  if (!any || S == 0) return false;

  res.root = dl::default_root(f);
  dl::UpDown ud;
  std::string err;
  if (!dl::build_updown(f, res.root, ud, err)) return false;
  // Every terminal tree legal: no down channel followed by an up channel.
  for (int32_t k = 0; k < K; ++k) {
    if (switch_only[k]) continue;
    for (int32_t s = 0; s < S; ++s) {
      const int32_t c = t.hop(k, s);
      if (c < 0 || ud.up[c]) continue;
      const int32_t n = t.hop(k, f.channel(c).dst);
      if (n >= 0 && ud.up[n]) return false;
    }
  }
  res.legal = true;

  out = t;
  const dl::Ranks ranks(dl::Restriction::kUD, 1);
  dl::DestSearch search(f, ud, ranks);
  for (int32_t k = 0; k < K; ++k) {
    if (!switch_only[k]) continue;
    const int32_t d = t.root[k];
    if (search.run(d) < 0) return false;  // not on a connected fabric
    int32_t *next = out.next.data() + static_cast<size_t>(k) * S;
    for (int32_t s = 0; s < S; ++s) {
      if (s == d) continue;
      int32_t pick = -1;
      for (int32_t c = f.out_begin(s); c < f.out_end(s) && pick < 0; ++c)
        if (search.eligible(c)) pick = c;
      next[s] = pick;  // the search labelled s through an eligible channel
    }
    ++res.rerouted;
  }
  minimal::merge_identical(out);
  return true;
}

bool updown_keeps_terminal_routes_minimal(const Fabric &f, int32_t root, std::vector<uint8_t> &up) {
  const int32_t S = f.num_switches();
  dl::UpDown ud;
  std::string err;
  if (!dl::build_updown(f, root, ud, err)) return false;
  const dl::Ranks ranks(dl::Restriction::kUD, 1);
  dl::DestSearch search(f, ud, ranks);
  const std::vector<int64_t> weight = minimal::switch_weights(f);
  std::vector<int32_t> dist(S), queue(S);
  for (int32_t d = 0; d < S; ++d) {
    if (!weight[d]) continue;
    if (search.run(d) < 0 || graph::switch_bfs(f, d, dist, queue) != S) return false;
    for (int32_t s = 0; s < S; ++s)
      if (weight[s] && search.depth(s) != dist[s]) return false;
  }
  up = std::move(ud.up);
  return true;
}

bool updown_balanced(const Fabric &f, minimal::BalancedOptions bo, minimal::DestTrees &out,
                     std::string &err) {
  dl::UpDown ud;
  if (!dl::build_updown(f, dl::default_root(f), ud, err)) return false;
  bo.updown = std::move(ud.up);
  bo.consistency = 0;
  return minimal::balanced_routing(f, bo, out, err);
}

}  // namespace keiro::acro
