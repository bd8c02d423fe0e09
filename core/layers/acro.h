// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// ACRO: Assignment of Channels in Reverse Order. R. Kawano, H. Nakahara,
// S. Tade, I. Fujiwara, H. Matsutani, M. Koibuchi, H. Amano, "A Novel Channel
// Assignment Method to Ensure Deadlock-Freedom for Deterministic Routing",
// IEICE Trans. Inf. & Syst. E100-D(8), 2017: Algorithm 1, Sects. 3.2-3.4.
//
// Input: any destination-based routing (DestTrees). Output: virtual layers
// L_0 (lowest) .. L_{n-1}; each layer orders *all* channels, and every hop
// (destination k, switch s) -- the channel next(k, s) -- gets the layer in
// which it is used. The label of channel c in layer i is (i, rank_i(c)),
// compared lexicographically; along every path the labels of consecutive
// hops strictly descend (Theorem 3), so the routing with VC = layer is free
// of credit loops within and across layers.
//
// Layers are built in reverse order (L_0 first): the channel u_min with the
// smallest fitness f(u) (ties: smallest H_u[f(u)], then channel id or a
// seeded random priority) takes the next (higher) rank; for every
// destination where u_min's parent hop is already reached, hop (k, u_min)
// is reached in this layer and the edges from its children are removed,
// lowering their H and f (Sect. 3.4). Layers are added until every hop is
// reached.
//
// u_min is taken from an indexed heap keyed by (f, H[f], priority);
// H and f only decrease, so every edge removal is one decrease-key. Channels
// keep a compacted list of the destinations they still have to reach.
// Time: O(K*S*(deg + log C) + n*(C log C + K*S)) for K destinations, S
// switches, C channels, n layers, max degree deg -- versus the paper's
// O(n*C*(N + C + D) + N*E) (Proposition 3; the heap removes the C^2 term).
// Memory: O(K*S + C*(D + n)), i.e. O(N^2) for K = S = N switches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"

namespace keiro::acro {

struct AcroOptions {
  uint64_t seed = 0;        // 0: ties broken by channel id; else a seeded random priority
  int32_t max_layers = 64;  // give up (error) beyond this many layers
};

struct AcroResult {
  int32_t S = 0, C = 0;
  int32_t num_layers = 0;
  std::vector<uint8_t> layer;  // layer[k * S + s] of hop next(k, s); kNone at the root
  std::vector<int32_t>
      rank;                // rank[i * C + c]: position of c in layer i (0 = first picked, lowest)
  int32_t max_height = 0;  // D - 1
  double seconds = 0;

  static constexpr uint8_t kNone = 0xFF;
  uint8_t hop_layer(int32_t k, int32_t s) const { return layer[static_cast<size_t>(k) * S + s]; }
  int32_t channel_rank(int32_t i, int32_t c) const { return rank[static_cast<size_t>(i) * C + c]; }
  // Label of channel c in layer i as one integer: i * C + rank_i(c).
  int64_t label(int32_t i, int32_t c) const {
    return static_cast<int64_t>(i) * C + channel_rank(i, c);
  }
};

// Requires validated trees. Fails (one line in err) only past max_layers.
bool assign(const Fabric &f, const minimal::DestTrees &t, const AcroOptions &opt, AcroResult &out,
            std::string &err);

}  // namespace keiro::acro
