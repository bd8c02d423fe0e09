// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Path metrics of a routing, over the routes between terminals (CA/router
// ports), as the Nue paper evaluates them (section 5.1):
//  - path length in links from source port to destination port (two CAs on
//    one switch are 2 links apart): average, maximum, histogram;
//  - stretch: per pair, actual links / links of a shortest path, averaged and
//    maximum;
//  - edge forwarding index (Heydemann, Meyer, Sotteau 1989) of every directed
//    switch-to-switch channel: the number of routes through it, one route per
//    (source terminal, destination terminal LID); min/avg/max/stddev over the
//    channels.
// By default a destination terminal counts with its base LID only (one route
// per terminal pair); all_lids counts every LID of its LMC range.
//
// Time O(L_t * S + S * (S + C)) (L_t destination LIDs, one LFT tree walk each,
// plus the all-pairs BFS of SwitchDistances); memory O(S * S + C).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::metrics {

struct Summary {
  double min = 0, avg = 0, max = 0, stddev = 0;
  int64_t count = 0;
};
Summary summarize(const std::vector<int64_t> &values);
// max / avg: how far the busiest value is above the mean (1 = perfectly
// even); 0 when the mean is 0 (nothing counted). O(1).
inline double efi_max_over_avg(const Summary &s) {
  return s.avg > 0 ? s.max / s.avg : 0;
}

struct PathStatsOptions {
  bool all_lids = false;
};

struct PathStats {
  int64_t pairs = 0;        // routes counted (delivered)
  int64_t undelivered = 0;  // routes the LFTs do not deliver (left out of everything)
  double avg_hops = 0;
  int max_hops = 0;
  std::vector<int64_t> hop_histogram;  // [links] -> routes
  double avg_shortest_hops = 0;
  double avg_stretch = 0, max_stretch = 0;  // actual / shortest, per route
  int64_t nonminimal = 0;                   // routes longer than a shortest path
  std::vector<int64_t> efi;                 // per channel id: routes through it
  Summary efi_summary;                      // over all switch-to-switch channels
};

PathStats path_stats(const Fabric &f, const Routing &r, const PathStatsOptions &opt = {});

}  // namespace keiro::metrics
