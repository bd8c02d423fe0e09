// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/pipeline/pipeline.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <exception>
#include <system_error>
#include <thread>

#include "core/check/verify.h"
#include "core/mcast/sl_column.h"
#include "core/pipeline/fixed_sl.h"
#include "core/pipeline/sl_spread.h"
#include "core/reroute/previous_sls.h"
#include "core/timing.h"

namespace keiro {

int vl_budget(const Fabric &f, const Options &o, bool qos, const char *engine, Logger &log) {
  const int fabric_vls = std::max<int>(1, f.min_switch_vls());
  const int budget = std::min<int>(fabric_vls, static_cast<int>(o.get_int("max_vls")));
  if (!qos && budget > 1) {
    log.logf(LogLevel::kInfo,
             "%s: QoS is off, so OpenSM will not program SL2VL tables: routing with 1 VL "
             "(%d would be available with 'qos TRUE')",
             engine, budget);
    return 1;
  }
  return budget;
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

// Option mcast_vl: a VL kept from the engine for multicast (with QoS, trees
// built by keiro and at least 2 VLs in the budget).
bool mcast_vl_reserved(const EngineInput &in) {
  return in.qos && in.max_vls > 1 && in.options.get_int("mcast_trees") != 0 &&
         in.options.get_int("mcast_vl") != 0;
}

// The multicast SL's entries that no unicast path with it takes, on a VL of
// their own when one is left (core/mcast/sl_column.h). Unicast entries are
// untouched; the self-check that follows covers the result.
void isolate_mcast_sl(const EngineDesc &e, const EngineInput &in, int fixed_sl, Routing &out,
                      EngineReport &rep) {
  if (!in.qos || in.max_vls < 2 || in.options.get_int("mcast_trees") == 0) return;
  const int sl = static_cast<int>(in.options.get_int("mcast_sl"));
  if (sl == fixed_sl) return;  // SL N's entries realize every path (core/pipeline/fixed_sl.h)
  // SL 0's verdict for all traffic (the fixed-SL INFO line) must not get worse.
  const mcast::SlColumn c =
      mcast::isolate_sl(in.fabric, out, static_cast<uint8_t>(sl), in.max_vls, sl == 0,
                        static_cast<int>(in.options.get_int("threads")));
  rep.add("mcast_vl", c.uniform ? "uniform" : c.vl < 0 ? "shared" : std::to_string(c.vl));
  if (c.uniform) return;
  if (c.vl < 0)
    in.log.logf(LogLevel::kInfo,
                "%s: multicast SL %d shares the unicast VLs (no VL of the %d left); its trees "
                "must fit beside the unicast routes (docs/multicast.md)",
                e.osm_name, sl, in.max_vls);
  else
    in.log.logf(LogLevel::kInfo,
                "%s: multicast SL %d: its SL2VL entries at %lld turns no unicast path%s takes map "
                "to VL %d, which no unicast hop uses (%lld entries kept; docs/multicast.md)",
                e.osm_name, sl, static_cast<long long>(c.free_turns),
                c.all_traffic_safe ? "" : strprintf(" with SL %d", sl).c_str(), c.vl,
                static_cast<long long>(c.used_turns));
}

}  // namespace

bool run_engine(const EngineDesc &e, const EngineInput &budget, Routing &out, EngineReport &rep,
                check::Result *check_out, const StageFn &stage, bool *stage_ran) {
  if (stage_ran) *stage_ran = false;
  auto t0 = std::chrono::steady_clock::now();
  // mcast_vl=1: the engine routes with one VL less, the multicast SL's free
  // entries take the top one (core/mcast/sl_column.h).
  EngineInput in = budget;
  if (mcast_vl_reserved(budget)) in.max_vls = budget.max_vls - 1;
  const int fixed_sl = fixed_sl_option(in.options);
  if (fixed_sl >= 0) {
    // SLs are renamed around fixed_sl: the previous ones mean something else.
    EngineInput plain = in;
    plain.previous = nullptr;
    if (!route_fixed_sl(e, plain, fixed_sl, out, rep)) return false;
  } else {
    // With previous tables the incremental re-route comes first and needs
    // only the fresh LFTs: no pinned realization unless it fails
    // (keep_previous_sls routes again with pins then).
    const bool previous = in.previous && !in.previous->empty();
    EngineInput first = in;
    first.pin_previous = !(previous && can_repair_previous(in));
    // When no switch or LID is new, the incremental route may need no
    // engine routing at all (core/reroute/previous_sls.h, step 0).
    if (!(previous && reroute_without_engine(e, in, out, rep))) {
      if (!e.route(first, out, rep)) return false;
      // With rep.repair_only the engine's tables are a guide only: the
      // previous routing repaired (keep_previous_sls), or the one ERROR line.
      if (previous ? !keep_previous_sls(e, first, out, rep) : !rep.repair_only.empty())
        return engine_error(in.log, e.osm_name, rep.repair_only);
    }
    // A first routing whose SLs later re-routes will keep: spare SLs
    // (core/pipeline/sl_spread.h). Not with QoS off (the CAs' SL2VL is not
    // programmed, so SLs other than 0 are unsafe) or 1 VL (no VL to choose).
    if (!previous && in.qos && in.max_vls > 1 && in.options.get_int("keep_sls") != 0 &&
        in.options.get_int("spread_sls") != 0) {
      const SlSpread sp = spread_sls(in.fabric, out, in.max_sls);
      if (sp.sls_after > sp.sls_before) {
        rep.add("sls_routed", std::to_string(sp.sls_before));
        rep.set("sls_used", std::to_string(sp.sls_after));
        in.log.logf(LogLevel::kInfo,
                    "%s: the paths of its %d SLs spread over %d (same VLs; spare SLs let a "
                    "re-route after a fault keep every SL, docs/rerouting.md; spread_sls=0 "
                    "keeps %d)",
                    e.osm_name, sp.sls_before, sp.sls_after, sp.sls_before);
      }
    }
  }
  isolate_mcast_sl(e, budget, fixed_sl, out, rep);
  rep.route_seconds = seconds_since(t0);
  out.engine = e.osm_name;
  check::Result own;
  check::Result &r = check_out ? *check_out : own;
  const Routing &routed = out;
  // Without fixed_sl: whether all traffic on SL 0 (UCX_IB_SL=0,
  // NCCL_IB_SL=0) would be deadlock free too: 1 yes, 0 no, -1 not known.
  int sl0_safe = -1;
  std::string sl0_problem;
  auto run_check = [&] {
    const auto t1 = std::chrono::steady_clock::now();
    check::Options co;
    co.threads = static_cast<int>(in.options.get_int("threads"));
    if (in.progress)
      co.progress = [&in](int64_t done, int64_t total) { in.progress("check", done, total); };
    // With fixed_sl: the SA's SLs and SL fixed_sl in one graph, which
    // proves both alone as well (core/pipeline/fixed_sl.h).
    co.fixed_sl = fixed_sl;
    co.fixed_sl_mixed = fixed_sl >= 0;
    if (fixed_sl < 0) co.project_sl = 0;
    r = rep.checked ? *rep.checked : check::verify(in.fabric, routed, co);
    if (r.ok && fixed_sl < 0) {
      if (sl0_like_path_sls(in.fabric, routed, r.sl_mask)) {
        sl0_safe = 1;
      } else if (r.projected_sl_ok >= 0) {  // SL 0 on one VL everywhere: no second walk
        sl0_safe = r.projected_sl_ok;
        sl0_problem = r.projected_sl_problem;
      } else {
        co.project_sl = -1;
        co.fixed_sl = 0;
        co.max_problems = 1;
        co.name_cycle_paths = false;  // the INFO line shows the cycle only
        const check::Result f0 = check::verify(in.fabric, routed, co);
        sl0_safe = f0.ok ? 1 : 0;
        sl0_problem = f0.first_problem;
      }
    }
    rep.check_seconds = seconds_since(t1);
  };
  bool staged = true;
  if (stage) {
    // The check on a second thread, the staging here; both only read out.
    std::exception_ptr failure;
    std::thread checker;
    try {
      checker = std::thread([&] {
        try {
          run_check();
        } catch (...) {
          failure = std::current_exception();
        }
      });
    } catch (const std::system_error &) {  // no thread: one after the other
      run_check();
    }
    if (stage_ran) *stage_ran = true;
    try {
      staged = stage(routed);
    } catch (...) {
      if (checker.joinable()) checker.join();
      throw;
    }
    if (checker.joinable()) checker.join();
    if (failure) std::rethrow_exception(failure);
  } else {
    run_check();
  }
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
  if (!staged) return false;
  out.vls_used = r.vls_used;
  out.sls_used = r.sls_used;
  return true;
}

}  // namespace keiro
