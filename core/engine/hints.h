// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What a re-route hands an engine, typed (EngineInput::hints). The pipeline
// fills it from the previous routing (core/reroute/hints.h, docs/rerouting.md);
// engines never see the previous routing, its keys or the re-route options.
// With every field empty an engine routes as on a first routing.
//
// Memory: S * (max LID + 1) bytes for path_sl, max LID + 1 for dest_sl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keiro {

struct RerouteHints {
  static constexpr uint8_t kNone = 0xFF;  // no previous SL for this entry
  // Per-destination engines (keiro-nue): by LID of the fabric, the previous
  // SL of each LID that survived (same owner as before); kNone elsewhere.
  // Empty: nothing to keep.
  std::vector<uint8_t> dest_sl;
  // Per-source-switch engines (keiro-acro, -dl, -loren): the previous SL of
  // the path from switch s to LID l at path_sl[s * lid_span + l], for the
  // LIDs that survived and the switches that had a row before; kNone
  // elsewhere. Empty: realize without pins.
  std::vector<uint8_t> path_sl;
  uint32_t lid_span = 0;  // max LID + 1 of the fabric when path_sl is set
  // When the engine cannot route the fabric it may hand out guide LFTs
  // (EngineReport::repair_only) for the pipeline's repair of the previous
  // routing (core/reroute/incremental.h) instead of failing.
  bool may_repair = false;

  uint8_t path(int32_t s, uint16_t lid) const {
    return path_sl.empty() ? kNone : path_sl[static_cast<size_t>(s) * lid_span + lid];
  }
};

}  // namespace keiro
