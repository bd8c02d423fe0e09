// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/loren.h"

#include <algorithm>
#include <vector>

#include "core/loren/forward.h"
#include "core/minimal/balanced.h"

namespace keiro::loren {

bool route(const Fabric &f, const Layout &layout, const LorenOptions &opt, LorenRouting &out,
           std::string &err) {
  const int32_t S = f.num_switches();
  minimal::BalancedOptions bo;
  bo.seed = opt.seed;
  bo.per_lid = false;  // LOREN's tables are per destination switch
  bo.refine = 2;
  if (!minimal::balanced_routing(f, bo, out.shortest, err)) return false;
  LorenTableOptions to;
  to.tmax = opt.tmax;
  if (!build_tables(f, layout, out.shortest, to, out.tables, err)) return false;
  if (!forwarding(f, layout, out.tables, out.shortest, out.trees, err)) return false;

  std::vector<int32_t> d(S), m(S);
  int64_t sum = 0, sum_min = 0;
  out.max_hops = out.max_min_hops = 0;
  out.max_stretch = 1;
  for (int32_t k = 0; k < S; ++k) {
    minimal::tree_depths(f, out.trees, k, d);
    minimal::tree_depths(f, out.shortest, k, m);
    for (int32_t s = 0; s < S; ++s) {
      sum += d[s];
      sum_min += m[s];
      out.max_hops = std::max(out.max_hops, d[s]);
      out.max_min_hops = std::max(out.max_min_hops, m[s]);
      if (m[s] > 0) out.max_stretch = std::max(out.max_stretch, static_cast<double>(d[s]) / m[s]);
    }
  }
  const double pairs = static_cast<double>(S) * (S - 1);
  out.avg_hops = pairs > 0 ? sum / pairs : 0;
  out.avg_min_hops = pairs > 0 ? sum_min / pairs : 0;
  return true;
}

}  // namespace keiro::loren
