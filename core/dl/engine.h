// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-dl: Descending Layers routing (core/dl/dl.h) on InfiniBand. The
// per-hop layers become VLs through per-(source switch, destination) path
// SLs and per-(switch, in port, out port, SL) SL2VL entries
// (core/vlmap/vlmap.h).
//
// Options: dl_subnets (sub-networks = VLs, default the whole VL budget),
// dl_restriction (ud | ud-du | ud-dudu), dl_policy (load | random | lowport),
// dl_root (GUID or node description), dl_seed, dl_vl_choice (free | exact),
// dl_choices (slack | lowest).
//
// When the SL budget cannot realize the layer changes of the balanced next
// hops (dl_policy load), one INFO line says so and the routes are chosen
// again with consistent next hops (DlOptions::consistency, path_select.h:
// the first port within 5% of the least load), whose routes cross in fewer
// ways (10x10x10 torus: 21 SLs needed -> 13, max EFI 1.15x the average).
//
// With EngineInput::one_vl_routes (the fixed-SL search's one-VL run,
// docs/fixed-sl.md) DL's one sub-network is compared with Nue's routes on
// one layer (nue::one_layer_trees()), and the one with the lower max edge
// forwarding index is installed: up*/down* from one root crowds the links
// near it on director-based fabrics, tori and random fabrics.
//
// Fails with one ERROR line when dl_subnets exceeds the VL budget, when
// dl_root names no switch, when the fabric is not connected, or when the SL
// budget cannot realize the layer changes (of both next-hop choices).
// Time: O(S * (S + C)) for the routes, plus the realization's
// O(moves * SLs * L * VLs); twice when the consistent next hops are tried.
#pragma once

#include <cstdint>
#include <string>

#include "core/dl/dl.h"
#include "core/engine/engine.h"
#include "core/vlmap/vlmap.h"

namespace keiro::dl {

// What keiro-dl reads from EngineInput, typed.
struct EngineOptions {
  DlOptions dl;        // layers = dl_subnets or the VL budget; root from dl_root
  bool exact = false;  // dl_vl_choice=exact: every hop on the VL of its layer
  int max_sls = 16;    // SL budget of the realization
  // dl_subnets 0: the layers follow the VL budget, and one layer is taken
  // when it gives every route between terminals as few hops (dl.h
  // one_layer_suffices()).
  bool auto_layers = false;
};

// What a run produced; report() turns it into EngineReport facts.
struct EngineResult {
  EngineOptions options;  // as used
  int32_t root = -1;      // root switch of the up/down tree
  int layers_needed = 0;  // DlResult::layers_needed
  int vls_used = 0, sls_used = 0;
  double avg_hops = 0;  // average_hops() of the routes
  int64_t max_efi = 0;  // largest edge forwarding index
  int64_t repaired_dests = 0;
  bool one_layer = false;     // auto_layers took one layer (options.dl.layers is then 1)
  bool consistent = false;    // the balanced next hops could not be realized; consistent
                              // ones (DlOptions::consistency) could
  bool spread_upper = false;  // the routes with DlOptions::spread_upper were taken (engine.cc)
  vlmap::VlMapStats vlmap;    // the realization's counters (pins: re-routing)
  // EngineInput::one_vl_routes and Nue's routes on one layer had the lower
  // max EFI (run()): the tables hold those ("nue"), else DL's ("none").
  std::string one_vl = "none";
};

// Reads the dl_* options and the budgets of in into out. Fails with one ERROR
// line when dl_subnets exceeds in.max_vls or dl_root names no single switch.
bool read_options(const EngineInput &in, EngineOptions &out);

// Routes (dl.h) and realizes the layers (core/vlmap/vlmap.h) into out (reset
// at every attempt), filling res. Fails with one ERROR line (not connected, SL budget).
bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res);

// The facts of res in rep (root, restriction, policy, subnets, layers_needed,
// vls_used, sls_used, avg_hops, max_efi, repaired_dests, vl_choice, choices)
// and one INFO line in in.log.
void report(const EngineInput &in, const EngineResult &res, EngineReport &rep);

// The registry entry (define_engine(), listed in core/registry/registry.cc).
extern const EngineDesc kEngine;

}  // namespace keiro::dl
