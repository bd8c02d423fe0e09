// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/layers/pins.h"

namespace keiro::layers {

std::vector<int8_t> pins(const Fabric &f, const RerouteHints *hints, const minimal::DestTrees &t,
                         int shift) {
  if (!hints || hints->path_sl.empty()) return {};
  const int32_t S = f.num_switches(), K = t.num_dests();
  std::vector<int8_t> out(static_cast<size_t>(K) * S, -1);
  for (int32_t s = 0; s < S; ++s)
    for (int32_t k = 0; k < K; ++k) {
      if (s == t.root[k]) continue;
      int pin = -1;
      for (uint16_t lid : t.dest_lids(k)) {
        const uint8_t v = hints->path(s, lid);
        if (v == RerouteHints::kNone) continue;
        if (pin >= 0 && pin != v) {
          pin = -2;  // the LIDs disagreed: no pin
          break;
        }
        pin = v;
      }
      if (pin >= shift) out[static_cast<size_t>(k) * S + s] = static_cast<int8_t>(pin - shift);
    }
  return out;
}

void add_pin_facts(const vlmap::VlMapStats &vs, EngineReport &rep) {
  if (vs.pins == 0) return;
  rep.add("pinned_paths", static_cast<long>(vs.pins));
  rep.add("pins_dropped", static_cast<long>(vs.pins_dropped));
  if (vs.pins_fallback) rep.add("pins_fallback", "yes");
}

void log_pins(Logger &log, const char *engine, const vlmap::VlMapStats &vs) {
  if (vs.pins_fallback)
    log.logf(LogLevel::kInfo,
             "%s: re-route: no realization with the previous SLs of the %lld surviving paths "
             "fits the SL budget; realized afresh",
             engine, static_cast<long long>(vs.pins));
  else
    log.logf(LogLevel::kInfo,
             "%s: re-route: %lld of %lld surviving (source switch, destination) paths realized "
             "with their previous SL (%lld pins dropped)",
             engine, static_cast<long long>(vs.pins - vs.pins_dropped),
             static_cast<long long>(vs.pins), static_cast<long long>(vs.pins_dropped));
}

}  // namespace keiro::layers
