// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/minimal/balanced.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <span>
#include <unordered_map>

#include "core/graph/bfs.h"
#include "core/log.h"

namespace keiro::minimal {

std::vector<int64_t> switch_weights(const Fabric &f) {
  std::vector<int64_t> w(f.num_switches());
  for (int32_t s = 0; s < f.num_switches(); ++s)
    w[s] = f.num_terminals() ? static_cast<int64_t>(f.terminals_of(s).size()) : 1;
  return w;
}

int64_t lid_weight(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  return f.num_terminals() ? o.kind == LidOwner::kTerminal : o.kind == LidOwner::kSwitch;
}

namespace {

// Where a LID sits in its port's LMC range (0: the base LID).
int32_t lmc_offset(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  if (o.kind == LidOwner::kTerminal) return lid - f.terminal(o.id).lid;
  if (o.kind == LidOwner::kSwitch) return lid - f.sw(o.id).lid;
  return 0;
}

// Scratch, loads and the distinct trees of one run. A routed unit (a LID,
// or a switch's LIDs together) points to one stored tree; units of one root
// whose trees coincide share it (reference counted, found by hashing), so
// memory grows with the distinct trees, not with the LIDs.
class Balancer {
 public:
  Balancer(const Fabric &f, bool count_tie, int32_t consistency, int32_t tables,
           const std::vector<uint8_t> &updown)
      : f_(f),
        count_tie_(count_tie),
        consistency_(consistency),
        updown_(updown),
        rank_(updown.empty() ? 0 : f.num_switches(), 0),
        S_(f.num_switches()),
        weight_(switch_weights(f)),
        dist_(S_),
        bfs_(S_),
        cand_(S_),
        sub_(S_),
        cost_(S_),
        load_(static_cast<size_t>(tables) * f.num_channels(), 0),
        trees_(f.num_channels(), 0) {}

  // BFS from d (up*/down* mode: legal labels); false if some switch cannot
  // reach d.
  bool distances(int32_t d) {
    if (updown_.empty()) return graph::switch_bfs(f_, d, dist_, bfs_) == S_;
    return legal_labels(d) == S_;
  }
  // Up*/down* labels (BalancedOptions::updown): dist_, rank_ and bfs_ (the
  // labelling order, non-decreasing hops). Returns the switches labelled.
  int32_t legal_labels(int32_t d) {
    std::fill(dist_.begin(), dist_.end(), -1);
    dist_[d] = 0;
    rank_[d] = -1;
    bfs_[0] = d;
    int32_t n = 1;
    for (int32_t begin = 0; begin < n;) {
      const int32_t end = n;
      for (int32_t i = begin; i < end; ++i) {
        const int32_t t = bfs_[i];
        for (int32_t c : f_.in_channels(t)) {
          const int32_t s = f_.channel(c).src;
          if (dist_[s] >= 0 && dist_[s] <= dist_[t]) continue;
          if (!updown_[c] && rank_[t] > 0) continue;  // down, then up
          const int8_t r = updown_[c] ? 1 : 0;
          if (dist_[s] < 0) {
            dist_[s] = dist_[t] + 1;
            rank_[s] = r;
            bfs_[n++] = s;
          } else if (r < rank_[s]) {
            rank_[s] = r;
          }
        }
      }
      begin = end;
    }
    return n;
  }
  // Whether s may take channel c towards the destination being routed.
  bool candidate(int32_t s, int32_t c) const {
    const int32_t y = f_.channel(c).dst;
    if (dist_[y] != dist_[s] - 1) return false;
    if (updown_.empty()) return true;
    return updown_[c] ? rank_[s] == 1 : rank_[s] == 0 && rank_[y] <= 0;
  }
  int32_t unreached() const {
    int32_t s = 0;
    while (dist_[s] >= 0) ++s;
    return s;
  }

