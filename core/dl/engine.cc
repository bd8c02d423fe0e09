// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/engine.h"

#include <algorithm>
#include <string>

#include "core/dl/dl.h"
#include "core/layers/pins.h"
#include "core/minimal/forwarding_index.h"
#include "core/nue/engine.h"
#include "core/vlmap/vlmap.h"

namespace keiro::dl {

namespace {

constexpr const char *kName = "keiro-dl";
constexpr const char *kSummary =
    "Descending Layers: up*/down*-style layers per VL, packets only descend; near-minimal "
    "destination trees, realized as SLs + SL2VL";
constexpr OptionSpec kOptions[] = {
    int_option(
        "dl_subnets", 0, 15, "0",
        "keiro-dl: sub-networks (one VL each); 0 = every VL of the budget; more than the budget "
        "is an error"),
    choice_option(
        "dl_restriction", "ud|ud-du|ud-dudu", "ud",
        "keiro-dl: rule inside the sub-networks: ud = (UD)*, ud-du = (UD-DU)*, ud-dudu = UD-(DU)*"),
    choice_option("dl_policy", "load|random|lowport", "load",
                  "keiro-dl: path selection among equally short legal next hops"),
    guid_or_name_option(
        "dl_root",
        "keiro-dl: root of the up/down spanning tree (GUID or node description); default: the "
        "switch with the smallest total distance to all others"),
    int_option("dl_seed", 0, 2147483647, "1",
               "keiro-dl: seed of dl_policy=random and of the SL realization"),
    choice_option(
        "dl_vl_choice", "free|exact", "free",
        "keiro-dl: exact = every hop on the VL of its sub-network; free = any VLs that keep the "
        "DL order (fewer SLs)"),
    choice_option(
        "dl_choices", "slack|lowest", "slack",
        "keiro-dl: next hops dl_policy chooses from: lowest = only those that keep the lowest "
        "sub-network (the paper's rule); slack = every equally short one that keeps all paths "
        "legal"),
};
// Consistent next hops when the balanced ones cannot be realized
// (PathSelector, percent). Measured (2026-11-25, 8 VLs, SLs needed / max EFI
// over average): 10x10x10 torus with 4 or 2 HCAs per switch: 21 / - with the
// least load, 13 / 1.15x at 5%, 11 / 1.21x at 10%; 8x8x8 (fits either way):
// 12 / 1.10x, 9 / 1.17x at 5%; random 256 x 8: 3 / 1.08x, 4 / 1.18x at 5%.
constexpr int kConsistency = 5;

const char *budget_hint(const EngineInput &in) {
  return in.qos ? "option max_vls, the ports' VLCap and OpenSM's max_op_vls"
                : "QoS is off: turn on 'qos TRUE' so that SL2VL tables are programmed";
}

// Copies the SL2VL rows and path SLs the realization wrote into from (SLs
// 0..14, for the destinations of t) into to as SLs 1..15; SL 0 of to keeps
// VL 0 everywhere. O(S * P^2 * SLs + K * S).
void shift_sls(const Fabric &f, const minimal::DestTrees &t, const Routing &from, Routing &to) {
  std::vector<uint8_t> ins;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    ins.assign(1, 0);
    for (int32_t term : f.terminals_of(s)) ins.push_back(f.terminal(term).sw_port);
    for (int32_t c : f.in_channels(s)) ins.push_back(f.channel(c).dst_port);
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
      const uint8_t op = f.channel(c).src_port;
      for (uint8_t ip : ins)
        for (int q = 0; q + 1 < kNumSls; ++q)
          to.set_vl(s, ip, op, static_cast<uint8_t>(q + 1),
                    from.vl(s, ip, op, static_cast<uint8_t>(q)));
    }
  }
  for (int32_t k = 0; k < t.num_dests(); ++k)
    for (uint16_t lid : t.dest_lids(k))
      for (int32_t s = 0; s < f.num_switches(); ++s)
        if (s != t.root[k]) to.set_path_sl(s, lid, static_cast<uint8_t>(from.path_sl(s, lid) + 1));
}

}  // namespace

