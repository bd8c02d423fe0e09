// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The pipeline (core/pipeline/pipeline.h): route() and its stages, top to
// bottom.
#include "core/pipeline/pipeline.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <exception>
#include <system_error>
#include <thread>

#include "core/mcast/sl_column.h"
#include "core/pipeline/fixed_sl.h"
#include "core/pipeline/report.h"
#include "core/pipeline/settings.h"
#include "core/pipeline/sl_spread.h"
#include "core/pipeline/stages.h"
#include "core/timing.h"

namespace keiro::pipeline {

int vl_budget(const Fabric &f, const Options &o, bool qos, const char *engine, Logger &log) {
  const int fabric_vls = std::max<int>(1, f.min_switch_vls());
  const int budget = std::min<int>(fabric_vls, read_settings(o).max_vls);
  if (!qos && budget > 1) {
    log.logf(LogLevel::kInfo,
             "%s: QoS is off, so OpenSM will not program SL2VL tables: routing with 1 VL "
             "(%d would be available with 'qos TRUE')",
             engine, budget);
    return 1;
  }
  return budget;
}

// Stage prepare: the engine's input. mcast_vl=1 (with QoS, trees built by
// keiro and at least 2 VLs): the engine routes with one VL less, the
// multicast SL's free entries take the top one (core/mcast/sl_column.h).
// Multicast's SL is the engine's to keep turns free for, unless fixed_sl
// renames the SLs (its multicast is the mixed graph's).
EngineInput engine_input(const EngineInput &budget, const Settings &s) {
  EngineInput in = budget;
  if (budget.qos && budget.max_vls > 1 && s.mcast_trees && s.mcast_vl)
    in.max_vls = budget.max_vls - 1;
  in.threads = s.threads;
  in.hints = nullptr;
  in.mcast_sl = budget.qos && s.mcast_trees && s.fixed_sl < 0 ? s.mcast_sl : -1;
  return in;
}

bool first_route(const EngineDesc &e, const EngineInput &in, const Settings &s, Routing &out,
                 EngineReport &rep, StageResults &results) {
  if (!e.route(in, out, rep)) return false;
  // Guide tables only (EngineReport::repair_only) mean nothing without a
  // previous routing to repair.
  if (!rep.repair_only.empty()) return engine_error(in.log, e.osm_name, rep.repair_only);
  // A first routing whose SLs later re-routes will keep: spare SLs
  // (core/pipeline/sl_spread.h). Not with QoS off (the CAs' SL2VL is not
  // programmed, so SLs other than 0 are unsafe) or 1 VL (no VL to choose).
  if (!in.qos || in.max_vls < 2 || !s.keep_sls || !s.spread_sls) return true;
  const SlSpread sp = spread_sls(in.fabric, out, in.max_sls);
  if (sp.sls_after <= sp.sls_before) return true;
  results.spread = true;
  results.sls = sp;
  in.log.logf(LogLevel::kInfo,
              "%s: the paths of its %d SLs spread over %d (same VLs; spare SLs let a re-route "
              "after a fault keep every SL, docs/rerouting.md; spread_sls=0 keeps %d)",
              e.osm_name, sp.sls_before, sp.sls_after, sp.sls_before);
  return true;
}

bool fixed_sl_route(const EngineDesc &e, const EngineInput &in, const Settings &s, Routing &out,
                    EngineReport &rep, StageResults &results) {
  const char *name = e.osm_name;
  FixedSlPlan p;
  std::string err;
  if (!plan_fixed_sl(in, s.fixed_sl, p, err)) return engine_error(in.log, name, err);
  for (p.attempt = 1;; ++p.attempt) {
    HeldLogger held(in.log);
    EngineReport r;
    // SLs are renamed around fixed_sl: no hints, no multicast SL.
    EngineInput sub{in.fabric, in.options, held, p.engine_vls, p.engine_sls, in.qos};
    sub.threads = in.threads;
    sub.one_vl_routes = p.engine_vls == 1;
    if (!e.route(sub, out, r)) {
      // With VLs to spare the engine may still route on one VL, where it
      // is asked for routes that one VL makes deadlock free.
      if (p.engine_vls > 1) {
        p.why = held_error(held, name);
        p.engine_vls = 1;
        continue;
      }
      replay(held, in.log, false);
      return engine_error(in.log, name, engine_failed_text(p, held_error(held, name)));
    }
    switch (fit_fixed_sl(in.fabric, s, p, in.log, name, out, results.fixed, err)) {
      case FitOutcome::kDone:
        rep.facts.insert(rep.facts.end(), r.facts.begin(), r.facts.end());
        replay(held, in.log, true);
        log_fixed_sl(in.log, name, p, results.fixed);
        return true;
      case FitOutcome::kRetry:
        continue;
      case FitOutcome::kError:
        replay(held, in.log, false);
        return engine_error(in.log, name, err);
      case FitOutcome::kGiveUp:
        return engine_error(in.log, name, no_split_text(p));
    }
  }
}

namespace {

// Every switch hop and every CA port maps SL 0 to the VL of each SL in
// sl_mask: all traffic on SL 0 then follows the same (channel, VL) chains as
// with the path SLs, so a second check would repeat the first.
// O(S * P^2 * 16 + T * 16).
bool sl0_like_path_sls(const Fabric &f, const Routing &r, uint32_t sl_mask) {
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const unsigned ports = f.sw(s).num_ports;
    for (unsigned in = 0; in <= ports; ++in)
      for (unsigned o = 0; o <= ports; ++o)
        for (uint32_t m = sl_mask; m; m &= m - 1) {
          const auto sl = static_cast<uint8_t>(std::countr_zero(m));
          if (r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), sl) !=
              r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), 0))
            return false;
        }
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    for (uint32_t m = sl_mask; m; m &= m - 1)
      if (r.terminal_vl(t, static_cast<uint8_t>(std::countr_zero(m))) != r.terminal_vl(t, 0))
        return false;
  return true;
}