  // Step 2: the least-loaded shortest path from every switch to d into
  // cand_ (needs distances(d)), against the loads of table; at every switch
  // first the channels fewest sibling trees (the stored trees sib) leave it
  // through.
  void route(int32_t d, int32_t table, std::span<const int32_t> sib) {
    const int64_t *load = load_.data() + static_cast<size_t>(table) * f_.num_channels();
    cand_[d] = -1;
    cost_[d] = 0;
    for (int32_t i = 1; i < S_; ++i) {
      const int32_t s = bfs_[i];
      int32_t best = -1, best_sib = 0;
      int64_t best_cost = 0;
      for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
        if (!candidate(s, c)) continue;
        const int32_t y = f_.channel(c).dst;
        const int64_t v = load[c] + cost_[y];
        int32_t n = 0;
        for (int32_t k : sib) n += tree(k)[s] == c;
        if (best < 0 || n < best_sib || (n == best_sib && v < best_cost) ||
            (n == best_sib && v == best_cost && count_tie_ && trees_[c] < trees_[best])) {
          best = c;
          best_sib = n;
          best_cost = v;
        }
      }
      if (consistency_ > 0 && best >= 0) {
        // Consistent choices (BalancedOptions::consistency): the first
        // channel in port order within the tolerance of the cheapest.
        const int64_t limit = best_cost + best_cost * consistency_ / 100;
        for (int32_t c = f_.out_begin(s); c < best; ++c) {
          if (!candidate(s, c)) continue;
          const int64_t v = load[c] + cost_[f_.channel(c).dst];
          if (v > limit) continue;
          int32_t n = 0;
          for (int32_t k : sib) n += tree(k)[s] == c;
          if (n != best_sib) continue;
          best = c;
          best_cost = v;
          break;
        }
      }
      cand_[s] = best;
      cost_[s] = best_cost;
    }
  }

