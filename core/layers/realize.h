// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The chain keiro-acro, keiro-loren and the tool's `keiro acro` share once
// their destination trees (and LFTs) are written: ACRO's layers on the trees (core/layers/acro.h),
// the layers' channel ranks as a VlDemand (core/vlmap/vl_demand.h), their
// realization as per-(source switch, destination LID) path SLs and SL2VL
// entries (core/vlmap/vlmap.h), and the VLs/SLs used set on the Routing.
// Re-routing (docs/rerouting.md): the realization pins the surviving paths
// to their previous SLs (LayerBudget::pins from core/layers/pins.h;
// VlMapOptions::pins) and one INFO line says how many it kept.
// Typed options only (LayerOptions, LayerBudget): keiro-acro reads
// acro_seed and acro_max_moves into LayerOptions; the realization method
// is the tool's choice (LayerOptions::method; the engines use repair).
//
// Fails with exactly one ERROR line, in the calling engine's words
// (RealizeWording), and says in LayerRealization::outcome where it stopped:
//   "<engine>: <why ACRO failed>"
//   "<engine>: ACRO needs N VLs for <routes>, only M allowed (<what limits it>)"
//   "<engine>: N ACRO layers<where>: <why the realization failed>[<16-SL hint>]"
// Time: ACRO's O(layers * (C log C + S^2)), O(D * S) to count the hops per
// layer, plus the realization's
// O(moves * SLs * L * VLs) (twice with the 16-SL hint on failure).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/layers/acro.h"
#include "core/minimal/dest_trees.h"
#include "core/routing.h"
#include "core/vlmap/vlmap.h"

namespace keiro::acro {

// How ACRO and the realization search.
struct LayerOptions {
  uint64_t seed = 0;      // ACRO's tie-breaking; the realization uses seed + 1
  int64_t max_moves = 0;  // VlMapOptions::max_moves (0: its default)
  vlmap::VlMapOptions::Method method = vlmap::VlMapOptions::kTree;
};

// What the realization may use, and the re-route's pins.
struct LayerBudget {
  int max_vls = 1;
  int max_sls = 16;
  bool qos = true;           // false: the ERROR line says that QoS limits the VLs
  int threads = 0;           // VlMapOptions::threads
  std::vector<int8_t> pins;  // core/layers/pins.h; empty: none
};
// The budget of an engine's input (VLs, SLs, QoS, threads), with the pins
// of its re-route hints for trees.
LayerBudget layer_budget(const EngineInput &in, const minimal::DestTrees &trees);

// How the ERROR lines name the engine and its routes.
struct RealizeWording {
  const char *engine = "";  // "keiro-acro"
  std::string routes;       // after "ACRO needs N VLs for ": "the minimal routes of this fabric"
  std::string where;        // after "N ACRO layers": "" or " on LOREN's routes (t_max 18)"
  bool sl_hint = false;     // on failure with fewer than 16 SLs, say whether 16 would do
};

// What the chain produced, for the engine's report and INFO line, and for
// the tool, which prints it in its own words (failures included).
struct LayerRealization {
  enum Outcome {
    kAcroFailed,  // ACRO found no layers; error says why
    kTooFewVls,   // more layers than in.max_vls VLs; the realization did not run
    kUnrealized,  // the realization ran and failed; error says why, vlmap has its counters
    kRealized,
  };
  Outcome outcome = kAcroFailed;
  std::string error;       // kAcroFailed, kUnrealized: ACRO's or the realization's one sentence
  int32_t layers = 0;      // ACRO's layer count (AcroResult::num_layers)
  int32_t max_height = 0;  // AcroResult::max_height
  std::vector<int64_t> hops_per_layer;  // switch hops of the trees in each layer (max(1, layers))
  double acro_seconds = 0;
  vlmap::VlMapStats vlmap;  // kUnrealized, kRealized
};

// out must have been reset for f with SlScope::kPerSourceSwitch. On
// success sets out.vls_used and out.sls_used. acro: ACRO's layers of these
// trees if the caller already has them (taken over), else computed.
bool realize_layers(const Fabric &f, const LayerBudget &b, Logger &log,
                    const minimal::DestTrees &trees, const LayerOptions &lo,
                    const RealizeWording &w, Routing &out, LayerRealization &res,
                    AcroResult *acro = nullptr);

// Adds the facts both engines report, in this order: layers, vls_used,
// sls_used, paths, first_pass_misfits, evictions, moves, max_efi,
// acro_seconds, vlmap_seconds, then add_pin_facts() (core/layers/pins.h).
void add_layer_facts(const LayerRealization &res, int64_t max_efi, EngineReport &rep);

}  // namespace keiro::acro
