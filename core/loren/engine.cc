// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/engine.h"

#include <algorithm>

#include "core/acro/acro.h"
#include "core/loren/layout.h"
#include "core/loren/loren.h"
#include "core/minimal/dest_trees.h"
#include "core/minimal/forwarding_index.h"
#include "core/vlmap/vlmap.h"

namespace keiro {

namespace {
constexpr const char *kName = "keiro-loren";

void fact(EngineReport &rep, const char *key, double v) {
  rep.add(key, strprintf("%.3f", v));
}
}  // namespace

bool route_loren(const EngineInput &in, Routing &out, EngineReport &rep) {
  const Fabric &f = in.fabric;
  out.reset(f, Routing::SlScope::kPerSourceSwitch);
  const auto seed = static_cast<uint64_t>(in.options.get_int("acro_seed"));
  std::string err;

  // 1. The layout.
  const std::string path = in.options.get("loren_layout");
  if (path.empty()) {
    in.log.logf(LogLevel::kError,
                "%s: option loren_layout is not set (a file with one 'GUID-or-name X Y' line "
                "per switch, see docs/loren.md)",
                kName);
    return false;
  }
  Layout layout;
  if (!read_layout(path, f, layout, err)) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, err.c_str());
    return false;
  }

  // 2. LOREN's tables and forwarding rule (livelock checked).
  LorenOptions lo;
  lo.tmax = static_cast<int32_t>(in.options.get_int("loren_tmax"));
  lo.seed = seed;
  LorenRouting lr;
  if (!loren_route(f, layout, lo, lr, err)) {
    in.log.logf(LogLevel::kError, "%s: %s", kName, err.c_str());
    return false;
  }
  const DestTrees &trees = lr.trees;
  write_lfts(f, trees, out);

  // 3. ACRO's layers on LOREN's routes.
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
                "%s: ACRO needs %d VLs for LOREN's routes (t_max %d), only %d allowed%s", kName,
                layers, lr.tables.tmax, in.max_vls,
                in.qos ? " (option max_vls, the ports' VLCap and OpenSM's max_op_vls)"
                       : " (QoS is off: turn on 'qos TRUE' so that SL2VL tables are programmed)");
    return false;
  }

  // 4. Realization: SLs and SL2VL.
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
    in.log.logf(LogLevel::kError, "%s: %d ACRO layers on LOREN's routes (t_max %d): %s", kName,
                acro.num_layers, lr.tables.tmax, err.c_str());
    return false;
  }

  const LorenTables &t = lr.tables;
  const int32_t S = f.num_switches();
  int32_t tmin = S > 0 ? t.size(0) : 0;
  std::string sizes;
  for (int32_t s = 0; s < S; ++s) {
    tmin = std::min(tmin, t.size(s));
    sizes += (s ? " " : "") + std::to_string(t.size(s));
  }
  const ForwardingIndex fi = forwarding_index(f, trees);
  rep.add("tmax", t.tmax);
  rep.add("required_entries", t.required);
  if (t.required_switch >= 0) rep.add("required_switch", f.sw(t.required_switch).name);
  rep.add("table_size_min", tmin);
  fact(rep, "table_size_avg", S > 0 ? static_cast<double>(t.entries.size()) / S : 0.0);
  rep.add("table_size_max", t.max_size());
  rep.add("entries_adjacent", t.adjacent);
  rep.add("entries_grid_neighbour", t.grid_neighbour);
  rep.add("entries_distant", t.distant);
  fact(rep, "avg_hops", lr.avg_hops);
  fact(rep, "avg_min_hops", lr.avg_min_hops);
  rep.add("max_hops", lr.max_hops);
  fact(rep, "max_stretch", lr.max_stretch);
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
  rep.add("table_sizes", sizes);  // last: long on big fabrics
  out.vls_used = vs.vls_used;
  out.sls_used = vs.sls_used;
  in.log.logf(LogLevel::kInfo,
              "%s: t_max %d (mandatory entries need %d); tables %d..%d entries; %.3f hops on "
              "average (minimal %.3f, max stretch %.2f); %d ACRO layers realized with %d VLs and "
              "%d SLs",
              kName, t.tmax, t.required, tmin, t.max_size(), lr.avg_hops, lr.avg_min_hops,
              lr.max_stretch, acro.num_layers, vs.vls_used, vs.sls_used);
  return true;
}

}  // namespace keiro