  // Step 2b: the tree just routed (cand_, rooted at d) again, farthest
  // switch first, now that the weight behind each switch is known: among
  // the channels one hop nearer that no more sibling trees leave through,
  // each switch takes the one whose path to d has the smallest bottleneck
  // (largest load plus this unit's weight on it, with the switch's subtree
  // added), then the smallest sum; ties keep step 2's choice.
  void bottleneck(int32_t d, int32_t table, int64_t wd, std::span<const int32_t> sib) {
    if (wd == 0 || S_ < 3) return;
    const int64_t *load = load_.data() + static_cast<size_t>(table) * f_.num_channels();
    subtrees(cand_.data(), wd, [](int32_t, int32_t) {});
    const auto add_path = [&](int32_t s, int64_t delta) {
      for (int32_t u = f_.channel(cand_[s]).dst; u != d; u = f_.channel(cand_[u]).dst)
        sub_[u] += delta;
    };
    const auto score = [&](int32_t s, int32_t c) {
      int64_t m = load[c] + sub_[s], sum = m;
      for (int32_t u = f_.channel(c).dst; u != d; u = f_.channel(cand_[u]).dst) {
        const int64_t w = load[cand_[u]] + sub_[u] + sub_[s];
        m = std::max(m, w);
        sum += w;
      }
      return std::pair<int64_t, int64_t>(m, sum);
    };
    const auto siblings_on = [&](int32_t s, int32_t c) {
      int32_t n = 0;
      for (int32_t k : sib) n += tree(k)[s] == c;
      return n;
    };
    for (int32_t end = S_; end > 1;) {
      int32_t begin = end;
      while (begin > 1 && dist_[bfs_[begin - 1]] == dist_[bfs_[end - 1]]) --begin;
      // Largest subtrees first: they have the most leverage.
      level_.assign(bfs_.begin() + begin, bfs_.begin() + end);
      std::stable_sort(level_.begin(), level_.end(),
                       [&](int32_t a, int32_t b) { return sub_[a] > sub_[b]; });
      for (int32_t s : level_) {
        const int32_t cur = cand_[s];
        int32_t alternatives = 0;
        for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c)
          alternatives += c != cur && candidate(s, c);
        if (alternatives == 0) continue;
        add_path(s, -sub_[s]);
        const int32_t cur_sib = sib.empty() ? 0 : siblings_on(s, cur);
        std::pair<int64_t, int64_t> best_score = score(s, cur);
        for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
          if (c == cur || !candidate(s, c)) continue;
          if (!sib.empty() && siblings_on(s, c) > cur_sib) continue;
          const std::pair<int64_t, int64_t> sc = score(s, c);
          if (sc < best_score) {
            best_score = sc;
            cand_[s] = c;
          }
        }
        add_path(s, sub_[s]);
      }
      end = begin;
    }
  }

  // The largest load plus the unit's own (weight wd) over the channels of
  // tree next (rooted at the switch of the last distances()) that the unit
  // puts weight on, then the sum over them; table's loads must not hold the
  // unit itself. A channel the unit leaves empty (a switch with no sources
  // behind it) is not the unit's to lower: counted, the fabric's largest
  // load on a one-hop neighbour's channel into the destination switch
  // pinned every unit of that switch at it (`director 3 52 --uplinks 16
  // --fail-links 0.02`: max EFI 1,440 after the passes instead of 1,206).
  std::pair<int64_t, int64_t> peak(const int32_t *next, int32_t table, int64_t wd) {
    const int64_t *load = load_.data() + static_cast<size_t>(table) * f_.num_channels();
    int64_t top = 0, sum = 0;
    subtrees(next, wd, [&](int32_t s, int32_t c) {
      if (sub_[s] == 0) return;
      top = std::max(top, load[c] + sub_[s]);
      sum += load[c] + sub_[s];
    });
    return {top, sum};
  }
  const int32_t *candidate_tree() const { return cand_.data(); }

  // Step 3: adds (sign 1) or removes (sign -1) the loads of stored tree k
  // for a unit of weight wd to table (needs distances(root of k)).
  void account(int32_t k, int64_t wd, int64_t sign, int32_t table) {
    int64_t *load = load_.data() + static_cast<size_t>(table) * f_.num_channels();
    subtrees(tree(k), wd, [&](int32_t s, int32_t c) {
      load[c] += sign * sub_[s];
      trees_[c] += sign;
    });
  }

  // Stores cand_ (rooted at d) as a tree, or finds an equal stored one;
  // returns its index with one more reference.
  int32_t keep(int32_t d) {
    uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(d);
    for (int32_t s = 0; s < S_; ++s)
      h = (h ^ static_cast<uint64_t>(cand_[s] + 1)) * 1099511628211ull;
    auto range = by_hash_.equal_range(h);
    for (auto it = range.first; it != range.second; ++it) {
      const int32_t k = it->second;
      if (root_[k] == d && std::equal(cand_.begin(), cand_.end(), tree(k))) {
        ++refs_[k];
        return k;
      }
    }
    int32_t k;
    if (!free_.empty()) {
      k = free_.back();
      free_.pop_back();
    } else {
      k = static_cast<int32_t>(root_.size());
      root_.push_back(-1);
      refs_.push_back(0);
      hash_.push_back(0);
      next_.resize(next_.size() + S_);
    }
    root_[k] = d;
    refs_[k] = 1;
    hash_[k] = h;
    std::copy(cand_.begin(), cand_.end(), next_.begin() + static_cast<size_t>(k) * S_);
    by_hash_.emplace(h, k);
    return k;
  }
  // Drops one reference to tree k; the last one frees it.
  void release(int32_t k) {
    if (--refs_[k] > 0) return;
    auto range = by_hash_.equal_range(hash_[k]);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second == k) {
        by_hash_.erase(it);
        break;
      }
    root_[k] = -1;
    free_.push_back(k);
  }

  // Whether the tree just routed (cand_) is stored tree k.
  bool same(int32_t k) const { return std::equal(cand_.begin(), cand_.end(), tree(k)); }
  const int32_t *tree(int32_t k) const { return next_.data() + static_cast<size_t>(k) * S_; }
  int32_t stored() const { return static_cast<int32_t>(root_.size()); }
  int32_t root(int32_t k) const { return root_[k]; }

 private:
  // Subtree weights of tree next (rooted at the switch of the last
  // distances()), each switch's weight times scale: sub_[s] is final when
  // fn(s, next[s]) is called, farthest switch first, and is then added to
  // its next hop's.
  template <class Fn>
  void subtrees(const int32_t *next, int64_t scale, Fn fn) {
    for (int32_t s = 0; s < S_; ++s) sub_[s] = weight_[s] * scale;
    for (int32_t i = S_ - 1; i > 0; --i) {
      const int32_t s = bfs_[i], c = next[s];
      fn(s, c);
      sub_[f_.channel(c).dst] += sub_[s];
    }
  }

  const Fabric &f_;
  bool count_tie_;                      // ties: fewer trees on the channel (else the first channel)
  int32_t consistency_;                 // BalancedOptions::consistency
  const std::vector<uint8_t> &updown_;  // BalancedOptions::updown
  std::vector<int8_t> rank_;            // up*/down* mode: per switch 0 down-only, 1 up first
  int32_t S_;
  std::vector<int64_t> weight_;
  std::vector<int32_t> dist_, bfs_, cand_, level_;
  std::vector<int64_t> sub_, cost_, load_, trees_;
  // Stored trees: root (-1 when free), references, hash, next hops (S each).
  std::vector<int32_t> root_, refs_, free_;
  std::vector<uint64_t> hash_;
  std::vector<int32_t> next_;
  std::unordered_multimap<uint64_t, int32_t> by_hash_;
};

