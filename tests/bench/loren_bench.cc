// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// loren_bench: measurements for keiro-loren on layout-conscious random
// topologies LRT(n*n, d, r) (tests/bench/loren_lrt.h); scripts/loren-repro.py
// drives it and writes docs/loren-evaluation.md with SVG plots.
//
//   loren_bench hops     n d r SEED0 SEED1 [STEP]  average path length against
//                        t_max, from the required number to n*n - 1 (every
//                        STEP-th value past 64; paper Fig. 5)
//   loren_bench required n d r SEED0 SEED1         the smallest t_max the
//                        mandatory entries need (paper Fig. 6), also with
//                        grid-neighbour paths straight along the trees
//   loren_bench traffic  n d r SEED0 SEED1 PATTERNS TMAX...
//                        effective bandwidth and average efficiency of LOREN
//                        (each TMAX) and of balanced minimal routing under
//                        hotspot(beta) and local(gamma) traffic (Figs. 11-12)
//   loren_bench engine   n d r HCAS SEED TMAX [MAX_VLS [MAX_SLS]]
//                        keiro-loren end to end (LOREN + ACRO + SLs/SL2VL +
//                        self-check) next to keiro-acro on the same fabric
//   loren_bench smoke    small cases of hops, required and engine (make
//                        check); exit 1 if LOREN or ACRO fails on them
// Seeds SEED0..SEED1 inclusive. One tab-separated line per result on stdout,
// with a '#' header line.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/loren/loren.h"
#include "core/minimal/balanced.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "core/topo/rng.h"
#include "tests/bench/loren_lrt.h"

namespace {

using namespace keiro;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "loren_bench: %s\n", msg.c_str());
  std::exit(1);
}

long arg(char **argv, int i) {
  return std::strtol(argv[i], nullptr, 10);
}

using Lrtf = bench::LrtFabric;

Lrtf make(int n, int d, int r, uint64_t seed, int hcas) {
  return bench::make_lrt(n, d, r, hcas, seed);
}

bool route(const Lrtf &x, int32_t tmax, loren::LorenRouting &out) {
  loren::LorenOptions o;
  o.tmax = tmax;
  std::string err;
  const bool ok = loren::route(x.f, x.l, o, out, err);
  if (!ok && !(tmax > 0 && tmax < out.tables.required)) die(err);
  return ok;
}

int hops(int n, int d, int r, uint64_t s0, uint64_t s1, int step) {
  std::printf("#n\td\tr\tseed\ttmax\trequired\tavg_hops\tavg_min_hops\tmax_hops\tmax_stretch\n");
  for (uint64_t seed = s0; seed <= s1; ++seed) {
    const Lrtf x = make(n, d, r, seed, 0);
    const int32_t S = x.f.num_switches();
    loren::LorenRouting lr;
    route(x, 0, lr);
    const int32_t req = lr.tables.required;
    std::vector<int32_t> ts;
    for (int32_t t = req; t < S - 1; t += (t < 64 ? 1 : step)) ts.push_back(t);
    ts.push_back(S - 1);
    for (int32_t t : ts) {
      route(x, t, lr);
      std::printf("%d\t%d\t%d\t%llu\t%d\t%d\t%.5f\t%.5f\t%d\t%.3f\n", S, d, r,
                  (unsigned long long)seed, t, req, lr.avg_hops, lr.avg_min_hops, lr.max_hops,
                  lr.max_stretch);
    }
    std::fflush(stdout);
  }
  return 0;
}

int required(int n, int d, int r, uint64_t s0, uint64_t s1) {
  std::printf(
      "#n\td\tr\tseed\trequired\tavg_mandatory\tadjacent\tgrid_neighbour\tseconds\t"
      "required_tree_paths\n");
  for (uint64_t seed = s0; seed <= s1; ++seed) {
    const auto t0 = std::chrono::steady_clock::now();
    const Lrtf x = make(n, d, r, seed, 0);
    minimal::DestTrees trees;
    std::string err;
    if (!minimal::balanced_routing(x.f, {}, trees, err)) die(err);
    loren::LorenTableOptions o;
    o.mandatory_only = true;
    loren::LorenTables t;
    if (!loren::build_tables(x.f, x.l, trees, o, t, err)) die(err);
    const int32_t S = x.f.num_switches();
    const double secs = since(t0);
    // The same with kind (2) paths straight along the balanced trees.
    o.tree_paths = true;
    loren::LorenTables tp;
    if (!loren::build_tables(x.f, x.l, trees, o, tp, err)) die(err);
    std::printf("%d\t%d\t%d\t%llu\t%d\t%.4f\t%lld\t%lld\t%.4f\t%d\n", S, d, r,
                (unsigned long long)seed, t.required, static_cast<double>(t.entries.size()) / S,
                (long long)t.adjacent, (long long)t.grid_neighbour, secs, tp.required);
  }
  return 0;
}

