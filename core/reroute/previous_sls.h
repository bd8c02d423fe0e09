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
// How they are kept: the strategies in core/reroute/steps.h, run in order
// by the pipeline (core/pipeline/reroute_stage.cc); the typed hints an engine
// gets from them: core/reroute/hints.h.
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

#include "core/fabric.h"
#include "core/routing.h"

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
// The LIDs of f that did not survive (new, or with another owner).
int64_t new_lids(const Fabric &f, const PreviousSls &prev);

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

}  // namespace keiro