// Stage multicast: the multicast SL's entries that no unicast path with it
// takes, on a VL of their own when one is left (core/mcast/sl_column.h).
// Unicast entries are untouched; the self-check that follows covers the
// result. budget: the whole VL budget (with the VL mcast_vl kept).
void mcast_sl_stage(const EngineDesc &e, const EngineInput &budget, const Settings &s, Routing &out,
                    StageResults &results) {
  if (!budget.qos || budget.max_vls < 2 || !s.mcast_trees) return;
  const int sl = s.mcast_sl;
  if (sl == s.fixed_sl) return;  // SL N's entries realize every path (core/pipeline/fixed_sl.h)
  // SL 0's verdict for all traffic (the fixed-SL INFO line) must not get worse.
  const mcast::SlColumn c = mcast::isolate_sl(budget.fabric, out, static_cast<uint8_t>(sl),
                                              budget.max_vls, sl == 0, s.threads);
  results.mcast = true;
  results.column = c;
  if (c.uniform) return;
  if (c.vl < 0)
    budget.log.logf(LogLevel::kInfo,
                    "%s: multicast SL %d shares the unicast VLs (no VL of the %d left); its trees "
                    "must fit beside the unicast routes (docs/multicast.md)",
                    e.osm_name, sl, budget.max_vls);
  else
    budget.log.logf(
        LogLevel::kInfo,
        "%s: multicast SL %d: its SL2VL entries at %lld turns no unicast path%s takes map "
        "to VL %d, which no unicast hop uses (%lld entries kept; docs/multicast.md)",
        e.osm_name, sl, static_cast<long long>(c.free_turns),
        c.all_traffic_safe ? "" : strprintf(" with SL %d", sl).c_str(), c.vl,
        static_cast<long long>(c.used_turns));
}

// Without fixed_sl: whether all traffic on SL 0 (UCX_IB_SL=0, NCCL_IB_SL=0)
// would be deadlock free too, from the check's result r: 1 yes, 0 no (why
// in problem).
int sl0_verdict(const Fabric &f, const Routing &routed, const check::Result &r, check::Options co,
                std::string &problem) {
  if (sl0_like_path_sls(f, routed, r.sl_mask)) return 1;
  if (r.projected_sl_ok >= 0) {  // SL 0 on one VL everywhere: no second walk
    problem = r.projected_sl_problem;
    return r.projected_sl_ok;
  }
  co.project_sl = -1;
  co.fixed_sl = 0;
  co.max_problems = 1;
  co.name_cycle_paths = false;  // the INFO line shows the cycle only
  const check::Result f0 = check::verify(f, routed, co);
  problem = f0.first_problem;
  return f0.ok ? 1 : 0;
}

// The self-check's options: with fixed_sl the SA's SLs and SL fixed_sl in
// one graph, which proves both alone as well (core/pipeline/fixed_sl.h).
check::Options check_options(const EngineInput &in, const Settings &s) {
  check::Options co;
  co.threads = s.threads;
  if (in.progress)
    co.progress = [&in](int64_t done, int64_t total) { in.progress("check", done, total); };
  co.fixed_sl = s.fixed_sl;
  co.fixed_sl_mixed = s.fixed_sl >= 0;
  if (s.fixed_sl < 0) co.project_sl = 0;
  return co;
}

