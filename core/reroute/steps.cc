// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/reroute/steps.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/reroute/incremental.h"

namespace keiro::reroute {

namespace {

// The checks of the steps: the engine's threads, the first problem only,
// no paths named (a failure only moves on to the next step).
check::Options step_check_options(const Context &c) {
  check::Options co;
  co.threads = c.threads;
  co.max_problems = 1;
  co.name_cycle_paths = false;
  return co;
}

void take_lft_counts(const IncrementalStats &is, Result &res) {
  res.lft_counts = true;
  res.kept_lft_entries = is.kept_entries;
  res.repaired_lft_entries = is.repaired_entries;
  res.changed_paths = is.changed_paths;
}

void kept_all(Result &res) {
  res.sls_changed = 0;
  res.sls_kept = "yes";
}

void kept_some(int64_t changed, int checks, Result &res) {
  res.sls_changed = changed;
  res.sls_kept = changed == 0 ? "yes" : "partly";
  res.keep_checks = checks;
}

// The incremental route from fresh (or guide) tables, checked, and taken
// only when it keeps every previous SL; is.why says why not. cmp
// (optional): the comparison of the route taken with the previous SLs.
bool try_incremental(const Context &c, const Routing &fresh, Routing &inc, IncrementalStats &is,
                     Result &res, SlComparison *cmp = nullptr) {
  bool ok = incremental_reroute(c.fabric, c.prev, fresh, c.max_vls, c.max_sls, inc, is);
  if (ok) {
    // As the pipeline's self-check, which reuses a passing result.
    check::Options co = step_check_options(c);
    co.project_sl = 0;
    auto r = std::make_shared<check::Result>(check::verify(c.fabric, inc, co));
    SlComparison cs = compare_sls(c.fabric, inc, c.prev);
    ok = r->ok && cs.changed == 0;
    if (cmp) *cmp = std::move(cs);
    if (!r->ok) is.why = "its tables fail the check: " + r->first_problem;
    if (ok) res.checked = std::move(r);
  }
  res.incremental = ok ? 1 : 0;
  res.incremental_seconds = is.seconds;
  if (!ok) return false;
  take_lft_counts(is, res);
  kept_all(res);
  return true;
}

// The one WARN line of a re-route that changed SLs: how (after "routed
// before") and why (at the end) say which step it was.
void warn_sls_changed(const Context &c, int64_t changed, int64_t surviving, const std::string &how,
                      const std::string &why) {
  c.log.logf(LogLevel::kWarn,
             "%s: re-route changed the SL of %lld of %lld (source, destination) pairs routed "
             "before%s; jobs that asked the SA for PathRecords before must query them again%s",
             c.engine, static_cast<long long>(changed), static_cast<long long>(surviving),
             how.c_str(), why.c_str());
}

// "K of N LFT entries kept, R re-routed" of an incremental route.
std::string lft_words(const IncrementalStats &is) {
  return strprintf("%lld of %lld LFT entries kept, %lld re-routed",
                   static_cast<long long>(is.kept_entries),
                   static_cast<long long>(is.kept_entries + is.repaired_entries),
                   static_cast<long long>(is.repaired_entries));
}

// The guide of step 0: the last hops only (port 0 or the CA's port); a
// broken switch then takes the neighbour with the shortest route.
Routing last_hops(const Fabric &f, const char *engine) {
  Routing guide;
  guide.reset(f, Routing::SlScope::kPerSourceSwitch);
  guide.engine = engine;
  for (const uint16_t lid : f.lids()) {
    const LidOwner o = f.lid_owner(lid);
    guide.set_out_port(f.lid_switch(lid), lid,
                       o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : uint8_t{0});
  }
  return guide;
}

// Nothing new: every switch had tables with the same ports, every LID the
// same owner (new ends need the engine's routes and balance; a link that
// came back stays unused, as with every incremental route).
bool nothing_new(const Fabric &f, const PreviousSls &prev) {
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const auto it = prev.tables.find(f.sw(s).guid);
    if (it == prev.tables.end() || it->second.ports != f.sw(s).num_ports) return false;
  }
  return new_lids(f, prev) == 0;
}

}  // namespace