bool read_options(const EngineInput &in, EngineOptions &out) {
  const Fabric &f = in.fabric;
  DlOptions &opt = out.dl;
  // The option specs (kOptions below) already restrict these to valid words.
  parse_restriction(in.options.get("dl_restriction"), opt.restriction);
  parse_policy(in.options.get("dl_policy"), opt.policy);
  opt.seed = static_cast<uint64_t>(in.options.get_int("dl_seed"));
  const long subnets = in.options.get_int("dl_subnets");
  if (subnets > in.max_vls) {
    in.log.logf(LogLevel::kError,
                "%s: dl_subnets=%ld asks for %ld sub-networks, but only %d VL%s available (%s)",
                kName, subnets, subnets, in.max_vls, in.max_vls == 1 ? " is" : "s are",
                budget_hint(in));
    return false;
  }
  opt.layers = subnets > 0 ? static_cast<int>(subnets) : std::max(1, in.max_vls);
  out.auto_layers = subnets == 0;
  if (in.options.has("dl_root")) {
    std::string err;
    opt.root = f.find_switch(in.options.get("dl_root"), err);
    if (opt.root < 0) {
      in.log.logf(LogLevel::kError, "%s: dl_root %s", kName, err.c_str());
      return false;
    }
  }
  out.exact = in.options.get("dl_vl_choice") == "exact";
  opt.slack = in.options.get("dl_choices") == "slack";
  out.max_sls = in.max_sls;
  // Spread LIDs ride on SL 0 apart from the realization (run()).
  opt.spread_lids = opt.layers == 1 || out.max_sls >= 2;
  return true;
}

