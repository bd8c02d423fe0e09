// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/pipeline/sl_spread.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

namespace keiro {

namespace {

// SplitMix64's finalizer: a well mixed copy index from a switch GUID.
uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

SlSpread spread_sls(const Fabric &f, Routing &r, int max_sls) {
  SlSpread st;
  if (r.sl_scope() != Routing::SlScope::kPerSourceSwitch) return st;
  const int32_t S = f.num_switches();
  // Paths (source switch, LID with a route) per SL, and per destination
  // switch the SLs of the paths into its LIDs.
  const std::vector<uint16_t> &lids = f.lids();
  std::vector<int32_t> dsw(lids.size());  // the switch of each LID
  for (size_t i = 0; i < lids.size(); ++i) dsw[i] = f.lid_switch(lids[i]);
  std::array<int64_t, kNumSls> paths{};
  std::vector<uint16_t> into(S, 0);
  for (int32_t s = 0; s < S; ++s)  // row by row: the tables are [switch][LID]
    for (size_t i = 0; i < lids.size(); ++i) {
      const uint16_t d = lids[i];
      const int32_t t = dsw[i];
      const uint8_t sl = r.path_sl(s, d);
      if (sl >= kNumSls || (s != t && r.out_port(s, d) == kNoPort)) continue;
      ++paths[sl];
      into[t] |= static_cast<uint16_t>(1u << sl);
    }
  std::array<int32_t, kNumSls> dests{};  // destination switches per SL
  for (int32_t t = 0; t < S; ++t)
    for (uint32_t m = into[t]; m; m &= m - 1) ++dests[std::countr_zero(m)];
  uint32_t used = 0;
  for (int sl = 0; sl < kNumSls; ++sl)
    if (paths[sl] > 0) used |= 1u << sl;
  st.sls_before = st.sls_after = std::popcount(used);
  // copies[u]: the SLs that carry u's paths, u first. Spare SLs one by one
  // to the SL with the most paths per copy that has more destination
  // switches than copies (a copy without destinations would stay empty).
  std::array<std::array<uint8_t, kNumSls>, kNumSls> copies{};
  std::array<int, kNumSls> ncopies{};
  for (int u = 0; u < kNumSls; ++u)
    if (used >> u & 1u) copies[u][ncopies[u]++] = static_cast<uint8_t>(u);
  bool spread = false;
  for (int q = 0; q < std::min(max_sls, kNumSls); ++q) {
    if (used >> q & 1u) continue;
    int best = -1;
    for (int u = 0; u < kNumSls; ++u)
      if (ncopies[u] > 0 && ncopies[u] < dests[u] &&
          (best < 0 || paths[u] * ncopies[best] > paths[best] * ncopies[u]))
        best = u;
    if (best < 0) break;
    copies[best][ncopies[best]++] = static_cast<uint8_t>(q);
    spread = true;
  }
  if (!spread) return st;
  // The spare SLs' columns: copies of their SL's, on switches and CAs.
  for (int u = 0; u < kNumSls; ++u)
    for (int i = 1; i < ncopies[u]; ++i) r.copy_sl(static_cast<uint8_t>(u), copies[u][i]);
  // Destination switches in the order of their mixed GUIDs deal each SL's
  // copies round robin: copy[t * 16 + u] for the paths of SL u into t.
  std::vector<int32_t> order(S);
  for (int32_t t = 0; t < S; ++t) order[t] = t;
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    const uint64_t ha = mix(f.sw(a).guid), hb = mix(f.sw(b).guid);
    return ha != hb ? ha < hb : a < b;
  });
  std::vector<uint8_t> copy(static_cast<size_t>(S) * kNumSls, 0);
  std::array<int, kNumSls> next{};
  for (int32_t t : order)
    for (uint32_t m = into[t]; m; m &= m - 1) {
      const int u = std::countr_zero(m);
      copy[static_cast<size_t>(t) * kNumSls + u] = copies[u][next[u]++ % ncopies[u]];
    }
  uint32_t after = 0;
  for (int32_t s = 0; s < S; ++s)
    for (size_t i = 0; i < lids.size(); ++i) {
      const uint16_t d = lids[i];
      const int32_t t = dsw[i];
      const uint8_t u = r.path_sl(s, d);
      if (u >= kNumSls || !(into[t] >> u & 1u)) continue;
      const uint8_t q = copy[static_cast<size_t>(t) * kNumSls + u];
      r.set_path_sl(s, d, q);
      after |= 1u << q;
    }
  st.sls_after = std::popcount(after);
  r.sls_used = st.sls_after;
  return st;
}

}  // namespace keiro
