// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/reroute/previous_sls.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/check/verify.h"
#include "core/log.h"
#include "core/reroute/incremental.h"

namespace keiro {

namespace {

// Per LID of f: whether it survives (lid_survives()).
std::vector<char> surviving_lids(const Fabric &f, const PreviousSls &prev) {
  std::vector<char> s(f.max_lid() + 1u, 0);
  for (uint16_t lid : f.lids()) s[lid] = lid_survives(f, prev, lid);
  return s;
}

// LIDs of f that did not survive (new, or with another owner).
int64_t new_lids(const Fabric &f, const PreviousSls &prev) {
  int64_t n = 0;
  for (uint16_t lid : f.lids()) n += !lid_survives(f, prev, lid);
  return n;
}

// The previous SL row (by LID) of new switch s, or null.
const std::vector<uint8_t> *previous_row(const Fabric &f, const PreviousSls &prev, int32_t s) {
  if (prev.scope == Routing::SlScope::kPerDestination) return &prev.dest_sl;
  const auto it = prev.switch_sl.find(f.sw(s).guid);
  return it == prev.switch_sl.end() ? nullptr : &it->second;
}

uint8_t at(const std::vector<uint8_t> &row, uint16_t lid) {
  return lid < row.size() ? row[lid] : check::kNoPathSl;
}

}  // namespace

int PreviousSls::sl(uint64_t src_switch_guid, uint16_t dlid) const {
  const std::vector<uint8_t> *row = &dest_sl;
  if (scope == Routing::SlScope::kPerSourceSwitch) {
    const auto it = switch_sl.find(src_switch_guid);
    if (it == switch_sl.end()) return -1;
    row = &it->second;
  }
  const uint8_t v = at(*row, dlid);
  return v == check::kNoPathSl ? -1 : v;
}

bool lid_survives(const Fabric &f, const PreviousSls &prev, uint16_t lid) {
  return lid < prev.lid_owner.size() && prev.lid_owner[lid] != 0 &&
         prev.lid_owner[lid] == lid_owner_guid(f, lid);
}

uint64_t lid_owner_guid(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  if (o.kind == LidOwner::kSwitch) return f.sw(o.id).guid;
  if (o.kind == LidOwner::kTerminal) return f.terminal(o.id).port_guid;
  return 0;
}

PreviousSls capture_previous_sls(const Fabric &f, const Routing &r) {
  PreviousSls p;
  p.scope = r.sl_scope();
  p.engine = r.engine;
  const uint16_t top = std::min<uint16_t>(f.max_lid(), r.max_lid());
  p.lid_owner.assign(top + 1u, 0);
  for (uint16_t lid : f.lids())
    if (lid <= top) p.lid_owner[lid] = lid_owner_guid(f, lid);
  if (p.scope == Routing::SlScope::kPerDestination) {
    p.dest_sl.assign(top + 1u, check::kNoPathSl);
    for (uint16_t lid : f.lids())
      if (lid <= top) p.dest_sl[lid] = r.path_sl(0, lid);
    return p;
  }
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    std::vector<uint8_t> &row = p.switch_sl[f.sw(s).guid];
    row.assign(top + 1u, check::kNoPathSl);
    for (uint16_t lid : f.lids())
      if (lid <= top) row[lid] = r.path_sl(s, lid);
    PreviousSls::SwitchTables &t = p.tables[f.sw(s).guid];
    const unsigned ports = f.sw(s).num_ports;
    t.ports = static_cast<uint8_t>(ports);
    t.lft.assign(r.lft_row(s), r.lft_row(s) + top + 1u);
    t.peer.assign(ports + 1u, 0);
    for (unsigned port = 1; port <= ports; ++port) {
      const PortPeer pp = f.peer(s, static_cast<uint8_t>(port));
      if (pp.kind == PortPeer::kSwitch) t.peer[port] = f.sw(f.channel(pp.id).dst).guid;
      if (pp.kind == PortPeer::kTerminal) t.peer[port] = f.terminal(pp.id).port_guid;
    }
    t.sl2vl.assign((ports + 1u) * (ports + 1u) * kNumSls, 0);
    for (unsigned in = 0; in <= ports; ++in)
      for (unsigned o = 0; o <= ports; ++o)
        for (unsigned sl = 0; sl < kNumSls; ++sl)
          t.sl2vl[(in * (ports + 1u) + o) * kNumSls + sl] =
              r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), static_cast<uint8_t>(sl));
  }
  return p;
}