namespace {

// One attempt's routes and the realization's counters.
struct Attempt {
  DlResult r;
  vlmap::VlMapStats vs;
  std::string realize_err;  // why the SL budget could not realize the layers
};

// 2. Realization of the layers of a.r as SLs + SL2VL into out. With every
// hop in layer 0 the reset tables (SL 0, VL 0 everywhere) are already right.
// When most destinations (LIDs) stay in layer 0 -- a fat tree routed from a
// leaf -- they keep SL 0 with VL 0 on every hop, and only the others go to
// the realization, on SLs 1.. (their SL2VL rows shifted up by one): the
// realization's cost grows with the paths it places.
bool realize_layers(const EngineInput &in, const EngineOptions &opt, int vls, Attempt &a,
                    Routing &out) {
  const Fabric &f = in.fabric;
  a.vs.vls_used = a.vs.sls_used = 1;
  if (a.r.layers_needed <= 1) return true;
  DlResult upper;
  upper_part(a.r, upper);
  // Only when LIDs were spread: otherwise the realization sees what it
  // always saw (one tree per switch) and the SLs stay as they were.
  const bool split = a.r.spread_trees > 0 && opt.max_sls >= 2 &&
                     2 * upper.trees.num_dests() <= a.r.trees.num_dests();
  const DlResult &todo = split ? upper : a.r;
  Routing shifted;
  if (split) shifted.reset(f, Routing::SlScope::kPerSourceSwitch);
  vlmap::VlDemand demand;
  vl_demand(f, todo, opt.exact, demand);
  vlmap::VlMapOptions vo;
  vo.max_vls = vls;
  vo.max_sls = split ? opt.max_sls - 1 : opt.max_sls;
  vo.seed = opt.dl.seed + 1;
  vo.threads = in.threads;
  // Re-routing: surviving paths keep their previous SLs where the new
  // routes allow (docs/rerouting.md); split: the realization's SL q is q + 1.
  const std::vector<int8_t> pins = layers::pins(f, in.hints, todo.trees, split ? 1 : 0);
  vo.pins = pins;
  if (!vlmap::realize(f, todo.trees, demand, vo, split ? shifted : out, a.vs, a.realize_err))
    return false;
  if (split) {
    shift_sls(f, upper.trees, shifted, out);
    ++a.vs.sls_used;
  }
  if (a.vs.pins > 0) layers::log_pins(in.log, kName, a.vs);
  return true;
}

enum class Tried { kOk, kUnrealized, kRouteFailed };

// One attempt: the routes (1. one legal in-tree per destination: a switch,
// or one LID of a switch whose LIDs are spread; dl.h), their LFTs, and the
// realization of their layers. kRouteFailed with err (nothing logged).
// given: the routes of dlo, already computed (moved from).
Tried attempt(const EngineInput &in, const EngineOptions &opt, const DlOptions &dlo, Attempt &a,
              Routing &out, std::string &err, DlResult *given = nullptr) {
  out.reset(in.fabric, Routing::SlScope::kPerSourceSwitch);
  a = Attempt{};
  if (given)
    a.r = std::move(*given);
  else if (!route(in.fabric, dlo, a.r, err))
    return Tried::kRouteFailed;
  minimal::write_lfts(in.fabric, a.r.trees, out);
  return realize_layers(in, opt, dlo.layers, a, out) ? Tried::kOk : Tried::kUnrealized;
}

// The ERROR line of layers the SL budget cannot realize, with hints only
// where they can help: more sub-networks give the realization more VLs to
// choose from (10x10x10 torus, measured 2026-11-24: 3 sub-networks need 37
// SLs, 4: 34, 5: 27, 6: 25, 8: 21), and free VL choice more than exact.
bool unrealized_error(const EngineInput &in, const EngineOptions &opt, const DlOptions &dlo,
                      const std::string &realize_err) {
  std::string hint;
  if (dlo.layers < in.max_vls)
    hint = strprintf("more dl_subnets, up to the VL budget of %d, may need fewer SLs", in.max_vls);
  if (opt.exact)
    hint += std::string(hint.empty() ? "" : "; ") + "dl_vl_choice=free gives more freedom";
  in.log.logf(LogLevel::kError,
              "%s: %d sub-networks %s: the SL budget cannot realize the layer changes%s: %s%s",
              kName, dlo.layers, restriction_name(dlo.restriction),
              dlo.consistency > 0 ? " (also with consistent next hops)" : "", realize_err.c_str(),
              hint.empty() ? "" : (" (" + hint + ")").c_str());
  return false;
}

void fill_result(const Fabric &f, const EngineOptions &opt, const DlOptions &dlo, const Attempt &a,
                 EngineResult &res) {
  res.vlmap = a.vs;
  res.options.dl = dlo;
  res.options.dl.root = opt.dl.root;
  res.root = a.r.updown.root;
  res.layers_needed = a.r.layers_needed;
  res.vls_used = a.vs.vls_used;
  res.sls_used = a.vs.sls_used;
  res.avg_hops = average_hops(f, a.r.trees);
  res.max_efi = minimal::forwarding_index(f, a.r.trees).max;
  res.repaired_dests = a.r.repaired_dests;
}

// Every LID spread (DlOptions::spread_upper, spread_upper_if_better()) only
// up to this many (source switch, LID) paths: the realization then places
// every LID's tree (about 100 bytes per path while realizing, as keiro-acro's
// per-LID trees).
constexpr int64_t kMaxSpreadPaths = 20'000'000;
// ... and only when their max EFI is at most this many percent of the
// routes taken (checked before the realization).
constexpr int64_t kSpreadGainPercent = 95;

// Whether spread_upper may be tried on f (dlo: the options of the run).
bool spread_allowed(const Fabric &f, const DlOptions &dlo) {
  const int64_t paths =
      static_cast<int64_t>(f.num_switches()) * static_cast<int64_t>(f.lids().size());
  return dlo.spread_lids && dlo.policy == Policy::kLoad && paths <= kMaxSpreadPaths;
}

}  // namespace

// One layer as short as all, but not at any balance: its max EFI at most
// this many percent of all layers'. On a director fabric a single
// up*/down* root leaves few legal ones among the equally short paths (from
// a spine, the other spines only below line chips; from a rack switch, no
// down-up turn at its line chips): `keiro topo director 4 60 --uplinks 10`,
// one layer max EFI 4,644 (6.8x the average), three layers 2,268 (3.3x).
constexpr int64_t kOneLayerEfiPercent = 125;

