// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/reroute/previous_sls.h"

#include <algorithm>
#include <utility>

#include "core/check/verify.h"

namespace keiro {

namespace {

// Per LID of f: whether it survives (lid_survives()).
std::vector<char> surviving_lids(const Fabric &f, const PreviousSls &prev) {
  std::vector<char> s(f.max_lid() + 1u, 0);
  for (uint16_t lid : f.lids()) s[lid] = lid_survives(f, prev, lid);
  return s;
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

int64_t new_lids(const Fabric &f, const PreviousSls &prev) {
  int64_t n = 0;
  for (uint16_t lid : f.lids()) n += !lid_survives(f, prev, lid);
  return n;
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

}  // namespace keiro
