// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/dijkstra.h"

#include <algorithm>

#include "core/fabric.h"
#include "core/nue/escape_paths.h"

namespace keiro::nue {

CdgDijkstra::CdgDijkstra(const Fabric &f, CompleteCdg &cdg) : cdg_(cdg), ch_(cdg.channels()) {
  const int32_t s = f.num_switches();
  num_switches_ = s;
  int max_degree = 0;
  for (int32_t v = 0; v < s; ++v) max_degree = std::max(max_degree, f.degree(v));
  in_arcs_.resize(ch_.in_list.size());
  for (size_t i = 0; i < ch_.in_list.size(); ++i) {
    const int32_t q = ch_.in_list[i];
    in_arcs_[i] = InArc{q, ch_.src[q], cdg_.first_edge(q), ch_.rev[q]};
  }
  node_.assign(s, Node{});
  next_.assign(s, -1);
  skip_.assign(s, 0);
  heap_.resize(s);
  cand_.resize(static_cast<size_t>(max_degree) * max_degree + 1);
  keep_.reserve(s);
  escape_next_.assign(s, -1);
  path_.reserve(s);
  order_.resize(s);
  sources_.resize(s);
  for (int32_t v = 0; v < s; ++v) sources_[v] = 1 + static_cast<int32_t>(f.terminals_of(v).size());
  hop_.assign(s, Hop{});
  seen_.assign(ch_.dst.size(), -1);
  seen_at_.assign(s, 0);
  seen_n_.assign(s, 0);
}

CdgDijkstra::Outcome CdgDijkstra::route(int32_t d, std::span<const int64_t> weight,
                                        EscapePaths *escape) {
  base_ += 2;
  if (base_ < 2) {  // stamps wrapped
    for (Node &n : node_) n.mark = 0;
    base_ = 2;
  }
  escape_for_ = -1;
  hop_[d] = Hop{0, -1};  // the in-run walks end at d
  Outcome out;
  // Algorithm 1, lines 1-9: only d is known; its fake source channel is the
  // ejection into d's own ports, so next[d] = -1.
  node_[d].mark = base_;
  node_[d].dist = 0;
  next_[d] = -1;
  num_reached_ = 1;
  heap_.push_or_decrease(d, 0);
  bool after_impasse = false;
  order_len_ = 0;
  order_valid_ = true;
  // Invariant: every reached switch v has a route next_[v] towards d (-1 at
  // d), and the dependencies of these routes are used, tentatively, in the
  // layer's CDG, which stays acyclic. Every pass of the outer loop after an
  // impasse reaches at least one more switch or returns, so there are at
  // most S passes.
  for (;;) {
    // Lines 10-23.
    while (!heap_.empty()) {
      const int32_t v = heap_.pop();
      if (w0_ > 0 && !after_impasse && v != d && !used_only_) rebind(v, weight);
      node_[v].mark = base_ + 1;  // settled
      if (!after_impasse) order_[order_len_++] = v;
      if (w0_ > 0 && !after_impasse) add_in_run(v);
      relax_into(v, weight, after_impasse, out);
    }
    if (num_reached_ == num_switches_) break;
    order_valid_ = false;
    if (used_only_) {  // set_used_only(): no impasse handling
      for (int32_t v = 0; v < num_switches_; ++v)
        if (!reached(v)) next_[v] = -1;
      return out;
    }
    // Impasse: islands (Section 4.6.2), then the escape repair.
    if (backtrack(weight)) {
      ++out.backtracks;
    } else if (escape && escape_repair(d, weight, *escape)) {
      ++out.repairs;
    } else {
      for (int32_t v = 0; v < num_switches_; ++v)
        if (!reached(v)) next_[v] = -1;
      return out;
    }
    after_impasse = true;
  }
  out.reached_all = true;
  return out;
}

void CdgDijkstra::relax_into(int32_t v, std::span<const int64_t> weight, bool after_impasse,
                             Outcome &out) {
  const int32_t cp = next_[v];
  const int32_t u_turn = cp >= 0 ? ch_.rev[cp] : -1;
  const int32_t cp_index = cp >= 0 ? cp - ch_.out_begin[v] : 0;  // edge(q, cp) without lookups
  const int64_t dv = node_[v].dist;
  for (int32_t i = ch_.in_first[v]; i < ch_.in_first[v + 1]; ++i) {
    const InArc &in = in_arcs_[i];
    const int32_t q = in.q;  // u -> v
    if (q == u_turn) continue;
    const int32_t u = in.u;
    const int64_t nd = dv + weight[q];
    if (!after_impasse) {
      // v settled: q is one of u's candidates when u settles (rebind).
      if (seen_at_[u] != base_) seen_at_[u] = base_, seen_n_[u] = 0;
      seen_[ch_.out_begin[u] + seen_n_[u]++] = q;
    }
    if (reached(u)) {
      if (next_[u] == q) {
        // u already routes over v: v's distance fell (a shortcut or an
        // escape repair moved it), so u's falls with it and u passes it on
        // when it leaves the heap again. No dependency changes.
        if (nd < node_[u].dist) {
          node_[u].dist = nd;
          heap_.push_or_decrease(u, nd);
        }
        continue;
      }
      if (settled(u)) {
        // Section 4.6.3: after an island was reached, settled switches may
        // be rerouted over it if their dependants can stay.
        if (after_impasse && nd < node_[u].dist && attempt_shortcut(u, q, nd)) ++out.shortcuts;
        continue;
      }
      if (nd >= node_[u].dist) continue;  // line 13: strictly shorter only
    }
    // Line 15: may (q, next[v]) be used without closing a cycle?
    if (cp >= 0) {
      const int32_t e = in.first + cp_index - (cp > in.rev ? 1 : 0);
      if (used_only_ && cdg_.state(e) != CompleteCdg::kUsed &&
          cdg_.state(e) != CompleteCdg::kTentative)
        continue;
      if (!cdg_.try_use(q, cp, e)) continue;
    }
    if (reached(u)) {
      const int32_t old = dependency_of(u);  // u is not settled: nobody depends on it
      if (old >= 0) cdg_.release(old);
    } else {
      node_[u].mark = base_;
      ++num_reached_;
    }
    // Lines 16-21.
    next_[u] = q;
    node_[u].dist = nd;
    heap_.push_or_decrease(u, nd);
  }
}

void CdgDijkstra::rebind(int32_t u, std::span<const int64_t> weight) {
  const int32_t q0 = next_[u];
  const int64_t limit = node_[u].dist + w0_ / 2;  // same number of hops as the best route
  size_t n = 0;
  if (seen_at_[u] == base_) {
    // The channels towards switches settled in this run, as relax_into()
    // saw them (every settled v relaxed into u; before an impasse their
    // distances are final).
    const int32_t *const dst = ch_.dst.data();
    const Node *const node = node_.data();
    const int64_t *const w = weight.data();
    const int32_t *const seen = seen_.data() + ch_.out_begin[u];
    const int m = seen_n_[u];
    if (cand_.size() < static_cast<size_t>(m)) cand_.resize(static_cast<size_t>(m));
    Candidate *const cand = cand_.data();
    for (int i = 0; i < m; ++i) {
      const int32_t q = seen[i];
      if (q == q0) continue;
      const int64_t nd = node[dst[q]].dist + w[q];
      if (nd < limit) cand[n++] = Candidate{nd, q, 0};
    }
  }
  if (n == 0) return;  // no alternative: no path walks
  // No path of this run crosses u yet (only settled switches are on paths),
  // so u's own channels carry no in-run load.
  const int64_t best = node_[u].dist + path_in_run(ch_.dst[q0]);
  size_t m = 0;
  for (size_t i = 0; i < n; ++i) {
    const int32_t q = cand_[i].q;
    // The walk stops once the candidate cannot beat the current route.
    const int64_t cost = cand_[i].cost + path_in_run(ch_.dst[q], best - cand_[i].cost);
    if (cost < best) cand_[m++] = Candidate{cost, q, 0};
  }
  n = m;
  if (n == 0) return;
  std::sort(cand_.begin(), cand_.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Candidate &x, const Candidate &y) {
              return x.cost != y.cost ? x.cost < y.cost : x.q < y.q;
            });
  for (size_t i = 0; i < n; ++i) {
    const int32_t q = cand_[i].q, v = ch_.dst[q], cv = next_[v];
    if (cv >= 0) {
      const int32_t e = cdg_.edge(q, cv);
      if (e < 0 || !cdg_.try_use(q, cv, e)) continue;
    }
    const int32_t old = dependency_of(u);  // nobody depends on u yet
    if (old >= 0) cdg_.release(old);
    next_[u] = q;
    node_[u].dist = node_[v].dist + weight[q];
    return;
  }
}

