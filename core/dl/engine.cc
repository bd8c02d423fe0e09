// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/engine.h"

#include <cinttypes>

#include "core/dl/dl.h"
#include "core/minimal/forwarding_index.h"
#include "core/vlmap/vlmap.h"

namespace keiro::dl {

namespace {

constexpr const char *kName = "keiro-dl";

std::string describe(const Fabric &f, int32_t s) {
  return strprintf("'%s' (0x%016" PRIx64 ")", f.sw(s).name.c_str(), f.sw(s).guid);
}

const char *budget_hint(const EngineInput &in) {
  return in.qos ? "option max_vls, the ports' VLCap and OpenSM's max_op_vls"
                : "QoS is off: turn on 'qos TRUE' so that SL2VL tables are programmed";
}

}  // namespace

bool route_engine(const EngineInput &in, Routing &out, EngineReport &rep) {
  const Fabric &f = in.fabric;
  out.reset(f, Routing::SlScope::kPerSourceSwitch);
  std::string err;

  dl::DlOptions opt;
  // The option specs (options.cc) already restrict these to valid words.
  dl::parse_restriction(in.options.get("dl_restriction"), opt.restriction);
  dl::parse_policy(in.options.get("dl_policy"), opt.policy);
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
  if (in.options.has("dl_root")) {
    const std::string value = in.options.get("dl_root");
    opt.root = f.find_switch(value, err);
    if (opt.root < 0) {
      in.log.logf(LogLevel::kError, "%s: dl_root %s", kName, err.c_str());
      return false;
    }
  }
  const bool exact = in.options.get("dl_vl_choice") == "exact";
  opt.slack = in.options.get("dl_choices") == "slack";

  // 1. Routes: one legal in-tree per destination switch.
  dl::DlResult r;
  if (!dl::route(f, opt, r, err)) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, err.c_str());
    return false;
  }
  minimal::write_lfts(f, r.trees, out);

  // 2. Realization of the layers as SLs + SL2VL. With every hop in layer 0
  // the reset tables (SL 0, VL 0 everywhere) are already right.
  vlmap::VlMapStats vs;
  vs.vls_used = vs.sls_used = 1;
  if (r.layers_needed > 1) {
    vlmap::VlDemand demand;
    dl::vl_demand(f, r, exact, demand);
    vlmap::VlMapOptions vo;
    vo.max_vls = opt.layers;
    vo.max_sls = in.max_sls;
    vo.seed = opt.seed + 1;
    if (!vlmap::realize(f, r.trees, demand, vo, out, vs, err)) {
      in.log.logf(LogLevel::kError,
                  "%s: %d sub-networks %s: the SL budget cannot realize the layer changes: %s "
                  "(fewer dl_subnets need fewer SLs; dl_vl_choice=free gives more freedom)",
                  kName, opt.layers, dl::restriction_name(opt.restriction), err.c_str());
      return false;
    }
  }

  const minimal::ForwardingIndex fi = minimal::forwarding_index(f, r.trees);
  const double hops = dl::average_hops(f, r.trees);
  rep.add("root", describe(f, r.updown.root));
  rep.add("restriction", dl::restriction_name(opt.restriction));
  rep.add("policy", dl::policy_name(opt.policy));
  rep.add("subnets", opt.layers);
  rep.add("layers_needed", r.layers_needed);
  rep.add("vls_used", vs.vls_used);
  rep.add("sls_used", vs.sls_used);
  rep.add("avg_hops", strprintf("%.6f", hops));
  rep.add("max_efi", fi.max);
  rep.add("repaired_dests", r.repaired_dests);
  rep.add("vl_choice", exact ? "exact" : "free");
  rep.add("choices", opt.slack ? "slack" : "lowest");
  out.vls_used = vs.vls_used;
  out.sls_used = vs.sls_used;
  in.log.logf(LogLevel::kInfo,
              "%s: %s, %d sub-network%s (%d needed), root %s, policy %s: average %.3f hops, "
              "max edge forwarding index %lld; realized with %d VL%s and %d SL%s",
              kName, dl::restriction_name(opt.restriction), opt.layers, opt.layers == 1 ? "" : "s",
              r.layers_needed, describe(f, r.updown.root).c_str(), dl::policy_name(opt.policy),
              hops, static_cast<long long>(fi.max), vs.vls_used, vs.vls_used == 1 ? "" : "s",
              vs.sls_used, vs.sls_used == 1 ? "" : "s");
  return true;
}

}  // namespace keiro::dl

namespace keiro::dl {

namespace {
constexpr OptionSpec kOptions[] = {
    {"dl_subnets", OptionSpec::kInt, 0, 15, nullptr, "0",
     "keiro-dl: sub-networks (one VL each); 0 = every VL of the budget; more than the budget "
     "is an error"},
    {"dl_restriction", OptionSpec::kChoice, 0, 0, "ud|ud-du|ud-dudu", "ud",
     "keiro-dl: rule inside the sub-networks: ud = (UD)*, ud-du = (UD-DU)*, ud-dudu = UD-(DU)*"},
    {"dl_policy", OptionSpec::kChoice, 0, 0, "load|random|lowport", "load",
     "keiro-dl: path selection among equally short legal next hops"},
    {"dl_root", OptionSpec::kGuidOrName, 0, 0, nullptr, "",
     "keiro-dl: root of the up/down spanning tree (GUID or node description); default: the "
     "switch with the smallest total distance to all others"},
    {"dl_seed", OptionSpec::kInt, 0, 2147483647, nullptr, "1",
     "keiro-dl: seed of dl_policy=random and of the SL realization"},
    {"dl_vl_choice", OptionSpec::kChoice, 0, 0, "free|exact", "free",
     "keiro-dl: exact = every hop on the VL of its sub-network; free = any VLs that keep the "
     "DL order (fewer SLs)"},
    {"dl_choices", OptionSpec::kChoice, 0, 0, "slack|lowest", "slack",
     "keiro-dl: next hops dl_policy chooses from: lowest = only those that keep the lowest "
     "sub-network (the paper's rule); slack = every equally short one that keeps all paths legal"},
};
}  // namespace

constinit const EngineDesc kEngine = {
    "dl", "keiro-dl", route_engine,
    "Descending Layers: up*/down*-style layers per VL, packets only descend; near-minimal "
    "destination trees, realized as SLs + SL2VL",
    kOptions};

}  // namespace keiro::dl
