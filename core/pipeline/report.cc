// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/pipeline/report.h"

#include <string>

namespace keiro::pipeline {

namespace {

void fixed_sl_facts(const FixedSlResult &f, EngineReport &rep) {
  rep.add("fixed_sl", f.sl);
  rep.add("sa_vls", f.sa_vls);
  rep.add("fixed_sl_vls", f.fixed_sl_vls);
  rep.add("fixed_sl_first_vl", f.first_vl);
  rep.add("fixed_sl_attempts", f.attempts);
}

void reroute_facts(const reroute::Result &r, EngineReport &rep) {
  if (r.previous_pairs >= 0) rep.add("previous_pairs", static_cast<long>(r.previous_pairs));
  if (r.renamed_sls_changed >= 0) {
    rep.add("renamed_sls_changed", static_cast<long>(r.renamed_sls_changed));
    rep.add("fresh_sls_changed", static_cast<long>(r.fresh_sls_changed));
  }
  if (r.incremental >= 0) {
    rep.add("incremental", r.incremental ? "yes" : "no");
    rep.add("incremental_seconds", strprintf("%.3f", r.incremental_seconds));
  }
  if (r.incremental_relaxed) rep.add("incremental_relaxed", "yes");
  if (r.lft_counts) {
    rep.add("kept_lft_entries", static_cast<long>(r.kept_lft_entries));
    rep.add("repaired_lft_entries", static_cast<long>(r.repaired_lft_entries));
    rep.add("changed_paths", static_cast<long>(r.changed_paths));
  }
  if (r.sl_changed_paths >= 0) rep.add("sl_changed_paths", static_cast<long>(r.sl_changed_paths));
  if (r.stale) {
    rep.add("stale_sls_dropped", static_cast<long>(r.stale_sls_dropped));
    rep.add("stale_sls_delivered", static_cast<long>(r.stale_sls_delivered));
    rep.add("stale_sls_unsafe", static_cast<long>(r.stale_sls_unsafe));
  }
  if (r.sls_changed >= 0) rep.add("sls_changed", static_cast<long>(r.sls_changed));
  if (!r.sls_kept.empty()) rep.add("sls_kept", r.sls_kept);
  if (r.keep_checks >= 0) rep.add("keep_checks", static_cast<long>(r.keep_checks));
  if (r.repaired_previous) rep.add("repaired_previous", "yes");
  if (!r.routed_afresh) rep.add("routed_afresh", "no");
}

}  // namespace

void write_facts(const StageResults &r, EngineReport &rep) {
  if (r.fixed.sl >= 0) fixed_sl_facts(r.fixed, rep);
  if (r.rerouted) reroute_facts(r.reroute, rep);
  if (r.spread) {
    rep.add("sls_routed", std::to_string(r.sls.sls_before));
    rep.set("sls_used", std::to_string(r.sls.sls_after));
  }
  if (r.mcast)
    rep.add("mcast_vl", r.column.uniform  ? "uniform"
                        : r.column.vl < 0 ? "shared"
                                          : std::to_string(r.column.vl));
}

}  // namespace keiro::pipeline
