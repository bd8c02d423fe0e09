// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The chain keiro-acro and keiro-loren share once their destination trees
// (and LFTs) are written: ACRO's layers on the trees (core/acro/acro.h),
// the layers' channel ranks as a VlDemand (core/vlmap/vl_demand.h), their
// realization as per-(source switch, destination LID) path SLs and SL2VL
// entries (core/vlmap/vlmap.h), and the VLs/SLs used set on the Routing.
// Follows options acro_seed and acro_max_moves (read once by
// read_layer_options()).
//
// Fails with exactly one ERROR line, in the calling engine's words
// (RealizeWording):
//   "<engine>: <why ACRO failed>"
//   "<engine>: ACRO needs N VLs for <routes>, only M allowed (<what limits it>)"
//   "<engine>: N ACRO layers<where>: <why the realization failed>[<16-SL hint>]"
// Time: ACRO's O(layers * (C log C + S^2)) plus the realization's
// O(moves * SLs * L * VLs) (twice with the 16-SL hint on failure).
#pragma once

#include <cstdint>
#include <string>

#include "core/engine.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vlmap.h"

namespace keiro::acro {

// Options acro_seed and acro_max_moves, typed.
struct LayerOptions {
  uint64_t seed = 0;      // ACRO's tie-breaking; the realization uses seed + 1
  int64_t max_moves = 0;  // VlMapOptions::max_moves (0: its default)
};
LayerOptions read_layer_options(const Options &o);

// How the ERROR lines name the engine and its routes.
struct RealizeWording {
  const char *engine = "";  // "keiro-acro"
  std::string routes;       // after "ACRO needs N VLs for ": "the minimal routes of this fabric"
  std::string where;        // after "N ACRO layers": "" or " on LOREN's routes (t_max 18)"
  bool sl_hint = false;     // on failure with fewer than 16 SLs, say whether 16 would do
};

// What the chain produced, for the engine's report and INFO line.
struct LayerRealization {
  int32_t layers = 0;  // ACRO's layer count (AcroResult::num_layers)
  double acro_seconds = 0;
  vlmap::VlMapStats vlmap;
};

// out must have been reset for in.fabric with SlScope::kPerSourceSwitch.
// On success sets out.vls_used and out.sls_used.
bool realize_layers(const EngineInput &in, const minimal::DestTrees &trees, const LayerOptions &lo,
                    const RealizeWording &w, Routing &out, LayerRealization &res);

// Adds the facts both engines report, in this order: layers, vls_used,
// sls_used, paths, first_pass_misfits, evictions, moves, max_efi,
// acro_seconds, vlmap_seconds.
void add_layer_facts(const LayerRealization &res, int64_t max_efi, EngineReport &rep);

}  // namespace keiro::acro