bool can_repair(const Context &c) {
  return c.prev.scope == Routing::SlScope::kPerSourceSwitch && !c.prev.tables.empty() &&
         c.keep_sls && c.incremental;
}

bool without_engine(const Context &c, Routing &out, Result &res) {
  if (!can_repair(c) || !nothing_new(c.fabric, c.prev)) return false;
  const Routing guide = last_hops(c.fabric, c.engine);
  Routing inc;
  IncrementalStats is;
  SlComparison cmp;
  Result tried;
  if (!try_incremental(c, guide, inc, is, tried, &cmp)) {
    c.log.logf(LogLevel::kInfo,
               "%s: re-route: no new switches or LIDs, but the incremental route alone does not "
               "keep every SL (%s); routing afresh",
               c.engine, is.why.empty() ? "not every SL fits" : is.why.c_str());
    return false;
  }
  out = std::move(inc);
  res = std::move(tried);
  res.previous_pairs = cmp.surviving;
  res.routed_afresh = false;
  c.log.logf(LogLevel::kInfo,
             "%s: re-route: incremental, without routing afresh (no new switches or LIDs): %s "
             "(%lld source-switch paths changed); every one of the %lld (source, destination) "
             "pairs routed before keeps its SL",
             c.engine, lft_words(is).c_str(), static_cast<long long>(is.changed_paths),
             static_cast<long long>(cmp.surviving));
  return true;
}

bool repair(const Context &c, const std::string &engine_why, Routing &out, Result &res,
            std::string &error) {
  Routing inc;
  IncrementalStats is;
  if (!try_incremental(c, out, inc, is, res)) {
    error = engine_why + "; the previous routing could not be repaired either: " + is.why;
    return false;
  }
  out = std::move(inc);
  c.log.logf(LogLevel::kWarn,
             "%s: %s; its previous routing was repaired instead: %s; every (source, "
             "destination) pair routed before keeps its SL",
             c.engine, engine_why.c_str(), lft_words(is).c_str());
  res.repaired_previous = true;
  return true;
}

bool rename(const Context &c, Routing &out, Cascade &st, Result &res) {
  st.cmp = compare_sls(c.fabric, out, c.prev);
  if (st.cmp.changed > 0 && c.keep_sls) {
    const std::array<uint8_t, kNumSls> to = best_sl_renaming(st.cmp, c.max_sls);
    int64_t kept_after = 0, kept_before = 0;
    for (int i = 0; i < kNumSls; ++i) {
      kept_before += st.cmp.moved[i][i];
      kept_after += st.cmp.moved[i][to[i]];
    }
    if (kept_after > kept_before) {
      out.permute_sls(to);
      const int64_t fresh = st.cmp.changed;
      st.cmp = compare_sls(c.fabric, out, c.prev);
      res.renamed_sls_changed = st.cmp.changed;
      res.fresh_sls_changed = fresh;
    }
  }
  res.previous_pairs = st.cmp.surviving;
  if (st.cmp.changed > 0) return false;
  kept_all(res);
  if (st.checks > 0) res.keep_checks = st.checks;
  c.log.logf(LogLevel::kInfo,
             "%s: re-route: every one of the %lld (source, destination) pairs routed before "
             "keeps its SL",
             c.engine, static_cast<long long>(st.cmp.surviving));
  return true;
}

