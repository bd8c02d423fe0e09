// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Algorithm 1 of the ACRO paper; see acro.h for the map to its sections.
#include "core/layers/acro.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <numeric>
#include <random>

#include "core/graph/indexed_heap.h"
#include "core/layers/acro_weights.h"
#include "core/log.h"

namespace keiro::acro {

namespace {

// users[start[c] ..]: destinations whose tree uses channel c (CSR); the
// first count[c] of them are not reached yet (at first: all).
struct ChannelUsers {
  std::vector<int32_t> start, count, users;
};

ChannelUsers channel_users(const Fabric &f, const minimal::DestTrees &t) {
  const int32_t S = f.num_switches(), C = f.num_channels(), K = t.num_dests();
  ChannelUsers cu;
  cu.start.assign(C + 1, 0);
  cu.count.assign(C, 0);
  for (int32_t k = 0; k < K; ++k)
    for (int32_t s = 0; s < S; ++s)
      if (s != t.root[k]) ++cu.start[t.hop(k, s) + 1];
  for (int32_t c = 0; c < C; ++c) cu.start[c + 1] += cu.start[c];
  cu.users.resize(cu.start[C]);
  for (int32_t k = 0; k < K; ++k)
    for (int32_t s = 0; s < S; ++s)
      if (s != t.root[k]) {
        const int32_t c = t.hop(k, s);
        cu.users[cu.start[c] + cu.count[c]++] = k;
      }
  return cu;
}

// The result before the first layer: no hop reached, no rank.
void start_result(int32_t S, int32_t C, int32_t K, int32_t D, AcroResult &out) {
  out.S = S;
  out.C = C;
  out.layer.assign(static_cast<size_t>(K) * S, AcroResult::kNone);
  out.rank.clear();
  out.max_height = D - 1;
}

}  // namespace

bool assign(const Fabric &f, const minimal::DestTrees &t, const AcroOptions &opt, AcroResult &out,
            std::string &err) {
  const auto t0 = std::chrono::steady_clock::now();
  const int32_t S = f.num_switches(), C = f.num_channels(), K = t.num_dests();
  assert(t.num_switches == S && t.next.size() == static_cast<size_t>(K) * S &&
         "acro::assign: trees must be validated trees of this fabric");

  // Sect. 3.3: h, w, H_c and f.
  AcroWeights wt;
  compute_weights(f, t, wt);
  const int32_t D = wt.D;
  std::vector<int64_t> &H = wt.H;
  std::vector<int32_t> &fit = wt.f;

  ChannelUsers cu = channel_users(f, t);
  std::vector<int32_t> &ustart = cu.start, &ucount = cu.count, &users = cu.users;
  int64_t remaining = ustart[C];

  std::vector<int32_t> prio(C);
  std::iota(prio.begin(), prio.end(), 0);
  if (opt.seed) std::shuffle(prio.begin(), prio.end(), std::mt19937_64(opt.seed));

  auto less = [&](int32_t a, int32_t b) {
    if (fit[a] != fit[b]) return fit[a] < fit[b];
    const int64_t ha = H[static_cast<size_t>(a) * D + fit[a]];
    const int64_t hb = H[static_cast<size_t>(b) * D + fit[b]];
    if (ha != hb) return ha < hb;
    return prio[a] < prio[b];
  };
  graph::IndexedHeap<graph::CallerKeys<decltype(less)>> heap({less});

  start_result(S, C, K, D, out);
  uint8_t *layer = out.layer.data();

  int32_t i = 0;
  for (; remaining > 0; ++i) {
    if (i >= opt.max_layers || i >= AcroResult::kNone) {
      err = strprintf("ACRO: %lld hops still unreached after %d layers", (long long)remaining, i);
      return false;
    }
    out.rank.resize(static_cast<size_t>(i + 1) * C);
    int32_t *rank = out.rank.data() + static_cast<size_t>(i) * C;
    heap.build(C);
    for (int32_t pos = 0; !heap.empty(); ++pos) {
      const int32_t u = heap.pop();
      rank[u] = pos;  // appended to the head of L_i
      const int32_t a = f.channel(u).src, b = f.channel(u).dst;
      int32_t *list = users.data() + ustart[u];
      for (int32_t j = 0; j < ucount[u];) {
        const int32_t k = list[j];
        const size_t kb = static_cast<size_t>(k) * S;
        // u has no parent in T_k any more: it enters the root, or its parent
        // hop (k, b) was reached earlier (in this or a lower layer).
        if (b != t.root[k] && layer[kb + b] == AcroResult::kNone) {
          ++j;
          continue;
        }
        layer[kb + a] = static_cast<uint8_t>(i);  // m(k, u) = True
        --remaining;
        list[j] = list[--ucount[u]];
        list[ucount[u]] = k;
        // Remove the edges (c', u) of T_k and update H_{c'} and f(c').
        for (int32_t ci : f.in_channels(a)) {
          const int32_t x = f.channel(ci).src;
          if (t.hop(k, x) != ci) continue;
          int64_t *Hc = H.data() + static_cast<size_t>(ci) * D;
          Hc[wt.h[kb + x]] -= wt.w[kb + x];
          while (fit[ci] > 0 && Hc[fit[ci]] == 0) --fit[ci];
          if (heap.contains(ci)) heap.decreased(ci);
        }
      }
    }
  }
  out.num_layers = i;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

}  // namespace keiro::acro