SlComparison compare_sls(const Fabric &f, const Routing &r, const PreviousSls &prev) {
  SlComparison c;
  if (prev.empty()) return c;
  const std::vector<char> alive = surviving_lids(f, prev);
  // Surviving source LIDs per switch, and per LID those of its own port
  // (pairs from a port to itself are not paths).
  std::vector<int64_t> sources(f.num_switches(), 0);
  std::vector<int64_t> own(f.max_lid() + 1u, 0);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const SwitchInfo &si = f.sw(s);
    int64_t n = 0;
    for (uint32_t j = 0; si.lid && j < (1u << si.lmc); ++j) n += alive[si.lid + j];
    for (uint32_t j = 0; si.lid && j < (1u << si.lmc); ++j) own[si.lid + j] = n;
    sources[s] += n;
    for (int32_t t : f.terminals_of(s)) {
      const TerminalInfo &ti = f.terminal(t);
      int64_t m = 0;
      for (uint32_t j = 0; ti.lid && j < (1u << ti.lmc); ++j) m += alive[ti.lid + j];
      for (uint32_t j = 0; ti.lid && j < (1u << ti.lmc); ++j) own[ti.lid + j] = m;
      sources[s] += m;
    }
  }
  std::vector<char> changed(f.max_lid() + 1u, 0);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const std::vector<uint8_t> *row = previous_row(f, prev, s);
    if (!row || sources[s] == 0) continue;
    for (uint16_t dlid : f.lids()) {
      const uint8_t old = at(*row, dlid);
      if (!alive[dlid] || old == check::kNoPathSl) continue;
      const int64_t pairs = sources[s] - (f.lid_switch(dlid) == s ? own[dlid] : 0);
      c.surviving += pairs;
      const uint8_t now = r.path_sl(s, dlid);
      if (now < kNumSls && old < kNumSls) c.moved[now][old] += pairs;
      if (now != old) {
        c.changed += pairs;
        changed[dlid] = 1;
      }
    }
  }
  for (uint16_t dlid : f.lids())
    if (changed[dlid]) c.changed_dests.push_back(dlid);
  return c;
}

std::array<uint8_t, kNumSls> best_sl_renaming(const SlComparison &c, int max_sls) {
  const int n = std::clamp(max_sls, 1, kNumSls);
  std::array<int, kNumSls> to;
  to.fill(-1);
  std::array<bool, kNumSls> taken{};
  for (;;) {  // greedy: the largest count whose SLs are both still free
    int64_t best = 0;
    int bi = -1, bj = -1;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (to[i] < 0 && !taken[j] && c.moved[i][j] > best) {
          best = c.moved[i][j];
          bi = i;
          bj = j;
        }
    if (bi < 0) break;
    to[bi] = bj;
    taken[bj] = true;
  }
  // The rest keep their name when it is free, else take the first free one.
  for (int i = 0; i < kNumSls; ++i)
    if (to[i] < 0 && !taken[i]) {
      to[i] = i;
      taken[i] = true;
    }
  std::array<uint8_t, kNumSls> out{};
  for (int i = 0, free = 0; i < kNumSls; ++i) {
    if (to[i] < 0) {
      while (taken[free]) ++free;
      to[i] = free;
      taken[free] = true;
    }
    out[i] = static_cast<uint8_t>(to[i]);
  }
  return out;
}

