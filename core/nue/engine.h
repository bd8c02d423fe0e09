// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-nue: Nue routing (core/nue/nue.h) as a keiro engine. The adapter
// reads the options into NueOptions, calls nue::route(), writes the Routing
// tables (LFTs, path SL = layer, SL i -> VL i on every port) and turns the
// NueResult into the report's facts and one INFO line.
//
// Options: nue_partition (metis | cluster | random), nue_root (GUID or node
// description), nue_seed; the layer count is min(VL budget, max_sls), at
// most 15.
//
// Fails with one ERROR line when nue_root names no switch or several (a
// shared node description), when the switch graph is disconnected, when
// METIS fails, or on an internal error (an exception included).
// Time and memory: those of nue::route() plus O(S * L) to write the tables.
#pragma once

#include <string>

#include "core/engine/engine.h"
#include "core/minimal/dest_trees.h"
#include "core/nue/nue.h"

namespace keiro::nue {

// NueOptions from the engine options: opt.layers = max_layers (clamped to
// 1..kMaxDataVls), nue_partition, nue_seed, nue_root (resolved on f by
// Fabric::find_switch). False with one sentence in err for an unknown
// partition method or a nue_root that names no switch or several. The
// general settings (threads, the multicast layer) come from EngineInput.
bool read_options(const Options &o, const Fabric &f, int max_layers, NueOptions &opt,
                  std::string &err);

// Writes r's tables into out, which must be reset for f with
// Routing::SlScope::kPerDestination: every LFT column, the path SL of every
// LID (its layer) and SL i -> VL i for every layer; vls_used and sls_used.
// O(S * L).
void write_tables(const Fabric &f, const NueResult &r, Routing &out);

// Nue's routes on one layer as destination trees (every LID): one acyclic
// channel dependency graph for all destinations, so one VL is deadlock free
// on them; the best of one_vl_order_attempts(f) destination orders (nue.h),
// on up to `threads` workers. For engines asked for one-VL routes
// (EngineInput::one_vl_routes: keiro-acro, keiro-loren and keiro-dl compare
// them with their own). False with err when Nue fails (disconnected fabric).
// Time: nue::route() with one layer and its order attempts, plus O(S * L).
bool one_layer_trees(const Fabric &f, int threads, minimal::DestTrees &out, std::string &err);

// The registry entry (define_engine(), listed in core/registry/registry.cc).
extern const EngineDesc kEngine;

}  // namespace keiro::nue
