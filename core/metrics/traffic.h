// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Traffic-based figures of a routing between its terminals (hosts):
//
// Effective bandwidth (LOREN paper, section VI-D): every host picks one
// destination; tau(e) is the number of the resulting paths that use link e;
//   Gamma = 1/|S| * sum over pairs (i,j) of 1 / max{tau(e) : e on path(i,j)}.
// Links are the directed switch-to-switch channels plus every host's
// injection and ejection link. Averaged over `patterns` random patterns of
//  - uniform: destination uniformly among the other hosts;
//  - hotspot(beta): one random hot-spot host per pattern; every other host
//    sends to it with probability beta, else to a uniform destination;
//  - local(gamma): destination v of u drawn with probability proportional to
//    md(u,v)^-gamma, md = shortest distance in links between the hosts.
//
// Shift all-to-all (static estimate): hosts in terminal id order 0..N-1; in
// phase s = 1..N-1 host i sends to host (i+s) mod N. With M_s the largest
// number of phase-s flows sharing a link, the normalized throughput is
// (N-1) / sum_s M_s: 1.0 when no link is shared in any phase.
//
// Paths follow the LFTs from the source's switch to the destination's base
// LID; flows the tables do not deliver are left out (and counted).
// Time: O(patterns * N * H) for Gamma and O(N^2 * H) for the shift estimate
// (H = path length); memory O(C + N + S^2) (the S^2 part for local(gamma)).
#pragma once

#include <cstdint>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::metrics {

struct TrafficOptions {
  int patterns = 100;
  double hotspot_beta = 0.1;
  double local_gamma = 2.0;
  uint64_t seed = 1;
  bool shift = true;  // compute the shift all-to-all estimate (O(N^2 * H))
};

struct Traffic {
  int hosts = 0;
  double gamma_uniform = 0, gamma_hotspot = 0, gamma_local = 0;
  double shift_throughput = 0;  // (N-1) / sum of per-phase maximum link loads
  int64_t shift_max_load_sum = 0;
  int shift_phases = 0;
  int64_t undelivered_flows = 0;  // flows left out because the tables drop or loop them
};

Traffic traffic(const Fabric &f, const Routing &r, const TrafficOptions &opt = {});

}  // namespace keiro::metrics
