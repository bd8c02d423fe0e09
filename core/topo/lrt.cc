// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Layout-conscious random topologies LRT(N, d, r), LOREN paper section II-B:
// N = n*n switches on an n x n grid (node i at x = i mod n, y = i / n), all
// of degree d, every link between switches at Manhattan distance <= r.
//
// Construction: repeatedly take a random switch u that still needs links and
// join it to a random switch within distance r that needs links too and is
// not yet adjacent. When no such partner exists, repair with an edge swap:
// remove a link (v, w) with v near u and w near u (or near another switch x
// that needs a link) and add (u, v), (u, w) (or (u, v), (x, w)); if no swap
// exists, move u's missing link to a neighbour w of a switch v near u
// (remove (v, w), add (u, v)), so missing links wander until two meet.
// Attempts that get stuck or end disconnected are restarted with the next
// random numbers, so a seed still gives one topology.
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "core/topo/families.h"
#include "core/topo/graph_metrics.h"
#include "core/topo/rng.h"

namespace keiro::topo {

namespace {

class LrtBuilder {
 public:
  LrtBuilder(int n, int d, int r, Rng &rng) : n_(n), d_(d), rng_(rng) {
    const int N = n * n;
    ball_.resize(N);
    for (int u = 0; u < N; ++u)
      for (int v = 0; v < N; ++v)
        if (u != v && dist(u, v) <= r) ball_[u].push_back(v);
  }
  int dist(int u, int v) const { return std::abs(u % n_ - v % n_) + std::abs(u / n_ - v / n_); }
  const std::vector<std::vector<int>> &ball() const { return ball_; }

  bool attempt(std::vector<std::pair<int, int>> &edges) {
    const int N = n_ * n_;
    adj_.assign(N, {});
    need_.assign(N, d_);
    repairs_ = 0;
    repair_limit_ = 20L * N * d_;
    open_.clear();
    for (int v = 0; v < N; ++v) open_.insert(v);
    while (!open_.empty()) {
      const int u = pick_open(-1);
      std::vector<int> cands;
      for (int v : ball_[u])
        if (need_[v] > 0 && !adj_[u].count(v)) cands.push_back(v);
      if (!cands.empty()) {
        add(u, cands[rng_.below(cands.size())]);
        continue;
      }
      if (!repair(u)) return false;
    }
    edges.clear();
    for (int u = 0; u < N; ++u)
      for (int v : adj_[u])
        if (u < v) edges.emplace_back(u, v);
    return true;
  }

 private:
  int pick_open(int except) {
    std::vector<int> v(open_.begin(), open_.end());
    if (except >= 0) v.erase(std::remove(v.begin(), v.end(), except), v.end());
    if (v.empty()) return -1;
    return v[rng_.below(v.size())];
  }
  void add(int u, int v) {
    adj_[u].insert(v);
    adj_[v].insert(u);
    if (--need_[u] == 0) open_.erase(u);
    if (--need_[v] == 0) open_.erase(v);
  }
  void remove(int u, int v) {
    adj_[u].erase(v);
    adj_[v].erase(u);
    if (need_[u]++ == 0) open_.insert(u);
    if (need_[v]++ == 0) open_.insert(v);
  }
  // Edge swaps that give u (and another switch x that needs a link) links:
  // remove (v, w) with v near u and w near x (x = u when u needs two), add
  // (u, v) and (x, w). When no such swap exists, move u's missing link to w:
  // remove (v, w), add (u, v); the deficit walks until it meets another one.
  bool repair(int u) {
    if (++repairs_ > repair_limit_) return false;
    std::vector<std::pair<int, int>> opts;
    if (need_[u] >= 2) {
      swaps(u, u, opts);
      if (!opts.empty()) return apply(u, u, opts[rng_.below(opts.size())]);
    }
    std::vector<int> others(open_.begin(), open_.end());
    others.erase(std::remove(others.begin(), others.end(), u), others.end());
    rng_.shuffle(others);
    for (int x : others) {
      swaps(u, x, opts);
      if (!opts.empty()) return apply(u, x, opts[rng_.below(opts.size())]);
    }
    for (int v : ball_[u]) {
      if (adj_[u].count(v)) continue;
      for (int w : adj_[v])
        if (w != u) opts.emplace_back(v, w);
    }
    if (opts.empty()) return false;
    const auto [v, w] = opts[rng_.below(opts.size())];
    remove(v, w);
    add(u, v);
    return true;
  }
  // Links (v, w) with v in u's ball, w in x's ball, whose swap keeps the graph simple.
  void swaps(int u, int x, std::vector<std::pair<int, int>> &opts) const {
    opts.clear();
    for (int v : ball_[u]) {
      if (v == x || adj_[u].count(v)) continue;
      for (int w : adj_[v]) {
        if (w == u || w == x || adj_[x].count(w)) continue;
        if (!std::binary_search(ball_[x].begin(), ball_[x].end(), w)) continue;
        opts.emplace_back(v, w);
      }
    }
  }
  bool apply(int u, int x, std::pair<int, int> vw) {
    remove(vw.first, vw.second);
    add(u, vw.first);
    add(x, vw.second);
    return true;
  }

  int n_, d_;
  long repairs_ = 0, repair_limit_ = 0;
  Rng &rng_;
  std::vector<std::vector<int>> ball_;
  std::vector<std::set<int>> adj_;
  std::vector<int> need_;
  std::set<int> open_;
};

}  // namespace

GenFabric gen_lrt(int n_switches, int d, int r, const TopoOptions &o) {
  int n = 1;
  while (n * n < n_switches) ++n;
  if (n * n != n_switches || n < 2) throw TopoError("lrt: N must be a square n*n with n >= 2");
  if (d < 1 || r < 1) throw TopoError("lrt: need d >= 1 and r >= 1");
  if ((static_cast<long>(n_switches) * d) % 2) throw TopoError("lrt: N * d must be even");
  Rng rng(o.seed);
  LrtBuilder b(n, d, r, rng);
  for (int u = 0; u < n_switches; ++u)
    if (static_cast<int>(b.ball()[u].size()) < d)
      throw TopoError("lrt: switch (" + std::to_string(u % n) + "," + std::to_string(u / n) +
                      ") has only " + std::to_string(b.ball()[u].size()) +
                      " switches within distance " + std::to_string(r) +
                      ", fewer than d = " + std::to_string(d));
  GenFabric g;
  g.family = Family::kLrt;
  g.radix = o.radix;
  for (int u = 0; u < n_switches; ++u) {
    const int x = u % n, y = u / n;
    const int32_t s = g.add_switch("lrt x=" + std::to_string(x) + " y=" + std::to_string(y),
                                   (static_cast<uint64_t>(x) << 16) | static_cast<uint64_t>(y));
    g.sw[s].x = x;
    g.sw[s].y = y;
  }
  std::vector<std::pair<int, int>> edges;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 1000) throw TopoError("lrt: no connected topology found in 1000 attempts");
    if (!b.attempt(edges)) continue;
    g.links.clear();
    for (auto [u, v] : edges) g.link(u, 0, v, 0);
    if (connected(adjacency(g))) break;
  }
  number_ports_in_order(g);
  apply_redundancy(g, o.redundancy);
  g.place_hcas(o.hcas < 0 ? 1 : o.hcas, "lrt " + std::to_string(n_switches) + " " +
                                            std::to_string(d) + " " + std::to_string(r));
  return g;
}

}  // namespace keiro::topo
