// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Option fixed_sl (core/pipeline/fixed_sl.h, docs/fixed-sl.md).
#include "core/pipeline/fixed_sl.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/layers/realize.h"
#include "core/log.h"
#include "core/minimal/dest_trees.h"

namespace keiro {

namespace {

// The most (source switch, destination) paths SL N's one-SL realization is
// tried on (core/vlmap keeps about 20 bytes per hop: some 60 MB at this
// size); larger fabrics get the engine on one VL.
constexpr int64_t kMaxRealizedPaths = 500000;

// Holds an attempt's lines back; wants the levels the target wants.
class HeldLogger : public CaptureLogger {
 public:
  explicit HeldLogger(const Logger &target) : target_(target) {}
  bool enabled(LogLevel level) const override { return target_.enabled(level); }

 private:
  const Logger &target_;
};

// Passes on the held lines the target wants; the ERROR lines only if errors.
void replay(const HeldLogger &held, Logger &to, bool errors) {
  for (const CaptureLogger::Line &l : held.lines)
    if ((errors || l.level != LogLevel::kError) && to.enabled(l.level)) to.write(l.level, l.text);
}

// The text of the first ERROR line held, without its "<engine>: " prefix.
std::string held_error(const HeldLogger &held, const char *engine) {
  for (const CaptureLogger::Line &l : held.lines) {
    if (l.level != LogLevel::kError) continue;
    const std::string prefix = std::string(engine) + ": ";
    return l.text.compare(0, prefix.size(), prefix) == 0 ? l.text.substr(prefix.size()) : l.text;
  }
  return "no reason given";
}

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

int fixed_sl_option(const Options &o) {
  return o.has("fixed_sl") ? static_cast<int>(o.get_int("fixed_sl")) : -1;
}

bool route_fixed_sl(const EngineDesc &e, const EngineInput &in, int sl, Routing &out,
                    EngineReport &rep) {
  const char *name = e.osm_name;
  const Fabric &f = in.fabric;
  if (in.max_sls < 2)
    return engine_error(in.log, name,
                        strprintf("fixed_sl=%d needs max_sls=2 or more (SL %d for the fixed-SL "
                                  "traffic and at least one SL for the SA's paths); max_sls is %d",
                                  sl, sl, in.max_sls));
  const int budget = std::max(1, in.max_vls);
  const int engine_sls = std::min(in.max_sls - 1, kNumSls - 1);
  // The engine's SLs 0..14 skip SL sl; its (unused) SL 15 becomes sl.
  std::array<uint8_t, kNumSls> to;
  for (int i = 0; i < kNumSls - 1; ++i) to[i] = static_cast<uint8_t>(i < sl ? i : i + 1);
  to[kNumSls - 1] = static_cast<uint8_t>(sl);

  // VLs for the engine, the rest for SL sl. A fabric whose switches alone
  // give more paths than the one-SL realization may take goes straight to
  // the engine on one VL.
  const int64_t S = f.num_switches();
  int E = S * S > kMaxRealizedPaths ? 1 : std::max(1, budget - 1);
  std::string why;  // why the last attempt's SL sl did not fit
  for (int attempt = 1;; ++attempt) {
    HeldLogger held(in.log);
    EngineReport r;
    const EngineInput sub{f, in.options, held, E, engine_sls, in.qos};
    if (!e.route(sub, out, r)) {
      replay(held, in.log, false);
      return engine_error(
          in.log, name,
          strprintf("fixed_sl=%d: with %d of the %d VLs left for the SA's paths (and %d SLs): %s%s",
                    sl, E, budget, engine_sls, held_error(held, name).c_str(),
                    why.empty() ? "" : strprintf(" (with more VLs: %s)", why.c_str()).c_str()));
    }
    const auto [lo, hi] = switch_vl_range(f, out, engine_sls);
    const int engine_vls = hi < lo ? 1 : hi + 1;
    auto done = [&](const std::string &how, int first_vl, int fixed_vls) {
      rep.facts.insert(rep.facts.end(), r.facts.begin(), r.facts.end());
      rep.add("fixed_sl", sl);
      rep.add("sa_vls", engine_vls);
      rep.add("fixed_sl_vls", fixed_vls);
      rep.add("fixed_sl_first_vl", first_vl);
      rep.add("fixed_sl_attempts", attempt);
      replay(held, in.log, true);
      in.log.logf(LogLevel::kInfo,
                  "%s: fixed_sl=%d: the SA's paths use %d VL%s and SLs other than %d; every path "
                  "on SL %d uses %s (%d VL%s in all, %d allowed; %d engine run%s)",
                  name, sl, engine_vls, engine_vls == 1 ? "" : "s", sl, sl, how.c_str(),
                  std::max(engine_vls, first_vl + fixed_vls),
                  std::max(engine_vls, first_vl + fixed_vls) == 1 ? "" : "s", budget, attempt,
                  attempt == 1 ? "" : "s");
      return true;
    };
    if (hi <= lo) {
      // One VL on every switch hop (or no switch hop): SL sl takes it too,
      // so the mixed dependency graph is the engine's own.
      out.permute_sls(to);
      write_fixed_column(f, out, to[0], 0, static_cast<uint8_t>(sl), out);
      const int v = hi < lo ? 0 : lo;
      return done(strprintf("the same %s", vl_range_text(v, 1).c_str()), v, 1);
    }
    // Every VL the engine left free (LOREN's and ACRO's routes do not depend
    // on the VL count; they often use fewer than E).
    const int K = budget - engine_vls;
    int acro_needs = 0;
    if (K >= 1) {
      minimal::DestTrees trees;
      std::string err;
      if (!minimal::trees_from_lfts(f, out, trees, err)) {
        replay(held, in.log, false);
        return engine_error(in.log, name, strprintf("fixed_sl=%d: %s", sl, err.c_str()));
      }
      const int64_t paths = S * trees.num_dests();
      if (paths > kMaxRealizedPaths) {
        why = strprintf(
            "SL %d: %lld (source switch, destination) paths, more than the one-SL "
            "realization takes (%lld)",
            sl, static_cast<long long>(paths), static_cast<long long>(kMaxRealizedPaths));
        in.log.logf(LogLevel::kVerbose, "%s: fixed_sl=%d: attempt %d: %s", name, sl, attempt,
                    why.c_str());
        if (E == 1) break;
        E = 1;
        continue;
      }
      Routing fixed;
      fixed.reset(f, Routing::SlScope::kPerSourceSwitch);
      NullLogger quiet;
      const EngineInput fin{f, in.options, quiet, K, 1, true};
      acro::RealizeWording w;
      w.engine = name;
      acro::LayerRealization lr;
      // One SL leaves the per-path repair (core/vlmap/vlmap.h) nothing to
      // trade: a path that meets a taken entry has no other SL to move to,
      // so evictions only cycle. One placement per path is its budget
      // unless acro_max_moves says otherwise (the repair's default, 40 per
      // path, took 95% of the time on an 8-ary 3-tree for the same result).
      acro::LayerOptions lo = acro::read_layer_options(in.options);
      if (lo.max_moves == 0) lo.max_moves = paths;
      if (acro::realize_layers(fin, trees, lo, w, fixed, lr)) {
        const int first = engine_vls;
        const int n = std::max(1, lr.vlmap.vls_used);
        out.permute_sls(to);
        write_fixed_column(f, fixed, 0, first, static_cast<uint8_t>(sl), out);
        return done(strprintf("%s of its own through in-port-dependent SL2VL (%d ACRO layers "
                              "on the engine's routes)",
                              vl_range_text(first, n).c_str(), lr.layers),
                    first, n);
      }
      switch (lr.outcome) {
        case acro::LayerRealization::kTooFewVls:
          why = strprintf("SL %d needs %d ACRO layers on the routes of %d VLs, %d VL%s left", sl,
                          lr.layers, E, K, K == 1 ? "" : "s");
          acro_needs = lr.layers;
          break;
        case acro::LayerRealization::kUnrealized:
          why = strprintf(
              "SL %d: %d ACRO layers on the routes of %d VLs do not fit %d VL%s with "
              "one SL (%lld paths unplaced)",
              sl, lr.layers, E, K, K == 1 ? "" : "s", static_cast<long long>(lr.vlmap.unplaced));
          break;
        default:
          why = strprintf("SL %d: ACRO on the routes of %d VLs: %s", sl, E, lr.error.c_str());
          break;
      }
      in.log.logf(LogLevel::kVerbose, "%s: fixed_sl=%d: attempt %d (E=%d K=%d): %s", name, sl,
                  attempt, E, K, why.c_str());
    }
    if (E == 1) break;
    // Fewer VLs for the engine; ACRO's layer count, when it was too high,
    // says how many SL sl needs at least (on these routes).
    E = std::max(1, std::min(engine_vls - 1, budget - acro_needs));
  }
  return engine_error(in.log, name,
                      strprintf("fixed_sl=%d: no split of the %d VLs between the SA's paths and SL "
                                "%d works (%s)",
                                sl, budget, sl, why.c_str()));
}

}  // namespace keiro
