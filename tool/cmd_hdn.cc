// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro hdn-exchange: the total exchange of the HDN paper (Algorithm 2) as a
// checked schedule over a generated HDN (core/topo/hdn_exchange.h).
#include <climits>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/topo/graph_metrics.h"
#include "core/topo/hdn.h"
#include "core/topo/hdn_exchange.h"
#include "tool/args.h"
#include "tool/command.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro hdn-exchange --base 2x3x5 --k K --S s1[,s2..] [--ts T] [--tw T] [--m M]\n"
    "  runs the four-stage total exchange of Li and Chu (NPC 2013, Algorithm 2) on the\n"
    "  generated HDN(B, k, S), checks that every node ends with each of its messages\n"
    "  exactly once, and prints the steps and T_k(m) next to Theorem 3.\n"
    "  --ts, --tw  startup and per-word time (default 1, 1); --m message length (default 1)\n";

int run_hdn_exchange(const std::vector<std::string> &args) {
  HdnArgs hdn;
  topo::ExchangeModel model;
  const double kNoLimit = std::numeric_limits<double>::max();
  for (ArgWalker w("hdn-exchange", args); w.next();) {
    if (w.help()) return print_usage(kUsage);
    if (hdn.take(w) || w.take_num("--ts", 0, kNoLimit, model.ts) ||
        w.take_num("--tw", 0, kNoLimit, model.tw) || w.take_num("--m", 0, kNoLimit, model.m)) {
      if (w.failed()) return 2;
    } else {
      return w.unknown(kUsage);
    }
  }
  if (!hdn.complete())
    return usage_error("hdn-exchange", "--base, --k and --S are required", kUsage);
  const std::string &base = hdn.base, &S = hdn.S;
  const int k = hdn.k;
  const topo::HdnSpec spec = topo::parse_hdn(base, k, S);
  topo::TopoOptions o;
  o.hcas = 0;
  const topo::GenFabric g = topo::gen_hdn(spec, o);
  const topo::HdnIndex idx(spec, 1000000);
  const topo::Adjacency adj = topo::adjacency(g);
  const topo::ExchangeReport r = topo::run_total_exchange(idx, adj, model);
  std::printf("HDN(%s, %d, {%s}): %llu nodes, degree %d + %d (rings of 2 as parallel links)\n",
              base.c_str(), k, S.c_str(), static_cast<unsigned long long>(r.nodes),
              topo::hdn_base_degree(spec), k);
  std::fputs(topo::describe(spec).c_str(), stdout);
  if (!r.error.empty()) {
    std::printf("FAILED: %s\n", r.error.c_str());
    return 1;
  }
  std::printf(
      "total exchange: %llu messages, every node ends with each of its %llu messages "
      "exactly once; every transfer on an HDN link, one port per node per step\n",
      static_cast<unsigned long long>(r.messages), static_cast<unsigned long long>(r.nodes));
  std::printf("steps: %d   Theorem 3: (2^(k+1) - 2) + 2^k * %d (base) = %d   %s\n", r.steps,
              r.base_steps, r.theorem3_steps, r.steps == r.theorem3_steps ? "equal" : "DIFFERENT");
  std::printf("T_%d(m) with t_s=%g t_w=%g m=%g:\n", k, model.ts, model.tw, model.m);
  std::printf("  schedule:                                          %.6g\n", r.time);
  std::printf("  closed form of the schedule                        %.6g\n", r.closed_form);
  std::printf("    (2^(k+1)-2)(t_s + 3/4 t_w m n_k) + 2^k T_0(m n_k/n_0)\n");
  std::printf("  Theorem 3: (2^(k+1)-2)(t_s + t_w m n_k/2) + 2^k T_0(m n_k/2)   %.6g\n",
              r.theorem3);
  std::printf("  T_0(m) = sum_j (b_j - 1)(t_s + t_w m n_0/2) (ring-by-ring shifts in B)\n");
  return r.steps == r.theorem3_steps && r.delivered ? 0 : 1;
}

const Command kHdn{"hdn-exchange", "total exchange schedule on a hierarchical dual-net",
                   run_hdn_exchange};

}  // namespace
}  // namespace keiro::tool
