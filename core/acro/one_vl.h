// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Routes for one VL (EngineInput::one_vl_routes, asked by the pipeline's
// fixed-SL search, docs/fixed-sl.md) for keiro-acro and keiro-loren, whose
// usual routes need VL changes one SL cannot encode. Two route sets whose
// channel dependency graph is acyclic, so ACRO finds one layer on each:
//  - the balanced routing on legal up*/down* paths from keiro-dl's root
//    (updown_balanced(), core/acro/switch_lids.h);
//  - Nue's routes on one layer (core/nue/nue.h: one acyclic channel
//    dependency graph for all destinations, the best of
//    nue::one_vl_order_attempts() destination orders).
// The one with the smaller maximum edge forwarding index is taken
// (up*/down* on ties, and whenever ACRO would need more than one layer on
// Nue's). Up*/down* concentrates the load near its root; on tori and random
// fabrics Nue's routes spread it better (docs/fixed-sl.md).
// Deterministic: the same fabric gives the same routes.
//
// Time: one balanced routing, one Nue run of one layer (its order attempts
// on up to `threads` workers) and ACRO on it; memory: two sets of trees.
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"

namespace keiro::acro {

struct OneVlChoice {
  bool nue = false;        // Nue's routes taken (else up*/down*)
  int64_t updown_efi = 0;  // max edge forwarding index of each candidate
  int64_t nue_efi = 0;     // (0 when Nue failed)
};

// Writes the chosen routes into out. Fails (err) only when the up*/down*
// routing fails (the fabric is not connected). bo: the balanced routing's
// options (its updown and consistency are replaced).
bool one_vl_routes(const Fabric &f, const minimal::BalancedOptions &bo, int threads,
                   minimal::DestTrees &out, OneVlChoice &res, std::string &err);

}  // namespace keiro::acro