bool start(const Context &c, Routing &out, Cascade &st, Result &res) {
  st.why = c.keep_sls ? "the previous SLs do not fit the new tables' SL scope"
                      : "option keep_sls=0: routed afresh";
  // The incremental route is for faults: with many new LIDs (an expansion,
  // or LIDs handed out anew) it places every new (switch, LID) path one by
  // one, far slower than routing afresh (648 LIDs on a 6x6x6 torus, nearly
  // all new: 38 s against 0.14 s, about 0.3 ms per new path), so beyond a
  // tenth of the LIDs or 100,000 new paths the steps after it keep what
  // they can.
  const int64_t fresh_lids = new_lids(c.fabric, c.prev);
  const bool few_new = fresh_lids * 10 <= static_cast<int64_t>(c.fabric.lids().size()) &&
                       fresh_lids * c.fabric.num_switches() <= 100000;
  st.try_incremental = c.keep_sls && c.incremental && !c.prev.tables.empty() &&
                       out.sl_scope() == Routing::SlScope::kPerSourceSwitch && few_new;
  if (rename(c, out, st, res)) return true;
  if (c.keep_sls && !few_new)
    c.log.logf(LogLevel::kInfo,
               "%s: re-route: %lld of %zu LIDs are new, so no incremental route (the pinned "
               "realization keeps what it can)",
               c.engine, static_cast<long long>(fresh_lids), c.fabric.lids().size());
  return false;
}

bool incremental(const Context &c, Routing &out, Cascade &st, Result &res) {
  if (!st.try_incremental) return false;
  Routing inc;
  IncrementalStats is;
  ++st.checks;
  if (!try_incremental(c, out, inc, is, res)) {
    c.log.logf(LogLevel::kInfo, "%s: re-route: no incremental route: %s", c.engine, is.why.c_str());
    return false;
  }
  out = std::move(inc);
  res.keep_checks = st.checks;
  c.log.logf(LogLevel::kInfo,
             "%s: re-route: incremental: %s (%lld source-switch paths changed, %lld of them "
             "new); every one of the %lld (source, destination) pairs routed before keeps its "
             "SL (the fresh routing would have changed %lld)",
             c.engine, lft_words(is).c_str(), static_cast<long long>(is.changed_paths),
             static_cast<long long>(is.new_pairs), static_cast<long long>(st.cmp.surviving),
             static_cast<long long>(st.cmp.changed));
  return true;
}

bool previous_sls(const Context &c, Routing &out, Cascade &st, Result &res) {
  if (!c.keep_sls) return false;
  Routing kept = out;
  if (!apply_previous_sls(c.fabric, c.prev, kept)) return false;
  ++st.checks;
  const check::Result r = check::verify(c.fabric, kept, step_check_options(c));
  if (!r.ok) {
    st.why = "the new tables with all previous SLs: " + r.first_problem;
    st.previous_failed = true;
    return false;
  }
  out = std::move(kept);
  kept_all(res);
  res.keep_checks = st.checks;
  c.log.logf(LogLevel::kInfo,
             "%s: re-route: the new tables are deadlock free with the previous SLs, which "
             "the SA keeps answering for all %lld (source, destination) pairs routed "
             "before (the fresh routing would have changed %lld)",
             c.engine, static_cast<long long>(st.cmp.surviving),
             static_cast<long long>(st.cmp.changed));
  return true;
}

namespace {

// The end of the relaxed route's WARN line: what happens to stale traffic.
std::string stale_words(const IncrementalStats &is) {
  if (is.stale_dropped + is.stale_delivered + is.stale_unsafe == 0) return "";
  if (is.stale_unsafe == 0)
    return strprintf(
        "; traffic still sent on their previous SLs is dropped (VL 15) on %lld of them before it "
        "could close a credit loop, and delivered without one on %lld",
        static_cast<long long>(is.stale_dropped), static_cast<long long>(is.stale_delivered));
  return strprintf(
      "; on %lld of them traffic still sent on the previous SL can close a credit loop (%lld "
      "dropped before one, %lld delivered)",
      static_cast<long long>(is.stale_unsafe), static_cast<long long>(is.stale_dropped),
      static_cast<long long>(is.stale_delivered));
}

}  // namespace

