// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/vlmap/vlmap.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <deque>
#include <memory>
#include <random>
#include <utility>

#include "core/log.h"
#include "core/vlmap/path_dp.h"
#include "core/vlmap/tree_realize.h"
#include "core/vlmap/turn_table.h"

namespace keiro::vlmap {

namespace {

constexpr int64_t kMaxWeight = int64_t{1} << 16;

// The paths, their hops and the placement state of one realization.
class Realizer {
 public:
  Realizer(const Fabric &f, const minimal::DestTrees &t, const VlDemand &d, const VlMapOptions &opt)
      : f_(f),
        t_(t),
        d_(d),
        opt_(opt),
        S_(f.num_switches()),
        nsl_(std::clamp(opt.max_sls, 1, kNumSls)) {}

  // Lists the paths and their hops. False (err) on a malformed demand.
  bool build(std::string &err);
  int32_t paths() const { return static_cast<int32_t>(len_.size()); }
  // Paths no vector within V VLs satisfies, and the VLs the lowest
  // acceptable vectors need (a lower bound). Also ranks the paths by
  // difficulty for place().
  void survey(int V, int64_t &unplaceable, int &lowest);
  // One placement run with at most V VLs and max_moves placements; adds to
  // st. True when every path got an SL.
  bool place(int V, int64_t max_moves, VlMapStats &st);
  // Writes the path SLs and SL2VL entries of the last successful run.
  void write(Routing &out, VlMapStats &st) const;

 private:
  void load_hops(int32_t p, int sl, int V);
  void evict(int32_t q, std::deque<int32_t> &queue, VlMapStats &st);

