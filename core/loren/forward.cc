// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/forward.h"

#include <algorithm>
#include <cassert>

#include "core/log.h"

namespace keiro::loren {

int32_t pick(std::span<const LorenEntry> table, const Layout &layout, int32_t v) {
  int32_t best = -1, best_md = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const int32_t m = layout.md(table[i].dst, v);
    if (best < 0 || m < best_md) {
      best = static_cast<int32_t>(i);
      best_md = m;
      if (m == 0) break;  // the entry for v itself; at most one per table
    }
  }
  return best;
}

bool forwarding(const Fabric &f, const Layout &layout, const LorenTables &tables,
                const minimal::DestTrees &shortest, minimal::DestTrees &out, std::string &err) {
  const int32_t S = f.num_switches();
  if (tables.num_switches != S || shortest.num_switches != S || shortest.num_dests() != S) {
    err = "LOREN tables do not match the fabric";
    return false;
  }
  assert(layout.num_switches() == S && "loren::forwarding: the layout of another fabric");
  out.reset(S, S);
  out.root = shortest.root;
  out.lid_start = shortest.lid_start;
  out.lids = shortest.lids;

  for (int32_t u = 0; u < S; ++u) {
    const auto table = tables.table(u);
    // pick()'s tie-break (the first entry) relies on this order.
    assert(
        std::is_sorted(table.begin(), table.end(),
                       [](const LorenEntry &a, const LorenEntry &b) { return a.hops < b.hops; }) &&
        "loren::forwarding: build_tables sorts every table by hops");
    for (int32_t v = 0; v < S; ++v) {
      if (v == u) continue;
      const int32_t i = pick(table, layout, v);
      if (i < 0) {
        err = strprintf("switch '%s' has an empty LOREN table", f.sw(u).name.c_str());
        return false;
      }
      out.next[static_cast<size_t>(v) * S + u] = table[i].channel;
    }
  }

  // Livelock check: from every switch, the picks reach every destination.
  std::vector<uint8_t> state;
  std::vector<int32_t> walk;
  for (int32_t v = 0; v < S; ++v) {
    int32_t s0 = -1;
    const int32_t s = minimal::first_loop(f, out, v, state, walk, s0);
    if (s >= 0) {
      err = strprintf(
          "livelock: LOREN's forwarding from switch '%s' towards switch '%s' loops through "
          "switch '%s' (does every grid position between them hold a switch?)",
          f.sw(s0).name.c_str(), f.sw(v).name.c_str(), f.sw(s).name.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace keiro::loren
