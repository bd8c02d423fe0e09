// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/engine.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <system_error>
#include <thread>

#include "core/acro/engine.h"
#include "core/check/verify.h"
#include "core/dl/engine.h"
#include "core/loren/engine.h"
#include "core/nue/engine.h"
#include "core/timing.h"

namespace keiro {

std::string EngineReport::get(const std::string &key) const {
  for (const auto &[k, v] : facts)
    if (k == key) return v;
  return {};
}

const std::vector<EngineDesc> &all_engines() {
  // The registry: one line per engine.
  static const std::vector<EngineDesc> engines = {
      nue::kEngine,
      acro::kEngine,
      loren::kEngine,
      dl::kEngine,
  };
  return engines;
}

const std::vector<OptionSpec> &option_specs() {
  static const std::vector<OptionSpec> specs = [] {
    const std::span<const OptionSpec> general = general_option_specs();
    std::vector<OptionSpec> all(general.begin(), general.end());
    for (const EngineDesc &e : all_engines())
      all.insert(all.end(), e.options.begin(), e.options.end());
    return all;
  }();
  return specs;
}

const EngineDesc *find_engine(std::string_view name) {
  for (const EngineDesc &e : all_engines())
    if (name == e.name || name == e.osm_name) return &e;
  return nullptr;
}

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

bool run_engine(const EngineDesc &e, const EngineInput &in, Routing &out, EngineReport &rep,
                check::Result *check_out, const StageFn &stage, bool *stage_ran) {
  if (stage_ran) *stage_ran = false;
  auto t0 = std::chrono::steady_clock::now();
  if (!e.route(in, out, rep)) return false;
  rep.route_seconds = seconds_since(t0);
  out.engine = e.osm_name;
  check::Result own;
  check::Result &r = check_out ? *check_out : own;
  const Routing &routed = out;
  auto run_check = [&] {
    const auto t1 = std::chrono::steady_clock::now();
    check::Options co;
    co.threads = static_cast<int>(in.options.get_int("threads"));
    r = check::verify(in.fabric, routed, co);
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
    in.log.logf(LogLevel::kError, "%s: self-check failed, tables not installed: %s", e.osm_name,
                r.first_problem.c_str());
    return false;
  }
  if (!staged) return false;
  out.vls_used = r.vls_used;
  out.sls_used = r.sls_used;
  return true;
}

}  // namespace keiro
