// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Incremental re-route for engines whose SL is per (source switch,
// destination) -- keiro-acro, keiro-dl, keiro-loren (docs/rerouting.md,
// issue 16): keep the previous routing wherever the fault left it intact
// and re-route only what it broke, so that every (source, destination)
// pair still connected keeps its SL.
//
// A fresh routing after a fault moves many routes (balance is global), and
// ACRO's or DL's VL patterns are then recomputed for the new routes: old
// SLs pinned onto them conflict (core/vlmap/vlmap.h, pins). The incremental
// route avoids that by construction:
//  1. LFTs, per destination LID d that survives (same owner GUID): switch s
//     keeps its previous out port when its whole previous path to d is
//     intact (every hop's port still leads to the same GUID); every other
//     switch takes the fresh routing's port. Loop free: intact paths end at
//     d through intact switches only, and the fresh hops form a loop-free
//     routing that either reaches d or meets an intact path. New LIDs take
//     the fresh routing's ports everywhere.
//  2. SL2VL: the previous entries, copied per (switch GUID, in port, out
//     port, SL); the entries used by intact paths with their previous SL
//     are marked used, with their junctions: which entry each path over an
//     entry came from and takes next (one bit per in port and out port).
//  3. The (channel, VL) dependency graph of the intact paths (a subgraph of
//     the previous, checked one: acyclic) gets a topological order; then the
//     paths that changed are added one by one (graph::DynamicDag), broken
//     switches nearest to d first, each towards a neighbour routed before
//     it: a pair that existed keeps its previous SL, a new pair (new source
//     switch or destination LID) takes the first SL below max_sls that fits.
//     Per hop, depth first over candidate VLs: an unused entry takes its
//     previous value, the VL the packet arrives on, higher, then lower VLs
//     (a first hop: from VL 0 up). A
//     used entry keeps its VL or is retuned: set to another VL with every
//     dependency of its users moved along (from the junctions), lifting the
//     entries before it that are below the new VL, or sinking those after it
//     that are above, transitively, so that no path climbs (the previous
//     paths never climb a VL, so dependencies that do not climb can close a
//     cycle only inside one VL; sinking to the arriving VL is tried first
//     when the entry would make the path climb). Without retunes
//     a path that reaches an entry an intact path of its SL holds at a
//     higher VL must climb, and that is where cycles closed (10x10x10-like
//     tori, LOREN's grids). Each dependency is tested; a path that fits no
//     next hop puts its LID first and the whole pass 2 is tried again (2
//     rounds), then the attempt fails (false, with the reason).
//  4. Relaxed (relax = true; core/reroute/previous_sls.h uses it when no route
//     keeps every SL): a broken path that fits no next hop with its
//     previous SL takes the first SL that fits instead, so that only such
//     paths change SL (counted in IncrementalStats::sl_changed_paths):
//     measured 2026-11-24 on a 6x6x6 torus with keiro-dl at 4 VLs (every
//     sub-network in use), 144 of 419,256 pairs after one link failure,
//     where a fresh routing changes 248,000.
//  5. Stale SLs (drop_stale, with relax): a job that asked the SA before
//     keeps sending on the previous SL, which the new route of a path that
//     changed SL cannot carry without a credit loop. Its traffic is walked
//     on the new route with the previous SL through the turns that SL's
//     paths use (each dependency tested) up to the first turn no path of
//     that SL uses; that entry is set to VL 15, so the switch drops the
//     stale packets there (InfiniBand discards a packet whose SL maps to
//     VL 15): those jobs see their packets lost, as with the fault itself,
//     instead of every job behind a credit loop stalling. No other packet
//     takes that entry (no path of that SL uses it), so nothing else
//     changes; counted in IncrementalStats::stale_*.
// Paths are walked per (destination LID, SL, channel) once: the suffix of a
// destination-based route from a channel on is shared. LIDs fall into
// classes: a LID whose previous routes and SLs from every switch equal those
// of the first LID of its switch (one tree per destination switch, as
// keiro-acro's beyond acro_per_lid's bound) is in that LID's class, any
// other LID in its own. Pass 1 walks one column and its intact paths per
// class; the comparisons, the LFTs and pass 2's SLs of LIDs without a broken
// or new path go switch by switch (each switch's row read in LID order):
// walking each LID's column across all switch rows cost a cache miss per
// (switch, LID), the bulk of the time at 47,500 LIDs. In pass 2 a LID of a
// class whose first LID this round took the first choice at every step (the
// first next hop, SL and VL fitted, no retune, nothing pending) and whose
// fresh ports equal that LID's where a path is broken copies its ports and
// SLs: those first choices find their dependencies in the graph already (the
// last hop to a CA adds none), so the walks would choose the same.
// incremental_reroute_lid_major() keeps the per-LID passes as the reference
// of the differential unit tests (tests/unit/incremental_classes_test.cc).
//
// The result still goes through the caller's self-check (run_engine()); a
// restored link or switch is not used by the kept routes until a routing
// from scratch (the fresh routing is preferred whenever it keeps every SL
// itself, core/reroute/previous_sls.h).
//
// Time: O(L * S) sequential byte reads and writes for the classes, LFTs and
// kept SLs, plus O(K * (S + C * σ)) for the walks of the K classes (K <= L;
// L LIDs, S switches, C channels, σ SLs in use), plus O(S) per LID with a
// broken or new path and, for the first of its class or one whose class
// took a detour, the walks of its column: per changed path at most 256 VL
// tries and 4096 retuned entries, each with the Pearce-Kelly search of its
// new dependencies, for at most 2 rounds. Measured (docs/rerouting.md): 0.1-0.25
// s on the 6x6x6 torus (a full route: 0.1-0.15 s); at 47,500 LIDs on 1,900
// switches with keiro-acro after one link failure (8,650 LIDs in 346
// classes touched), threads=1, back to back on a loaded 2-core machine
// (2026-11-27): incremental_seconds 21.1 s before the classes, 8.5 s with
// them; the re-route's route phase 25.4 s -> 14.6 s against 16.7 s for a
// full route (default threads: 10.4 s against 11.4 s). Memory: the dependency graph O(C *
// V + E), S * (P + 1)^2 * 17 bytes of entry states and junctions, one bit
// per (class, switch), O(S + C * 16) per destination, reused (no allocation
// per destination).
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/reroute/previous_sls.h"
#include "core/routing.h"