void CdgDijkstra::add_in_run(int32_t u) {
  // u just settled: nobody routes through it yet, so its entry starts
  // fresh (no reset between runs needed); its route is fixed from now on
  // (before an impasse settled switches keep their channels).
  const int32_t load = sources_[u];
  const int32_t q = next_[u];
  hop_[u] = Hop{load, q >= 0 ? ch_.dst[q] : -1};
  if (q < 0) return;
  for (int32_t x = hop_[u].up; hop_[x].up >= 0; x = hop_[x].up) hop_[x].run += load;
}

bool CdgDijkstra::dependants_accept(int32_t v, int32_t c, bool use_skip) {
  for (int32_t i = ch_.in_first[v]; i < ch_.in_first[v + 1]; ++i) {
    const int32_t p = ch_.in_list[i];
    const int32_t t = ch_.src[p];
    if (!reached(t) || next_[t] != p) continue;
    if (use_skip && skip_[t] == skip_epoch_) continue;
    const int32_t e = cdg_.edge(p, c);
    if (e < 0 || !cdg_.try_use(p, c, e, false)) return false;
  }
  return true;
}

void CdgDijkstra::switch_channel(int32_t v, int32_t c) {
  const int32_t old = next_[v];
  if (old == c) return;
  if (old >= 0) {
    const int32_t own = dependency_of(v);
    if (own >= 0) cdg_.release(own);
    for (int32_t i = ch_.in_first[v]; i < ch_.in_first[v + 1]; ++i) {
      const int32_t p = ch_.in_list[i];
      const int32_t t = ch_.src[p];
      if (!reached(t) || next_[t] != p) continue;
      const int32_t e = cdg_.edge(p, old);
      if (e >= 0) cdg_.release(e);
    }
  }
  next_[v] = c;
}

