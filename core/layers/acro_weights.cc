// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/layers/acro_weights.h"

#include <algorithm>

namespace keiro::acro {

void compute_weights(const Fabric &f, const minimal::DestTrees &t, AcroWeights &out) {
  const int32_t S = f.num_switches(), C = f.num_channels(), K = t.num_dests();
  out.S = S;
  out.C = C;
  out.h.assign(static_cast<size_t>(K) * S, 0);
  out.w.assign(static_cast<size_t>(K) * S, 0);

  // Per destination: visit switches deepest first (counting sort on depth);
  // a channel's children all start one switch farther away, so they are final
  // before the channel passes its own (h, w) to its parent.
  std::vector<int32_t> depth(S), order(S), count;
  int32_t hmax = 0;
  for (int32_t k = 0; k < K; ++k) {
    minimal::tree_depths(f, t, k, depth);
    minimal::deepest_first(depth, count, order);

    uint16_t *h = out.h.data() + static_cast<size_t>(k) * S;
    uint32_t *w = out.w.data() + static_cast<size_t>(k) * S;
    const int32_t root = t.root[k];
    for (int32_t s : order) {
      if (s == root) continue;
      if (w[s] == 0) w[s] = 1;  // no child: a leaf
      hmax = std::max<int32_t>(hmax, h[s]);
      const int32_t p = f.channel(t.hop(k, s)).dst;  // the parent channel leaves p
      if (p == root) continue;
      const uint16_t hc = static_cast<uint16_t>(h[s] + 1);
      if (w[p] == 0 || hc > h[p]) {
        h[p] = hc;
        w[p] = w[s];
      } else if (hc == h[p]) {
        w[p] += w[s];
      }
    }
  }

  out.D = hmax + 1;
  out.H.assign(static_cast<size_t>(C) * out.D, 0);
  for (int32_t k = 0; k < K; ++k) {
    const int32_t root = t.root[k];
    for (int32_t s = 0; s < S; ++s) {
      if (s == root) continue;
      const int32_t c = t.hop(k, s);
      if (f.channel(c).dst == root) continue;  // a root channel of T_k has no parent
      const size_t i = static_cast<size_t>(k) * S + s;
      out.H[static_cast<size_t>(c) * out.D + out.h[i]] += out.w[i];
    }
  }
  out.f.assign(C, 0);
  for (int32_t c = 0; c < C; ++c)
    for (int32_t d = out.D - 1; d > 0; --d)
      if (out.H[static_cast<size_t>(c) * out.D + d] > 0) {
        out.f[c] = d;
        break;
      }
}

}  // namespace keiro::acro
