// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// acro_bench: measurements for keiro-acro on random regular switch graphs
// (scripts/acro-compare.py drives it and writes docs/acro-evaluation.md).
//
//   acro_bench layers  N D SEED...   ACRO layers vs LASH-style first fit on the
//                                    same balanced minimal routes (paper Figs. 5, 6)
//   acro_bench time    N D SEED...   run time of ACRO alone (paper Fig. 7)
//   acro_bench realize N D HCAS SEED [SLS [VLS [tree|firstfit|bestfit|repair [TABU [MOVES]]]]]
//                                    the realization as SLs + SL2VL, then the
//                                    self-check of the installed-style tables
//   acro_bench perlid FILE SPLIT [SLS [VLS [THREADS]]]
//                                    ACRO + the tree realization on a topology
//                                    file; SPLIT 1 splits every destination
//                                    into one per LID with the same tree (the
//                                    input of per-LID routings)
//   acro_bench smoke                 small cases of the three (make check);
//                                    exit 1 if any fails
// One tab-separated line per run on stdout, with a '#' header line.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "core/acro/engine.h"
#include "core/check/verify.h"
#include "core/engine/engine.h"
#include "core/io/topology_file.h"
#include "core/layers/acro.h"
#include "core/layers/lash_layers.h"
#include "core/minimal/balanced.h"
#include "core/minimal/forwarding_index.h"
#include "core/vlmap/vlmap.h"
#include "tests/unit/fabrics.h"

namespace {

using namespace keiro;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

minimal::DestTrees routes(const Fabric &f) {
  minimal::DestTrees t;
  std::string err;
  if (!minimal::balanced_routing(f, {}, t, err)) {
    std::fprintf(stderr, "acro_bench: %s\n", err.c_str());
    std::exit(1);
  }
  return t;
}

acro::AcroResult acro(const Fabric &f, const minimal::DestTrees &t) {
  acro::AcroResult r;
  std::string err;
  if (!acro::assign(f, t, {}, r, err)) {
    std::fprintf(stderr, "acro_bench: %s\n", err.c_str());
    std::exit(1);
  }
  return r;
}

int layers(int n, int d, int argc, char **argv) {
  std::printf("#n\td\tseed\tacro_layers\tlash_layers\tacro_s\tlash_s\n");
  for (int i = 0; i < argc; ++i) {
    const uint64_t seed = std::strtoull(argv[i], nullptr, 10);
    const Fabric f = fixtures::random_regular(n, d, seed);
    const minimal::DestTrees t = routes(f);
    const acro::AcroResult a = acro(f, t);
    const acro::LashLayers l = acro::lash_first_fit(f, t);
    std::printf("%d\t%d\t%llu\t%d\t%d\t%.4f\t%.4f\n", n, d, (unsigned long long)seed, a.num_layers,
                l.num_layers, a.seconds, l.seconds);
    std::fflush(stdout);
  }
  return 0;
}

int timing(int n, int d, int argc, char **argv) {
  std::printf("#n\td\tseed\tacro_layers\tacro_s\trouting_s\tacro_cpu_s\n");
  for (int i = 0; i < argc; ++i) {
    const uint64_t seed = std::strtoull(argv[i], nullptr, 10);
    const Fabric f = fixtures::random_regular(n, d, seed);
    const auto t0 = std::chrono::steady_clock::now();
    const minimal::DestTrees t = routes(f);
    const double rs = since(t0);
    const std::clock_t c0 = std::clock();
    const acro::AcroResult a = acro(f, t);
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%d\t%d\t%llu\t%d\t%.4f\t%.4f\t%.4f\n", n, d, (unsigned long long)seed,
                a.num_layers, a.seconds, rs, cpu);
    std::fflush(stdout);
  }
  return 0;
}

