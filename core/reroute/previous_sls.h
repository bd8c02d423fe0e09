// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// SL-stable re-routing (docs/rerouting.md, issue 16): the path SLs of the
// previous routing, kept across OpenSM sweeps by the plugin or read from
// dumps by `keiro route --previous DIR`, so that a re-route after a fault
// keeps every SL the SA handed out before for every pair still connected.
// MPI libraries ask for PathRecords once per job and keep the SL, so after a
// re-route traffic is a mix of old-SL and new-SL holders; when the new path
// SL of every surviving pair equals its old one the two kinds are the same
// traffic and the normal self-check of the installed tables covers the mix.
//
// Keys are stable across fabric changes, never dense ids: a destination is a
// LID together with the GUID of the port that owns it (a LID whose owner
// changed does not survive), a source is a LID with its owner GUID and, for
// per-source-switch SLs, the GUID of its switch. A (source LID, destination
// LID) pair survives when both LIDs survive and, for per-source-switch SLs,
// the source's switch had a row before.
//
// run_engine() (core/engine/engine.h) uses EngineInput::previous:
//  0. before routing, per-source-switch engines: when the fabric has no new
//     switch or LID, the incremental route alone (reroute_without_engine()
//     below); taken when it keeps every SL, else the engine routes:
//  1. the engine uses it itself: keiro-nue pins surviving destinations to
//     their previous layer = SL (core/nue/nue.h NueOptions::previous_layer);
//     keiro-acro, keiro-dl and keiro-loren realize their new routes with the
//     surviving (source switch, destination) paths pinned to their previous
//     SL (realization_pins() below -> core/vlmap/vlmap.h VlMapOptions::pins:
//     pinned paths placed first, each only on its SL; a pin that conflicts
//     is dropped and counted, facts pinned_paths / pins_dropped, one INFO
//     line). With every pin honoured the steps below find nothing changed;
//     dropped pins leave their pairs to steps 1b-3;
//  1b. the SLs are renamed (best_sl_renaming) so that as many surviving
//     pairs as possible get their old SL back: no check needed, SLs are
//     only labels of the engine's VL patterns (ACRO/DL/LOREN's realization
//     and Nue's layer order number them arbitrarily);
//  1c. per-source-switch engines with option incremental (default 1): the
//     incremental route (core/reroute/incremental.h) -- previous routes and SL2VL
//     entries where the fault left them intact, broken paths re-routed on
//     their old SLs -- self-checked and taken when it keeps every SL (one
//     INFO line; facts incremental, kept_lft_entries, repaired_lft_entries,
//     changed_paths, incremental_seconds). It needs only the fresh LFTs,
//     so when it can run (can_repair_previous()) run_engine() routes the
//     engine without pins first (EngineInput::pin_previous false: no pinned
//     realization, about 0.4 s of a 1 s re-route on a 6x6x6 torus at 8
//     VLs) and, when it fails, the engine routes again with pins here, and
//     steps 1 and 1b repeat on that routing before step 2;
//  2. if surviving pairs still have other SLs, the new tables with the old
//     SLs on surviving pairs (new SLs on new pairs) are checked; if that
//     passes they are what is handed out (every SL kept);
//  2b. otherwise, destination by destination: the destinations whose SLs
//     changed are bisected (try a range with its old SLs on top of those
//     accepted so far; check; accept it whole or split it), so that the
//     destinations whose old SLs fit the new tables keep them; at most
//     kMaxKeepChecks checks (each one self-check), and none beyond
//     kGiveUpChecks while no range was accepted;
//  3. the pairs left with a new SL are counted in exactly one WARN line.
// Option keep_sls=0 skips steps 1 and 2 (no pins; the WARN line still
// counts).
// Facts: previous_pairs, sls_changed, sls_kept (yes|partly|no|off),
// keep_checks.
//
// Time: capture O(S * (L + P^2 * 16)) for P ports per switch; pins O(S * L); compare/apply O(S * L)
// (per-source-switch) or O(L * S) counting; step 2 one more self-check. Memory: S * L bytes per
// PreviousSls (per-source-switch) or L bytes, plus a copy of the Routing
// while step 2 runs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/engine/engine.h"
#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vlmap.h"