bool apply_previous_sls(const Fabric &f, const PreviousSls &prev, Routing &r,
                        const std::vector<char> *only_dest) {
  if (prev.empty()) return true;
  std::vector<char> alive = surviving_lids(f, prev);
  if (only_dest)
    for (size_t lid = 0; lid < alive.size(); ++lid)
      alive[lid] = alive[lid] && lid < only_dest->size() && (*only_dest)[lid];
  if (r.sl_scope() == Routing::SlScope::kPerSourceSwitch) {
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      const std::vector<uint8_t> *row = previous_row(f, prev, s);
      if (!row) continue;
      for (uint16_t dlid : f.lids())
        if (alive[dlid] && at(*row, dlid) != check::kNoPathSl)
          r.set_path_sl(s, dlid, at(*row, dlid));
    }
    return true;
  }
  const std::vector<uint8_t> sls = previous_dest_sls(f, prev);
  if (prev.scope == Routing::SlScope::kPerSourceSwitch) {
    // Per-destination tables can hold the old SLs only where every old
    // source switch agreed.
    for (uint16_t dlid : f.lids()) {
      int common = -1;
      for (int32_t s = 0; s < f.num_switches(); ++s) {
        const std::vector<uint8_t> *row = previous_row(f, prev, s);
        if (!row || !alive[dlid] || at(*row, dlid) == check::kNoPathSl) continue;
        if (common >= 0 && common != at(*row, dlid)) return false;
        common = at(*row, dlid);
      }
      if (common >= 0) r.set_dest_sl(dlid, static_cast<uint8_t>(common));
    }
    return true;
  }
  for (uint16_t dlid : f.lids())
    if (alive[dlid] && sls[dlid] != check::kNoPathSl) r.set_dest_sl(dlid, sls[dlid]);
  return true;
}

std::vector<uint8_t> previous_dest_sls(const Fabric &f, const PreviousSls &prev) {
  if (prev.scope != Routing::SlScope::kPerDestination || prev.empty()) return {};
  const std::vector<char> alive = surviving_lids(f, prev);
  std::vector<uint8_t> out(f.max_lid() + 1u, check::kNoPathSl);
  for (uint16_t lid : f.lids())
    if (alive[lid]) out[lid] = at(prev.dest_sl, lid);
  return out;
}

std::vector<int8_t> previous_path_sls(const Fabric &f, const PreviousSls &prev,
                                      const minimal::DestTrees &t, int shift) {
  if (prev.empty() || prev.scope != Routing::SlScope::kPerSourceSwitch) return {};
  const std::vector<char> alive = surviving_lids(f, prev);
  const int32_t S = f.num_switches(), K = t.num_dests();
  std::vector<int8_t> pins(static_cast<size_t>(K) * S, -1);
  for (int32_t s = 0; s < S; ++s) {
    const std::vector<uint8_t> *row = previous_row(f, prev, s);
    if (!row) continue;
    for (int32_t k = 0; k < K; ++k) {
      if (s == t.root[k]) continue;
      int pin = -1;
      for (uint16_t lid : t.dest_lids(k)) {
        const uint8_t v = at(*row, lid);
        if (!alive[lid] || v == check::kNoPathSl) continue;
        if (pin >= 0 && pin != v) {
          pin = -2;  // the LIDs disagreed: no pin
          break;
        }
        pin = v;
      }
      if (pin >= shift) pins[static_cast<size_t>(k) * S + s] = static_cast<int8_t>(pin - shift);
    }
  }
  return pins;
}

std::vector<int8_t> realization_pins(const EngineInput &in, const char *engine,
                                     const minimal::DestTrees &t, int shift) {
  if (!in.previous || in.previous->empty() || !in.pin_previous ||
      in.options.get_int("keep_sls") == 0)
    return {};
  if (!in.previous->engine.empty() && in.previous->engine != engine) return {};
  return previous_path_sls(in.fabric, *in.previous, t, shift);
}

void add_pin_facts(const vlmap::VlMapStats &vs, EngineReport &rep) {
  if (vs.pins == 0) return;
  rep.add("pinned_paths", static_cast<long>(vs.pins));
  rep.add("pins_dropped", static_cast<long>(vs.pins_dropped));
  if (vs.pins_fallback) rep.add("pins_fallback", "yes");
}

void log_pins(Logger &log, const char *engine, const vlmap::VlMapStats &vs) {
  if (vs.pins_fallback)
    log.logf(LogLevel::kInfo,
             "%s: re-route: no realization with the previous SLs of the %lld surviving paths "
             "fits the SL budget; realized afresh",
             engine, static_cast<long long>(vs.pins));
  else
    log.logf(LogLevel::kInfo,
             "%s: re-route: %lld of %lld surviving (source switch, destination) paths realized "
             "with their previous SL (%lld pins dropped)",
             engine, static_cast<long long>(vs.pins - vs.pins_dropped),
             static_cast<long long>(vs.pins), static_cast<long long>(vs.pins_dropped));
}