// What the realization gets from ACRO: labels that descend along every
// path, within sls SLs and vls VLs; and the tables it writes into, with t's
// LFTs.
struct RealizeInput {
  vlmap::VlDemand demand;
  vlmap::VlMapOptions o;
  Routing r;
  RealizeInput(const Fabric &f, const minimal::DestTrees &t, const acro::AcroResult &a, int sls,
               int vls) {
    demand.rank = a.rank;
    demand.rank_rows = a.num_layers;
    o.max_sls = sls;
    o.max_vls = vls;
    r.reset(f, Routing::SlScope::kPerSourceSwitch);
    minimal::write_lfts(f, t, r);
  }
};

int realize(int n, int d, int hcas, uint64_t seed, int sls, int vls, const char *method, int tenure,
            long long max_moves) {
  const Fabric f =
      fixtures::random_regular(n, d, seed, {.hcas = hcas, .vls = static_cast<uint8_t>(vls)});
  const minimal::DestTrees t = routes(f);
  acro::AcroResult a = acro(f, t);
  RealizeInput in(f, t, a, sls, vls);
  vlmap::VlMapOptions &o = in.o;
  Routing &r = in.r;
  o.method = !std::strcmp(method, "firstfit")  ? vlmap::VlMapOptions::kFirstFit
             : !std::strcmp(method, "bestfit") ? vlmap::VlMapOptions::kBestFit
             : !std::strcmp(method, "tree")    ? vlmap::VlMapOptions::kTree
                                               : vlmap::VlMapOptions::kRepair;
  o.tabu_tenure = tenure;
  o.max_moves = max_moves;
  vlmap::VlMapStats st;
  std::string err;
  const bool ok = vlmap::realize(f, t, in.demand, o, r, st, err);
  std::string check = "-";
  double check_s = 0;
  if (ok) {
    const auto t0 = std::chrono::steady_clock::now();
    const check::Result cr = check::verify(f, r);
    check_s = since(t0);
    check = cr.ok ? "ok" : "FAIL:" + cr.first_problem;
  }
  const minimal::ForwardingIndex fi = minimal::forwarding_index(f, t);
  std::printf(
      "#n\td\thcas\tseed\tmethod\tsls\tvls\tlayers\tpaths\tmisfits\tevictions\tmoves\tunplaced\t"
      "sls_used\tvls_used\tmax_efi\tacro_s\tvlmap_s\tcheck_s\tcheck\n");
  std::printf(
      "%d\t%d\t%d\t%llu\t%s\t%d\t%d\t%d\t%lld\t%lld\t%lld\t%lld\t%lld\t%d\t%d\t%lld\t%.3f\t%.3f\t%."
      "3f\t%s\n",
      n, d, hcas, (unsigned long long)seed, method, sls, vls, a.num_layers, (long long)st.paths,
      (long long)st.first_pass_misfits, (long long)st.evictions, (long long)st.moves,
      (long long)st.unplaced, ok ? st.sls_used : 0, ok ? st.vls_used : 0, (long long)fi.max,
      a.seconds, st.seconds, check_s, check.c_str());
  if (!ok) std::fprintf(stderr, "acro_bench: %s\n", err.c_str());
  return ok && check == "ok" ? 0 : 1;
}

// One destination per LID, each with its destination's tree.
minimal::DestTrees split_per_lid(const minimal::DestTrees &t) {
  minimal::DestTrees o;
  const int32_t S = t.num_switches;
  o.num_switches = S;
  o.lid_start.push_back(0);
  for (int32_t k = 0; k < t.num_dests(); ++k)
    for (uint16_t lid : t.dest_lids(k)) {
      o.root.push_back(t.root[k]);
      o.lids.push_back(lid);
      o.lid_start.push_back(static_cast<int32_t>(o.lids.size()));
      o.next.insert(o.next.end(), t.next.begin() + static_cast<ptrdiff_t>(k) * S,
                    t.next.begin() + static_cast<ptrdiff_t>(k + 1) * S);
    }
  return o;
}

