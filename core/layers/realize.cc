// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// ACRO layers -> VlDemand -> SL2VL realization, shared by keiro-acro and
// keiro-loren (core/layers/realize.h).
#include "core/layers/realize.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "core/layers/acro.h"
#include "core/layers/pins.h"
#include "core/log.h"

namespace keiro::acro {

namespace {
// "; with 16 SLs it fits (N SLs used)" or "; with 16 SLs N paths stay
// unplaced": what a second realization with every SL gives.
std::string all_sls_hint(const Fabric &f, const minimal::DestTrees &trees,
                         const vlmap::VlDemand &demand, const vlmap::VlMapOptions &vo) {
  Routing probe;
  probe.reset(f, Routing::SlScope::kPerSourceSwitch);
  vlmap::VlMapOptions all = vo;
  all.max_sls = kNumSls;
  all.pins = {};
  vlmap::VlMapStats ps;
  std::string perr;
  return vlmap::realize(f, trees, demand, all, probe, ps, perr)
             ? strprintf("; with %d SLs it fits (%d SLs used)", kNumSls, ps.sls_used)
             : strprintf("; with %d SLs %lld paths stay unplaced", kNumSls, (long long)ps.unplaced);
}
}  // namespace

LayerBudget layer_budget(const EngineInput &in, const minimal::DestTrees &trees) {
  LayerBudget b;
  b.max_vls = in.max_vls;
  b.max_sls = in.max_sls;
  b.qos = in.qos;
  b.threads = in.threads;
  b.pins = layers::pins(in.fabric, in.hints, trees);
  return b;
}

bool realize_layers(const Fabric &f, const LayerBudget &b, Logger &log,
                    const minimal::DestTrees &trees, const LayerOptions &lo,
                    const RealizeWording &w, Routing &out, LayerRealization &res,
                    AcroResult *given) {
  assert(out.sl_scope() == Routing::SlScope::kPerSourceSwitch &&
         "acro::realize_layers: out must be reset with SlScope::kPerSourceSwitch");
  std::string err;

  // ACRO's layers.
  AcroResult own;
  AcroResult &acro = given ? *given : own;
  AcroOptions ao;
  ao.seed = lo.seed;
  if (!given && !assign(f, trees, ao, acro, err)) {
    res.outcome = LayerRealization::kAcroFailed;
    res.error = err;
    return engine_error(log, w.engine, err);
  }
  res.layers = acro.num_layers;
  res.max_height = acro.max_height;
  res.acro_seconds = acro.seconds;
  const int layers = std::max(1, acro.num_layers);
  res.hops_per_layer.assign(layers, 0);
  for (int32_t k = 0; k < trees.num_dests(); ++k)
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (s != trees.root[k] && acro.hop_layer(k, s) < layers)
        ++res.hops_per_layer[acro.hop_layer(k, s)];
  if (layers > b.max_vls) {
    res.outcome = LayerRealization::kTooFewVls;
    log.logf(LogLevel::kError, "%s: ACRO needs %d VLs for %s, only %d allowed%s", w.engine, layers,
             w.routes.c_str(), b.max_vls,
             b.qos ? " (option max_vls, the ports' VLCap and OpenSM's max_op_vls)"
                   : " (QoS is off: turn on 'qos TRUE' so that SL2VL tables are programmed)");
    return false;
  }

  // Realization: SLs and SL2VL.
  vlmap::VlDemand demand;
  demand.rank = std::move(acro.rank);
  demand.rank_rows = acro.num_layers;
  vlmap::VlMapOptions vo;
  vo.max_vls = b.max_vls;
  vo.max_sls = b.max_sls;
  vo.seed = lo.seed + 1;
  vo.max_moves = lo.max_moves;
  vo.method = lo.method;
  vo.threads = b.threads;
  // Re-routing: the surviving paths keep their previous SLs where the new
  // routes allow (docs/rerouting.md).
  vo.pins = b.pins;
  vlmap::VlMapStats &vs = res.vlmap;
  if (!vlmap::realize(f, trees, demand, vo, out, vs, err)) {
    res.outcome = LayerRealization::kUnrealized;
    res.error = err;
    // The tree method already counted the SLs it would need (no second run).
    std::string hint;
    if (w.sl_hint && vo.max_sls < kNumSls && !vs.unplaceable) {
      if (vs.needed_sls > 0 && vs.needed_sls <= kNumSls)
        hint = strprintf("; with %d SLs it fits (%d SLs used)", kNumSls, vs.needed_sls);
      else if (vo.method != vlmap::VlMapOptions::kTree)
        hint = all_sls_hint(f, trees, demand, vo);
    }
    log.logf(LogLevel::kError, "%s: %d ACRO layers%s: %s%s", w.engine, acro.num_layers,
             w.where.c_str(), err.c_str(), hint.c_str());
    return false;
  }
  if (vs.pins > 0) layers::log_pins(log, w.engine, vs);
  res.outcome = LayerRealization::kRealized;
  out.vls_used = vs.vls_used;
  out.sls_used = vs.sls_used;
  return true;
}

void add_layer_facts(const LayerRealization &res, int64_t max_efi, EngineReport &rep) {
  const vlmap::VlMapStats &vs = res.vlmap;
  rep.add("layers", res.layers);
  rep.add("vls_used", vs.vls_used);
  rep.add("sls_used", vs.sls_used);
  rep.add("paths", vs.paths);
  rep.add("first_pass_misfits", vs.first_pass_misfits);
  rep.add("evictions", vs.evictions);
  rep.add("moves", vs.moves);
  rep.add("max_efi", max_efi);
  rep.add("acro_seconds", strprintf("%.3f", res.acro_seconds));
  rep.add("vlmap_seconds", strprintf("%.3f", vs.seconds));
  layers::add_pin_facts(vs, rep);
}

}  // namespace keiro::acro
