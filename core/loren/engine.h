// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-loren: LOREN (core/loren/loren.h) on the layout read from option
// loren_layout, with at most loren_tmax table entries per switch (0: the
// smallest number that works), made free of credit loops by ACRO's virtual
// layers (core/layers/acro.h) realized as per-(source switch, destination LID)
// SLs and SL2VL entries (core/vlmap/vlmap.h) -- the same chain as keiro-acro
// (core/layers/realize.h), on LOREN's next hops instead of balanced minimal
// ones. The ACRO stage follows options acro_seed and acro_max_moves. With
// EngineInput::one_vl_routes (the fixed-SL search's one-VL run) and more
// than one ACRO layer on LOREN's routes, the tables hold one-VL routes
// instead (core/acro/one_vl.h), one layer; the LOREN facts still describe
// LOREN's routes.
//
// Fails with one ERROR line when loren_layout is unset or unusable (the line
// names the file and line), when loren_tmax is below the entries the
// mandatory routes need (the line gives the smallest t_max), on livelock,
// when ACRO needs more layers than in.max_vls, or when the SL/VL budget
// cannot hold the layer transitions.
//
// Reports (EngineReport): tmax, required_entries, table_size_min/avg/max and
// table_sizes (every switch's entry count, in switch id order), the entries
// of each kind, avg_hops / avg_min_hops / max_hops / max_stretch over switch
// pairs, ACRO layers, VLs and SLs used, realization counters, max_efi.
// Time: O(S * (S + C) + S^2 * t) for LOREN, then ACRO and the realization as
// in keiro-acro (core/acro/engine.h).
#pragma once

#include <cstdint>
#include <string>

#include "core/engine/engine.h"
#include "core/layers/realize.h"
#include "core/loren/loren.h"

namespace keiro::loren {

// What keiro-loren reads from EngineInput, typed.
struct EngineOptions {
  std::string layout_path;    // loren_layout
  LorenOptions loren;         // tmax = loren_tmax, seed = acro_seed
  acro::LayerOptions layers;  // acro_seed, acro_max_moves
};

// What a run produced; report() turns it into EngineReport facts.
struct EngineResult {
  LorenRouting routing;           // tables, next hops, hop statistics
  acro::LayerRealization layers;  // ACRO layers and the realization's counters
  int64_t max_efi = 0;            // largest edge forwarding index of the routes
  // The tables hold one-VL routes (core/acro/one_vl.h) instead of LOREN's,
  // "updown" or "nue" (EngineInput::one_vl_routes and ACRO needs more than
  // one layer on LOREN's); "none" otherwise.
  std::string one_vl = "none";
  // Non-empty: LOREN could not route this fabric (why), and out holds
  // balanced minimal LFTs as the guide for repairing the previous routing
  // (EngineReport::repair_only; only when RerouteHints::may_repair).
  std::string repair_only;
};

// Reads the loren_* and acro_* options into out. Fails with one ERROR line
// when loren_layout is unset.
bool read_options(const EngineInput &in, EngineOptions &out);

// Reads the layout, routes (loren.h) and realizes ACRO's layers into out
// (reset by route_steps()), filling res. Fails with one ERROR line (see above), except
// when LOREN's own routing fails on a fabric whose previous routing may be
// repaired: then res.repair_only (above).
bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res);

// The facts of res in rep (see above; table_sizes last) and one INFO line in in.log.
void report(const EngineInput &in, const EngineResult &res, EngineReport &rep);

// The registry entry (define_engine(), listed in core/registry/registry.cc).
extern const EngineDesc kEngine;

}  // namespace keiro::loren