namespace keiro {

struct PreviousSls {
  Routing::SlScope scope = Routing::SlScope::kPerDestination;
  std::string engine;               // Routing::engine of the previous routing
  std::vector<uint64_t> lid_owner;  // by LID: GUID of the owning port (0: unused)
  std::vector<uint8_t> dest_sl;     // kPerDestination: SL by LID (check::kNoPathSl: none)
  // kPerSourceSwitch: by source switch GUID, the SL by destination LID.
  std::unordered_map<uint64_t, std::vector<uint8_t>> switch_sl;
  // kPerSourceSwitch only, for the incremental re-route (core/reroute/incremental.h):
  // by switch GUID, its previous LFT (out port by LID), the GUID behind each
  // port (switch GUID or CA/router port GUID; 0: nothing) and its SL2VL
  // entries [(in * (ports + 1) + out) * 16 + SL].
  struct SwitchTables {
    uint8_t ports = 0;
    std::vector<uint8_t> lft;
    std::vector<uint64_t> peer;
    std::vector<uint8_t> sl2vl;
  };
  std::unordered_map<uint64_t, SwitchTables> tables;
  bool empty() const { return lid_owner.empty(); }
  // The previous SL of a pair, or -1 when the pair was not routed before.
  // src_guid: GUID of the source's switch (per-source-switch scope only).
  int sl(uint64_t src_switch_guid, uint16_t dlid) const;
};

// The GUID owning a LID of f (switch GUID or CA/router port GUID), 0 if none.
uint64_t lid_owner_guid(const Fabric &f, uint16_t lid);
// Whether LID lid of f survives from prev: used before, by the same owner.
bool lid_survives(const Fabric &f, const PreviousSls &prev, uint16_t lid);

// The path SLs of routing r on fabric f (r.path_sl for every LID of f) and,
// for per-source-switch SLs, its LFTs and SL2VL tables (tables above).
PreviousSls capture_previous_sls(const Fabric &f, const Routing &r);

// How the path SLs of r compare with prev, in (source LID, destination LID)
// pairs, LMC offsets expanded, the same port as source and destination left out.
struct SlComparison {
  int64_t surviving = 0;                // pairs whose both ends existed before with an SL
  int64_t changed = 0;                  // ... whose SL in r differs from before
  std::vector<uint16_t> changed_dests;  // destination LIDs of those pairs, ascending
  // moved[new SL][old SL]: surviving pairs by their new and old SL.
  std::array<std::array<int64_t, kNumSls>, kNumSls> moved{};
};

// The SL renaming (a permutation of 0..15, to[new] = name) that keeps the
// most surviving pairs on their old SL, renaming only among SLs below
// max_sls (greedy on c.moved, largest count first). Renaming SLs of a
// routing (Routing::permute_sls) keeps it deadlock free: SLs are labels.
std::array<uint8_t, kNumSls> best_sl_renaming(const SlComparison &c, int max_sls);
SlComparison compare_sls(const Fabric &f, const Routing &r, const PreviousSls &prev);

// Sets the path SL of every surviving pair of r to its previous SL. False
// (r unchanged) when r's SLs are per destination but prev's per source
// switch and the source switches of a destination disagree.
// only_dest (by LID, optional): restricts it to those destinations.
bool apply_previous_sls(const Fabric &f, const PreviousSls &prev, Routing &r,
                        const std::vector<char> *only_dest = nullptr);

// For per-destination SLs: the previous SL by LID of f for the LIDs that
// survive (check::kNoPathSl elsewhere); empty when prev is per source switch.
std::vector<uint8_t> previous_dest_sls(const Fabric &f, const PreviousSls &prev);

// Pins for an SL-stable realization (core/vlmap/vlmap.h VlMapOptions::pins;
// keiro-acro, keiro-dl, keiro-loren): [k * S + s] = the previous SL of the
// path from switch s to destination k of t, minus shift, when s had a row
// before and the surviving LIDs of k had one common SL >= shift from s; -1
// elsewhere (new or changed ends, the root). Empty when prev is empty or
// per destination. Time O(S * L). Memory K * S bytes.
std::vector<int8_t> previous_path_sls(const Fabric &f, const PreviousSls &prev,
                                      const minimal::DestTrees &t, int shift = 0);

// The pins engine (its OpenSM name) realizes with: previous_path_sls() of
// in.previous when there is one, option keep_sls is not 0 and the previous
// routing came from the same engine (or is unnamed); else empty.
std::vector<int8_t> realization_pins(const EngineInput &in, const char *engine,
                                     const minimal::DestTrees &t, int shift = 0);

// Re-routing with pins (vs.pins > 0; else nothing): facts pinned_paths,
// pins_dropped and, when no pinned realization fitted, pins_fallback=yes;
// log_pins: one INFO line saying how many pins the realization kept.
void add_pin_facts(const vlmap::VlMapStats &vs, EngineReport &rep);
void log_pins(Logger &log, const char *engine, const vlmap::VlMapStats &vs);

inline constexpr int kMaxKeepChecks = 256;
inline constexpr int kGiveUpChecks = 16;

// Steps 2 and 3 above, called by run_engine() on the engine's checked-to-be
// tables; out may get the previous SLs. Logs one INFO line (kept) or one WARN
// line (changed). threads: check workers. With rep.repair_only set (the
// engine could not route, out holds guide LFTs) only the incremental route
// is tried: true with out = the repaired previous routing and one WARN line
// saying the engine's routing failed, false (rep.repair_only extended with
// why the repair failed, nothing else logged at ERROR) when it does not fit.
bool keep_previous_sls(const EngineDesc &e, const EngineInput &in, Routing &out, EngineReport &rep);

// Step 0, called by run_engine() before the engine when
// can_repair_previous(in): if no switch or LID is new since in.previous
// (every switch of in.fabric had tables with the same ports, every LID the
// same owner; switches, links and end ports may be gone, links back), the
// incremental route alone
// (core/reroute/incremental.h) with no guide LFTs -- a broken switch takes the
// routed neighbour with the shortest route -- self-checked and taken when it
// keeps every SL: out = its tables, one INFO line, facts incremental,
// incremental_seconds, the LFT counts, sls_kept=yes, routed_afresh=no.
// False otherwise (rep left without facts; the engine then routes as
// usual). Cost: the incremental route and one self-check, no engine
// routing (measured in docs/rerouting.md).
bool reroute_without_engine(const EngineDesc &e, const EngineInput &in, Routing &out,
                            EngineReport &rep);

// Whether an engine that cannot route may hand out guide tables instead
// (EngineReport::repair_only): a previous per-source-switch routing with its
// tables, and keep_sls and incremental not switched off.
bool can_repair_previous(const EngineInput &in);

}  // namespace keiro