namespace {

// The checks of the steps below: the engine's threads, the first problem
// only, no paths named (a failure only moves on to the next step).
check::Options keep_check_options(const EngineInput &in) {
  check::Options co;
  co.threads = static_cast<int>(in.options.get_int("threads"));
  co.max_problems = 1;
  co.name_cycle_paths = false;
  return co;
}

// The LFT counts of an incremental route taken.
void add_lft_facts(const IncrementalStats &is, EngineReport &rep) {
  rep.add("kept_lft_entries", static_cast<long>(is.kept_entries));
  rep.add("repaired_lft_entries", static_cast<long>(is.repaired_entries));
  rep.add("changed_paths", static_cast<long>(is.changed_paths));
}

// Step 1c: the incremental route from fresh (or guide) tables, checked, and
// taken only when it keeps every previous SL. Facts incremental,
// incremental_seconds and, when taken, the LFT counts, sls_changed=0 and
// sls_kept=yes; is.why says why not. cmp (optional): the comparison of the
// route taken with prev.
bool try_incremental(const EngineInput &in, const PreviousSls &prev, const Routing &fresh,
                     Routing &inc, IncrementalStats &is, EngineReport &rep,
                     SlComparison *cmp = nullptr) {
  bool ok = incremental_reroute(in.fabric, prev, fresh, in.max_vls, in.max_sls, inc, is);
  if (ok) {
    // As run_engine()'s self-check, which reuses a passing result.
    check::Options co = keep_check_options(in);
    co.project_sl = 0;
    auto r = std::make_shared<check::Result>(check::verify(in.fabric, inc, co));
    SlComparison c = compare_sls(in.fabric, inc, prev);
    ok = r->ok && c.changed == 0;
    if (cmp) *cmp = std::move(c);
    if (!r->ok) is.why = "its tables fail the check: " + r->first_problem;
    if (ok) rep.checked = std::move(r);  // the tables handed out: no second check
  }
  rep.add("incremental", ok ? "yes" : "no");
  rep.add("incremental_seconds", strprintf("%.3f", is.seconds));
  if (!ok) return false;
  add_lft_facts(is, rep);
  rep.add("sls_changed", 0L);
  rep.add("sls_kept", "yes");
  return true;
}

// The one WARN line of a re-route that changed SLs: how (after "routed
// before") and why (at the end) say which step it was.
void warn_sls_changed(Logger &log, const char *engine, int64_t changed, int64_t surviving,
                      const std::string &how, const std::string &why) {
  log.logf(LogLevel::kWarn,
           "%s: re-route changed the SL of %lld of %lld (source, destination) pairs routed "
           "before%s; jobs that asked the SA for PathRecords before must query them again%s",
           engine, static_cast<long long>(changed), static_cast<long long>(surviving), how.c_str(),
           why.c_str());
}

// Facts sls_changed, sls_kept and keep_checks of a result that kept some.
void add_kept_facts(int64_t changed, int checks, EngineReport &rep) {
  rep.add("sls_changed", static_cast<long>(changed));
  rep.add("sls_kept", changed == 0 ? "yes" : "partly");
  rep.add("keep_checks", static_cast<long>(checks));
}

}  // namespace

