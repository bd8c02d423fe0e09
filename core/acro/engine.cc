// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/acro/engine.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/acro/one_vl.h"
#include "core/acro/switch_lids.h"
#include "core/dl/dl.h"
#include "core/layers/realize.h"
#include "core/log.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"
#include "core/minimal/forwarding_index.h"

namespace keiro::acro {

namespace {
constexpr const char *kName = "keiro-acro";
constexpr const char *kSummary =
    "balanced minimal routing made deadlock free by ACRO layers, realized as SLs + SL2VL";
constexpr OptionSpec kOptions[] = {
    int_option(
        "acro_seed", 0, 2147483647, "0",
        "keiro-acro: 0 = deterministic tie-breaking; other values shuffle destinations and ties"),
    int_option("acro_max_moves", 0, 2147483647, "0",
               "keiro-acro: most SL placements (with repair) before giving up; 0 = 40 per path"),
    int_option("acro_per_lid", 0, 1, "1",
               "keiro-acro: 1 = balance every LID (and LMC offset) on its own; 0 = one route per "
               "switch for all its LIDs (fewer paths to realize, often fewer SLs)"),
};
// One tree per switch as before per-LID routing: 2 refinement passes.
constexpr int32_t kPerSwitchRefine = 2;
// Per LID: 4 rip-up-and-reroute passes (they stop early when nothing moves).
// With 2, the 8-ary 3-tree ended at max EFI 640 against the leaf bound of 504
// that ftree meets; 4 reach the bound on 4..18-ary 3-trees and change max EFI
// elsewhere by -3% .. +1.4% (docs/acro.md section 1).
constexpr int32_t kPerLidRefine = 4;
// Most (source switch, LID) paths routed per LID: 20 M, about 2 GB while
// realizing (measured 6.6 M paths: 1 GB peak on the 18-ary 3-tree).
constexpr int64_t kMaxPerLidPaths = 20'000'000;
// Bottleneck passes after the refinement (BalancedOptions::polish, step 2d;
// they stop early when nothing moves, and never raise the max EFI).
// Measured (2026-11-27, max EFI before -> after, the same ACRO layers):
// `director 3 52 --uplinks 16` 1,476 -> 1,062; `director 2 40 --uplinks 12`
// 1,404 -> 1,080; 12-ary 3-tree with 2% failed links 3,360 -> 2,064; 6x6x6
// torus 788 -> 660; random 64 switches of degree 6 132 -> 112; intact fat
// trees unchanged (the leaf bound). 3 passes reached these on the balanced
// routing alone; 4 leave room. With a LID's peak over the channels it loads
// only (balanced.cc peak(), 2026-11-28): `director 3 52 --uplinks 16
// --fail-links 0.02` 1,476 -> 1,206 (1,440 before), `director 4 60
// --uplinks 10` 2,106 -> 1,944 (2,106).
constexpr int32_t kPolish = 4;
// Consistent choices (BalancedOptions::consistency): the first channel in
// port order within 5% of the cheapest. Measured (2026-11-25, ACRO layers /
// max EFI over average): 10x10x10 torus, 4 HCAs: 6 / - with the cheapest,
// 6 at 1-2%, 5 at 3%, 4 / 1.06x at 5%, 4 / 1.09x at 10%, 4 / 1.19x at 40%;
// 8x8x8, 4 HCAs: 5 / 1.16x, 4 / 1.06x at 5%, 4 / 1.09x at 10%; random
// fabrics: the same layers, max EFI 1.05-1.06x -> 1.10-1.13x (so not taken).
constexpr int32_t kConsistency = 5;
// Fewer layers, but not at any balance: while the balanced per-LID routes
// fit the VL budget, a routing that needs fewer layers is taken only if its
// max EFI is at most this many percent of theirs. One tree per switch sends
// all of a switch's LIDs down one path from every source; on a director
// fabric (`keiro topo director 3 52 --uplinks 16`) that put 36 rack
// switches' traffic to one rack switch on one link: 2 ACRO layers instead
// of 3, max EFI 11,664 (23x the average) instead of 1,476 (2.9x).
constexpr int64_t kFewerLayersEfiPercent = 125;
// Step 2e (rebalance()): an alternative taken for fewer layers is kept
// only while its max EFI is at most this many percent of the polished
// balanced routes' (when those fit, see there). A VL saved is worth less
// balance than the 1.2x that issue 32 allows between engines: at 125%
// keiro-acro kept 2 layers at 1.24x its polished 3-layer routes on
// `director 3 52 --uplinks 16 --fail-links 0.02` reversed (1.21x
// keiro-dl's); the tori's consistent routes stay (1.06-1.08x the average
// EFI, docs/acro.md section 1).
constexpr int64_t kRebalanceEfiPercent = 115;
// Most layers step 2e (rebalance()) trades an alternative's fewer layers
// for: see there.
constexpr int32_t kRebalanceLayers = 4;
// The routes taken so far and ACRO's layers on them.
struct Candidate {
  minimal::DestTrees trees;
  AcroResult layers;
  // The balanced routing that made trees (empty optional: another kind of
  // routes, up*/down* switch LIDs or one-VL routes).
  std::optional<minimal::BalancedOptions> routed;
  bool updown_switch_lids = false;  // then the switch LIDs rerouted up*/down*
  bool first = false;               // step 1's balanced per-LID routes
};

// What an alternative routing must keep to be taken for fewer layers: while
// the balanced routes' layers fit max_vls, a max EFI within
// kFewerLayersEfiPercent of theirs (balanced_efi); past the budget, any.
struct BalanceGuard {
  int32_t max_vls = 1;
  int64_t balanced_efi = 0;
  bool allows(const Fabric &f, const Candidate &best, const minimal::DestTrees &alt) const {
    if (best.layers.num_layers > max_vls) return true;
    return minimal::forwarding_index(f, alt).max * 100 <= balanced_efi * kFewerLayersEfiPercent;
  }
};

// Routes o and runs ACRO on it into alt; false if either fails. With ud,
// the switch LIDs are then routed up*/down* as step 2b does
// (updown_switch_lids(), switch_lids.h; false if that does not apply).
bool route_alternative(const Fabric &f, uint64_t seed, const minimal::BalancedOptions &o,
                       Candidate &alt, SwitchLidRoutes *ud = nullptr) {
  std::string err;
  acro::AcroOptions ao;
  ao.seed = seed;
  alt.routed = o;
  alt.updown_switch_lids = ud != nullptr;
  if (!minimal::balanced_routing(f, o, alt.trees, err)) return false;
  if (ud) {
    minimal::DestTrees t;
    if (!updown_switch_lids(f, alt.trees, t, *ud)) return false;
    alt.trees = std::move(t);
  }
  return assign(f, alt.trees, ao, alt.layers, err);
}

// Makes alt, routed with o, the routes taken.
void take(const minimal::BalancedOptions &o, Candidate &alt, Candidate &best, EngineResult &res) {
  best = std::move(alt);
  res.per_switch_trees = !o.per_lid;
  res.updown_switch_lids = 0;
  res.updown_routes = !o.updown.empty();
}

// Another balanced routing o, taken into best when ACRO needs fewer layers
// on it and the guard allows its balance; true if taken.
bool take_if_fewer(const Fabric &f, uint64_t seed, const minimal::BalancedOptions &o,
                   const BalanceGuard &guard, Candidate &best, EngineResult &res) {
  Candidate alt;
  if (!route_alternative(f, seed, o, alt) || alt.layers.num_layers >= best.layers.num_layers ||
      !guard.allows(f, best, alt.trees))
    return false;
  take(o, alt, best, res);
  return true;
}

// Consistent choices (core/minimal/balanced.h): where the loads allow,
// every destination takes the same turns, so the routes of different
// destinations cross in fewer ways; taken when ACRO then needs fewer
// layers (tori: the dimension order of the ports), and so fewer SLs. One
// tree per switch first (cheap); only when that needs fewer layers also
// one tree per LID (better balance), taken at no more layers than it, else
// the tree per switch, each only as the guard allows.
void consistent_routes(const Fabric &f, uint64_t seed, bool per_lid, const BalanceGuard &guard,
                       Candidate &best, EngineResult &res) {
  minimal::BalancedOptions co;
  co.seed = seed;
  co.consistency = kConsistency;
  co.per_lid = false;
  co.refine = kPerSwitchRefine;
  Candidate sw, lid;
  if (!route_alternative(f, seed, co, sw) || sw.layers.num_layers >= best.layers.num_layers) return;
  minimal::BalancedOptions lo = co;
  lo.per_lid = true;
  lo.refine = kPerLidRefine;
  if (per_lid && route_alternative(f, seed, lo, lid) &&
      lid.layers.num_layers <= sw.layers.num_layers && guard.allows(f, best, lid.trees))
    take(lo, lid, best, res);
  else if (guard.allows(f, best, sw.trees))
    take(co, sw, best, res);
  else
    return;
  res.consistent_routes = true;
}

// 2b. Routings that may need fewer ACRO layers than the balanced one (bo),
// each taken when it does: switch LIDs up*/down*, every route up*/down*,
// one tree per switch, consistent choices.
void fewer_layers(const Fabric &f, const EngineOptions &opt, minimal::BalancedOptions bo,
                  bool per_lid, const BalanceGuard &guard, Candidate &best, EngineResult &res) {
  const uint64_t seed = opt.layers.seed;
  std::string err;
  // Switch LIDs on up*/down* paths when every terminal route is up*/down*
  // (core/acro/switch_lids.h): taken when ACRO then needs fewer layers.
  if (best.layers.num_layers > 1) {
    Candidate ud;
    SwitchLidRoutes sl;
    acro::AcroOptions ao;
    ao.seed = seed;
    if (updown_switch_lids(f, best.trees, ud.trees, sl) &&
        assign(f, ud.trees, ao, ud.layers, err) && ud.layers.num_layers < best.layers.num_layers &&
        guard.allows(f, best, ud.trees)) {
      ud.routed = best.routed;
      ud.updown_switch_lids = true;
      best = std::move(ud);
      res.updown_switch_lids = sl.rerouted;
    }
    // Every route up*/down* when that keeps the CA routes minimal
    // (switch_lids.h): the balanced routing again, on legal paths only.
    minimal::BalancedOptions lo = bo;
    if (best.layers.num_layers > 1 &&
        updown_keeps_terminal_routes_minimal(f, sl.root >= 0 ? sl.root : dl::default_root(f),
                                             lo.updown))
      take_if_fewer(f, seed, lo, guard, best, res);
  }
  if (per_lid && best.layers.num_layers > 1) {
    bo.per_lid = false;
    bo.refine = kPerSwitchRefine;
    take_if_fewer(f, seed, bo, guard, best, res);
  }
  if (best.layers.num_layers > 1) consistent_routes(f, seed, per_lid, guard, best, res);
}

// 2c. Routes whose dependency graph is acyclic (core/acro/one_vl.h:
// balanced up*/down* or Nue's on one layer, the better balanced), one ACRO
// layer. Taken when one VL is asked for (EngineInput::one_vl_routes, the
// fixed-SL search) and the routes so far need more layers, else only when
// their max EFI is lower than the routes so far: fewer_layers() takes
// fewer layers at any balance past the VL budget (`keiro topo director 4
// 60 --uplinks 10` on 2 VLs: up*/down*, max EFI 5,040; Nue's 2,124). False
// (err) only when the routing fails.
bool one_vl(const EngineInput &in, const EngineOptions &opt, const minimal::BalancedOptions &bo,
            Candidate &best, EngineResult &res, std::string &err) {
  Candidate alt;
  acro::AcroOptions ao;
  ao.seed = opt.layers.seed;
  OneVlChoice choice;
  if (!one_vl_routes(in.fabric, bo, in.threads, alt.trees, choice, err) ||
      !assign(in.fabric, alt.trees, ao, alt.layers, err))
    return false;
  const bool must = in.one_vl_routes && best.layers.num_layers > 1;
  if (!must && minimal::forwarding_index(in.fabric, best.trees).max <=
                   (choice.nue ? choice.nue_efi : choice.updown_efi))
    return true;
  best = std::move(alt);
  res.one_vl = choice.nue ? "nue" : "updown";
  res.updown_routes = !choice.nue;
  res.updown_switch_lids = 0;
  return true;
}

// 2d. The routing taken, again with bottleneck passes
// (BalancedOptions::polish): taken when its max EFI is lower and ACRO
// needs no more layers on it. Polishing spreads routes over more turns, so
// ACRO may need more layers on them (random 64 switches of degree 6: 3
// instead of 2 in some labellings); taking them only at the same layers
// keeps the choice between balance and VLs where step 2b made it.
void polish(const Fabric &f, const EngineOptions &opt, Candidate &best, EngineResult &res) {
  minimal::BalancedOptions o = *best.routed;
  o.polish = kPolish;
  Candidate alt;
  SwitchLidRoutes sl;
  if (!route_alternative(f, opt.layers.seed, o, alt, best.updown_switch_lids ? &sl : nullptr) ||
      alt.layers.num_layers > best.layers.num_layers ||
      minimal::forwarding_index(f, alt.trees).max >= minimal::forwarding_index(f, best.trees).max)
    return;
  best = std::move(alt);
  res.polished = true;
  if (best.updown_switch_lids) res.updown_switch_lids = sl.rerouted;
}

// 2e. After an alternative taken for fewer layers (steps 2b-2c): the
// guard measured it against the balanced routes before the bottleneck
// passes, which may lower those far more than the alternative's own. The
// balanced routes bo, polished, replace it when their layers fit the VL
// budget and its max EFI is over kRebalanceEfiPercent of theirs:
// `director 3 52 --uplinks 16 --fail-links 0.02` reversed kept consistent
// routes on 2 layers at max EFI 1,476 where these have 3 at 1,188, and on
// `random 64 6` one tree per switch took 2 layers at 132-140 (110 on 3).
// Not routed when nothing can be that much better: every routing of
// minimal paths has the same average EFI, and every routing at least
// forwarding_index_bound(); both bound its max from below (tori: the
// consistent routes are within 1.1x of the average; the 12-ary 3-tree
// with 2% failed links: every route up*/down* at 2,064, 1.10x the bound
// of a leaf with a failed up-link, 1.5 s instead of 1.0 without it). At most kRebalanceLayers
// layers: the SLs a realization needs grow with the layers (10x10x10
// torus, 4 HCAs: 4 layers 9 SLs, 5 layers 13-16, 6 layers 26-27 of 16),
// and the alternative was taken for fewer layers, so that the routes fit.
void rebalance(const Fabric &f, const EngineOptions &opt, minimal::BalancedOptions bo,
               const BalanceGuard &guard, int32_t first_layers, Candidate &best,
               EngineResult &res) {
  // The passes spread routes over more turns: the polished routes need at
  // least about the layers of step 1's (the 1%-failed 10x10x10 torus: 6).
  if (first_layers > std::min(guard.max_vls, kRebalanceLayers)) return;
  const minimal::ForwardingIndex fi = minimal::forwarding_index(f, best.trees);
  const double floor = std::max(fi.avg, static_cast<double>(minimal::forwarding_index_bound(f)));
  if (static_cast<double>(fi.max) * 100 <= floor * kRebalanceEfiPercent) return;
  bo.polish = kPolish;
  Candidate alt;
  if (!route_alternative(f, opt.layers.seed, bo, alt) ||
      alt.layers.num_layers > std::min(guard.max_vls, kRebalanceLayers) ||
      fi.max * 100 <= minimal::forwarding_index(f, alt.trees).max * kRebalanceEfiPercent)
    return;
  take(bo, alt, best, res);
  res.consistent_routes = false;
  res.one_vl = "none";
  res.polished = true;
}

}  // namespace

LayerOptions read_layer_keys(const Options &o) {
  LayerOptions lo;
  lo.seed = static_cast<uint64_t>(o.get_int("acro_seed"));
  lo.max_moves = o.get_int("acro_max_moves");
  return lo;
}

bool read_options(const EngineInput &in, EngineOptions &out) {
  out.layers = read_layer_keys(in.options);
  out.per_lid = in.options.get_int("acro_per_lid") != 0;
  return true;
}

bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res) {
  const Fabric &f = in.fabric;
  std::string err;

  // 1. Balanced minimal routing, one tree per LID (core/minimal/balanced.h).
  Candidate best;
  minimal::BalancedOptions bo;
  bo.seed = opt.layers.seed;
  // Per-LID trees make up to S * LIDs paths for the realization (about 100
  // bytes each while realizing); past kMaxPerLidPaths one tree per switch.
  const int64_t per_lid_paths =
      static_cast<int64_t>(f.num_switches()) * static_cast<int64_t>(f.lids().size());
  const bool per_lid = opt.per_lid && per_lid_paths <= kMaxPerLidPaths;
  if (opt.per_lid && !per_lid)
    in.log.logf(LogLevel::kInfo,
                "%s: %d switches x %zu LIDs is over %lld paths: one route per switch for all its "
                "LIDs (acro_per_lid)",
                kName, f.num_switches(), f.lids().size(), (long long)kMaxPerLidPaths);
  bo.per_lid = per_lid;
  bo.refine = per_lid ? kPerLidRefine : kPerSwitchRefine;
  res.per_switch_trees = !per_lid;
  if (!minimal::balanced_routing(f, bo, best.trees, err)) return engine_error(in.log, kName, err);
  best.routed = bo;
  best.first = true;

  // 2. ACRO's layers. Per-LID trees add dependencies; when they need more
  // layers than one tree per switch does, the per-switch trees are taken
  // (fewer VLs first, balance second).
  acro::AcroOptions ao;
  ao.seed = opt.layers.seed;
  if (!assign(f, best.trees, ao, best.layers, err)) return engine_error(in.log, kName, err);
  const BalanceGuard guard{in.max_vls, minimal::forwarding_index(f, best.trees).max};
  const int32_t first_layers = best.layers.num_layers;
  fewer_layers(f, opt, bo, per_lid, guard, best, res);
  const bool unguarded = minimal::forwarding_index(f, best.trees).max * 100 >
                         guard.balanced_efi * kFewerLayersEfiPercent;
  if ((in.one_vl_routes || unguarded) && !one_vl(in, opt, bo, best, res, err))
    return engine_error(in.log, kName, err);
  const bool first = best.first;
  // Consistent choices (step 2b) were taken for fewer layers, and they are
  // what bottleneck passes undo: on the 10x10x10 torus both the polished
  // consistent routes and the polished plain ones needed more layers.
  if (best.routed && best.routed->consistency == 0) polish(f, opt, best, res);
  if (!first) rebalance(f, opt, bo, guard, first_layers, best, res);
  const minimal::DestTrees &trees = best.trees;
  AcroResult &layers = best.layers;
  minimal::write_lfts(f, trees, out);

  // 3. The layers realized as SLs and SL2VL (core/layers/realize.h).
  RealizeWording w;
  w.engine = kName;
  w.routes = "the minimal routes of this fabric";
  w.sl_hint = true;
  if (!realize_layers(f, layer_budget(in, trees), in.log, trees, opt.layers, w, out, res.layers,
                      &layers))
    return false;
  res.trees = trees.num_dests();
  res.max_efi = minimal::forwarding_index(f, trees).max;
  return true;
}

