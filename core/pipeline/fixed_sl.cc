// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Option fixed_sl (core/pipeline/fixed_sl.h, docs/fixed-sl.md).
#include "core/pipeline/fixed_sl.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/layers/realize.h"
#include "core/log.h"
#include "core/minimal/dest_trees.h"
#include "core/pipeline/settings.h"

namespace keiro::pipeline {

namespace {

// The most (source switch, destination) paths SL N's one-SL realization is
// tried on (core/vlmap keeps about 20 bytes per hop: some 60 MB at this
// size); larger fabrics get the engine on one VL.
constexpr int64_t kMaxRealizedPaths = 500000;

// Lowest and highest VL of the switch-to-switch hops of r for SLs < nsls
// (every (in, out) entry whose out port leads to a switch); lo > hi if none.
std::pair<int, int> switch_vl_range(const Fabric &f, const Routing &r, int nsls) {
  int lo = kMaxDataVls, hi = -1;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const uint8_t ports = f.sw(s).num_ports;
    for (unsigned out = 1; out <= ports; ++out) {
      if (f.peer(s, static_cast<uint8_t>(out)).kind != PortPeer::kSwitch) continue;
      for (unsigned in = 0; in <= ports; ++in)
        for (int sl = 0; sl < nsls; ++sl) {
          const int v = r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out),
                             static_cast<uint8_t>(sl));
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    }
  }
  return {lo, hi};
}

// SL sl of out: on switch-to-switch hops the VL of SL `from` of src plus
// offset, VL 0 on hops into terminals or port 0 and on the CAs' own ports
// (never part of a credit loop).
void write_fixed_column(const Fabric &f, const Routing &src, uint8_t from, int offset, uint8_t sl,
                        Routing &out) {
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const uint8_t ports = f.sw(s).num_ports;
    for (unsigned out_p = 0; out_p <= ports; ++out_p) {
      const auto o = static_cast<uint8_t>(out_p);
      const bool to_switch = out_p > 0 && f.peer(s, o).kind == PortPeer::kSwitch;
      for (unsigned in_p = 0; in_p <= ports; ++in_p) {
        const auto i = static_cast<uint8_t>(in_p);
        out.set_vl(s, i, o, sl,
                   to_switch ? static_cast<uint8_t>(src.vl(s, i, o, from) + offset) : 0);
      }
    }
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t) out.set_terminal_vl(t, sl, 0);
}

std::string vl_range_text(int first, int count) {
  return count == 1 ? strprintf("VL %d", first) : strprintf("VLs %d..%d", first, first + count - 1);
}

}  // namespace

void replay(const HeldLogger &held, Logger &to, bool errors) {
  for (const CaptureLogger::Line &l : held.lines)
    if ((errors || l.level != LogLevel::kError) && to.enabled(l.level)) to.write(l.level, l.text);
}

std::string held_error(const HeldLogger &held, const char *engine) {
  for (const CaptureLogger::Line &l : held.lines) {
    if (l.level != LogLevel::kError) continue;
    const std::string prefix = std::string(engine) + ": ";
    return l.text.compare(0, prefix.size(), prefix) == 0 ? l.text.substr(prefix.size()) : l.text;
  }
  return "no reason given";
}

bool plan_fixed_sl(const EngineInput &in, int sl, FixedSlPlan &p, std::string &err) {
  if (in.max_sls < 2) {
    err = strprintf(
        "fixed_sl=%d needs max_sls=2 or more (SL %d for the fixed-SL traffic and at least one SL "
        "for the SA's paths); max_sls is %d",
        sl, sl, in.max_sls);
    return false;
  }
  p.sl = sl;
  p.budget = std::max(1, in.max_vls);
  p.engine_sls = std::min(in.max_sls - 1, kNumSls - 1);
  // The engine's SLs 0..14 skip SL sl; its (unused) SL 15 becomes sl.
  for (int i = 0; i < kNumSls - 1; ++i) p.to[i] = static_cast<uint8_t>(i < sl ? i : i + 1);
  p.to[kNumSls - 1] = static_cast<uint8_t>(sl);
  // VLs for the engine, the rest for SL sl. A fabric whose switches alone
  // give more paths than the one-SL realization may take goes straight to
  // the engine on one VL.
  const int64_t S = in.fabric.num_switches();
  p.engine_vls = S * S > kMaxRealizedPaths ? 1 : std::max(1, p.budget - 1);
  return true;
}

std::string engine_failed_text(const FixedSlPlan &p, const std::string &engine_error) {
  return strprintf("fixed_sl=%d: with %d of the %d VLs left for the SA's paths (and %d SLs): %s%s",
                   p.sl, p.engine_vls, p.budget, p.engine_sls, engine_error.c_str(),
                   p.why.empty() ? "" : strprintf(" (with more VLs: %s)", p.why.c_str()).c_str());
}

std::string no_split_text(const FixedSlPlan &p) {
  return strprintf(
      "fixed_sl=%d: no split of the %d VLs between the SA's paths and SL %d works (%s)", p.sl,
      p.budget, p.sl, p.why.c_str());
}

void log_fixed_sl(Logger &log, const char *name, const FixedSlPlan &p, const FixedSlResult &r) {
  const int all = std::max(r.sa_vls, r.first_vl + r.fixed_sl_vls);
  log.logf(LogLevel::kInfo,
           "%s: fixed_sl=%d: the SA's paths use %d VL%s and SLs other than %d; every path on SL "
           "%d uses %s (%d VL%s in all, %d allowed; %d engine run%s)",
           name, p.sl, r.sa_vls, r.sa_vls == 1 ? "" : "s", p.sl, p.sl, r.how.c_str(), all,
           all == 1 ? "" : "s", p.budget, r.attempts, r.attempts == 1 ? "" : "s");
}

