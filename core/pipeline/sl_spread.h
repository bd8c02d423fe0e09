// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Spare SLs for SL-stable re-routing (docs/rerouting.md, issue 16): on a
// first routing of a per-source-switch engine (keiro-acro, keiro-dl,
// keiro-loren), the paths of every SL the engine used are spread over that
// SL and the SLs it left free (up to max_sls), each spare SL getting a copy
// of its SL's SL2VL column.
//
// Why: an SL2VL entry (switch, in port, out port, SL) is shared by every
// path with that SL over that turn, to every destination. After a fault the
// incremental re-route (core/reroute/incremental.h) must take each broken path
// around the fault on its old SL, over entries the intact paths of that SL
// already fix; the fewer destinations share an SL, the fewer entries are
// fixed and the more detours stay free of credit loops. Measured on the
// 6x6x6 torus fail-in-place series (scripts/fail-in-place.sh, 6 link
// failures, 2026-11-24): keiro-acro kept every SL at every step with 4 and 8
// VLs (before: 9-54 pairs changed at 5 of 6 steps), keiro-dl at 8 VLs too
// (before: 18-81 at every step), keiro-dl at 4 VLs changed 9-27 pairs at
// 12 of 30 steps over 5 seeds (before: 126-189 at every step; with 4 VLs
// it uses every sub-network, so some detours need a layer change no VL is
// left for).
//
// What it changes: only SL labels. Every path keeps its VL on every hop (its
// new SL's column is a copy of its old SL's), so the (channel, VL)
// dependencies and the deadlock freedom are exactly those of the engine's
// routing; the VLs used stay the same, the SLs handed out grow to max_sls.
//
// Split: by destination switch -- all paths of SL u to the LIDs of one
// switch take the same copy of u, since paths to one destination share
// their tree's turns and so fix the fewest entries per SL. The destination
// switches deal each SL's copies round robin in the order of their mixed
// GUIDs (stable offline and in OpenSM alike; every copy gets as many
// destinations as the others, +-1). Spare SLs go one by one to the SL with
// the most paths per copy (ties: the lower SL), never more copies than
// destination switches. Alternatives measured on the same series
// (keiro-dl, 4 VLs, where it matters):
//  - per destination LID: 33-84 pairs changed at every step; per
//    (destination, source switch): 9-45;
//  - copy = mixed GUID mod copies (uneven counts): 6 of 30 steps (seeds
//    1-5) changed 9-27 pairs against 12 of 30 round robin, but it leaves
//    copies empty on small fabrics (12 of 16 SLs on a 5x5 torus), so the
//    even split was kept.
// Time: O(S * L) twice over the path SLs (S switches, L LIDs), O(S log S)
// for the order, O(T * σ) for the copied columns (T SL2VL entries per SL,
// σ spare SLs). Memory: 18 bytes per switch and 4 per LID besides the
// Routing. Measured at 47,500 LIDs on 1,900 switches (keiro-dl): 0.7 s
// before the LIDs' switches were looked up once, about 0.1 s after (route 3.8-4.2 s either way).
#pragma once

#include <cstdint>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro {

struct SlSpread {
  int sls_before = 0;  // distinct path SLs the engine used
  int sls_after = 0;   // ... after spreading (sls_before when nothing was spread)
};

// Spreads the path SLs of r (scope kPerSourceSwitch; others are left as
// they are) over SLs 0 .. max_sls - 1 as described above; updates
// r.sls_used.
SlSpread spread_sls(const Fabric &f, Routing &r, int max_sls);

}  // namespace keiro
