// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/acro/engine.h"

#include <algorithm>
#include <string>

#include "core/acro/acro.h"
#include "core/log.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"
#include "core/minimal/forwarding_index.h"
#include "core/vlmap/vlmap.h"

namespace keiro {

namespace {
constexpr const char *kName = "keiro-acro";

void fact(EngineReport &rep, const char *key, double v) {
  rep.add(key, strprintf("%.3f", v));
}
}  // namespace

bool route_acro(const EngineInput &in, Routing &out, EngineReport &rep) {
  const Fabric &f = in.fabric;
  out.reset(f, Routing::SlScope::kPerSourceSwitch);
  const auto seed = static_cast<uint64_t>(in.options.get_int("acro_seed"));
  std::string err;

  // 1. Balanced minimal routing.
  DestTrees trees;
  BalancedOptions bo;
  bo.seed = seed;
  if (!balanced_minimal_routing(f, bo, trees, err)) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, err.c_str());
    return false;
  }
  write_lfts(f, trees, out);

  // 2. ACRO's layers.
  AcroResult acro;
  AcroOptions ao;
  ao.seed = seed;
  if (!acro_assign(f, trees, ao, acro, err)) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, err.c_str());
    return false;
  }
  const int layers = std::max(1, acro.num_layers);
  if (layers > in.max_vls) {
    in.log.logf(LogLevel::kError,
                "%s: ACRO needs %d VLs for the minimal routes of this fabric, only %d allowed%s",
                kName, layers, in.max_vls,
                in.qos ? " (option max_vls, the ports' VLCap and OpenSM's max_op_vls)"
                       : " (QoS is off: turn on 'qos TRUE' so that SL2VL tables are programmed)");
    return false;
  }

  // 3. Realization: SLs and SL2VL.
  VlDemand demand;
  demand.rank = std::move(acro.rank);
  demand.rank_rows = acro.num_layers;
  VlMapOptions vo;
  vo.max_vls = in.max_vls;
  vo.max_sls = in.max_sls;
  vo.seed = seed + 1;
  vo.max_moves = in.options.get_int("acro_max_moves");
  VlMapStats vs;
  if (!realize_vlmap(f, trees, demand, vo, out, vs, err)) {
    std::string hint;
    if (vo.max_sls < kNumSls && !vs.unplaceable) {
      Routing probe;
      probe.reset(f, Routing::SlScope::kPerSourceSwitch);
      VlMapOptions all = vo;
      all.max_sls = kNumSls;
      VlMapStats ps;
      std::string perr;
      hint = realize_vlmap(f, trees, demand, all, probe, ps, perr)
                 ? strprintf("; with %d SLs it fits (%d SLs used)", kNumSls, ps.sls_used)
                 : strprintf("; with %d SLs %lld paths stay unplaced", kNumSls,
                             (long long)ps.unplaced);
    }
    in.log.logf(LogLevel::kError, "%s: %d ACRO layers: %s%s", kName, acro.num_layers, err.c_str(),
                hint.c_str());
    return false;
  }

  const ForwardingIndex fi = forwarding_index(f, trees);
  rep.add("layers", acro.num_layers);
  rep.add("vls_used", vs.vls_used);
  rep.add("sls_used", vs.sls_used);
  rep.add("paths", vs.paths);
  rep.add("first_pass_misfits", vs.first_pass_misfits);
  rep.add("evictions", vs.evictions);
  rep.add("moves", vs.moves);
  rep.add("max_efi", fi.max);
  fact(rep, "acro_seconds", acro.seconds);
  fact(rep, "vlmap_seconds", vs.seconds);
  out.vls_used = vs.vls_used;
  out.sls_used = vs.sls_used;
  in.log.logf(LogLevel::kInfo,
              "%s: %d ACRO layers; %lld switch-to-switch paths realized with %d VLs and %d SLs "
              "(%lld evictions, %lld misfits on first try); max edge forwarding index %lld",
              kName, acro.num_layers, (long long)vs.paths, vs.vls_used, vs.sls_used,
              (long long)vs.evictions, (long long)vs.first_pass_misfits, (long long)fi.max);
  return true;
}

}  // namespace keiro