bool relaxed(const Context &c, Routing &out, Cascade &st, Result &res) {
  // Only after step 2 checked the previous SLs and failed, and when 1c could run.
  if (!st.try_incremental || !st.previous_failed) return false;
  Routing inc;
  IncrementalStats is;
  ++st.checks;
  if (!incremental_reroute(c.fabric, c.prev, out, c.max_vls, c.max_sls, inc, is, true,
                           c.drop_stale_sls) ||
      !check::verify(c.fabric, inc, step_check_options(c)).ok)
    return false;
  const SlComparison left = compare_sls(c.fabric, inc, c.prev);
  if (left.changed >= st.cmp.changed) return false;
  out = std::move(inc);
  res.incremental_relaxed = true;
  take_lft_counts(is, res);
  kept_some(left.changed, st.checks, res);
  if (left.changed == 0) return true;
  res.sl_changed_paths = is.sl_changed_paths;
  if (is.stale_dropped + is.stale_delivered + is.stale_unsafe > 0) {
    res.stale = true;
    res.stale_sls_dropped = is.stale_dropped;
    res.stale_sls_delivered = is.stale_delivered;
    res.stale_sls_unsafe = is.stale_unsafe;
  }
  warn_sls_changed(
      c, left.changed, st.cmp.surviving,
      strprintf(" (%lld with a fresh routing): %lld source-switch paths the fault broke fit no "
                "next hop with their SL, every other pair keeps its own (incremental: %lld of "
                "%lld LFT entries kept)%s",
                static_cast<long long>(st.cmp.changed), static_cast<long long>(is.sl_changed_paths),
                static_cast<long long>(is.kept_entries),
                static_cast<long long>(is.kept_entries + is.repaired_entries),
                stale_words(is).c_str()),
      "");
  return true;
}

bool bisect(const Context &c, Routing &out, Cascade &st, Result &res) {
  if (!st.previous_failed) return false;
  const std::vector<uint16_t> &d = st.cmp.changed_dests;
  const check::Options co = step_check_options(c);
  std::vector<char> only(c.fabric.max_lid() + 1u, 0);
  bool any = false;
  // Ranges [lo, hi) of d with their old SLs on top of those accepted so far.
  auto range = [&](auto &&self, size_t lo, size_t hi) -> void {
    if (lo >= hi || st.checks >= kMaxKeepChecks) return;
    if (!any && st.checks >= kGiveUpChecks) return;  // the old SLs do not fit at all
    Routing t = out;
    std::fill(only.begin(), only.end(), 0);
    for (size_t i = lo; i < hi; ++i) only[d[i]] = 1;
    apply_previous_sls(c.fabric, c.prev, t, &only);
    ++st.checks;
    if (check::verify(c.fabric, t, co).ok) {
      out = std::move(t);
      any = true;
      return;
    }
    if (hi - lo == 1) return;
    const size_t mid = lo + (hi - lo) / 2;
    self(self, lo, mid);
    self(self, mid, hi);
  };
  // The whole list failed in step 2: start with its halves.
  if (d.size() > 1) {
    range(range, 0, d.size() / 2);
    range(range, d.size() / 2, d.size());
  }
  if (!any) return false;
  const SlComparison left = compare_sls(c.fabric, out, c.prev);
  kept_some(left.changed, st.checks, res);
  if (left.changed > 0)
    warn_sls_changed(c, left.changed, st.cmp.surviving,
                     strprintf(" (%lld with a fresh routing; the others keep theirs)",
                               static_cast<long long>(st.cmp.changed)),
                     "");
  return true;
}

void changed(const Context &c, const Cascade &st, Result &res) {
  res.sls_changed = st.cmp.changed;
  res.sls_kept = c.keep_sls ? "no" : "off";
  if (c.keep_sls) res.keep_checks = st.checks;
  warn_sls_changed(c, st.cmp.changed, st.cmp.surviving, "", " (" + st.why + ")");
}

}  // namespace keiro::reroute