// Runs check while stage (if any) runs on this thread; false when stage
// failed. Rethrows the check's exception.
bool check_beside_stage(const std::function<void()> &check, const RouteExtras &x,
                        const Routing &routed) {
  if (!x.stage) {
    check();
    return true;
  }
  std::exception_ptr failure;
  std::thread checker;
  try {
    checker = std::thread([&] {
      try {
        check();
      } catch (...) {
        failure = std::current_exception();
      }
    });
  } catch (const std::system_error &) {  // no thread: one after the other
    check();
  }
  if (x.stage_ran) *x.stage_ran = true;
  bool staged = false;
  try {
    staged = x.stage(routed);
  } catch (...) {
    if (checker.joinable()) checker.join();
    throw;
  }
  if (checker.joinable()) checker.join();
  if (failure) std::rethrow_exception(failure);
  return staged;
}

// The check's verdict in the log: one ERROR line, or the fixed-SL INFO line.
bool log_verdict(const EngineDesc &e, const EngineInput &in, const Settings &s,
                 const check::Result &r, int sl0_safe, const std::string &sl0_problem) {
  const int fixed_sl = s.fixed_sl;
  if (!r.ok) {
    in.log.logf(LogLevel::kError, "%s: self-check failed%s, tables not installed: %s", e.osm_name,
                fixed_sl >= 0
                    ? strprintf(" (the SA's SLs and every path on SL %d at once)", fixed_sl).c_str()
                    : "",
                r.first_problem.c_str());
    return false;
  }
  if (fixed_sl >= 0)
    in.log.logf(LogLevel::kInfo,
                "%s: fixed-SL safety: deadlock free with the SA's SLs, with every path on SL %d "
                "(fixed_sl=%d) and with both at once; %d VL%s",
                e.osm_name, fixed_sl, fixed_sl, r.vls_used, r.vls_used == 1 ? "" : "s");
  else if (sl0_safe == 1)
    in.log.logf(LogLevel::kInfo,
                "%s: fixed-SL safety: also deadlock free when every path uses SL 0 (MPI with "
                "UCX_IB_SL=0 or NCCL_IB_SL=0, which never asks the SA)",
                e.osm_name);
  else if (sl0_safe == 0)
    in.log.logf(LogLevel::kInfo,
                "%s: fixed-SL safety: NOT deadlock free when every path uses SL 0 (MPI with "
                "UCX_IB_SL=0 or NCCL_IB_SL=0, which never asks the SA): %s; only traffic that "
                "takes its SL from the SA is safe (option fixed_sl=0 makes SL 0 safe too)",
                e.osm_name, sl0_problem.c_str());
  return true;
}

// Stage check: the self-check (reusing a re-route step's passing check of
// the same tables), beside the staging.
bool check_stage(const EngineDesc &e, const EngineInput &in, const Settings &s,
                 const StageResults &results, Routing &out, EngineReport &rep,
                 const RouteExtras &x) {
  check::Result own;
  check::Result &r = x.check_out ? *x.check_out : own;
  const Routing &routed = out;
  int sl0_safe = -1;
  std::string sl0_problem;
  auto run_check = [&] {
    const auto t1 = std::chrono::steady_clock::now();
    const check::Options co = check_options(in, s);
    const auto &reused = results.reroute.checked;
    r = reused ? *reused : check::verify(in.fabric, routed, co);
    if (r.ok && s.fixed_sl < 0) sl0_safe = sl0_verdict(in.fabric, routed, r, co, sl0_problem);
    rep.check_seconds = seconds_since(t1);
  };
  const bool staged = check_beside_stage(run_check, x, routed);
  if (!log_verdict(e, in, s, r, sl0_safe, sl0_problem) || !staged) return false;
  out.vls_used = r.vls_used;
  out.sls_used = r.sls_used;
  return true;
}

}  // namespace

bool route(const EngineDesc &e, const EngineInput &budget, Routing &out, EngineReport &rep,
           const RouteExtras &x) {
  if (x.stage_ran) *x.stage_ran = false;
  const auto t0 = std::chrono::steady_clock::now();
  const Settings s = read_settings(budget.options);
  const EngineInput in = engine_input(budget, s);
  StageResults results;
  const bool produced = s.fixed_sl >= 0 ? fixed_sl_route(e, in, s, out, rep, results)
                        : x.previous && !x.previous->empty()
                            ? reroute(e, in, s, *x.previous, out, rep, results)
                            : first_route(e, in, s, out, rep, results);
  if (!produced) return false;
  mcast_sl_stage(e, budget, s, out, results);
  write_facts(results, rep);
  if (x.stages) *x.stages = results;
  rep.route_seconds = seconds_since(t0);
  out.engine = e.osm_name;
  return check_stage(e, in, s, results, out, rep, x);
}

}  // namespace keiro::pipeline