bool reroute_without_engine(const EngineDesc &e, const EngineInput &in, Routing &out,
                            EngineReport &rep) {
  if (!in.previous || !can_repair_previous(in)) return false;
  const PreviousSls &prev = *in.previous;
  const Fabric &f = in.fabric;
  // Nothing new: every switch had tables with the same ports, every LID the
  // same owner (new ends need the engine's routes and balance; a link that
  // came back stays unused, as with every incremental route).
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const auto it = prev.tables.find(f.sw(s).guid);
    if (it == prev.tables.end() || it->second.ports != f.sw(s).num_ports) return false;
  }
  if (new_lids(f, prev) > 0) return false;
  // No guide LFTs: a broken switch takes the neighbour with the shortest
  // route (CAs' SL2VL: VL 0, as the engines leave it).
  Routing guide;
  guide.reset(f, Routing::SlScope::kPerSourceSwitch);
  guide.engine = e.osm_name;
  for (const uint16_t lid : f.lids()) {  // the last hops: port 0 or the CA's port
    const LidOwner o = f.lid_owner(lid);
    guide.set_out_port(f.lid_switch(lid), lid,
                       o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : uint8_t{0});
  }
  Routing inc;
  IncrementalStats is;
  SlComparison c;
  if (!try_incremental(in, prev, guide, inc, is, rep, &c)) {
    rep.facts.clear();  // the engine routes next; its facts come first
    in.log.logf(LogLevel::kInfo,
                "%s: re-route: no new switches or LIDs, but the incremental route alone does not "
                "keep every SL (%s); routing afresh",
                e.osm_name, is.why.empty() ? "not every SL fits" : is.why.c_str());
    return false;
  }
  out = std::move(inc);
  rep.add("previous_pairs", static_cast<long>(c.surviving));
  rep.add("routed_afresh", "no");
  in.log.logf(LogLevel::kInfo,
              "%s: re-route: incremental, without routing afresh (no new switches or LIDs): "
              "%lld of %lld LFT entries kept, %lld re-routed (%lld source-switch paths changed); "
              "every one of the %lld (source, destination) pairs routed before keeps its SL",
              e.osm_name, static_cast<long long>(is.kept_entries),
              static_cast<long long>(is.kept_entries + is.repaired_entries),
              static_cast<long long>(is.repaired_entries), static_cast<long long>(is.changed_paths),
              static_cast<long long>(c.surviving));
  return true;
}

bool can_repair_previous(const EngineInput &in) {
  return in.previous && in.previous->scope == Routing::SlScope::kPerSourceSwitch &&
         !in.previous->tables.empty() && in.options.get_int("keep_sls") != 0 &&
         in.options.get_int("incremental") != 0;
}