  const Fabric &f_;
  const minimal::DestTrees &t_;
  const VlDemand &d_;
  const VlMapOptions &opt_;
  int32_t S_;
  int nsl_;
  // Paths and hops.
  std::vector<int32_t> path_of_;  // [k * S + s] -> path, -1 at the root
  std::vector<int32_t> len_;
  std::vector<int64_t> off_;
  std::vector<int32_t> hop_chan_, hop_turn_, hop_path_;
  std::vector<uint8_t> hop_lo_, hop_hi_;
  int32_t maxlen_ = 1;
  std::vector<int32_t> order_;  // placement order (hardest first)
  // Placement state.
  std::unique_ptr<TurnTable> tt_;
  std::vector<int8_t> sl_, tabu_sl_;
  std::vector<int64_t> tabu_until_, weight_;
  int64_t tenure_ = 10;
  // DP scratch.
  std::vector<PathDp::Hop> hops_;
  std::vector<uint8_t> vecs_;  // one VL vector per SL
};

bool Realizer::build(std::string &err) {
  const int32_t C = f_.num_channels(), K = t_.num_dests();
  if (d_.ranked() && d_.rank.size() < static_cast<size_t>(d_.rank_rows) * C) {
    err = "VL demand: channel order too short";
    return false;
  }
  const bool bounded = !d_.lo.empty();
  if (bounded && (d_.lo.size() != static_cast<size_t>(K) * S_ || d_.hi.size() != d_.lo.size())) {
    err = "VL demand: VL intervals do not match the destinations";
    return false;
  }
  path_of_.assign(static_cast<size_t>(K) * S_, -1);
  off_.assign(1, 0);
  std::vector<int32_t> depth(S_);
  for (int32_t k = 0; k < K; ++k) {
    minimal::tree_depths(f_, t_, k, depth);
    for (int32_t s = 0; s < S_; ++s) {
      if (s == t_.root[k]) continue;
      path_of_[static_cast<size_t>(k) * S_ + s] = static_cast<int32_t>(len_.size());
      len_.push_back(depth[s]);
      off_.push_back(off_.back() + depth[s]);
    }
  }
  const int64_t H = off_.back();
  if (H >= INT32_MAX) {
    err = "VL realization: too many path hops";
    return false;
  }
  hop_chan_.resize(H);
  hop_turn_.resize(H);
  hop_path_.resize(H);
  hop_lo_.assign(H, 0);
  hop_hi_.assign(H, kMaxDataVls - 1);
  tt_ = std::make_unique<TurnTable>(f_, nsl_, H);
  for (int32_t k = 0; k < K; ++k)
    for (int32_t s0 = 0; s0 < S_; ++s0) {
      const int32_t p = path_of_[static_cast<size_t>(k) * S_ + s0];
      if (p < 0) continue;
      int64_t h = off_[p];
      int32_t prev = -1;
      for (int32_t s = s0; s != t_.root[k]; ++h) {
        const int32_t c = t_.hop(k, s);
        hop_chan_[h] = c;
        hop_turn_[h] = tt_->turn(prev, c);
        hop_path_[h] = p;
        if (bounded) {
          hop_lo_[h] = d_.lo[static_cast<size_t>(k) * S_ + s];
          hop_hi_[h] = d_.hi[static_cast<size_t>(k) * S_ + s];
        }
        prev = c;
        s = f_.channel(c).dst;
      }
    }
  if (!len_.empty()) maxlen_ = *std::max_element(len_.begin(), len_.end());
  hops_.resize(maxlen_);
  vecs_.resize(static_cast<size_t>(nsl_) * maxlen_);
  const auto P = static_cast<size_t>(paths());
  sl_.assign(P, -1);
  tabu_sl_.assign(P, -1);
  tabu_until_.assign(P, 0);
  weight_.assign(P, 1);
  return true;
}

void Realizer::load_hops(int32_t p, int sl, int V) {
  const int64_t b = off_[p];
  for (int32_t j = 0; j < len_[p]; ++j) {
    PathDp::Hop &h = hops_[j];
    h.channel = hop_chan_[b + j];
    h.lo = hop_lo_[b + j];
    h.hi = std::min<uint8_t>(hop_hi_[b + j], static_cast<uint8_t>(V - 1));
    if (sl < 0) {
      h.entry_vl = -1;
      h.weight = 0;
    } else {
      const int64_t e = tt_->entry(hop_turn_[b + j], sl);
      h.entry_vl = tt_->vl(e);
      h.weight = tt_->weight(e);
    }
  }
}

void Realizer::survey(int V, int64_t &unplaceable, int &lowest) {
  PathDp dp(d_, f_.num_channels(), V);
  std::vector<int32_t> difficulty(paths(), 0);
  unplaceable = 0;
  lowest = 1;
  order_.clear();
  for (int32_t p = 0; p < paths(); ++p) {
    load_hops(p, -1, V);
    if (dp.solve(std::span<const PathDp::Hop>(hops_.data(), len_[p]), vecs_) >=
        PathDp::kInfeasible) {
      ++unplaceable;
      continue;
    }
    uint32_t seen = 0;
    for (int32_t j = 0; j < len_[p]; ++j) seen |= 1u << vecs_[j];
    difficulty[p] = std::popcount(seen);
    lowest = std::max(lowest, static_cast<int>(std::bit_width(seen)));
    order_.push_back(p);
  }
  // Hardest first: most distinct VLs, then longest; random among equals.
  std::mt19937_64 rng(opt_.seed);
  std::shuffle(order_.begin(), order_.end(), rng);
  std::stable_sort(order_.begin(), order_.end(), [&](int32_t a, int32_t b) {
    if (difficulty[a] != difficulty[b]) return difficulty[a] > difficulty[b];
    return len_[a] > len_[b];
  });
}

void Realizer::evict(int32_t q, std::deque<int32_t> &queue, VlMapStats &st) {
  const int64_t b = off_[q];
  for (int32_t j = 0; j < len_[q]; ++j)
    tt_->detach(tt_->entry(hop_turn_[b + j], sl_[q]), static_cast<int32_t>(b + j), weight_[q]);
  // Breakout: a path that is evicted often becomes expensive to evict again.
  if (weight_[q] < kMaxWeight) ++weight_[q];
  tabu_sl_[q] = sl_[q];
  tabu_until_[q] = st.moves + tenure_;
  sl_[q] = -1;
  queue.push_back(q);
  ++st.evictions;
}

bool Realizer::place(int V, int64_t max_moves, VlMapStats &st) {
  // Start from empty tables.
  for (int32_t p = 0; p < paths(); ++p) {
    if (sl_[p] >= 0) {
      const int64_t b = off_[p];
      for (int32_t j = 0; j < len_[p]; ++j)
        tt_->detach(tt_->entry(hop_turn_[b + j], sl_[p]), static_cast<int32_t>(b + j), weight_[p]);
    }
    sl_[p] = tabu_sl_[p] = -1;
    tabu_until_[p] = 0;
    weight_[p] = 1;
  }
  tenure_ = opt_.tabu_tenure > 0 ? opt_.tabu_tenure : 10;
  const int64_t moves0 = st.moves;
  PathDp dp(d_, f_.num_channels(), V);
  std::mt19937_64 rng(opt_.seed);
  std::vector<uint8_t> tried(paths(), 0);
  std::deque<int32_t> queue(order_.begin(), order_.end());
  int64_t dropped = 0;
  while (!queue.empty() && st.moves - moves0 < max_moves) {
    const int32_t p = queue.front();
    queue.pop_front();
    const int32_t L = len_[p];
    int64_t best = PathDp::kInfeasible, best_any = PathDp::kInfeasible;
    int best_sl = -1, best_any_sl = -1, ties = 0;
    for (int s = 0; s < nsl_; ++s) {
      load_hops(p, s, V);
      uint8_t *vec = vecs_.data() + static_cast<size_t>(s) * maxlen_;
      const int64_t cost =
          dp.solve(std::span<const PathDp::Hop>(hops_.data(), L), std::span<uint8_t>(vec, L));
      if (cost >= PathDp::kInfeasible) continue;
      if (cost < best_any) best_any = cost, best_any_sl = s;
      const bool evicts = PathDp::evictions(cost) > 0;
      if (evicts && tabu_sl_[p] == s && tabu_until_[p] > st.moves) continue;
      if (opt_.method == VlMapOptions::kFirstFit && !evicts) {
        best = cost, best_sl = s;
        break;
      }
      if (cost < best) {
        best = cost, best_sl = s, ties = 1;
      } else if (cost == best && evicts &&
                 std::uniform_int_distribution<int>(0, ties++)(rng) == 0) {
        best_sl = s;  // a random one of the equally good repair moves
      }
    }
    if (best_sl < 0) best = best_any, best_sl = best_any_sl;  // only tabu moves left
    if (best_sl < 0) {  // cannot happen: survey() kept only placeable paths
      ++dropped;
      continue;
    }
    const bool evicts = PathDp::evictions(best) > 0;
    if (evicts && !tried[p]) ++st.first_pass_misfits;
    tried[p] = 1;
    if (evicts && opt_.method != VlMapOptions::kRepair) {
      ++dropped;
      continue;
    }
    const uint8_t *vec = vecs_.data() + static_cast<size_t>(best_sl) * maxlen_;
    const int64_t b = off_[p];
    if (evicts)
      for (int32_t j = 0; j < L; ++j) {
        const int64_t e = tt_->entry(hop_turn_[b + j], best_sl);
        while (tt_->vl(e) >= 0 && tt_->vl(e) != vec[j])
          evict(hop_path_[tt_->first_hop(e)], queue, st);
      }
    for (int32_t j = 0; j < L; ++j)
      tt_->attach(tt_->entry(hop_turn_[b + j], best_sl), static_cast<int32_t>(b + j), vec[j],
                  weight_[p]);
    sl_[p] = static_cast<int8_t>(best_sl);
    ++st.moves;
  }
  st.unplaced = dropped + static_cast<int64_t>(queue.size());
  return st.unplaced == 0;
}

void Realizer::write(Routing &out, VlMapStats &st) const {
  uint32_t sls_seen = 0;
  for (int8_t s : sl_) sls_seen |= 1u << s;
  st.sls_used = std::max(1, std::popcount(sls_seen));
  int vmax = 0;
  for (int32_t turn = 0; turn < tt_->num_turns(); ++turn) {
    for (int q = 0; q < nsl_; ++q) {
      const int8_t v = tt_->vl(tt_->entry(turn, q));
      if (v < 0) continue;
      vmax = std::max<int>(vmax, v);
      write_turn_vl(f_, *tt_, turn, static_cast<uint8_t>(q), static_cast<uint8_t>(v), out);
    }
  }
  st.vls_used = vmax + 1;
  for (int32_t k = 0; k < t_.num_dests(); ++k)
    for (int32_t s = 0; s < S_; ++s) {
      const int32_t p = path_of_[static_cast<size_t>(k) * S_ + s];
      const auto q = static_cast<uint8_t>(p < 0 ? 0 : sl_[p]);
      for (uint16_t lid : t_.dest_lids(k)) out.set_path_sl(s, lid, q);
    }
}

using Clock = std::chrono::steady_clock;

// realize() with pins: the pinned tree realization, else (or for the
// per-path methods, which know no pins) a realization without them.
bool realize_pinned(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                    const VlMapOptions &opt, Routing &out, VlMapStats &st, std::string &err) {
  const int32_t S = f.num_switches(), K = t.num_dests();
  if (opt.pins.size() != static_cast<size_t>(K) * S) {
    err = "VL realization: pins do not match the destinations";
    return false;
  }
  int64_t pins = 0;
  for (int32_t k = 0; k < K; ++k)
    for (int32_t s = 0; s < S; ++s)
      pins += s != t.root[k] && opt.pins[static_cast<size_t>(k) * S + s] >= 0;
  VlMapOptions free = opt;
  free.pins = {};
  if (pins > 0 && opt.method == VlMapOptions::kTree) {
    // Pinned tree realization; without the per-path alternative (no pins).
    if (realize_tree(f, t, demand, opt, out, st, err)) {
      st.pins = pins;
      return true;
    }
    // The pins do not fit (or nothing does): realize without them.
    const double pinned_seconds = st.seconds;
    const bool ok = realize(f, t, demand, free, out, st, err);
    st.seconds += pinned_seconds;
    st.pins = st.pins_dropped = pins;
    st.pins_fallback = true;
    return ok;
  }
  const bool ok = realize(f, t, demand, free, out, st, err);
  st.pins = st.pins_dropped = pins;  // the per-path methods know no pins
  return ok;
}

// realize() with kTree and no pins. Small fabrics: the per-path repair is
// cheap there and sometimes packs tighter budgets, so both run and the
// result with fewer VLs, then fewer SLs wins (the tree's on a tie).
bool realize_tree_or_paths(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                           const VlMapOptions &opt, Routing &out, VlMapStats &st,
                           std::string &err) {
  const int64_t paths = static_cast<int64_t>(t.num_dests()) * std::max(0, f.num_switches() - 1);
  if (paths > opt.small_paths) return realize_tree(f, t, demand, opt, out, st, err);
  Routing probe = out;
  const bool tree_ok = realize_tree(f, t, demand, opt, out, st, err);
  VlMapOptions po = opt;
  po.method = VlMapOptions::kRepair;
  VlMapStats ps;
  std::string perr;
  const bool path_ok = realize(f, t, demand, po, probe, ps, perr);
  const double both = st.seconds + ps.seconds;
  if (path_ok &&
      (!tree_ok || std::pair(ps.vls_used, ps.sls_used) < std::pair(st.vls_used, st.sls_used))) {
    out = std::move(probe);
    ps.runs = st.runs;
    st = ps;
    st.by_paths = true;
    err.clear();
  }
  st.seconds = both;
  return tree_ok || path_ok;
}

// realize() with a per-path method (no pins); t0: when realize() started.
bool realize_paths(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                   const VlMapOptions &opt, Routing &out, VlMapStats &st, std::string &err,
                   Clock::time_point t0) {
  const int V = std::clamp(opt.max_vls, 1, kMaxDataVls);
  const int nsl = std::clamp(opt.max_sls, 1, kNumSls);
  Realizer rz(f, t, demand, opt);
  if (!rz.build(err)) return false;
  st.paths = rz.paths();
  auto done = [&] { st.seconds = std::chrono::duration<double>(Clock::now() - t0).count(); };

  rz.survey(V, st.unplaceable, st.min_vls);
  if (st.unplaceable) {
    st.unplaced = st.unplaceable;
    done();
    err = strprintf("%lld of %lld paths cannot get VLs their demand accepts within %d VLs",
                    (long long)st.unplaceable, (long long)st.paths, V);
    return false;
  }
  const int64_t budget = opt.max_moves > 0 ? opt.max_moves : 40 * st.paths + 100000;
  // Fewest VLs first: short runs with min_vls, min_vls + 1, ... VLs, then the
  // whole budget with all V.
  bool ok = false, resurvey = false;
  for (int v = opt.fewest_vls ? st.min_vls : V; v <= V && !ok; ++v) {
    st.first_pass_misfits = 0;
    if (v < V) {
      int64_t unplaceable = 0;
      int lowest = 0;
      rz.survey(v, unplaceable, lowest);
      resurvey = true;
      if (!unplaceable) ok = rz.place(v, std::min(budget, 4 * st.paths + 10000), st);
    } else {
      if (resurvey) rz.survey(V, st.unplaceable, st.min_vls);
      ok = rz.place(V, budget, st);
    }
  }
  done();
  if (!ok) {
    err = strprintf(
        "%lld of %lld paths got no SL with %d SLs and %d VLs (%lld moves, %lld evictions); "
        "more SLs or VLs are needed",
        (long long)st.unplaced, (long long)st.paths, nsl, V, (long long)st.moves,
        (long long)st.evictions);
    return false;
  }
  rz.write(out, st);
  return true;
}

}  // namespace

bool realize(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
             const VlMapOptions &opt, Routing &out, VlMapStats &st, std::string &err) {
  const auto t0 = Clock::now();
  st = VlMapStats{};
  if (out.sl_scope() != Routing::SlScope::kPerSourceSwitch ||
      out.num_switches() != f.num_switches()) {
    err = "VL realization needs a Routing reset with per-source-switch SLs";
    return false;
  }
  if (!opt.pins.empty()) return realize_pinned(f, t, demand, opt, out, st, err);
  if (opt.method == VlMapOptions::kTree)
    return realize_tree_or_paths(f, t, demand, opt, out, st, err);
  return realize_paths(f, t, demand, opt, out, st, err, t0);
}

}  // namespace keiro::vlmap