bool CdgDijkstra::attempt_shortcut(int32_t u, int32_t q, int64_t nd) {
  const int32_t v = ch_.dst[q];
  const int32_t cp = next_[v];
  const size_t mark = cdg_.log_mark();
  bool ok = cp < 0 || cdg_.try_use(q, cp, cdg_.edge(q, cp), false);
  ok = ok && dependants_accept(u, q);
  if (!ok) {
    cdg_.rollback(mark);
    return false;
  }
  switch_channel(u, q);
  node_[u].dist = nd;
  heap_.push_or_decrease(u, nd);  // the shorter distance reaches u's dependants and neighbours
  return true;
}

bool CdgDijkstra::backtrack(std::span<const int64_t> weight) {
  for (int32_t z = 0; z < num_switches_; ++z) {
    if (reached(z)) continue;
    // Candidates z -> y -> w: y reached, a = (y -> w) another channel of y
    // towards a reached w.
    size_t n = 0;
    for (int32_t q = ch_.out_begin[z]; q < ch_.out_begin[z + 1]; ++q) {
      const int32_t y = ch_.dst[q];
      if (!reached(y) || next_[y] < 0) continue;  // next[y] < 0: y is the destination
      for (int32_t a = ch_.out_begin[y]; a < ch_.out_begin[y + 1]; ++a) {
        const int32_t w = ch_.dst[a];
        if (a == next_[y] || !reached(w)) continue;
        if (n == cand_.size()) cand_.resize(2 * n);  // only for fabrics beyond the sizing
        cand_[n++] = Candidate{node_[w].dist + weight[a] + weight[q], q, a};
      }
    }
    std::sort(cand_.begin(), cand_.begin() + static_cast<std::ptrdiff_t>(n),
              [](const Candidate &x, const Candidate &y) {
                return x.cost != y.cost ? x.cost < y.cost : (x.q != y.q ? x.q < y.q : x.a < y.a);
              });
    for (size_t i = 0; i < n; ++i)
      if (attempt_island(z, cand_[i].q, cand_[i].a, weight)) return true;
  }
  return false;
}

