// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// ACRO's weight values (Kawano et al., IEICE TIS 2017, Sect. 3.3).
//
// The CDG T_n of destination n (Sect. 3.2) has one vertex per channel of the
// destination tree. A channel's *parent* is the next channel of the path
// (towards n), its *children* are the channels that feed into it. Roots are
// the channels that enter n; leaves are channels nothing feeds into.
// Because routing is destination based, channel next(n, s) is identified by
// its source switch s, so every per-(n, c) value is stored per (n, s).
//
//  - h(n, c): height, 0 for a leaf, else 1 + max height of the children
//             (Sect. 3.3.1);
//  - w(n, c): number of deepest leaves below c: 1 for a leaf, else the sum of
//             w over the children of maximal height (Sect. 3.3.1);
//  - H_c[Δ]:  sum of w(n, c) over the destinations n where c has a parent and
//             h(n, c) = Δ (Sect. 3.3.2; roots do not count);
//  - f(c):    the largest Δ with H_c[Δ] > 0, or 0 (Alg. 1).
// H_c is stored densely as C rows of D = max height + 1 counters.
//
// Time O(K * S) with K destinations and S switches; memory O(K * S + C * D).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::acro {

struct AcroWeights {
  int32_t S = 0, C = 0, D = 1;
  std::vector<uint16_t> h;  // h[k * S + s] for the channel next(k, s); 0 at the root
  std::vector<uint32_t> w;  // w[k * S + s]; 0 at the root
  std::vector<int64_t> H;   // H[c * D + delta]
  std::vector<int32_t> f;   // f[c]

  uint16_t height(int32_t k, int32_t s) const { return h[static_cast<size_t>(k) * S + s]; }
  uint32_t width(int32_t k, int32_t s) const { return w[static_cast<size_t>(k) * S + s]; }
  int64_t hash(int32_t c, int32_t delta) const { return H[static_cast<size_t>(c) * D + delta]; }
};

// Requires validated trees (validate_trees()).
void compute_weights(const Fabric &f, const minimal::DestTrees &t, AcroWeights &out);

}  // namespace keiro::acro