namespace {

// The next, smaller VL count for the engine (ACRO's layer count, when it
// was too high, says how many SL sl needs at least on these routes), or
// kGiveUp after the attempt on one VL.
FitOutcome retry(FixedSlPlan &p, int engine_vls, int acro_needs) {
  if (p.engine_vls == 1) return FitOutcome::kGiveUp;
  p.engine_vls = std::max(1, std::min(engine_vls - 1, p.budget - acro_needs));
  return FitOutcome::kRetry;
}

// Why SL sl did not fit, from the realization's outcome; acro_needs: the
// layers ACRO needed when they were too many.
std::string unfit_text(const FixedSlPlan &p, int K, const acro::LayerRealization &lr,
                       int &acro_needs) {
  const int E = p.engine_vls, sl = p.sl;
  switch (lr.outcome) {
    case acro::LayerRealization::kTooFewVls:
      acro_needs = lr.layers;
      return strprintf("SL %d needs %d ACRO layers on the routes of %d VLs, %d VL%s left", sl,
                       lr.layers, E, K, K == 1 ? "" : "s");
    case acro::LayerRealization::kUnrealized:
      return strprintf(
          "SL %d: %d ACRO layers on the routes of %d VLs do not fit %d VL%s with one SL (%lld "
          "paths unplaced)",
          sl, lr.layers, E, K, K == 1 ? "" : "s", static_cast<long long>(lr.vlmap.unplaced));
    default:
      return strprintf("SL %d: ACRO on the routes of %d VLs: %s", sl, E, lr.error.c_str());
  }
}

}  // namespace

FitOutcome fit_fixed_sl(const Fabric &f, const Settings &s, FixedSlPlan &p, Logger &log,
                        const char *name, Routing &out, FixedSlResult &res, std::string &err) {
  const auto [lo, hi] = switch_vl_range(f, out, p.engine_sls);
  const int engine_vls = hi < lo ? 1 : hi + 1;
  res.sl = p.sl;
  res.sa_vls = engine_vls;
  res.attempts = p.attempt;
  if (hi <= lo) {
    // One VL on every switch hop (or no switch hop): SL sl takes it too,
    // so the mixed dependency graph is the engine's own.
    out.permute_sls(p.to);
    write_fixed_column(f, out, p.to[0], 0, static_cast<uint8_t>(p.sl), out);
    res.first_vl = hi < lo ? 0 : lo;
    res.fixed_sl_vls = 1;
    res.how = strprintf("the same %s", vl_range_text(res.first_vl, 1).c_str());
    return FitOutcome::kDone;
  }
  // Every VL the engine left free (LOREN's and ACRO's routes do not depend
  // on the VL count; they often use fewer than E).
  const int K = p.budget - engine_vls;
  if (K < 1) return retry(p, engine_vls, 0);
  minimal::DestTrees trees;
  if (!minimal::trees_from_lfts(f, out, trees, err)) {
    err = strprintf("fixed_sl=%d: %s", p.sl, err.c_str());
    return FitOutcome::kError;
  }
  const int64_t paths = static_cast<int64_t>(f.num_switches()) * trees.num_dests();
  if (paths > kMaxRealizedPaths) {
    p.why = strprintf(
        "SL %d: %lld (source switch, destination) paths, more than the one-SL realization takes "
        "(%lld)",
        p.sl, static_cast<long long>(paths), static_cast<long long>(kMaxRealizedPaths));
    log.logf(LogLevel::kVerbose, "%s: fixed_sl=%d: attempt %d: %s", name, p.sl, p.attempt,
             p.why.c_str());
    if (p.engine_vls == 1) return FitOutcome::kGiveUp;
    p.engine_vls = 1;
    return FitOutcome::kRetry;
  }
  Routing fixed;
  fixed.reset(f, Routing::SlScope::kPerSourceSwitch);
  NullLogger quiet;
  acro::LayerBudget b;
  b.max_vls = K;
  b.max_sls = 1;
  b.threads = s.threads;
  acro::RealizeWording w;
  w.engine = name;
  acro::LayerRealization lr;
  // One SL leaves the per-path repair (core/vlmap/vlmap.h) nothing to
  // trade: a path that meets a taken entry has no other SL to move to, so
  // evictions only cycle. One placement per path is its budget unless
  // acro_max_moves says otherwise (the repair's default, 40 per path, took
  // 95% of the time on an 8-ary 3-tree for the same result).
  acro::LayerOptions lopt = s.fixed_sl_layers;
  if (lopt.max_moves == 0) lopt.max_moves = paths;
  if (acro::realize_layers(f, b, quiet, trees, lopt, w, fixed, lr)) {
    res.first_vl = engine_vls;
    res.fixed_sl_vls = std::max(1, lr.vlmap.vls_used);
    out.permute_sls(p.to);
    write_fixed_column(f, fixed, 0, res.first_vl, static_cast<uint8_t>(p.sl), out);
    res.how = strprintf(
        "%s of its own through in-port-dependent SL2VL (%d ACRO layers on the engine's routes)",
        vl_range_text(res.first_vl, res.fixed_sl_vls).c_str(), lr.layers);
    return FitOutcome::kDone;
  }
  int acro_needs = 0;
  p.why = unfit_text(p, K, lr, acro_needs);
  log.logf(LogLevel::kVerbose, "%s: fixed_sl=%d: attempt %d (E=%d K=%d): %s", name, p.sl, p.attempt,
           p.engine_vls, K, p.why.c_str());
  return retry(p, engine_vls, acro_needs);
}

}  // namespace keiro::pipeline