// The units balanced_routing() routes: per switch, its LIDs one by one
// (per_lid) or all together.
struct Units {
  std::vector<uint16_t> lids;
  std::vector<int32_t> start;         // per switch + 1: its first unit
  std::vector<int32_t> lid_start{0};  // per unit + 1: its first LID in lids
  std::vector<int64_t> weight;
  // Per unit: its LMC offset (the load table it is balanced in) and the
  // unit of its port's base LID (its lower offsets are the units between).
  std::vector<int32_t> table, base;
  int32_t size() const { return static_cast<int32_t>(weight.size()); }
};

Units routing_units(const Fabric &f, bool per_lid) {
  const int32_t S = f.num_switches();
  Units un;
  un.start.assign(S + 1, 0);
  std::vector<uint16_t> own;
  const std::vector<int64_t> sw_weight = switch_weights(f);
  for (int32_t d = 0; d < S; ++d) {
    switch_lids(f, d, own);
    if (per_lid && !own.empty()) {
      for (uint16_t lid : own) {
        const int32_t offset = lmc_offset(f, lid);
        un.table.push_back(offset);
        un.base.push_back(un.size() - offset);
        un.lids.push_back(lid);
        un.lid_start.push_back(static_cast<int32_t>(un.lids.size()));
        un.weight.push_back(lid_weight(f, lid));
      }
    } else {
      un.lids.insert(un.lids.end(), own.begin(), own.end());
      un.lid_start.push_back(static_cast<int32_t>(un.lids.size()));
      un.table.push_back(0);
      un.base.push_back(un.size());
      un.weight.push_back(sw_weight[d]);  // its terminals (or 1)
    }
    un.start[d + 1] = un.size();
  }
  return un;
}

// balanced_routing() on units: the stored tree of every unit.
class UnitRouter {
 public:
  UnitRouter(Balancer &b, const Units &un) : b_(b), un_(un), tree_of_(un.weight.size(), -1) {}
  // Every unit of destination switches in the order dests; false (err) when
  // the fabric is not connected.
  bool route_all(const Fabric &f, const std::vector<int32_t> &dests, std::string &err) {
    for (int32_t d : dests) {
      if (!b_.distances(d)) {
        err = strprintf("switch '%s' cannot reach switch '%s': the fabric is not connected",
                        f.sw(b_.unreached()).name.c_str(), f.sw(d).name.c_str());
        return false;
      }
      for (int32_t u = un_.start[d]; u < un_.start[d + 1]; ++u) {
        b_.route(d, un_.table[u], siblings(u));
        tree_of_[u] = b_.keep(d);
        b_.account(tree_of_[u], un_.weight[u], 1, un_.table[u]);
      }
    }
    return true;
  }
  // Up to passes passes of rerouting every unit with all others known.
  void refine(const std::vector<int32_t> &dests, int32_t passes) {
    rip_up_passes(dests, passes, [&](int32_t d, int32_t u) {
      b_.route(d, un_.table[u], siblings(u));
      return !b_.same(tree_of_[u]);
    });
  }
  // Up to passes passes of step 2 and 2b for every unit against the loads
  // of all others; a unit takes the new tree only if the largest load on
  // it (then the sum) is lower than on its old one, so no pass raises the
  // largest channel load.
  void polish(const std::vector<int32_t> &dests, int32_t passes) {
    rip_up_passes(dests, passes, [&](int32_t d, int32_t u) {
      const int64_t wd = un_.weight[u];
      if (wd == 0) return false;  // a switch LID carries no load
      const auto before = b_.peak(b_.tree(tree_of_[u]), un_.table[u], wd);
      const std::span<const int32_t> sib = port_siblings(u);
      b_.route(d, un_.table[u], sib);
      b_.bottleneck(d, un_.table[u], wd, sib);
      return b_.peak(b_.candidate_tree(), un_.table[u], wd) < before;
    });
  }
  // Up to passes passes over every unit u of every destination switch d:
  // u's loads come off, reroute(d, u) routes it again into the candidate
  // tree and says whether u takes it, and u's loads go back on.
  template <class Reroute>
  void rip_up_passes(const std::vector<int32_t> &dests, int32_t passes, Reroute reroute) {
    for (int32_t pass = 0; pass < passes; ++pass) {
      int64_t changed = 0;
      for (int32_t d : dests) {
        b_.distances(d);
        for (int32_t u = un_.start[d]; u < un_.start[d + 1]; ++u) {
          b_.account(tree_of_[u], un_.weight[u], -1, un_.table[u]);
          if (reroute(d, u)) {
            ++changed;
            b_.release(tree_of_[u]);
            tree_of_[u] = b_.keep(d);
          }
          b_.account(tree_of_[u], un_.weight[u], 1, un_.table[u]);
        }
      }
      // Nothing moved: the loads are those of the pass before, and so would
      // every further pass be.
      if (!changed) break;
    }
  }
  // One destination per live stored tree, its units' LIDs (in unit order:
  // per switch, destination k is switch k).
  void emit(int32_t S, DestTrees &out) const;

