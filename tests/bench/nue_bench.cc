// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// nue_bench: times nue::route (core/nue/nue.h) on the benchmark
// fabrics and prints its counters and the route quality (hops, edge
// forwarding index), checked by the independent walker of tests/unit/oracles.h on
// the tables nue::write_tables produces (not timed).
//
//   tests/bench/nue_bench [--reps N] [--net-dir DIR] [--opt key=value ...] [--lmc L]
//                   [--fabric rrg128|torus666] [--k K] [--smoke]
//
// --smoke (make check): one repetition of every case; exit 1 if nue::route
// or the independent check fails (as always).
//
// Fabrics: "rrg128": random 8-regular graph of 128 switches, 4 CAs each;
// "torus666": 6x6x6 torus, 1% of the links failed, 2 CAs per switch.
// --net-dir writes both as ibsim .net files (for running OpenSM's own nue on
// the same graphs).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/nue/engine.h"
#include "core/nue/nue.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace {

struct Bench {
  const char *name;
  keiro::Fabric fabric;
};

}  // namespace

int main(int argc, char **argv) {
  int reps = 5;
  int lmc = 0, only_k = 0;
  std::string net_dir, opts, only_fabric;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--net-dir") && i + 1 < argc) {
      net_dir = argv[++i];
    } else if (!std::strcmp(argv[i], "--opt") && i + 1 < argc) {
      opts += std::string(" ") + argv[++i];
    } else if (!std::strcmp(argv[i], "--lmc") && i + 1 < argc) {
      lmc = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--fabric") && i + 1 < argc) {
      only_fabric = argv[++i];
    } else if (!std::strcmp(argv[i], "--smoke")) {
      reps = 1;
    } else if (!std::strcmp(argv[i], "--k") && i + 1 < argc) {
      only_k = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: nue_bench [--reps N] [--net-dir DIR] [--opt key=value] [--lmc L] "
                   "[--fabric rrg128|torus666] [--k K] [--smoke]\n");
      return 2;
    }
  }
  keiro::Options options = keiro::all_options();
  std::string err;
  if (!keiro::Options::parse(opts, options, err)) {
    std::fprintf(stderr, "nue_bench: %s\n", err.c_str());
    return 2;
  }

  std::vector<Bench> benches;
  namespace fx = keiro::fixtures;
  const auto l = static_cast<uint8_t>(lmc);
  benches.push_back({"rrg128", fx::random_regular(128, 8, 1, {.hcas = 4, .lmc = l})});
  benches.push_back(
      {"torus666", fx::from_links(216, fx::torus_links(6, 6, 6, 0.01, 1), {.hcas = 2, .lmc = l})});
  if (!net_dir.empty()) {
    for (const Bench &b : benches) {
      const std::string path = net_dir + "/" + b.name + ".net";
      if (!keiro::fixtures::write_ibsim_net(b.fabric, path)) {
        std::fprintf(stderr, "nue_bench: cannot write %s\n", path.c_str());
        return 1;
      }
    }
  }

  std::printf("%-9s %2s %8s %8s %8s %6s %6s %6s %6s %4s %8s %7s %7s %3s %8s %9s %8s\n", "fabric",
              "k", "best_ms", "mean_ms", "cpu_ms", "fallbk", "backtr", "repair", "shortc", "maxh",
              "avg_hops", "max_efi", "avg_efi", "vls", "searches", "visits", "attempts");
  for (const Bench &b : benches) {
    if (!only_fabric.empty() && only_fabric != b.name) continue;
    for (int k : {1, 2, 4, 8}) {
      if (only_k && k != only_k) continue;
      keiro::nue::NueOptions opt;
      if (!keiro::nue::read_options(options, b.fabric, k, opt, err)) {
        std::fprintf(stderr, "nue_bench: %s\n", err.c_str());
        return 2;
      }
      opt.threads = keiro::pipeline::read_settings(options).threads;
      double best = 1e30, sum = 0, best_cpu = 1e30;
      keiro::nue::NueResult res;
      for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        const bool ok = keiro::nue::route(b.fabric, opt, res, err);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        best_cpu =
            std::min(best_cpu, 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        best = std::min(best, ms);
        sum += ms;
        if (!ok) {
          std::printf("%-9s %2d nue::route failed: %s\n", b.name, k, err.c_str());
          return 1;
        }
      }
      keiro::Routing r;
      r.reset(b.fabric, keiro::Routing::SlScope::kPerDestination);
      keiro::nue::write_tables(b.fabric, res, r);
      const keiro::fixtures::RouteCheck c = keiro::fixtures::check_routes(b.fabric, r);
      if (!c.ok) {
        std::printf("%-9s %2d check failed: %s\n", b.name, k, c.problem.c_str());
        return 1;
      }
      std::printf(
          "%-9s %2d %8.2f %8.2f %8.2f %6lld %6lld %6lld %6lld %4lld %8.3f %7lld %7.1f %3d %8lld "
          "%9lld %8lld\n",
          b.name, k, best, sum / reps, best_cpu, static_cast<long long>(res.escape_fallbacks),
          static_cast<long long>(res.backtracking), static_cast<long long>(res.escape_repairs),
          static_cast<long long>(res.shortcuts), static_cast<long long>(c.max_hops), c.avg_hops,
          static_cast<long long>(c.max_efi), c.avg_efi, c.vls,
          static_cast<long long>(res.cycle_searches),
          static_cast<long long>(res.cycle_search_visits),
          static_cast<long long>(res.order_attempts));
    }
  }
  return 0;
}
