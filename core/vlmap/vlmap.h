// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Realization of per-hop VLs on InfiniBand tables (InfiniBand Architecture
// Specification Vol. 1, the SLtoVLMappingTable of switch ports; docs/acro.md
// section 3). IB switches do not see the VL a packet arrived on:
// the VL of hop j is SL2VL[s_j][in_j][out_j][SL], and the SL is one per
// path. This module picks
//   - one SL per (source switch, destination): Routing::set_path_sl for every
//     LID of the destination (Routing scope kPerSourceSwitch), and
//   - the SL2VL entries per (switch, in port, out port, SL),
// so that every path gets VLs its VlDemand accepts, within max_vls VLs and
// max_sls SLs.
//
// Table key: (switch, in, out, SL). Transit hops use the in port of the
// previous channel. The first hop of a path is shared by all of its sources
// on the switch -- every attached terminal (in = its port) and the switch
// itself (in = 0) -- which all use the same SL, so these in ports form one
// "source" slot whose entries are written to all of them. Hops into
// terminals or port 0 and the CA's own SL2VL are not switch-to-switch
// channels (never in a credit loop) and use VL 0.
//
// Method kTree (the default; core/vlmap/dest_dp.h): routing is destination
// based, so the suffix of a path from a switch on is shared by every source
// that reaches that switch, and so is its VL demand. The unit of placement is
// therefore (destination, SL), not a path:
//  1. survey: per destination, the tree DP on an empty table gives the
//     lowest acceptable VLs (paths no vector within max_vls accepts make the
//     realization fail at once, saying how many VLs they would need) and
//     the destinations' difficulty (highest VL needed, then VL sum);
//  2. sources hardest first: passes by the first-hop VL of their lowest
//     vector, highest first; in a pass destinations hardest first, and for
//     each, SLs 0, 1, ... in turn: the DP
//     gives the SL to as many of its still pending sources as the entries
//     already set allow (agreeing with them, setting the fewest new ones,
//     new ones as close as possible to the highest VL the survey saw any
//     destination's lowest vector put on that turn), until every source has one (first fit: low SLs
//     fill first, so few SLs are used);
//  3. destinations that need an SL beyond max_sls are moved to the front and
//     the run repeats (a few rounds, "squeaky wheel", while at most 2% of
//     the paths are left over); the fewest VLs the survey allows are tried
//     first, then one more, ... up to max_vls;
//  4. late levels (core/vlmap/turn_levels.h): per VL count, after the
//     runs above, one more placement in which an SL's entries are not fixed
//     when set: an SL holds the turn pairs ("arcs") its paths use and the
//     least levels that make every one of them descend; a path joins if the
//     levels it raises (and what leads into them) stay within the VLs.
//     Sources in passes by path length, longest first; per pass
//     destinations in the same order; a source first tries the SLs its
//     next switch's path already has, then SLs first fit; one source at a
//     time (a failing one is undone). It runs when the runs
//     above fit (its result is kept if it needs fewer SLs) or, at max_vls
//     or when they left at most 2% over, when they did not (10x10x10 torus
//     with acro: 27 SLs instead of 43; random fabrics: often one SL fewer);
//  5. if no run fits, one error line says how many SLs the best run needs
//     with max_vls VLs (runs at max_vls may use up to 64 virtual SLs to
//     count this).
//  Up to 300,000 paths (where it costs about a second) the per-path repair
//  below runs as well and its result wins if it needs fewer VLs, then fewer
//  SLs, so small fabrics never get worse than with the per-path search
//  (not with pins, see below).
//
// Pins (VlMapOptions::pins, SL-stable re-routing, docs/rerouting.md): per
// (destination, source switch) the SL the path must keep, or -1. Only kTree
// honours them: every run first places the pinned paths, destination by
// destination (in the run's order), each group of sources pinned to SL p
// offered SL p only (the DP above on p's entries: agreeing with the entries
// already set, so a pinned path gets VLs its demand accepts with its pinned
// SL); sources the DP cannot serve there lose their pin (counted in
// VlMapStats::pins_dropped) and are placed like unpinned ones, which then
// take first fit as always. Runs that fit are tried from the fewest VLs up
// and the first one that keeps every pin wins, else the one that drops the
// fewest; at max_vls the later rounds put the destinations that dropped
// pins first (squeaky wheel, as for destinations that need too many SLs),
// and when a run needs more than max_sls SLs, the pins of the destinations
// that failed are dropped (if they had none: every pin on the highest
// pinned SL, which frees that SL) and the run repeats (up to 16 rounds).
// With pins the per-path repair alternative and the late-levels run are
// skipped (they know no pins).
// If no pinned run fits max_sls, realize() realizes without pins (every
// pin counted as dropped, pins_fallback): the result is always a valid
// realization. Without pins the result is exactly what it was before
// (byte-identical tables). The per-path methods ignore pins (all dropped).
// Cost with pins: one extra serve() per (destination, pinned SL) per run,
// up to V - min_vls + 1 runs more and up to 16 rounds at max_vls when pins
// are dropped (at most 3 of them squeaky-wheel rounds), and a second
// realization on the fallback.
// Time: O(K * S * V) for the survey, O(K * S * V * r * m) per run (r: SLs a
// destination tries, usually 1-3; m: passes, at most V), a few runs per VL
// count; the late-levels run O(K * S * (h + r)) plus O(P * r * L) for the
// source paths it tries (h: longest path; each try walks the new part of its
// path and the turns it raises, all undone when it fails); threads split
// the survey and the table writing over destinations (results identical for
// every thread count; the placements are sequential). Memory: 2 * K * S
// bytes of path SLs (the fitting run's kept while late levels try fewer), 64
// * T bytes of entries (T = sum over switches of (in channels + 1) * out
// channels), for late levels 2 bytes per (SL, turn) and 1 bit per (SL,
// turn, in slot), and O(S * V) per thread; no per-path lists.
//
// Methods kFirstFit, kBestFit and kRepair place single paths (kept for
// comparison; O(P * L) memory for P paths of average length L):
//  1. paths hardest first (most distinct VLs in their lowest acceptable VL
//     vector, then longest);
//  2. for a path and each SL, a dynamic program over the hops finds the VL
//     vector that (a) evicts the fewest placed paths (paths whose entry holds
//     another VL), then (b) sets the fewest new entries (best fit: agree with
//     what is there), then (c) uses the lowest VLs; O(L * V) per SL;
//  3. best fit: the SL with no eviction and most agreement;
//  4. if every SL needs evictions (min-conflicts repair): take the SL with
//     the smallest eviction weight, evict those paths (re-queued; a short
//     tabu keeps each from going straight back to the SL it was evicted
//     from), place the path. Every eviction raises the evicted path's weight
//     (breakout), so paths that keep being pushed out become expensive to
//     evict and the search moves on to others instead of cycling.
// Stops when every path is placed or after max_moves placements.
// kBestFit stops at step 3 and kFirstFit takes the lowest SL without
// eviction instead (paths that do not fit stay unplaced): the greedy
// baselines. With fewest_vls (default) short runs first try the fewest VLs
// the lowest acceptable vectors need, then one more, ..., before a full run
// with max_vls.
// Time: O(P * L) to list the paths, O(M * max_sls * L * V) for M placements
// (M >= P; evictions add placements) plus O(P * L) per eviction burst.
// Memory: O(P * L) for the hops (about 20 bytes each) and 17 bytes per entry
// for T * max_sls entries.
#pragma once

#include <string>

#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vl_demand.h"
#include "core/vlmap/vlmap_options.h"

namespace keiro::vlmap {

// out must have been reset for f with SlScope::kPerSourceSwitch; its LFTs
// are not touched (write_lfts() does that). On failure returns false with
// one line in err saying how many paths stayed unplaced and what was
// allowed; stats are filled either way.
bool realize(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
             const VlMapOptions &opt, Routing &out, VlMapStats &stats, std::string &err);

}  // namespace keiro::vlmap