// Traffic: every switch sends one flow; dest[u] = -1 for none.
void hotspot(const Lrtf &x, double beta, topo::Rng &rng, std::vector<int32_t> &dest) {
  const int32_t S = x.f.num_switches();
  const auto hot = static_cast<int32_t>(rng.below(S));
  for (int32_t u = 0; u < S; ++u) {
    if (u != hot && rng.unit() < beta) {
      dest[u] = hot;
      continue;
    }
    auto v = static_cast<int32_t>(rng.below(S - 1));
    dest[u] = v >= u ? v + 1 : v;
  }
}

// cdf[u * S + v]: cumulative md(u, w)^-gamma over w <= v, w != u.
void local_cdf(const Lrtf &x, double gamma, std::vector<double> &cdf) {
  const int32_t S = x.f.num_switches();
  cdf.assign(static_cast<size_t>(S) * S, 0);
  for (int32_t u = 0; u < S; ++u) {
    double sum = 0;
    for (int32_t v = 0; v < S; ++v) {
      if (v != u) sum += std::pow(static_cast<double>(x.l.md(u, v)), -gamma);
      cdf[static_cast<size_t>(u) * S + v] = sum;
    }
  }
}

void local(const Lrtf &x, const std::vector<double> &cdf, topo::Rng &rng,
           std::vector<int32_t> &dest) {
  const int32_t S = x.f.num_switches();
  for (int32_t u = 0; u < S; ++u) {
    const double *row = cdf.data() + static_cast<size_t>(u) * S;
    const double p = rng.unit() * row[S - 1];
    // First v with row[v] > p (never u: row[u] == row[u - 1]).
    auto v = static_cast<int32_t>(std::upper_bound(row, row + S, p) - row);
    if (v >= S) v = S - 1;
    if (v == u) v = u == 0 ? 1 : u - 1;
    dest[u] = v;
  }
}

// Effective bandwidth (Hoefler et al., LOREN Sect. VI-D2) over directed
// switch-to-switch channels, and average efficiency (mean 1/hops).
void measure(const Fabric &f, const minimal::DestTrees &t, const std::vector<int32_t> &dest,
             std::vector<int32_t> &tau, double &gamma, double &eff) {
  const int32_t S = f.num_switches();
  std::fill(tau.begin(), tau.end(), 0);
  int32_t flows = 0;
  for (int32_t u = 0; u < S; ++u) {
    if (dest[u] < 0) continue;
    ++flows;
    for (int32_t s = u; s != dest[u]; s = f.channel(t.hop(dest[u], s)).dst)
      ++tau[t.hop(dest[u], s)];
  }
  gamma = eff = 0;
  for (int32_t u = 0; u < S; ++u) {
    if (dest[u] < 0) continue;
    int32_t worst = 0, h = 0;
    for (int32_t s = u; s != dest[u]; s = f.channel(t.hop(dest[u], s)).dst, ++h)
      worst = std::max(worst, tau[t.hop(dest[u], s)]);
    gamma += 1.0 / worst;
    eff += 1.0 / h;
  }
  gamma /= flows;
  eff /= flows;
}

int traffic(int n, int d, int r, uint64_t s0, uint64_t s1, int patterns,
            const std::vector<int32_t> &tmaxes) {
  std::printf("#n\td\tr\tseed\ttraffic\tparam\trouting\ttmax\teff_bandwidth\tavg_efficiency\n");
  const double betas[] = {0.1, 0.3, 0.5, 0.7}, gammas[] = {1, 2, 3};
  for (uint64_t seed = s0; seed <= s1; ++seed) {
    const Lrtf x = make(n, d, r, seed, 0);
    const int32_t S = x.f.num_switches();
    std::vector<std::pair<std::string, minimal::DestTrees>> routings;
    std::vector<int32_t> tm;
    {
      loren::LorenRouting lr;
      route(x, 0, lr);
      routings.emplace_back("minimal", lr.shortest);
      tm.push_back(S - 1);
      for (int32_t t : tmaxes) {
        if (!route(x, t, lr)) continue;  // below the required number on this fabric
        routings.emplace_back("loren", lr.trees);
        tm.push_back(t);
      }
    }
    std::vector<int32_t> dest(S), tau(x.f.num_channels());
    std::vector<double> cdf;
    for (int kind = 0; kind < 2; ++kind)
      for (double p : kind == 0 ? std::vector<double>(std::begin(betas), std::end(betas))
                                : std::vector<double>(std::begin(gammas), std::end(gammas))) {
        std::vector<double> g(routings.size(), 0), e(routings.size(), 0);
        if (kind == 1) local_cdf(x, p, cdf);
        topo::Rng rng(seed * 1000003 + static_cast<uint64_t>(p * 1000) + kind * 7);
        for (int i = 0; i < patterns; ++i) {
          if (kind == 0)
            hotspot(x, p, rng, dest);
          else
            local(x, cdf, rng, dest);
          for (size_t k = 0; k < routings.size(); ++k) {
            double gg, ee;
            measure(x.f, routings[k].second, dest, tau, gg, ee);
            g[k] += gg;
            e[k] += ee;
          }
        }
        for (size_t k = 0; k < routings.size(); ++k)
          std::printf("%d\t%d\t%d\t%llu\t%s\t%g\t%s\t%d\t%.5f\t%.5f\n", S, d, r,
                      (unsigned long long)seed, kind == 0 ? "hotspot" : "local", p,
                      routings[k].first.c_str(), tm[k], g[k] / patterns, e[k] / patterns);
      }
    std::fflush(stdout);
  }
  return 0;
}

