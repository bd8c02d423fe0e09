// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A VL of its own for multicast where the routing leaves one: the SL2VL
// entries (switch, in port, out port) of the multicast SL at turns that no
// unicast path with that SL takes are set to a VL that no switch-to-switch
// hop of any path uses. With protect_all_traffic (SL 0, the SL of MPI that
// never asks the SA: keiro's fixed-SL verdict is about it): when all traffic
// on the SL is deadlock free before, only turns that no unicast path of any
// SL takes change, so that it stays so; when it is not, the SL's own turns
// decide.
//
// Why: a multicast packet keeps its SL and takes each hop's VL from the
// same SL2VL entry (in port, out port, SL) as unicast packets. Engines whose
// SL2VL depends on the in port (keiro-acro's, -dl's, -loren's realization:
// a path climbs VLs at fixed turns) give a tree's copies VL sequences no
// unicast path makes -- down as well as up -- and few trees then keep the
// dependency graph acyclic (measured: a random 64-switch degree-4 fabric,
// keiro-acro and keiro-dl, no root of the 64 gave a broadcast tree). With
// the entries no unicast path of that SL uses on a VL of its own, the
// copies leave the unicast VLs at the first such turn and stay on the
// spare VL while the tree's turns are free; only the unicast paths with
// that SL fix entries (with spare SLs spread, a sixteenth of the paths).
// Unicast traffic is untouched: every entry a path uses keeps its VL, so
// the unicast dependency graph and the check's verdicts are the same.
//
// Time O(L * (S + C) + S * P * (T/S + P) * 16) (each destination's paths
// walked once per channel, core/check's walk; the sources' turns and the
// VLs a hop may take looked up once per (switch, out port, SL), not per
// destination), plus, with protect_all_traffic and an in-port-
// dependent column, one check of the tables with every path on the SL
// (check::verify, fixed_sl); memory O(S * P + T) besides the Routing.
#pragma once

#include <cstdint>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::mcast {

struct SlColumn {
  bool uniform = false;           // a path SL that maps to one VL everywhere: left as it is
  bool all_traffic_safe = false;  // protect_all_traffic: all traffic on the SL was safe (kept)
  int vl = -1;                    // the VL the free entries now map to; -1: none left or uniform
  int64_t free_turns = 0;         // (switch, in, out) entries moved to it
  int64_t used_turns = 0;         // entries of turns some unicast path takes (kept)
};

// Nothing changes when unicast paths use SL sl and it maps to one VL on
// every switch entry already (Nue's layers, one-VL fat trees): a tree's
// copies then change no VL.
// The spare VL: the lowest VL below max_vls and every link's VL count that
// no switch-to-switch hop of any path (any SL) uses. Then the entries of sl
// at turns no path with SL sl (no path at all, see protect_all_traffic)
// takes move to it.
SlColumn isolate_sl(const Fabric &f, Routing &r, uint8_t sl, int max_vls, bool protect_all_traffic,
                    int threads = 1);

}  // namespace keiro::mcast
