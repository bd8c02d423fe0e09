// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/path_stats.h"

#include <algorithm>
#include <cmath>

#include "core/check/paths.h"
#include "core/metrics/distances.h"

namespace keiro::metrics {

Summary summarize(const std::vector<int64_t> &values) {
  Summary s;
  s.count = static_cast<int64_t>(values.size());
  if (values.empty()) return s;
  double sum = 0;
  s.min = static_cast<double>(values[0]);
  s.max = s.min;
  for (const int64_t v : values) {
    sum += static_cast<double>(v);
    s.min = std::min(s.min, static_cast<double>(v));
    s.max = std::max(s.max, static_cast<double>(v));
  }
  s.avg = sum / static_cast<double>(values.size());
  double var = 0;
  for (const int64_t v : values)
    var += (static_cast<double>(v) - s.avg) * (static_cast<double>(v) - s.avg);
  s.stddev = std::sqrt(var / static_cast<double>(values.size()));
  return s;
}

PathStats path_stats(const Fabric &f, const Routing &r, const PathStatsOptions &opt) {
  PathStats st;
  const int32_t S = f.num_switches();
  st.efi.assign(f.num_channels(), 0);
  st.hop_histogram.assign(static_cast<size_t>(S) + 3, 0);
  const SwitchDistances dist(f);
  check::DestinationWalk walk(f, r);
  std::vector<int64_t> terms(S, 0);  // terminals per switch (sources)
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    if (f.terminal(t).lid) ++terms[f.terminal(t).sw];
  std::vector<int64_t> load(S, 0);
  double hop_sum = 0, short_sum = 0, stretch_sum = 0;

  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    if (!ti.lid) continue;
    const uint32_t nlids = opt.all_lids ? 1u << ti.lmc : 1u;
    for (uint32_t k = 0; k < nlids; ++k) {
      const auto dlid = static_cast<uint16_t>(ti.lid + k);
      if (dlid > r.max_lid()) continue;
      walk.run(dlid);
      const int32_t d = ti.sw;
      for (int32_t s = 0; s < S; ++s) {
        const int64_t n = terms[s] - (s == d ? 1 : 0);  // not to itself
        load[s] = 0;
        if (n <= 0) continue;
        if (walk.fate(s) != check::Fate::kDelivered) {
          st.undelivered += n;
          continue;
        }
        load[s] = n;
        const int hops = walk.hops(s) + 1;  // + the source's own link
        const uint8_t sd = dist(s, d);
        const int shortest = (sd == SwitchDistances::kUnreachable ? hops - 2 : sd) + 2;
        const double stretch = static_cast<double>(hops) / shortest;
        st.pairs += n;
        hop_sum += static_cast<double>(hops) * n;
        short_sum += static_cast<double>(shortest) * n;
        stretch_sum += stretch * n;
        st.max_hops = std::max(st.max_hops, hops);
        st.max_stretch = std::max(st.max_stretch, stretch);
        if (hops > shortest) st.nonminimal += n;
        st.hop_histogram[std::min<size_t>(hops, st.hop_histogram.size() - 1)] += n;
      }
      // Routes through each channel: accumulate from the farthest switches in.
      const auto order = walk.delivered_by_distance();
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int32_t s = *it;
        const int32_t c = walk.next_channel(s);
        if (c < 0 || load[s] == 0) continue;
        st.efi[c] += load[s];
        load[f.channel(c).dst] += load[s];
      }
    }
  }
  if (st.pairs) {
    st.avg_hops = hop_sum / static_cast<double>(st.pairs);
    st.avg_shortest_hops = short_sum / static_cast<double>(st.pairs);
    st.avg_stretch = stretch_sum / static_cast<double>(st.pairs);
  }
  st.hop_histogram.resize(static_cast<size_t>(st.max_hops) + 1);
  st.efi_summary = summarize(st.efi);
  return st;
}

}  // namespace keiro::metrics