int engine(int n, int d, int r, int hcas, uint64_t seed, int tmax, int max_vls, int max_sls,
           bool strict = false) {
  int failed = 0;
  const Lrtf x = make(n, d, r, seed, hcas);
  const std::string lay = "/tmp/loren_bench_" + std::to_string(getpid()) + ".layout";
  std::ofstream(lay) << x.layout;
  std::printf(
      "#n\td\tr\thcas\tseed\tengine\ttmax\tok\trequired\ttable_max\tavg_hops\tavg_min_hops\t"
      "layers\tvls_used\tsls_used\troute_s\tcheck_s\terror\n");
  for (const char *name : {"loren", "acro"}) {
    Options o = all_options();
    std::string err;
    const std::string text = "loren_layout=" + lay + " loren_tmax=" + std::to_string(tmax) +
                             " max_sls=" + std::to_string(max_sls);
    if (!Options::parse(text, o, err)) die(err);
    CaptureLogger log;
    EngineInput in{x.f, o, log};
    in.max_vls = max_vls;
    in.max_sls = max_sls;
    Routing out;
    EngineReport rep;
    const bool ok = pipeline::route(*find_engine(name), in, out, rep);
    failed += !ok;
    std::string error;
    for (const auto &l : log.lines)
      if (l.level == LogLevel::kError) error = l.text;
    auto g = [&](const char *k) {
      const std::string v = rep.get(k);
      return v.empty() ? std::string("-") : v;
    };
    std::printf("%d\t%d\t%d\t%d\t%llu\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%.3f\t%.3f\t%s\n",
                x.f.num_switches(), d, r, hcas, (unsigned long long)seed, name, tmax, ok ? 1 : 0,
                g("required_entries").c_str(), g("table_size_max").c_str(), g("avg_hops").c_str(),
                g("avg_min_hops").c_str(), g("layers").c_str(), ok ? out.vls_used : 0,
                ok ? out.sls_used : 0, rep.route_seconds, rep.check_seconds,
                error.empty() ? "-" : error.c_str());
    std::fflush(stdout);
  }
  std::remove(lay.c_str());
  return strict && failed ? 1 : 0;
}

// Seconds, not minutes: LRT(16, 4, 2) through hops and required, and both
// engines end to end on LRT(16, 4, 2) with one CA per switch (t_max 0: the
// mandatory entries; 15: full tables), which must route.
int smoke() {
  int failed = 0;
  failed += hops(4, 4, 2, 1, 2, 1) != 0;
  failed += required(4, 4, 2, 1, 2) != 0;
  failed += engine(4, 4, 2, 1, 1, 0, 8, 16, true) != 0;
  failed += engine(4, 4, 2, 1, 2, 15, 4, 16, true) != 0;
  if (failed) std::fprintf(stderr, "loren_bench smoke: %d of 4 failed\n", failed);
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  try {
    if (cmd == "smoke" && argc == 2) return smoke();
    if (cmd == "hops" && argc >= 7)
      return hops(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5), arg(argv, 6),
                  argc > 7 ? arg(argv, 7) : 1);
    if (cmd == "required" && argc == 7)
      return required(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5), arg(argv, 6));
    if (cmd == "traffic" && argc >= 9) {
      std::vector<int32_t> t;
      for (int i = 8; i < argc; ++i) t.push_back(static_cast<int32_t>(arg(argv, i)));
      return traffic(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5), arg(argv, 6),
                     arg(argv, 7), t);
    }
    if (cmd == "engine" && argc >= 8)
      return engine(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5), arg(argv, 6),
                    arg(argv, 7), argc > 8 ? arg(argv, 8) : 8, argc > 9 ? arg(argv, 9) : 16);
  } catch (const std::exception &e) {
    die(e.what());
  }
  std::fprintf(stderr,
               "usage: loren_bench smoke|hops|required|traffic|engine ... (see the source)\n");
  return 2;
}