namespace keiro {

struct IncrementalStats {
  int64_t kept_entries = 0;      // (switch, LID) LFT entries kept from the previous routing
  int64_t repaired_entries = 0;  // ... taken from the fresh routing (broken paths, new LIDs)
  int64_t changed_paths = 0;     // (source switch, LID) paths that are not intact
  int64_t new_pairs = 0;         // ... of them with no previous SL (new ends)
  int64_t new_dependencies = 0;  // (channel, VL) dependencies they added
  int64_t sl_changed_paths = 0;  // relaxed: source-switch paths that took another SL
  // Relaxed with drop_stale: of those, paths whose previous SL (its stale
  // traffic, e.g. a job that asked the SA before) is dropped on the new
  // route before it could close a credit loop, still delivered without one,
  // or closing one (no entry of its own to drop it at before the cycle).
  int64_t stale_dropped = 0, stale_delivered = 0, stale_unsafe = 0;
  // LIDs whose broken paths copied the choices of an earlier LID of their
  // class (same previous routes and SLs) instead of being walked.
  int64_t replayed_lids = 0;
  std::string why;  // on failure: one sentence
  double seconds = 0;
};

// The incremental routing of f into out (reset here, kPerSourceSwitch), from
// prev (per source switch, with tables) and the engine's fresh routing of f
// (same scope; its LFTs repair broken paths, its CA SL2VL is copied).
// max_vls / max_sls: the budget. False (st.why set) when prev has no tables
// or a changed path fits no allowed SL. relax: a broken path that fits no
// next hop with its previous SL takes the first SL that fits instead
// (counted in st.sl_changed_paths) rather than ending the attempt.
// drop_stale (with relax): step 5 above.
bool incremental_reroute(const Fabric &f, const PreviousSls &prev, const Routing &fresh,
                         int max_vls, int max_sls, Routing &out, IncrementalStats &st,
                         bool relax = false, bool drop_stale = false);
// The same with passes 1 and 2 per LID as before the LID classes (each LID's
// column walked, its LFT entries and SLs written one switch row at a time):
// the reference of the differential unit tests; same tables and counts.
bool incremental_reroute_lid_major(const Fabric &f, const PreviousSls &prev, const Routing &fresh,
                                   int max_vls, int max_sls, Routing &out, IncrementalStats &st,
                                   bool relax = false, bool drop_stale = false);

}  // namespace keiro