int perlid(const char *file, bool split, int sls, int vls, int threads) {
  Fabric f;
  std::string err;
  if (!io::read_topology(file, f, err)) {
    std::fprintf(stderr, "acro_bench: %s\n", err.c_str());
    return 2;
  }
  const minimal::DestTrees t0 = routes(f);
  const minimal::DestTrees t = split ? split_per_lid(t0) : t0;
  const std::clock_t c0 = std::clock();
  auto w0 = std::chrono::steady_clock::now();
  acro::AcroResult a = acro(f, t);
  const double acro_s = since(w0), acro_cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  RealizeInput in(f, t, a, sls, vls);
  vlmap::VlMapOptions &o = in.o;
  Routing &r = in.r;
  o.threads = threads;
  vlmap::VlMapStats st;
  const std::clock_t c1 = std::clock();
  w0 = std::chrono::steady_clock::now();
  const bool ok = vlmap::realize(f, t, in.demand, o, r, st, err);
  const double vl_s = since(w0), vl_cpu = double(std::clock() - c1) / CLOCKS_PER_SEC;
  std::printf(
      "#file\tsplit\tdests\tlayers\tpaths\truns\tsls\tvls\tacro_s\tacro_cpu\tvlmap_s\t"
      "vlmap_cpu\tresult\n");
  std::printf("%s\t%d\t%d\t%d\t%lld\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n", file, split,
              t.num_dests(), a.num_layers, (long long)st.paths, st.runs, st.sls_used, st.vls_used,
              acro_s, acro_cpu, vl_s, vl_cpu, ok ? "ok" : err.c_str());
  return ok ? 0 : 1;
}

// Seconds, not minutes: a few seeds of 16 switches through every command.
int smoke() {
  char s1[] = "1", s2[] = "2";
  char *seeds[] = {s1, s2};
  int failed = 0;
  failed += layers(16, 4, 2, seeds) != 0;
  failed += timing(16, 4, 2, seeds) != 0;
  failed += realize(16, 4, 2, 1, 16, 8, "repair", 0, 0) != 0;
  failed += realize(16, 4, 2, 2, 8, 4, "firstfit", 0, 0) != 0;
  if (failed) std::fprintf(stderr, "acro_bench smoke: %d of 4 failed\n", failed);
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && !std::strcmp(argv[1], "smoke")) return smoke();
  if (argc >= 5 && !std::strcmp(argv[1], "layers"))
    return layers(std::atoi(argv[2]), std::atoi(argv[3]), argc - 4, argv + 4);
  if (argc >= 5 && !std::strcmp(argv[1], "time"))
    return timing(std::atoi(argv[2]), std::atoi(argv[3]), argc - 4, argv + 4);
  if (argc >= 4 && !std::strcmp(argv[1], "perlid"))
    return perlid(argv[2], std::atoi(argv[3]) != 0, argc > 4 ? std::atoi(argv[4]) : 16,
                  argc > 5 ? std::atoi(argv[5]) : 8, argc > 6 ? std::atoi(argv[6]) : 1);
  if (argc >= 6 && !std::strcmp(argv[1], "realize"))
    return realize(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]),
                   std::strtoull(argv[5], nullptr, 10), argc > 6 ? std::atoi(argv[6]) : 16,
                   argc > 7 ? std::atoi(argv[7]) : 8, argc > 8 ? argv[8] : "repair",
                   argc > 9 ? std::atoi(argv[9]) : 0, argc > 10 ? std::atoll(argv[10]) : 0);
  std::fprintf(
      stderr,
      "usage: acro_bench smoke | layers N D SEED... | time N D SEED... |\n"
      "       realize N D HCAS SEED [SLS [VLS [tree|firstfit|bestfit|repair [TABU [MOVES]]]]] |\n"
      "       perlid FILE SPLIT [SLS [VLS [THREADS]]]\n");
  return 2;
}