// Whether the routes of one layer (one: dlo with layers = 1, routed) keep a
// max EFI within kOneLayerEfiPercent of those of all dlo.layers; true if
// either fails to route (the attempt reports it). One more routing, no
// realization. spread: the routes of all layers with spread_upper, when
// spread_allowed() (spread_upper_if_better() takes them), else empty.
bool one_layer_balances(const Fabric &f, const DlOptions &dlo, DlResult &one, DlResult &spread) {
  DlOptions o = dlo;
  o.layers = 1;
  o.spread_lids = true;
  // All layers as run() may end up taking them: with every LID spread
  // where the realization allows (spread_upper_if_better()).
  DlOptions all_o = dlo;
  all_o.spread_upper = spread_allowed(f, dlo);
  DlResult all;
  std::string err;
  if (!route(f, o, one, err) || !route(f, all_o, all, err)) return true;
  const bool balances = minimal::forwarding_index(f, one.trees).max * 100 <=
                        minimal::forwarding_index(f, all.trees).max * kOneLayerEfiPercent;
  if (all_o.spread_upper) spread = std::move(all);
  return balances;
}

// 2c. One VL asked for (EngineInput::one_vl_routes): DL's one sub-network is
// up*/down* from one root, which on a director fabric leaves few legal
// paths among the shortest (`keiro topo director 3 52 --uplinks 16`: max
// EFI 13,284 on one sub-network, 1,620 on three). Nue's routes on one layer
// are deadlock free on one VL too; a holds DL's (realized on one VL) and is
// replaced by Nue's when their max EFI is lower. Nue failing keeps DL's.
namespace {

void nue_if_better(const EngineInput &in, const EngineOptions &opt, const DlOptions &dlo,
                   Attempt &a, Routing &out, EngineResult &res) {
  const Fabric &f = in.fabric;
  DlResult g;
  std::string err;
  if (!nue::one_layer_trees(f, in.threads, g.trees, err)) return;
  if (minimal::forwarding_index(f, g.trees).max >= minimal::forwarding_index(f, a.r.trees).max)
    return;
  g.restriction = a.r.restriction;
  g.layers = 1;
  g.layers_needed = 1;
  g.updown = std::move(a.r.updown);  // the root the report names
  if (attempt(in, opt, dlo, a, out, err, &g) == Tried::kOk) res.one_vl = "nue";
}

// 2b. Every switch's LIDs spread, also those whose trees leave sub-network
// 0 (DlOptions::spread_upper): taken when they realize with no more VLs and
// a max EFI within kSpreadGainPercent. Measured 2026-11-27 (max EFI before
// -> after, 8 VLs): `director 3 52 --uplinks 16` 1,620 -> 1,188, `director
// 4 60 --uplinks 10` 2,268 -> 1,980, `director 1 24 --uplinks 14` 972 ->
// 630; fat trees (every LID spread already) and tori (less than 5% gained)
// unchanged.
// spread: these routes if one_layer_balances() made them for the same
// options (dlo then has no consistency and as many layers), else empty.
void spread_upper_if_better(const EngineInput &in, const EngineOptions &opt, DlOptions &dlo,
                            Attempt &a, Routing &out, EngineResult &res, DlResult &spread) {
  const Fabric &f = in.fabric;
  if (a.r.unspread_groups == 0 || !spread_allowed(f, dlo)) return;
  DlOptions o = dlo;
  o.spread_upper = true;
  // The routes first: the realization, the expensive part, only for a
  // clear gain (the 10x10x10 torus: 1.7% lower, twice the time).
  DlResult r;
  std::string err;
  const bool given =
      !spread.trees.root.empty() && spread.layers == dlo.layers && dlo.consistency == 0;
  if (given)
    r = std::move(spread);
  else if (!route(f, o, r, err))
    return;
  if (minimal::forwarding_index(f, r.trees).max * 100 >
      minimal::forwarding_index(f, a.r.trees).max * kSpreadGainPercent)
    return;
  Attempt b;
  Routing rb;
  if (attempt(in, opt, o, b, rb, err, &r) != Tried::kOk || b.vs.vls_used > a.vs.vls_used) return;
  a = std::move(b);
  out = std::move(rb);
  dlo = o;
  res.spread_upper = true;
}

}  // namespace

bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res) {
  const Fabric &f = in.fabric;
  std::string err;
  // With dl_subnets 0, one layer when it gives every route between
  // terminals the hops of all layers (dl.h one_layer_suffices()).
  DlOptions dlo = opt.dl;
  res.options = opt;
  res.one_layer = false;
  DlResult one;     // the routes of one layer, when they were compared
  DlResult spread;  // and those of all layers with every LID spread (2b)
  if (opt.auto_layers && dlo.layers > 1 && f.num_switches() > 0) {
    if (dlo.root < 0) dlo.root = default_root(f);
    if (one_layer_suffices(f, dlo.restriction, dlo.layers, dlo.root) &&
        one_layer_balances(f, dlo, one, spread)) {
      dlo.layers = 1;
      dlo.spread_lids = true;
      res.one_layer = true;
    }
  }
  Attempt a;
  Tried t =
      attempt(in, opt, dlo, a, out, err, res.one_layer && !one.trees.root.empty() ? &one : nullptr);
  if (t == Tried::kRouteFailed) return engine_error(in.log, kName, err);
  // The balanced next hops cross in too many ways for the SL budget: route
  // again with consistent ones (path_select.h), which give up a little
  // balance for turns every destination shares (10x10x10 torus: 21 SLs
  // needed -> 13).
  res.consistent = false;
  if (t == Tried::kUnrealized && dlo.policy == Policy::kLoad && dlo.consistency == 0) {
    in.log.logf(LogLevel::kInfo,
                "%s: the SL budget cannot realize the layer changes of the balanced routes (%s); "
                "routing again with consistent next hops (the first port within %d%% of the "
                "least load)",
                kName, a.realize_err.c_str(), kConsistency);
    dlo.consistency = kConsistency;
    t = attempt(in, opt, dlo, a, out, err);
    if (t == Tried::kRouteFailed) return engine_error(in.log, kName, err);
    res.consistent = t == Tried::kOk;
  }
  if (t != Tried::kOk) return unrealized_error(in, opt, dlo, a.realize_err);
  res.spread_upper = false;
  spread_upper_if_better(in, opt, dlo, a, out, res, spread);
  res.one_vl = "none";
  if (in.one_vl_routes && dlo.layers == 1) nue_if_better(in, opt, dlo, a, out, res);
  out.vls_used = a.vs.vls_used;
  out.sls_used = a.vs.sls_used;
  fill_result(f, opt, dlo, a, res);
  return true;
}

void report(const EngineInput &in, const EngineResult &res, EngineReport &rep) {
  const Fabric &f = in.fabric;
  const DlOptions &o = res.options.dl;
  const std::string root = f.describe(res.root);
  rep.add("root", root);
  rep.add("restriction", restriction_name(o.restriction));
  rep.add("policy", policy_name(o.policy));
  rep.add("subnets", o.layers);
  rep.add("layers_needed", res.layers_needed);
  rep.add("vls_used", res.vls_used);
  rep.add("sls_used", res.sls_used);
  rep.add("avg_hops", strprintf("%.6f", res.avg_hops));
  rep.add("max_efi", res.max_efi);
  rep.add("repaired_dests", res.repaired_dests);
  rep.add("vl_choice", res.options.exact ? "exact" : "free");
  rep.add("choices", o.slack ? "slack" : "lowest");
  rep.add("one_layer", res.one_layer ? 1 : 0);
  rep.add("consistent_next_hops", res.consistent ? 1 : 0);
  rep.add("one_vl_routes", res.one_vl);
  rep.add("spread_upper", res.spread_upper ? 1 : 0);
  layers::add_pin_facts(res.vlmap, rep);
  in.log.logf(LogLevel::kInfo,
              "%s: %s, %d sub-network%s (%d needed), root %s, policy %s: average %.3f hops, "
              "max edge forwarding index %lld; realized with %d VL%s and %d SL%s%s",
              kName, restriction_name(o.restriction), o.layers, o.layers == 1 ? "" : "s",
              res.layers_needed, root.c_str(), policy_name(o.policy), res.avg_hops,
              static_cast<long long>(res.max_efi), res.vls_used, res.vls_used == 1 ? "" : "s",
              res.sls_used, res.sls_used == 1 ? "" : "s",
              res.one_vl == "nue" ? " (one VL asked for: Nue's routes on one layer, whose max "
                                    "edge forwarding index is lower than up*/down*'s)"
                                  : "");
}

constexpr EngineSteps<EngineOptions, EngineResult> kSteps = {
    kName, Routing::SlScope::kPerSourceSwitch, read_options, run, report};
constinit const EngineDesc kEngine = define_engine<kSteps>("dl", kSummary, kOptions);

}  // namespace keiro::dl
