// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/opensm_lids.h"

#include <algorithm>
#include <list>
#include <utility>
#include <vector>

namespace keiro::io {

namespace {
constexpr uint32_t kLidEnd = 0xC000;  // first multicast LID

struct PortRef {
  uint64_t key;  // byte-swapped GUID: OpenSM's map order on little-endian hosts
  LidOwner who;
};

struct Range {
  uint32_t min, max;
};
}  // namespace

void assign_lids_opensm(Fabric &f, uint8_t lmc, LidOwner sm) {
  if (f.finalized()) throw FabricError("LID assignment after finalize");
  const uint32_t n_ca = 1u << lmc;
  const uint32_t mask = ~(n_ca - 1);
  std::vector<bool> reserved(kLidEnd, false), used(kLidEnd, false);
  std::vector<PortRef> order;
  order.reserve(f.num_switches() + f.num_terminals());

  auto keep_candidate = [&](uint16_t &lid, uint32_t n) {
    if (!lid) return;
    if ((lid & (n - 1)) != 0 || lid + n > kLidEnd) {
      lid = 0;  // OpenSM treats an unaligned discovered LID as free
      return;
    }
    for (uint32_t l = lid; l < lid + n; ++l) reserved[l] = true;
  };
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    SwitchInfo &si = f.sw_mut(s);
    si.lmc = 0;
    keep_candidate(si.lid, 1);
    order.push_back({__builtin_bswap64(si.guid), {LidOwner::kSwitch, s}});
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    TerminalInfo &ti = f.terminal_mut(t);
    ti.lmc = lmc;
    keep_candidate(ti.lid, n_ca);
    order.push_back({__builtin_bswap64(ti.port_guid), {LidOwner::kTerminal, t}});
  }
  std::stable_sort(order.begin(), order.end(), [&](const PortRef &a, const PortRef &b) {
    const bool a_sm = a.who.kind == sm.kind && a.who.id == sm.id;
    const bool b_sm = b.who.kind == sm.kind && b.who.id == sm.id;
    if (a_sm != b_sm) return a_sm;
    return a.key < b.key;
  });

  std::list<Range> free;
  for (uint32_t l = 1; l < kLidEnd;) {
    if (reserved[l]) {
      ++l;
      continue;
    }
    uint32_t e = l;
    while (e + 1 < kLidEnd && !reserved[e + 1]) ++e;
    free.push_back({l, e});
    l = e + 1;
  }

  for (const PortRef &p : order) {
    const bool is_sw = p.who.kind == LidOwner::kSwitch;
    uint16_t &lid = is_sw ? f.sw_mut(p.who.id).lid : f.terminal_mut(p.who.id).lid;
    const uint32_t n = is_sw ? 1 : n_ca;
    bool keep = lid != 0;
    for (uint32_t l = lid; keep && l < lid + n; ++l) keep = !used[l];
    if (!keep) {
      lid = 0;
      for (auto it = free.begin(); it != free.end(); ++it) {
        uint32_t cand = it->min;
        if (n > 1 && (cand & mask) != cand) cand = (cand + n) & mask;
        if (cand + n - 1 > it->max) continue;
        if (cand + n - 1 == it->max)
          free.erase(it);
        else
          it->min = cand + n;
        lid = static_cast<uint16_t>(cand);
        break;
      }
      if (!lid) throw FabricError("out of unicast LIDs");
    }
    for (uint32_t l = lid; l < lid + n; ++l) used[l] = true;
  }
}

bool sm_by_description(const Fabric &f, const std::string &desc, LidOwner &sm) {
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (f.sw(s).name == desc) return sm = {LidOwner::kSwitch, s}, true;
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    if (f.terminal(t).name == desc) return sm = {LidOwner::kTerminal, t}, true;
  return false;
}

bool finish_fabric(Fabric &f, uint8_t lmc, LidOwner sm, const std::string &name, Fabric &out,
                   std::string &err) {
  try {
    assign_lids_opensm(f, lmc, sm);
    f.finalize();
  } catch (const FabricError &e) {
    err = name + ": " + e.what();
    return false;
  }
  out = std::move(f);
  return true;
}

}  // namespace keiro::io
