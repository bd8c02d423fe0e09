// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/minimal/forwarding_index.h"

#include <algorithm>

#include "core/minimal/balanced.h"

namespace keiro::minimal {

int64_t dest_weight(const Fabric &f, const DestTrees &t, int32_t k) {
  int64_t w = 0;
  for (uint16_t lid : t.dest_lids(k)) {
    const LidOwner o = f.lid_owner(lid);
    if (f.num_terminals() ? (o.kind == LidOwner::kTerminal && f.terminal(o.id).lid == lid)
                          : (o.kind == LidOwner::kSwitch && f.sw(o.id).lid == lid))
      ++w;
  }
  return w;
}

ForwardingIndex forwarding_index(const Fabric &f, const DestTrees &t) {
  const int32_t S = f.num_switches();
  const std::vector<int64_t> weight = switch_weights(f);
  ForwardingIndex fi;
  fi.load.assign(f.num_channels(), 0);
  std::vector<int32_t> depth(S), order(S), count;
  std::vector<int64_t> sub(S);
  for (int32_t k = 0; k < t.num_dests(); ++k) {
    const int64_t wd = dest_weight(f, t, k);
    if (!wd) continue;
    tree_depths(f, t, k, depth);
    // Deepest first, so subtree sums are final when a switch passes its
    // weight on.
    deepest_first(depth, count, order);
    for (int32_t s = 0; s < S; ++s) sub[s] = weight[s];
    for (int32_t s : order) {
      if (s == t.root[k]) continue;
      const int32_t c = t.hop(k, s);
      fi.load[c] += sub[s] * wd;
      sub[f.channel(c).dst] += sub[s];
    }
  }
  if (!fi.load.empty()) {
    fi.min = *std::min_element(fi.load.begin(), fi.load.end());
    fi.max = *std::max_element(fi.load.begin(), fi.load.end());
    int64_t sum = 0;
    for (int64_t l : fi.load) sum += l;
    fi.avg = static_cast<double>(sum) / static_cast<double>(fi.load.size());
  }
  return fi;
}

int64_t forwarding_index_bound(const Fabric &f) {
  const std::vector<int64_t> weight = switch_weights(f);
  int64_t total = 0;
  for (int64_t w : weight) total += w;
  int64_t bound = 0;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const int64_t routes = weight[s] * (total - weight[s]);
    const int64_t out = f.out_end(s) - f.out_begin(s);
    const int64_t in = static_cast<int64_t>(f.in_channels(s).size());
    if (out > 0) bound = std::max(bound, (routes + out - 1) / out);
    if (in > 0) bound = std::max(bound, (routes + in - 1) / in);
  }
  return bound;
}

}  // namespace keiro::minimal
