// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/engine.h"

#include <algorithm>

#include "core/acro/engine.h"
#include "core/acro/one_vl.h"
#include "core/layers/acro.h"
#include "core/layers/realize.h"
#include "core/loren/auto_layout.h"
#include "core/loren/layout.h"
#include "core/loren/loren.h"
#include "core/minimal/balanced.h"
#include "core/minimal/dest_trees.h"
#include "core/minimal/forwarding_index.h"

namespace keiro::loren {

namespace {
constexpr const char *kName = "keiro-loren";
constexpr const char *kSummary =
    "LOREN: compact layout-oriented tables (loren_layout, loren_tmax) made deadlock free by "
    "ACRO, realized as SLs + SL2VL";
// keiro-loren also reads acro_seed and acro_max_moves (keiro-acro's keys).
constexpr OptionSpec kOptions[] = {
    path_option("loren_layout",
                "keiro-loren: layout file, one 'GUID-or-name X Y' line per switch (docs/loren.md); "
                "'auto' derives a grid layout from the links"),
    int_option("loren_tmax", 0, 65535, "0",
               "keiro-loren: most table entries per switch; 0 = the smallest number that works"),
};

void fact(EngineReport &rep, const char *key, double v) {
  rep.add(key, strprintf("%.3f", v));
}
}  // namespace

bool read_options(const EngineInput &in, EngineOptions &out) {
  // The ACRO/realization stage takes keiro-acro's keys (docs/loren.md).
  out.layers = acro::read_layer_keys(in.options);
  out.loren.seed = out.layers.seed;
  out.loren.tmax = static_cast<int32_t>(in.options.get_int("loren_tmax"));
  out.layout_path = in.options.get("loren_layout");
  if (out.layout_path.empty()) {
    in.log.logf(LogLevel::kError,
                "%s: option loren_layout is not set (a file with one 'GUID-or-name X Y' line "
                "per switch, see docs/loren.md; loren_layout=auto derives a grid layout from "
                "the links)",
                kName);
    return false;
  }
  return true;
}

namespace {
// The layout file, or with "auto" a layout derived from the links
// (core/loren/auto_layout.h), announced by one INFO line.
bool get_layout(const EngineInput &in, const std::string &path, Layout &layout, std::string &err) {
  if (path != "auto") return read_layout(path, in.fabric, layout, err);
  AutoLayoutStats st;
  if (!derive_layout(in.fabric, layout, st, err)) {
    err = "loren_layout=auto: " + err;
    return false;
  }
  in.log.logf(LogLevel::kInfo,
              "%s: loren_layout=auto: no layout file, positions derived from the links: %dx%d "
              "grid, links %.2f grid steps long on average, longest %d ('keiro topo layout' "
              "writes it as a file to edit; the machine room's real positions usually need "
              "fewer table entries)",
              kName, st.width, st.height,
              st.links > 0 ? static_cast<double>(st.total_length) / st.links : 0.0, st.longest);
  return true;
}

// Whether ACRO finds one layer on LOREN's routes t.
bool one_layer(const Fabric &f, const EngineOptions &opt, const minimal::DestTrees &t) {
  acro::AcroOptions ao;
  ao.seed = opt.layers.seed;
  acro::AcroResult r;
  std::string err;
  return acro::assign(f, t, ao, r, err) && r.num_layers <= 1;
}

}  // namespace

bool run(const EngineInput &in, const EngineOptions &opt, Routing &out, EngineResult &res) {
  const Fabric &f = in.fabric;
  std::string err;

  // 1. The layout: the admin's file, or one derived from the links.
  Layout layout;
  if (!get_layout(in, opt.layout_path, layout, err)) return engine_error(in.log, kName, err);
  if (layout.absent > 0)
    in.log.logf(LogLevel::kInfo,
                "%s: layout %s: %d switch%s not in the fabric skipped (first: %s); their "
                "positions are holes in the grid",
                kName, opt.layout_path.c_str(), layout.absent, layout.absent == 1 ? "" : "es",
                layout.first_absent.c_str());

  // 2. LOREN's tables and forwarding rule (livelock checked).
  LorenRouting &lr = res.routing;
  if (!route(f, layout, opt.loren, lr, err)) {
    // After a fault (a switch gone leaves a hole in the grid, which LOREN's
    // forwarding cannot cross) the previous LOREN routing may still be
    // repaired: hand out balanced minimal LFTs as the guide of the
    // incremental re-route (EngineReport::repair_only, core/reroute/incremental.h).
    if (!in.hints || !in.hints->may_repair) return engine_error(in.log, kName, err);
    minimal::DestTrees guide;
    std::string why;
    if (!minimal::balanced_routing(f, minimal::BalancedOptions{}, guide, why))
      return engine_error(in.log, kName, err);
    minimal::write_lfts(f, guide, out);
    res.repair_only = err;
    return true;
  }
  // 3. One VL asked for (EngineInput::one_vl_routes: the fixed-SL search)
  // and ACRO needs more layers on LOREN's routes: routes with an acyclic
  // dependency graph instead (core/acro/one_vl.h), one layer.
  const minimal::DestTrees *routes = &lr.trees;
  minimal::DestTrees updown;
  if (in.one_vl_routes && !one_layer(f, opt, lr.trees)) {
    acro::OneVlChoice choice;
    if (!acro::one_vl_routes(f, minimal::BalancedOptions{}, in.threads, updown, choice, err))
      return engine_error(in.log, kName, err);
    routes = &updown;
    res.one_vl = choice.nue ? "nue" : "updown";
  }
  minimal::write_lfts(f, *routes, out);

  // 4. ACRO's layers on the routes, realized as SLs and SL2VL
  // (core/layers/realize.h).
  acro::RealizeWording w;
  w.engine = kName;
  w.routes = res.one_vl != "none" ? "the one-VL routes (" + res.one_vl + ")"
                                  : strprintf("LOREN's routes (t_max %d)", lr.tables.tmax);
  w.where = " on " + w.routes;
  if (!acro::realize_layers(f, acro::layer_budget(in, *routes), in.log, *routes, opt.layers, w, out,
                            res.layers))
    return false;
  res.max_efi = minimal::forwarding_index(f, *routes).max;
  return true;
}

void report(const EngineInput &in, const EngineResult &res, EngineReport &rep) {
  if (!res.repair_only.empty()) {
    rep.repair_only = "LOREN cannot route this fabric: " + res.repair_only;
    return;
  }
  const Fabric &f = in.fabric;
  const LorenRouting &lr = res.routing;
  const LorenTables &t = lr.tables;
  const int32_t S = f.num_switches();
  int32_t tmin = S > 0 ? t.size(0) : 0;
  std::string sizes;
  for (int32_t s = 0; s < S; ++s) {
    tmin = std::min(tmin, t.size(s));
    sizes += (s ? " " : "") + std::to_string(t.size(s));
  }
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
  acro::add_layer_facts(res.layers, res.max_efi, rep);
  rep.add("one_vl_routes", res.one_vl);
  rep.add("table_sizes", sizes);  // last: long on big fabrics
  in.log.logf(LogLevel::kInfo,
              "%s: t_max %d (mandatory entries need %d); tables %d..%d entries; %.3f hops on "
              "average (minimal %.3f, max stretch %.2f); %d ACRO layers realized with %d VLs and "
              "%d SLs",
              kName, t.tmax, t.required, tmin, t.max_size(), lr.avg_hops, lr.avg_min_hops,
              lr.max_stretch, res.layers.layers, res.layers.vlmap.vls_used,
              res.layers.vlmap.sls_used);
  if (res.one_vl != "none")
    in.log.logf(LogLevel::kInfo,
                "%s: one VL asked for (fixed_sl) and ACRO needs more on LOREN's routes: the "
                "tables hold %s routes on one VL instead (max edge forwarding index %lld)",
                kName, res.one_vl == "nue" ? "Nue's" : "balanced up*/down*",
                static_cast<long long>(res.max_efi));
}

constexpr EngineSteps<EngineOptions, EngineResult> kSteps = {
    kName, Routing::SlScope::kPerSourceSwitch, read_options, run, report};
constinit const EngineDesc kEngine = define_engine<kSteps>("loren", kSummary, kOptions);

}  // namespace keiro::loren
