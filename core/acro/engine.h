// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-acro: balanced minimal routing (core/minimal/balanced.h) made free of
// credit loops by ACRO's virtual layers (core/layers/acro.h), realized on
// InfiniBand as per-(source switch, destination LID) SLs and SL2VL entries
// (core/vlmap/vlmap.h); the ACRO + realization chain is core/layers/realize.h,
// shared with keiro-loren. When ACRO needs more than one layer and every CA
// route is up*/down* from keiro-dl's root, the destinations holding only
// switch LIDs are routed up*/down* too (core/acro/switch_lids.h), taken when
// ACRO then needs fewer layers (one VL on 3-level fat trees). Last, the
// balanced routing with consistent choices (BalancedOptions::consistency:
// within 5% of the cheapest, the first channel in port order), one tree per
// switch, taken when ACRO needs fewer layers on it, and then one tree per
// LID the same way if ACRO needs no more layers on those (tori: 10x10x10
// with 4 HCAs per switch 4 layers instead of 6, which the realization fits
// into 16 SLs). Every such alternative is taken only when its max EFI is
// at most 20% above the current routing's (labelling-free balance, issue 32).
//
// With EngineInput::one_vl_routes (the fixed-SL search's one-VL run) and
// more than one ACRO layer on those routes: routes whose dependency graph
// is acyclic instead (core/acro/one_vl.h: balanced up*/down* or Nue's on one
// layer, the better balanced), one layer, routes possibly longer than minimal.
// The same routes also replace an alternative with fewer layers that was
// taken past the VL budget above the balance bound, when their max EFI is
// lower (`keiro topo director 4 60 --uplinks 10` on 2 VLs: 5,040 -> 2,124).
//
// Fails with one ERROR line when the fabric is not connected, when ACRO
// needs more layers than in.max_vls, or when the SL/VL budget cannot hold
// the layer transitions (the line says how many paths stayed unplaced and,
// when fewer than 16 SLs were allowed, whether 16 would do).
// Time: O(S^2 * (deg + log C) + layers * (C log C + S^2)) for the routing
// and ACRO (up to six routings and ACRO runs with the alternatives), plus the realization's
// O(moves * SLs * L * VLs).
#pragma once

#include <cstdint>
#include <string>

#include "core/engine/engine.h"
#include "core/layers/realize.h"

namespace keiro::acro {

// What keiro-acro reads from EngineInput, typed: acro_seed (also the
// balanced routing's destination order), acro_max_moves and acro_per_lid.
struct EngineOptions {
  LayerOptions layers;
  bool per_lid = true;  // acro_per_lid: one tree per LID (else per switch)
};

// What a run produced; report() turns it into EngineReport facts.
struct EngineResult {
  LayerRealization layers;         // ACRO layers and the realization's counters
  int64_t max_efi = 0;             // largest edge forwarding index of the routes
  int32_t trees = 0;               // distinct destination trees routed
  bool per_switch_trees = false;   // one tree per switch: acro_per_lid 0, or per-LID
                                   // trees needed more ACRO layers
  int32_t updown_switch_lids = 0;  // switch-LID destinations routed up*/down*
                                   // (core/acro/switch_lids.h), 0 if not taken
  bool updown_routes = false;      // every route balanced on legal up*/down*
                                   // paths (switch_lids.h, second rule)
  bool consistent_routes = false;  // the balanced routing with consistent choices
                                   // (BalancedOptions::consistency): fewer ACRO layers
  // The routes taken were polished (BalancedOptions::polish): the balanced
  // per-LID routes of engine.cc step 1, or the alternative taken, when
  // bottleneck passes lowered its max EFI at the same ACRO layers (step 2d).
  bool polished = false;
  // The one-VL routes (core/acro/one_vl.h) were installed, asked for by
  // EngineInput::one_vl_routes or better balanced than an alternative taken
  // past the VL budget: "updown" or "nue"; "none" otherwise.
  std::string one_vl = "none";
};

// acro_seed and acro_max_moves: the ACRO/realization stage's keys, which
// keiro-loren and the pipeline's fixed-SL stage take too (docs/loren.md,
// docs/fixed-sl.md).
LayerOptions read_layer_keys(const Options &o);

// Reads the acro_* options into out. Never fails (the option specs range-check).
bool read_options(const EngineInput &in, EngineOptions &out);

// Routes (balanced minimal routing) and realizes ACRO's layers into out
// (reset by route_steps()), filling res. Fails with one ERROR line (see above).
bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res);

// The facts of res in rep (add_layer_facts() order) and one INFO line in in.log.
void report(const EngineInput &in, const EngineResult &res, EngineReport &rep);

// The registry entry (define_engine(), listed in core/registry/registry.cc).
extern const EngineDesc kEngine;

}  // namespace keiro::acro
