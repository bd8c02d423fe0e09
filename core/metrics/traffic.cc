// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/traffic.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/check/paths.h"
#include "core/metrics/distances.h"

namespace keiro::metrics {

namespace {

// Paths between hosts over the LFTs. Link ids: channels 0..C-1, then the
// injection link of host h at C + h and its ejection link at C + N + h.
class HostPaths {
 public:
  HostPaths(const Fabric &f, const Routing &r) : f_(f), r_(r) {
    for (int32_t t = 0; t < f.num_terminals(); ++t)
      if (f.terminal(t).lid && f.terminal(t).lid <= r.max_lid()) hosts_.push_back(t);
    n_ = static_cast<int32_t>(hosts_.size());
    c_ = f.num_channels();
    by_switch_start_.assign(f.num_switches() + 1, 0);
    for (const int32_t t : hosts_) ++by_switch_start_[f.terminal(t).sw + 1];
    for (int32_t s = 0; s < f.num_switches(); ++s) by_switch_start_[s + 1] += by_switch_start_[s];
    by_switch_.resize(n_);
    std::vector<int32_t> fill(by_switch_start_.begin(), by_switch_start_.end() - 1);
    for (int32_t h = 0; h < n_; ++h) by_switch_[fill[sw(h)]++] = h;
    // Which switches deliver each host's base LID.
    const int32_t S = f.num_switches();
    ok_.assign(static_cast<size_t>(n_) * S, 0);
    check::DestinationWalk walk(f, r);
    for (int32_t h = 0; h < n_; ++h) {
      walk.run(f.terminal(hosts_[h]).lid);
      for (int32_t s = 0; s < S; ++s)
        ok_[static_cast<size_t>(h) * S + s] = walk.fate(s) == check::Fate::kDelivered;
    }
  }

  int32_t hosts() const { return n_; }
  int32_t links() const { return c_ + 2 * n_; }
  int32_t sw(int32_t h) const { return f_.terminal(hosts_[h]).sw; }
  const int32_t *hosts_on(int32_t s, int32_t &count) const {
    count = by_switch_start_[s + 1] - by_switch_start_[s];
    return by_switch_.data() + by_switch_start_[s];
  }
  bool delivered(int32_t a, int32_t b) const {
    return ok_[static_cast<size_t>(b) * f_.num_switches() + sw(a)] != 0;
  }
  // Calls fn(link) for every link of the path from host a to host b, which
  // must be delivered().
  template <class Fn>
  void path(int32_t a, int32_t b, Fn &&fn) const {
    const TerminalInfo &tb = f_.terminal(hosts_[b]);
    fn(c_ + a);
    int32_t u = sw(a);
    while (u != tb.sw) {
      const int32_t c = f_.peer(u, r_.out_port(u, tb.lid)).id;
      fn(c);
      u = f_.channel(c).dst;
    }
    fn(c_ + n_ + b);
  }

 private:
  const Fabric &f_;
  const Routing &r_;
  std::vector<int32_t> hosts_, by_switch_start_, by_switch_;
  std::vector<uint8_t> ok_;
  int32_t n_ = 0, c_ = 0;
};

// Deterministic uniform numbers (independent of the standard library's
// distribution implementations).
class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  double unit() { return static_cast<double>(g_() >> 11) * (1.0 / 9007199254740992.0); }
  int32_t below(int32_t n) { return static_cast<int32_t>(unit() * n); }

