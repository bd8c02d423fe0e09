// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// check_bench: times check::verify (core/check/verify.h) on large generated
// fabrics with 1 and 2 threads and prints the peak RSS of the process
// (getrusage; it includes the fabric and the routing).
//
//   tests/bench/check_bench [--smoke] [--case NAME] [--routing minhop|tree|inport]
//                           [--threads N ...] [--reference]
//
// Cases: "rrg1024": random 16-regular graph of 1,024 switches, 8 CAs each
// (9,216 LIDs); "rrg1900": random 12-regular graph of 1,900 switches, 24 CAs
// each (47,500 LIDs); "torus10": 10x10x10 torus, 4 CAs each (5,000 LIDs).
// Routing (not timed): "minhop" (lowest-port shortest paths, SL 0, VL 0: has
// credit loops on these graphs, so the cycle report is part of the time) or
// "tree" (up*/down* along a BFS spanning tree: deadlock free) or "inport"
// (tree LFTs with keiro-acro/dl style tables: path SLs per (source switch,
// destination), SL2VL VL = (SL + in port) mod 4; deadlock free).
// --reference: Options::shortcuts = false (every source LID followed on its
// own, as the check did for in-port-dependent SL2VL tables before).
// --smoke (make check): a random 6-regular graph of 64 switches, both
// routings; exit 1 when the results for 1 and 2 threads differ or the tree
// or inport routing does not pass.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "tests/unit/fabrics.h"

namespace {

using keiro::Fabric;
using keiro::Routing;
namespace fx = keiro::fixtures;

long peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024;
}

bool same(const keiro::check::Result &a, const keiro::check::Result &b) {
  return a.ok == b.ok && a.pairs_checked == b.pairs_checked && a.unreachable == b.unreachable &&
         a.loops == b.loops && a.vl_errors == b.vl_errors && a.credit_loop == b.credit_loop &&
         a.cycle == b.cycle && a.problems == b.problems &&
         a.dependency_edges == b.dependency_edges && a.dependency_nodes == b.dependency_nodes &&
         a.vl_mask == b.vl_mask && a.sl_mask == b.sl_mask;
}

// keiro-acro / keiro-dl style tables on the LFTs of route_tree (deadlock
// free whatever the VLs): path SLs per (source switch, destination), and an
// SL2VL that depends on the in port (the VL changes along the path).
Routing in_port_tables(const Fabric &f) {
  const Routing t = fx::route_tree(f);
  Routing r;
  r.reset(f, Routing::SlScope::kPerSourceSwitch);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    for (uint32_t lid = 1; lid <= f.max_lid(); ++lid) {
      const auto l = static_cast<uint16_t>(lid);
      r.set_out_port(s, l, t.out_port(s, l));
      r.set_path_sl(s, l, static_cast<uint8_t>((s + lid) % 4));
    }
    const unsigned n = f.sw(s).num_ports;
    for (unsigned in = 0; in <= n; ++in)
      for (unsigned out = 1; out <= n; ++out)
        for (unsigned sl = 0; sl < keiro::kNumSls; ++sl)
          r.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out), static_cast<uint8_t>(sl),
                   static_cast<uint8_t>((sl + in) % 4));
  }
  return r;
}

Fabric make(const std::string &name) {
  if (name == "rrg1024") return fx::random_regular(1024, 16, 11, {.hcas = 8, .min_ports = 24});
  if (name == "rrg1900") return fx::random_regular(1900, 12, 12, {.hcas = 24, .min_ports = 36});
  if (name == "torus10") return fx::from_links(1000, fx::torus_links(10, 10, 10), {.hcas = 4});
  return fx::random_regular(64, 6, 5, {.hcas = 4});
}

}  // namespace

int main(int argc, char **argv) {
  bool smoke = false, reference = false;
  std::vector<std::string> cases, routings;
  std::vector<int> threads;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--smoke")) {
      smoke = true;
    } else if (!std::strcmp(argv[i], "--reference")) {
      reference = true;
    } else if (!std::strcmp(argv[i], "--case") && i + 1 < argc) {
      cases.push_back(argv[++i]);
    } else if (!std::strcmp(argv[i], "--routing") && i + 1 < argc) {
      routings.push_back(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads.push_back(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr,
                   "usage: check_bench [--smoke] [--case rrg1024|rrg1900|torus10] "
                   "[--routing minhop|tree|inport] [--threads N ...] [--reference]\n");
      return 2;
    }
  }
  if (smoke) cases = {"smoke"};
  if (cases.empty()) cases = {"torus10", "rrg1024", "rrg1900"};
  if (routings.empty()) routings = {"tree", "minhop", "inport"};
  if (threads.empty()) threads = {1, 2};
  int status = 0;
  std::printf("# case routing LIDs threads seconds pairs edges credit_loop peak_rss_MB\n");
  for (const std::string &c : cases) {
    const Fabric f = make(c);
    for (const std::string &rt : routings) {
      const Routing r = rt == "tree"     ? fx::route_tree(f)
                        : rt == "inport" ? in_port_tables(f)
                                         : fx::min_hop(f);
      keiro::check::Result first;
      for (size_t k = 0; k < threads.size(); ++k) {
        keiro::check::Options o;
        o.threads = threads[k];
        o.shortcuts = !reference;
        const auto t0 = std::chrono::steady_clock::now();
        const keiro::check::Result res = keiro::check::verify(f, r, o);
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s %s %zu %d %.3f %lld %lld %d %ld\n", c.c_str(), rt.c_str(), f.lids().size(),
                    threads[k], sec, static_cast<long long>(res.pairs_checked),
                    static_cast<long long>(res.dependency_edges), res.credit_loop ? 1 : 0,
                    peak_rss_mb());
        std::fflush(stdout);
        if (k == 0) first = res;
        if (!same(first, res)) {
          std::printf("FAIL: results differ between %d and %d threads\n", threads[0], threads[k]);
          status = 1;
        }
        if (smoke && rt != "minhop" && !res.ok) {
          std::printf("FAIL: %s routing does not pass: %s\n", rt.c_str(),
                      res.first_problem.c_str());
          status = 1;
        }
      }
    }
  }
  return status;
}