bool CdgDijkstra::attempt_island(int32_t z, int32_t q, int32_t a, std::span<const int64_t> weight) {
  const int32_t y = ch_.dst[q], w = ch_.dst[a];
  const int32_t cw = next_[w];
  const size_t mark = cdg_.log_mark();
  bool ok = true;
  if (cw >= 0) {
    const int32_t e = cdg_.edge(a, cw);
    ok = e >= 0 && cdg_.try_use(a, cw, e, false);
  }
  ok = ok && cdg_.try_use(q, a, cdg_.edge(q, a), false);
  ok = ok && dependants_accept(y, a);
  if (!ok) {
    cdg_.rollback(mark);
    return false;
  }
  switch_channel(y, a);
  node_[y].dist = node_[w].dist + weight[a];
  node_[z].mark = base_;
  ++num_reached_;
  next_[z] = q;
  node_[z].dist = node_[y].dist + weight[q];
  heap_.push_or_decrease(z, node_[z].dist);
  return true;
}

bool CdgDijkstra::escape_repair(int32_t d, std::span<const int64_t> weight, EscapePaths &escape) {
  if (escape_for_ != d) {
    escape.route_to(d, escape_next_);
    escape_for_ = d;
  }
  for (int32_t z = 0; z < num_switches_; ++z) {
    if (reached(z)) continue;
    // z's escape path up to the first switch that already uses its escape
    // channel (or d): those switches move onto the escape path.
    if (++skip_epoch_ == 0) {
      std::fill(skip_.begin(), skip_.end(), 0);
      skip_epoch_ = 1;
    }
    path_.clear();
    path_.push_back(z);
    skip_[z] = skip_epoch_;
    for (int32_t t = ch_.dst[escape_next_[z]];
         t != d && !(reached(t) && next_[t] == escape_next_[t]); t = ch_.dst[escape_next_[t]]) {
      path_.push_back(t);
      skip_[t] = skip_epoch_;
    }
    // Dependencies between consecutive escape channels are escape paths,
    // used already; only the other dependants of the moved switches count.
    const size_t mark = cdg_.log_mark();
    bool ok = true;
    for (size_t i = 1; ok && i < path_.size(); ++i)
      if (reached(path_[i])) ok = dependants_accept(path_[i], escape_next_[path_[i]], true);
    if (!ok) {
      cdg_.rollback(mark);
      continue;
    }
    for (size_t i = path_.size(); i-- > 0;) {  // from the end: next hops are set first
      const int32_t t = path_[i];
      const int32_t c = escape_next_[t];
      if (reached(t)) {
        switch_channel(t, c);
      } else {
        // A switch further up the path already has a dependant (the one
        // before it): it counts as settled, so only a checked shortcut can
        // move it, but it is still relaxed from when it leaves the heap.
        node_[t].mark = t != z ? base_ + 1 : base_;
        ++num_reached_;
        next_[t] = c;
      }
      node_[t].dist = node_[ch_.dst[c]].dist + weight[c];
      heap_.push_or_decrease(t, node_[t].dist);  // relax from the moved switches again
    }
    return true;
  }
  return false;
}

void CdgDijkstra::commit() {
  keep_.clear();
  for (int32_t u = 0; u < num_switches_; ++u) {
    const int32_t e = dependency_of(u);
    if (e >= 0) keep_.push_back(e);
  }
  cdg_.commit(keep_);
}

void CdgDijkstra::abandon() {
  cdg_.commit({});
}

}  // namespace keiro::nue