void report(const EngineInput &in, const EngineResult &res, EngineReport &rep) {
  add_layer_facts(res.layers, res.max_efi, rep);
  rep.add("trees", res.trees);
  rep.add("per_switch_trees", res.per_switch_trees ? 1 : 0);
  rep.add("updown_switch_lids", res.updown_switch_lids);
  rep.add("updown_routes", res.updown_routes ? 1 : 0);
  rep.add("consistent_routes", res.consistent_routes ? 1 : 0);
  rep.add("one_vl_routes", res.one_vl);
  rep.add("polished_routes", res.polished ? 1 : 0);
  const vlmap::VlMapStats &vs = res.layers.vlmap;
  in.log.logf(LogLevel::kInfo,
              "%s: %d ACRO layers; %lld switch-to-switch paths realized with %d VLs and %d SLs "
              "(%lld evictions, %lld misfits on first try); max edge forwarding index %lld",
              kName, res.layers.layers, (long long)vs.paths, vs.vls_used, vs.sls_used,
              (long long)vs.evictions, (long long)vs.first_pass_misfits, (long long)res.max_efi);
}

constexpr EngineSteps<EngineOptions, EngineResult> kSteps = {
    kName, Routing::SlScope::kPerSourceSwitch, read_options, run, report};
constinit const EngineDesc kEngine = define_engine<kSteps>("acro", kSummary, kOptions);

}  // namespace keiro::acro
