// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/updown.h"

#include <algorithm>
#include <numeric>

#include "core/graph/bfs.h"
#include "core/log.h"
#include "core/options.h"

namespace keiro::dl {

int32_t central_root(const Fabric &f, std::span<const uint8_t> allowed) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> dist(S), queue(S);
  int32_t best = -1;
  int64_t best_sum = 0;
  for (int32_t s = 0; s < S; ++s) {
    if (!allowed.empty() && !allowed[s]) continue;
    graph::switch_bfs(f, s, dist, queue);
    int64_t sum = 0;
    for (int32_t d : dist) sum += d < 0 ? S : d;
    if (best < 0 || sum < best_sum || (sum == best_sum && f.sw(s).guid < f.sw(best).guid)) {
      best = s;
      best_sum = sum;
    }
  }
  return best;
}

bool build_updown(const Fabric &f, int32_t root, UpDown &out, std::string &err) {
  const int32_t S = f.num_switches();
  if (root < 0 || root >= S) {
    err = "no root switch";
    return false;
  }
  out.root = root;
  out.level.assign(S, -1);
  std::vector<int32_t> queue(S);
  const int32_t reached = graph::switch_bfs(f, root, out.level, queue);
  if (reached != S) {
    int32_t lost = 0;
    while (out.level[lost] >= 0) ++lost;
    err = strprintf("the fabric is not connected: switch '%s' cannot reach switch '%s'",
                    f.sw(root).name.c_str(), f.sw(lost).name.c_str());
    return false;
  }
  std::vector<int32_t> order(S);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    if (out.level[a] != out.level[b]) return out.level[a] < out.level[b];
    if (f.sw(a).guid != f.sw(b).guid) return f.sw(a).guid < f.sw(b).guid;
    return a < b;
  });
  out.pos.assign(S, 0);
  for (int32_t i = 0; i < S; ++i) out.pos[order[i]] = i;
  out.up.assign(f.num_channels(), 0);
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    out.up[c] = out.pos[ch.dst] < out.pos[ch.src];
  }
  return true;
}

}  // namespace keiro::dl