 private:
  std::mt19937_64 g_;
};

// Gamma of one pattern: dest[h] for every host h (-1 = no flow).
double effective_bandwidth(const HostPaths &hp, const std::vector<int32_t> &dest,
                           std::vector<int32_t> &tau, int64_t &undelivered) {
  std::fill(tau.begin(), tau.end(), 0);
  int64_t flows = 0;
  for (int32_t a = 0; a < hp.hosts(); ++a) {
    const int32_t b = dest[a];
    if (b < 0) continue;
    if (!hp.delivered(a, b)) {
      ++undelivered;
      continue;
    }
    hp.path(a, b, [&](int32_t e) { ++tau[e]; });
  }
  double sum = 0;
  for (int32_t a = 0; a < hp.hosts(); ++a) {
    const int32_t b = dest[a];
    if (b < 0 || !hp.delivered(a, b)) continue;
    int32_t worst = 1;
    hp.path(a, b, [&](int32_t e) { worst = std::max(worst, tau[e]); });
    sum += 1.0 / worst;
    ++flows;
  }
  return flows ? sum / static_cast<double>(flows) : 0.0;
}

int32_t other_uniform(Rng &rng, int32_t n, int32_t self) {
  int32_t v = rng.below(n - 1);
  return v >= self ? v + 1 : v;
}

// The cumulative weights (into cum, per switch) of the destinations of a
// host on switch s for local(gamma): every other host, weighted by
// weight_of[distance]; returns the total.
double local_weights(const HostPaths &hp, const SwitchDistances &dist, int32_t s,
                     const double *weight_of, std::vector<double> &cum) {
  double total = 0;
  for (int32_t v = 0; v < static_cast<int32_t>(cum.size()); ++v) {
    int32_t cnt = 0;
    hp.hosts_on(v, cnt);
    if (v == s) --cnt;
    total += cnt > 0 ? cnt * weight_of[dist(s, v)] : 0.0;
    cum[v] = total;
  }
  return total;
}

// local(gamma): every pattern's destinations ([p * N + host], -1: no flow),
// drawn source switch by source switch, with the cumulative weights of that
// switch's row.
std::vector<int32_t> local_dests(const Fabric &f, const HostPaths &hp, double gamma, int P,
                                 Rng &rng) {
  const int32_t S = f.num_switches(), N = hp.hosts();
  const SwitchDistances dist(f);
  double weight_of[256];
  for (int k = 0; k < 255; ++k) weight_of[k] = std::pow(k + 2.0, -gamma);
  weight_of[255] = 0;  // unreachable
  std::vector<int32_t> dests(static_cast<size_t>(P) * N, -1);
  std::vector<double> cum(S);
  for (int32_t s = 0; s < S; ++s) {
    int32_t here = 0;
    const int32_t *mine = hp.hosts_on(s, here);
    if (!here) continue;
    const double total = local_weights(hp, dist, s, weight_of, cum);
    if (total <= 0) continue;
    for (int p = 0; p < P; ++p)
      for (int32_t i = 0; i < here; ++i) {
        const int32_t a = mine[i];
        const double x = rng.unit() * total;
        const int32_t v = static_cast<int32_t>(
            std::min<ptrdiff_t>(std::upper_bound(cum.begin(), cum.end(), x) - cum.begin(), S - 1));
        int32_t cnt = 0;
        const int32_t *there = hp.hosts_on(v, cnt);
        int32_t pick;
        if (v == s) {  // another host on the same switch: skip a itself (index i)
          const int32_t k = rng.below(cnt - 1);
          pick = there[k >= i ? k + 1 : k];
        } else {
          pick = there[rng.below(cnt)];
        }
        dests[static_cast<size_t>(p) * N + a] = pick;
      }
  }
  return dests;
}

// The shift permutations (host a to a + s mod N, s = 1 .. N - 1): their
// most loaded link each, into m.
void shift_loads(const HostPaths &hp, Traffic &m) {
  const int32_t N = hp.hosts();
  std::vector<int32_t> load(hp.links(), 0), touched;
  touched.reserve(hp.links());
  for (int32_t s = 1; s < N; ++s) {
    int32_t worst = 0;
    for (int32_t a = 0; a < N; ++a) {
      const int32_t b = (a + s) % N;
      if (!hp.delivered(a, b)) {
        ++m.undelivered_flows;
        continue;
      }
      hp.path(a, b, [&](int32_t e) {
        if (load[e]++ == 0) touched.push_back(e);
        worst = std::max(worst, load[e]);
      });
    }
    for (const int32_t e : touched) load[e] = 0;
    touched.clear();
    m.shift_max_load_sum += worst;
  }
  m.shift_phases = N - 1;
  if (m.shift_max_load_sum)
    m.shift_throughput = static_cast<double>(N - 1) / static_cast<double>(m.shift_max_load_sum);
}

}  // namespace

Traffic traffic(const Fabric &f, const Routing &r, const TrafficOptions &opt) {
  Traffic m;
  const HostPaths hp(f, r);
  const int32_t N = hp.hosts();
  m.hosts = N;
  if (N < 2) return m;
  const int P = std::max(1, opt.patterns);
  std::vector<int32_t> tau(hp.links(), 0);
  std::vector<int32_t> dest(N, -1);
  Rng rng(opt.seed);

  double sum = 0;
  for (int p = 0; p < P; ++p) {
    for (int32_t a = 0; a < N; ++a) dest[a] = other_uniform(rng, N, a);
    sum += effective_bandwidth(hp, dest, tau, m.undelivered_flows);
  }
  m.gamma_uniform = sum / P;

  sum = 0;
  for (int p = 0; p < P; ++p) {
    const int32_t hot = rng.below(N);
    for (int32_t a = 0; a < N; ++a)
      dest[a] = a != hot && rng.unit() < opt.hotspot_beta ? hot : other_uniform(rng, N, a);
    sum += effective_bandwidth(hp, dest, tau, m.undelivered_flows);
  }
  m.gamma_hotspot = sum / P;

  const std::vector<int32_t> dests = local_dests(f, hp, opt.local_gamma, P, rng);
  sum = 0;
  for (int p = 0; p < P; ++p) {
    std::copy(dests.begin() + static_cast<ptrdiff_t>(p) * N,
              dests.begin() + static_cast<ptrdiff_t>(p + 1) * N, dest.begin());
    sum += effective_bandwidth(hp, dest, tau, m.undelivered_flows);
  }
  m.gamma_local = sum / P;

  if (opt.shift) shift_loads(hp, m);
  return m;
}

}  // namespace keiro::metrics