bool keep_previous_sls(const EngineDesc &e, const EngineInput &in, Routing &out,
                       EngineReport &rep) {
  const PreviousSls &prev = *in.previous;
  if (!rep.repair_only.empty()) {
    // The engine could not route; out holds guide LFTs (EngineReport).
    Routing inc;
    IncrementalStats is;
    if (try_incremental(in, prev, out, inc, is, rep)) {
      out = std::move(inc);
      in.log.logf(LogLevel::kWarn,
                  "%s: %s; its previous routing was repaired instead: %lld of %lld LFT entries "
                  "kept, %lld re-routed; every (source, destination) pair routed before keeps "
                  "its SL",
                  e.osm_name, rep.repair_only.c_str(), static_cast<long long>(is.kept_entries),
                  static_cast<long long>(is.kept_entries + is.repaired_entries),
                  static_cast<long long>(is.repaired_entries));
      rep.add("repaired_previous", "yes");
      return true;
    }
    rep.repair_only += "; the previous routing could not be repaired either: " + is.why;
    return false;
  }
  const size_t engine_facts = rep.facts.size();
  SlComparison c;
  // Steps 1 and 1b on out: compare, rename the SLs towards the old names;
  // true when every surviving pair has its old SL (one INFO line).
  auto compare_rename = [&] {
    c = compare_sls(in.fabric, out, prev);
    if (c.changed > 0 && in.options.get_int("keep_sls") != 0) {
      const std::array<uint8_t, kNumSls> to = best_sl_renaming(c, in.max_sls);
      int64_t kept_after = 0, kept_before = 0;
      for (int i = 0; i < kNumSls; ++i) {
        kept_before += c.moved[i][i];
        kept_after += c.moved[i][to[i]];
      }
      if (kept_after > kept_before) {
        out.permute_sls(to);
        const int64_t fresh = c.changed;
        c = compare_sls(in.fabric, out, prev);
        rep.set("renamed_sls_changed", std::to_string(c.changed));
        rep.set("fresh_sls_changed", std::to_string(fresh));
      }
    }
    rep.set("previous_pairs", std::to_string(c.surviving));
    if (c.changed > 0) return false;
    rep.add("sls_changed", 0L);
    rep.add("sls_kept", "yes");
    in.log.logf(LogLevel::kInfo,
                "%s: re-route: every one of the %lld (source, destination) pairs routed before "
                "keeps its SL",
                e.osm_name, static_cast<long long>(c.surviving));
    return true;
  };
  if (compare_rename()) return true;
  const bool keep = in.options.get_int("keep_sls") != 0;
  std::string why = keep ? "the previous SLs do not fit the new tables' SL scope"
                         : "option keep_sls=0: routed afresh";
  const check::Options co = keep_check_options(in);
  int checks = 0;
  // Step 1c: the incremental route (core/reroute/incremental.h): the previous
  // tables where the fault left them intact, only broken paths re-routed.
  // The incremental route is for faults: with many new LIDs (an expansion,
  // or LIDs handed out anew) it places every new (switch, LID) path one by
  // one, far slower than routing afresh (648 LIDs on a 6x6x6 torus, nearly
  // all new: 38 s against 0.14 s, about 0.3 ms per new path), so beyond a
  // tenth of the LIDs or 100,000 new paths the steps below keep what they
  // can.
  const int64_t fresh_lids = new_lids(in.fabric, prev);
  const bool few_new = fresh_lids * 10 <= static_cast<int64_t>(in.fabric.lids().size()) &&
                       fresh_lids * in.fabric.num_switches() <= 100000;
  const bool try_inc = keep && in.options.get_int("incremental") != 0 && !prev.tables.empty() &&
                       out.sl_scope() == Routing::SlScope::kPerSourceSwitch && few_new;
  if (keep && !few_new)
    in.log.logf(LogLevel::kInfo,
                "%s: re-route: %lld of %zu LIDs are new, so no incremental route (the pinned "
                "realization keeps what it can)",
                e.osm_name, static_cast<long long>(fresh_lids), in.fabric.lids().size());
  if (try_inc) {
    Routing inc;
    IncrementalStats is;
    ++checks;
    if (try_incremental(in, prev, out, inc, is, rep)) {
      out = std::move(inc);
      rep.add("keep_checks", static_cast<long>(checks));
      in.log.logf(LogLevel::kInfo,
                  "%s: re-route: incremental: %lld of %lld LFT entries kept, %lld re-routed "
                  "(%lld source-switch paths changed, %lld of them new); every one of the %lld "
                  "(source, destination) pairs routed before keeps its SL (the fresh routing "
                  "would have changed %lld)",
                  e.osm_name, static_cast<long long>(is.kept_entries),
                  static_cast<long long>(is.kept_entries + is.repaired_entries),
                  static_cast<long long>(is.repaired_entries),
                  static_cast<long long>(is.changed_paths), static_cast<long long>(is.new_pairs),
                  static_cast<long long>(c.surviving), static_cast<long long>(c.changed));
      return true;
    }
    in.log.logf(LogLevel::kInfo, "%s: re-route: no incremental route: %s", e.osm_name,
                is.why.c_str());
    // Routed without pins for the incremental route only (run_engine()):
    // now the routing with the previous SLs pinned, for the steps below. Its
    // LFTs are the same (pins only move SLs and VLs), so the incremental
    // route need not run again; the engine's facts are the pinned run's.
    if (!in.pin_previous) {
      EngineInput pinned = in;
      pinned.pin_previous = true;
      Routing again;
      EngineReport arep;
      if (e.route(pinned, again, arep) && arep.repair_only.empty()) {
        out = std::move(again);
        arep.facts.insert(arep.facts.end(), rep.facts.begin() + engine_facts, rep.facts.end());
        rep.facts = std::move(arep.facts);
        if (compare_rename()) {
          rep.add("keep_checks", static_cast<long>(checks));
          return true;
        }
      }
    }
  }
  if (keep) {
    Routing kept = out;
    if (apply_previous_sls(in.fabric, prev, kept)) {
      ++checks;
      const check::Result r = check::verify(in.fabric, kept, co);
      if (r.ok) {
        out = std::move(kept);
        rep.add("sls_changed", 0L);
        rep.add("sls_kept", "yes");
        rep.add("keep_checks", static_cast<long>(checks));
        in.log.logf(LogLevel::kInfo,
                    "%s: re-route: the new tables are deadlock free with the previous SLs, which "
                    "the SA keeps answering for all %lld (source, destination) pairs routed "
                    "before (the fresh routing would have changed %lld)",
                    e.osm_name, static_cast<long long>(c.surviving),
                    static_cast<long long>(c.changed));
        return true;
      }
      why = "the new tables with all previous SLs: " + r.first_problem;
      // Step 2a: the incremental route once more, relaxed: the broken paths
      // that keep no SL take another one, every other pair keeps its own.
      if (try_inc) {
        Routing inc;
        IncrementalStats is;
        ++checks;
        if (incremental_reroute(in.fabric, prev, out, in.max_vls, in.max_sls, inc, is, true,
                                in.options.get_int("drop_stale_sls") != 0) &&
            check::verify(in.fabric, inc, co).ok) {
          const SlComparison left = compare_sls(in.fabric, inc, prev);
          if (left.changed < c.changed) {
            out = std::move(inc);
            rep.add("incremental_relaxed", "yes");
            add_lft_facts(is, rep);
            add_kept_facts(left.changed, checks, rep);
            if (left.changed == 0) return true;
            rep.add("sl_changed_paths", static_cast<long>(is.sl_changed_paths));
            std::string stale;
            if (is.stale_dropped + is.stale_delivered + is.stale_unsafe > 0) {
              rep.add("stale_sls_dropped", static_cast<long>(is.stale_dropped));
              rep.add("stale_sls_delivered", static_cast<long>(is.stale_delivered));
              rep.add("stale_sls_unsafe", static_cast<long>(is.stale_unsafe));
              stale = is.stale_unsafe == 0
                          ? strprintf(
                                "; traffic still sent on their previous SLs is dropped "
                                "(VL 15) on %lld of them before it could close a credit "
                                "loop, and delivered without one on %lld",
                                static_cast<long long>(is.stale_dropped),
                                static_cast<long long>(is.stale_delivered))
                          : strprintf(
                                "; on %lld of them traffic still sent on the previous SL "
                                "can close a credit loop (%lld dropped before one, %lld "
                                "delivered)",
                                static_cast<long long>(is.stale_unsafe),
                                static_cast<long long>(is.stale_dropped),
                                static_cast<long long>(is.stale_delivered));
            }
            warn_sls_changed(
                in.log, e.osm_name, left.changed, c.surviving,
                strprintf(
                    " (%lld with a fresh routing): %lld source-switch paths the fault "
                    "broke fit no next hop with their SL, every other pair keeps its own "
                    "(incremental: %lld of %lld LFT entries kept)%s",
                    static_cast<long long>(c.changed), static_cast<long long>(is.sl_changed_paths),
                    static_cast<long long>(is.kept_entries),
                    static_cast<long long>(is.kept_entries + is.repaired_entries), stale.c_str()),
                "");
            return true;
          }
        }
      }
      // Step 2b: bisect the destinations whose SLs changed.
      std::vector<char> only(in.fabric.max_lid() + 1u, 0);
      const std::vector<uint16_t> &d = c.changed_dests;
      bool any = false;
      auto bisect = [&](auto &&self, size_t lo, size_t hi) -> void {
        if (lo >= hi || checks >= kMaxKeepChecks) return;
        if (!any && checks >= kGiveUpChecks) return;  // the old SLs do not fit at all
        Routing t = out;
        std::fill(only.begin(), only.end(), 0);
        for (size_t i = lo; i < hi; ++i) only[d[i]] = 1;
        apply_previous_sls(in.fabric, prev, t, &only);
        ++checks;
        if (check::verify(in.fabric, t, co).ok) {
          out = std::move(t);
          any = true;
          return;
        }
        if (hi - lo == 1) return;
        const size_t mid = lo + (hi - lo) / 2;
        self(self, lo, mid);
        self(self, mid, hi);
      };
      // The whole list failed above: start with its halves.
      if (d.size() > 1) {
        bisect(bisect, 0, d.size() / 2);
        bisect(bisect, d.size() / 2, d.size());
      }
      if (any) {
        const SlComparison left = compare_sls(in.fabric, out, prev);
        add_kept_facts(left.changed, checks, rep);
        if (left.changed == 0) return true;
        warn_sls_changed(in.log, e.osm_name, left.changed, c.surviving,
                         strprintf(" (%lld with a fresh routing; the others keep theirs)",
                                   static_cast<long long>(c.changed)),
                         "");
        return true;
      }
    }
  }
  rep.add("sls_changed", static_cast<long>(c.changed));
  rep.add("sls_kept", keep ? "no" : "off");
  if (keep) rep.add("keep_checks", static_cast<long>(checks));
  warn_sls_changed(in.log, e.osm_name, c.changed, c.surviving, "", " (" + why + ")");
  return true;
}

}  // namespace keiro