 private:
  // The stored trees of unit u's lower LMC offsets (its siblings).
  std::span<const int32_t> siblings(int32_t u) const {
    return std::span<const int32_t>(tree_of_.data() + un_.base[u], tree_of_.data() + u);
  }
  // The stored trees of every other LMC offset of u's port (polish(): all
  // of them are routed when it runs).
  std::span<const int32_t> port_siblings(int32_t u) {
    sib_.clear();
    for (int32_t v = un_.base[u]; v < un_.size() && un_.base[v] == un_.base[u]; ++v)
      if (v != u) sib_.push_back(tree_of_[v]);
    return sib_;
  }

  Balancer &b_;
  const Units &un_;
  std::vector<int32_t> tree_of_;  // per unit
  std::vector<int32_t> sib_;      // port_siblings() scratch
};

void UnitRouter::emit(int32_t S, DestTrees &out) const {
  const int32_t T = b_.stored();
  std::vector<int32_t> dest_of(T, -1);
  int32_t K = 0;
  for (int32_t u : tree_of_)
    if (dest_of[u] < 0) dest_of[u] = K++;
  out.reset(S, K);
  std::vector<int32_t> count(K + 1, 0);
  for (size_t u = 0; u < tree_of_.size(); ++u)
    count[dest_of[tree_of_[u]] + 1] += un_.lid_start[u + 1] - un_.lid_start[u];
  for (int32_t k = 0; k < K; ++k) count[k + 1] += count[k];
  out.lid_start = count;
  out.lids.assign(un_.lids.size(), 0);
  for (size_t u = 0; u < tree_of_.size(); ++u) {
    const int32_t k = dest_of[tree_of_[u]];
    for (int32_t i = un_.lid_start[u]; i < un_.lid_start[u + 1]; ++i)
      out.lids[count[k]++] = un_.lids[i];
  }
  for (int32_t t = 0; t < T; ++t) {
    if (dest_of[t] < 0) continue;
    out.root[dest_of[t]] = b_.root(t);
    std::copy_n(b_.tree(t), S, out.next.begin() + static_cast<size_t>(dest_of[t]) * S);
  }
}

}  // namespace

bool balanced_routing(const Fabric &f, const BalancedOptions &opt, DestTrees &out,
                      std::string &err) {
  const int32_t S = f.num_switches();
  const Units un = routing_units(f, opt.per_lid);
  std::vector<int32_t> dests(S);
  std::iota(dests.begin(), dests.end(), 0);
  if (opt.seed) std::shuffle(dests.begin(), dests.end(), std::mt19937_64(opt.seed));
  const int32_t tables =
      un.table.empty() ? 1 : 1 + *std::max_element(un.table.begin(), un.table.end());
  Balancer b(f, !opt.per_lid && opt.consistency == 0, opt.consistency, tables, opt.updown);
  UnitRouter router(b, un);
  if (!router.route_all(f, dests, err)) return false;
  router.refine(dests, opt.refine);
  router.polish(dests, opt.polish);
  // Per LID the destinations are then ordered by first LID
  // (merge_identical() only sorts here: the trees are distinct).
  router.emit(S, out);
  // Per switch, destination k stays switch k (LOREN's tables and the
  // per-switch callers index trees by switch); per LID, by first LID.
  if (opt.per_lid) merge_identical(out);
  return true;
}

}  // namespace keiro::minimal
