// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/reroute/hints.h"

namespace keiro::reroute {

namespace {

// path_sl of the hints: the previous row of every switch that had one, for
// the LIDs that survived.
void fill_path_sls(const Fabric &f, const PreviousSls &prev, RerouteHints &h) {
  h.lid_span = f.max_lid() + 1u;
  h.path_sl.assign(static_cast<size_t>(f.num_switches()) * h.lid_span, RerouteHints::kNone);
  std::vector<char> alive(h.lid_span, 0);
  for (uint16_t lid : f.lids()) alive[lid] = lid_survives(f, prev, lid);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const auto it = prev.switch_sl.find(f.sw(s).guid);
    if (it == prev.switch_sl.end()) continue;
    const std::vector<uint8_t> &row = it->second;
    uint8_t *dst = h.path_sl.data() + static_cast<size_t>(s) * h.lid_span;
    for (uint16_t lid : f.lids())
      if (alive[lid] && lid < row.size()) dst[lid] = row[lid];
  }
}

}  // namespace

RerouteHints make_hints(const Fabric &f, const PreviousSls &prev, const HintPolicy &p) {
  RerouteHints h;
  h.may_repair = p.may_repair;
  if (prev.empty() || !p.keep_sls) return h;
  if (!prev.engine.empty() && prev.engine != p.engine) return h;
  if (prev.scope == Routing::SlScope::kPerDestination)
    h.dest_sl = previous_dest_sls(f, prev);
  else if (p.pin)
    fill_path_sls(f, prev, h);
  return h;
}

}  // namespace keiro::reroute
