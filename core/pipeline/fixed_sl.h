// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Option fixed_sl=N for every engine (docs/fixed-sl.md): tables that are
// deadlock free for the SA's path SLs, for all traffic on SL N (MPI through
// UCX_IB_SL / NCCL_IB_SL never asks the SA), and for any mix of the two.
//
// Design: the two kinds of traffic get disjoint VL sets on switch-to-switch
// links. The engine routes with the VL budget minus K VLs and with SLs other
// than N (its SLs are renamed around N: Routing::permute_sls); path_sl never
// answers N. SL N is realized on the engine's own routes with K VLs through
// SL2VL entries that depend on (switch, in port, out port) -- one SL can
// still change VL along a path: ACRO's layers on the routes (as destination
// trees) realized with one SL (core/layers/realize.h, vlmap with max_sls 1),
// shifted above the engine's VLs. Each VL set is acyclic on its own and
// they share no (channel, VL) vertex, so any mix is acyclic. When the
// engine's tables use a single VL on every switch-to-switch hop, SL N simply
// takes that VL (the same dependency graph): one VL in all.
//
// Search: engine VLs E = budget - 1 first (K = 1), then fewer while SL N's
// realization fails (skipping to budget - ACRO's layer count when ACRO says
// how many it needs); E = 1 always ends the search when the engine can route
// on one VL. SL N's realization is tried only up to 500,000 (source switch,
// destination) paths (its memory); beyond, straight to E = 1. Every attempt's log lines are held
// back; only the winning attempt's are passed on, followed by one INFO line about the split.
//
// Errors: exactly one ERROR line (max_sls < 2; the engine fails with the VLs
// left; no split works), false.
// Time: up to budget - 1 engine runs, each followed by ACRO on the routes
// (one destination per distinct LFT column) and the one-SL realization (its
// per-path repair capped at one placement per path); 1 or
// 2 engine runs beyond the path cap (a 1,000-switch fabric with 9,000 LIDs:
// keiro-nue at budget - 1 VLs, then on 1 VL).
// Memory: the trees (K * S next hops) and a second Routing for SL N's
// realization while it runs.
#pragma once

#include <string>

#include "core/engine/engine.h"

namespace keiro {

// The value of option fixed_sl, or -1 when it is not set.
int fixed_sl_option(const Options &o);

// Routes with engine e so that SL sl is deadlock free alone and mixed with
// the engine's own SLs (the design above). in.max_vls is the whole budget.
// out.vls_used / sls_used count both kinds. Facts: fixed_sl, sa_vls,
// fixed_sl_vls, fixed_sl_first_vl, fixed_sl_attempts.
bool route_fixed_sl(const EngineDesc &e, const EngineInput &in, int sl, Routing &out,
                    EngineReport &rep);

}  // namespace keiro
