// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The VL realization per (destination, SL): method kTree of core/vlmap/vlmap.h.
#include "core/vlmap/tree_realize.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <memory>
#include <numeric>
#include <system_error>
#include <thread>

#include "core/log.h"
#include "core/parallel.h"
#include "core/vlmap/dest_dp.h"
#include "core/vlmap/turn_levels.h"
#include "core/vlmap/turn_table.h"

namespace keiro::vlmap {

namespace {

constexpr int kVirtualSls = 64;  // SLs a run at max_vls may use to count what it needs
constexpr int8_t kLater = 127;   // sl_ of a source not placed yet (kLater - 1: given up)

// One placement run's outcome so far: the SLs used (cap + 1 when some
// destination needed more than cap), the destinations that failed (each
// once) and their paths left over.
struct Tally {
  Tally(std::vector<int32_t> &failed_, int32_t dests) : failed(failed_), is_failed(dests, 0) {}
  void fail(int32_t k) {
    if (!is_failed[k]) failed.push_back(k);
    is_failed[k] = 1;
  }
  // n paths got SL q.
  void served(int q, int32_t n) {
    if (n > 0) used = std::max(used, q + 1);
  }
  std::vector<int32_t> &failed;
  std::vector<uint8_t> is_failed;
  int64_t unplaced = 0;
  int used = 0;
};

// Per-destination scratch of run_levels(), S entries each.
struct LevelScratch {
  explicit LevelScratch(int32_t S) : depth(S), order(S), mask(S) {}
  std::vector<int32_t> depth, order, count, todo;
  std::vector<uint64_t> mask;  // per switch: the SLs of the paths in its subtree
};

class TreeRealizer {
 public:
  TreeRealizer(const Fabric &f, const minimal::DestTrees &t, const VlDemand &d,
               const VlMapOptions &opt)
      : f_(f),
        t_(t),
        d_(d),
        opt_(opt),
        S_(f.num_switches()),
        K_(t.num_dests()),
        tt_(f, 1, 0),
        T_(tt_.num_turns()),
        pins_(opt.pins.begin(), opt.pins.end()) {}

  // Lowest vectors within V VLs: unplaceable paths, highest VL needed + 1,
  // and each destination's difficulty.
  void survey(int V, int64_t &unplaceable, int &lowest);
  // One placement run in the current order with V VLs and up to cap SLs.
  // Returns the SLs used (cap + 1 if some destination needed more than cap);
  // failed: the destinations that needed an SL >= nsl, unplaced: their
  // paths still pending after SL nsl - 1. First fit never lets SLs >= nsl
  // change SLs < nsl, so this is exactly the outcome of a run with nsl SLs.
  // dropped: pins the run could not honour (opt.pins); their destinations
  // in dropped_dests().
  int run(int V, int cap, int nsl, std::vector<int32_t> &failed, int64_t &unplaced,
          int64_t &dropped);
  const std::vector<int32_t> &dropped_dests() const { return dropped_dests_; }
  // run()'s pinned sources of destination k: each group pinned to SL p < nsl
  // gets SL p or loses its pin (sl_ kLater again, counted in dropped, k in
  // dropped_dests_); pins >= nsl are counted as dropped.
  void place_pins(int32_t k, int V, int nsl, Tally &tally, int64_t &dropped);
  // run()'s pass for destination k: its sources still kLater whose lowest
  // vector's first-hop VL is pass, first fit over SLs 0 .. cap - 1.
  void place_pass(int32_t k, int pass, int V, int cap, int nsl, Tally &tally);
  // A run like run() with late levels (core/vlmap/turn_levels.h), without
  // pins: sources in passes
  // by path length, longest first; per pass destinations in the current
  // order; a source first tries the SLs its next switch's path has, then
  // SLs first fit.
  int run_levels(int V, int cap, int nsl, std::vector<int32_t> &failed, int64_t &unplaced);
  // The most hops of any path of the trees.
  int longest_path() const;
  // run_levels()'s pass for destination k: its sources still kLater at
  // depth pass, each first on the SLs of its next switch's subtree, then
  // first fit (failures past nsl into tally).
  void level_pass(TurnLevels &lv, int32_t k, int pass, int cap, int nsl, Tally &tally,
                  LevelScratch &ls);
  // ls.mask: per switch, the SLs (< 64) of the sources in its subtree of
  // destination k's tree (sl: k's row; ls.depth: its depths); ls.order:
  // deepest first.
  void subtree_sls(int32_t k, const int8_t *sl, LevelScratch &ls) const;
  // Drops every pin of these destinations (counted as dropped by later
  // runs); if they had none left, every pin on the highest pinned SL, which
  // frees that SL for them. False when no pin is left to drop.
  bool unpin(const std::vector<int32_t> &dests) {
    const int64_t before = unpinned_;
    for (int32_t k : dests)
      for (int32_t x = 0; x < S_; ++x) {
        int8_t &p = pins_[static_cast<size_t>(k) * S_ + x];
        if (x != t_.root[k] && p >= 0) ++unpinned_;
        p = -1;
      }
    if (unpinned_ > before) return true;
    const int8_t top = pins_.empty() ? -1 : *std::max_element(pins_.begin(), pins_.end());
    if (top < 0) return false;
    for (int32_t k = 0; k < K_; ++k)
      for (int32_t x = 0; x < S_; ++x) {
        int8_t &p = pins_[static_cast<size_t>(k) * S_ + x];
        if (p != top) continue;
        if (x != t_.root[k]) ++unpinned_;
        p = -1;
      }
    return true;
  }
  // Keeps / restores the tables of the last run (the best pinned run).
  void save() {
    saved_entries_ = entries_;
    saved_sl_ = sl_;
  }
  void restore() {
    entries_ = saved_entries_;
    sl_ = saved_sl_;
  }
  // Keeps the last run's SLs and entries aside (stash) and brings them back.
  void stash() {
    saved_sl_.swap(sl_);
    saved_entries_.swap(entries_);
  }
  void unstash() {
    sl_.swap(saved_sl_);
    entries_.swap(saved_entries_);
    saved_sl_.clear();
    saved_entries_.clear();
  }
  void order_by_difficulty();
  void promote(const std::vector<int32_t> &failed);
  void write(Routing &out, int nsl, VlMapStats &st) const;
  int workers(int32_t items) const { return worker_count(opt_.threads, items, 16); }

 private:
  const Fabric &f_;
  const minimal::DestTrees &t_;
  const VlDemand &d_;
  const VlMapOptions &opt_;
  int32_t S_, K_;
  TurnTable tt_;  // turn numbering only
  int32_t T_;
  std::vector<int8_t> entries_;  // [q * T + turn]
  std::vector<int8_t> sl_;       // [k * S + s]
  // The best pinned run (save/restore) or the fitting run while late levels
  // try fewer SLs (stash/unstash); never both: late levels skip pins.
  std::vector<int8_t> saved_sl_, saved_entries_;
  std::vector<int32_t> order_;
  std::vector<int32_t> diff_;   // per destination: highest VL of its lowest vectors
  std::vector<uint8_t> top_;    // [k * S + s]: first-hop VL of the lowest vector (survey)
  std::vector<int8_t> target_;  // per turn: highest VL any lowest vector gives it
  std::vector<int32_t> dropped_dests_;
  std::vector<int8_t> pins_;  // opt.pins, less those unpin() dropped
  int64_t unpinned_ = 0;
  std::unique_ptr<DestDp> dp_;
};

void TreeRealizer::survey(int V, int64_t &unplaceable, int &lowest) {
  const int W = workers(K_);
  std::vector<std::unique_ptr<DestDp>> dps;
  std::vector<std::vector<int8_t>> scratch(W, std::vector<int8_t>(S_));
  std::vector<std::vector<int8_t>> want(W, std::vector<int8_t>(T_, -1));
  for (int w = 0; w < W; ++w) {
    dps.push_back(std::make_unique<DestDp>(f_, t_, d_, tt_));
    dps.back()->set_record(want[w]);
  }
  std::vector<int32_t> unserved(K_, 0), top(K_, 0);
  diff_.assign(K_, 0);
  top_.assign(static_cast<size_t>(K_) * S_, 0);
  parallel_for(W, K_, 16, [&](int w, int32_t k) {
    DestDp &dp = *dps[w];
    std::vector<int8_t> &sl = scratch[w];
    dp.load(k, V);
    std::fill(sl.begin(), sl.end(), -1);
    int max_vl = 0;
    const int32_t served =
        dp.serve({}, sl, 0, max_vl, {top_.data() + static_cast<size_t>(k) * S_, size_t(S_)});
    unserved[k] = (S_ - 1) - served;
    top[k] = max_vl;
    diff_[k] = max_vl;
  });
  target_.assign(T_, -1);
  for (int w = 0; w < W; ++w)
    for (int32_t i = 0; i < T_; ++i) target_[i] = std::max(target_[i], want[w][i]);
  unplaceable = 0;
  lowest = 1;
  for (int32_t k = 0; k < K_; ++k) {
    unplaceable += unserved[k];
    lowest = std::max(lowest, top[k] + 1);
  }
}

void TreeRealizer::order_by_difficulty() {
  order_.resize(K_);
  std::iota(order_.begin(), order_.end(), 0);
  std::stable_sort(order_.begin(), order_.end(),
                   [&](int32_t a, int32_t b) { return diff_[a] > diff_[b]; });
}

void TreeRealizer::promote(const std::vector<int32_t> &failed) {
  std::vector<uint8_t> is(K_, 0);
  for (int32_t k : failed) is[k] = 1;
  std::stable_partition(order_.begin(), order_.end(), [&](int32_t k) { return is[k] != 0; });
}

void TreeRealizer::place_pins(int32_t k, int V, int nsl, Tally &tally, int64_t &dropped) {
  const int8_t *pin = pins_.data() + static_cast<size_t>(k) * S_;
  std::span<int8_t> sl(sl_.data() + static_cast<size_t>(k) * S_, S_);
  uint32_t want = 0;
  for (int32_t x = 0; x < S_; ++x) {
    if (x == t_.root[k] || pin[x] < 0) continue;
    if (pin[x] < nsl)
      want |= 1u << pin[x];
    else
      ++dropped;
  }
  const int64_t dropped0 = dropped;
  if (!want) return;
  DestDp &dp = *dp_;
  dp.load(k, V);
  int max_vl = 0;
  for (uint32_t m = want; m; m &= m - 1) {
    const int q = std::countr_zero(m);
    int32_t pending = 0;
    for (int32_t x = 0; x < S_; ++x)
      if (x != t_.root[k] && pin[x] == q) sl[x] = -1, ++pending;
    std::span<int8_t> col(entries_.data() + static_cast<size_t>(q) * T_, T_);
    const int32_t n = dp.serve(col, sl, q, max_vl);
    tally.served(q, n);
    if (n == pending) continue;
    for (int32_t x = 0; x < S_; ++x)
      if (sl[x] < 0) sl[x] = kLater, ++dropped;
  }
  if (dropped > dropped0) dropped_dests_.push_back(k);
}

void TreeRealizer::place_pass(int32_t k, int pass, int V, int cap, int nsl, Tally &tally) {
  DestDp &dp = *dp_;
  std::span<int8_t> sl(sl_.data() + static_cast<size_t>(k) * S_, S_);
  const uint8_t *tp = top_.data() + static_cast<size_t>(k) * S_;
  int32_t pending = 0;
  for (int32_t x = 0; x < S_; ++x)
    if (x != t_.root[k] && sl[x] == kLater && tp[x] == pass) sl[x] = -1, ++pending;
  if (!pending) return;
  dp.load(k, V);
  int max_vl = 0;
  // First fit: SLs 0, 1, ... in turn.
  for (int q = 0; q < nsl && pending > 0; ++q) {
    std::span<int8_t> col(entries_.data() + static_cast<size_t>(q) * T_, T_);
    const int32_t n = dp.serve(col, sl, q, max_vl);
    tally.served(q, n);
    pending -= n;
  }
  // Beyond nsl (only when counting what a run would need): first fit.
  for (int q = nsl; q < cap && pending > 0; ++q) {
    if (q == nsl) {
      tally.fail(k);
      tally.unplaced += pending;
    }
    std::span<int8_t> col(entries_.data() + static_cast<size_t>(q) * T_, T_);
    const int32_t n = dp.serve(col, sl, q, max_vl);
    tally.served(q, n);
    pending -= n;
  }
  if (pending > 0) {
    if (cap <= nsl) {
      tally.fail(k);
      tally.unplaced += pending;
    }
    tally.used = cap + 1;
    for (int32_t x = 0; x < S_; ++x)
      if (sl[x] < 0) sl[x] = kLater - 1;  // given up
  }
}

int TreeRealizer::run(int V, int cap, int nsl, std::vector<int32_t> &failed, int64_t &unplaced,
                      int64_t &dropped) {
  if (!dp_) dp_ = std::make_unique<DestDp>(f_, t_, d_, tt_);
  dp_->set_targets(target_);
  entries_.assign(static_cast<size_t>(cap) * T_, -1);
  sl_.assign(static_cast<size_t>(K_) * S_, -1);
  failed.clear();
  dropped = unpinned_;
  dropped_dests_.clear();
  std::fill(sl_.begin(), sl_.end(), kLater);
  Tally tally(failed, K_);
  // Pinned paths first: per destination, each group of sources pinned to SL
  // p gets SL p or loses its pin (then placed below like the others).
  if (!pins_.empty())
    for (int32_t k : order_) place_pins(k, V, nsl, tally, dropped);
  // Hardest sources first: passes by the first-hop VL of the lowest vector.
  const int passes = *std::max_element(diff_.begin(), diff_.end());
  for (int pass = passes; pass >= 0; --pass)
    for (int32_t k : order_) place_pass(k, pass, V, cap, nsl, tally);
  unplaced = tally.unplaced;
  return tally.used;
}

int TreeRealizer::longest_path() const {
  std::vector<int32_t> depth(S_);
  int longest = 0;
  for (int32_t k = 0; k < K_; ++k) {
    minimal::tree_depths(f_, t_, k, depth);
    longest = std::max(longest, *std::max_element(depth.begin(), depth.end()));
  }
  return longest;
}

void TreeRealizer::subtree_sls(int32_t k, const int8_t *sl, LevelScratch &ls) const {
  const int32_t root = t_.root[k];
  minimal::deepest_first(ls.depth, ls.count, ls.order);
  std::fill(ls.mask.begin(), ls.mask.end(), 0);
  for (int32_t x : ls.order) {
    if (x == root) continue;
    if (sl[x] >= 0 && sl[x] < 64) ls.mask[x] |= uint64_t{1} << sl[x];
    const int32_t p = f_.channel(t_.hop(k, x)).dst;
    if (p != root) ls.mask[p] |= ls.mask[x];
  }
}

void TreeRealizer::level_pass(TurnLevels &lv, int32_t k, int pass, int cap, int nsl, Tally &tally,
                              LevelScratch &ls) {
  int8_t *sl = sl_.data() + static_cast<size_t>(k) * S_;
  const int32_t root = t_.root[k];
  minimal::tree_depths(f_, t_, k, ls.depth);
  std::vector<int32_t> &todo = ls.todo;
  todo.clear();
  for (int32_t x = 0; x < S_; ++x)
    if (x != root && sl[x] == kLater && ls.depth[x] == pass) todo.push_back(x);
  if (todo.empty()) return;
  lv.load(t_, k);
  // SLs already in each subtree (sources of longer paths).
  subtree_sls(k, sl, ls);
  int32_t pending = static_cast<int32_t>(todo.size());
  for (int32_t x : todo) sl[x] = -1;
  // Each source first tries the SLs its next switch's path already has
  // (it adds one turn and arc there), then first fit.
  for (int32_t x : todo) {
    const int32_t p = f_.channel(t_.hop(k, x)).dst;
    if (p == root) continue;
    for (uint64_t m = ls.mask[p] & (cap >= 64 ? ~uint64_t{0} : (uint64_t{1} << cap) - 1); m;
         m &= m - 1) {
      const int q = std::countr_zero(m);
      if (!lv.add_source(q, x, ls.mask)) continue;
      sl[x] = static_cast<int8_t>(q);
      --pending;
      tally.used = std::max(tally.used, q + 1);
      break;
    }
  }
  for (int q = 0; q < cap && pending > 0; ++q)
    for (int32_t x : todo) {
      if (sl[x] != -1 || !lv.add_source(q, x, ls.mask)) continue;
      sl[x] = static_cast<int8_t>(q);
      --pending;
      tally.used = std::max(tally.used, q + 1);
    }
  if (pending > 0) {
    tally.used = cap + 1;
    for (int32_t x = 0; x < S_; ++x)
      if (sl[x] < 0) sl[x] = kLater - 1;  // given up
  }
  // Sources without an SL below nsl: on a virtual SL (the loop above,
  // or the SLs of the next switch's path) or given up.
  int64_t over = 0;
  for (int32_t x : todo) over += sl[x] >= nsl;
  if (over) {
    tally.fail(k);
    tally.unplaced += over;
  }
}

int TreeRealizer::run_levels(int V, int cap, int nsl, std::vector<int32_t> &failed,
                             int64_t &unplaced) {
  TurnLevels lv(f_, tt_, d_, V, cap);
  failed.clear();
  sl_.assign(static_cast<size_t>(K_) * S_, kLater);
  Tally tally(failed, K_);
  LevelScratch ls(S_);
  for (int pass = longest_path(); pass >= 1; --pass)
    for (int32_t k : order_) level_pass(lv, k, pass, cap, nsl, tally, ls);
  entries_.assign(static_cast<size_t>(cap) * T_, -1);
  for (int q = 0; q < cap; ++q)
    for (int32_t turn = 0; turn < T_; ++turn)
      entries_[static_cast<size_t>(q) * T_ + turn] = static_cast<int8_t>(lv.level(q, turn));
  unplaced = tally.unplaced;
  return tally.used;
}

void TreeRealizer::write(Routing &out, int nsl, VlMapStats &st) const {
  uint32_t seen = 0;
  for (int32_t k = 0; k < K_; ++k)
    for (int32_t s = 0; s < S_; ++s)
      if (s != t_.root[k]) seen |= 1u << sl_[static_cast<size_t>(k) * S_ + s];
  st.sls_used = std::max(1, std::popcount(seen));
  int vmax = 0;
  // The entries of the SLs the run had (a late-levels run may have fewer).
  const int nq = std::min<int>(nsl, static_cast<int>(entries_.size() / std::max<int32_t>(1, T_)));
  for (int32_t turn = 0; turn < T_; ++turn) {
    for (int q = 0; q < nq; ++q) {
      const int8_t v = entries_[static_cast<size_t>(q) * T_ + turn];
      if (v < 0) continue;
      vmax = std::max<int>(vmax, v);
      write_turn_vl(f_, tt_, turn, static_cast<uint8_t>(q), static_cast<uint8_t>(v), out);
    }
  }
  st.vls_used = vmax + 1;
  // Path SLs: every (switch, LID) cell belongs to one destination.
  parallel_for(workers(K_), K_, 16, [&](int, int32_t k) {
    const int8_t *row = sl_.data() + static_cast<size_t>(k) * S_;
    for (uint16_t lid : t_.dest_lids(k))
      for (int32_t s = 0; s < S_; ++s)
        out.set_path_sl(s, lid, s == t_.root[k] ? 0 : static_cast<uint8_t>(row[s]));
  });
}

// realize_tree()'s check of the demand's sizes; false (err) when they do not fit.
bool demand_fits(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                 std::string &err) {
  const int32_t S = f.num_switches(), K = t.num_dests();
  if (!demand.rank.empty() && demand.rank_rows > 0 &&
      demand.rank.size() < static_cast<size_t>(demand.rank_rows) * f.num_channels()) {
    err = "VL demand: channel order too short";
    return false;
  }
  if (!demand.lo.empty() &&
      (demand.lo.size() != static_cast<size_t>(K) * S || demand.hi.size() != demand.lo.size())) {
    err = "VL demand: VL intervals do not match the destinations";
    return false;
  }
  return true;
}

// realize_tree()'s search over VL counts and placement runs: the best
// outcomes so far (at max_vls, with pins).
class RunSearch {
 public:
  RunSearch(TreeRealizer &rz, const VlMapOptions &opt, int V, int nsl, VlMapStats &st)
      : rz_(rz),
        opt_(opt),
        V_(V),
        nsl_(nsl),
        st_(st),
        pinned_(!opt.pins.empty()),
        best_unplaced_(st.paths) {}
  // Tries v VLs: placement runs with fixed entries, then late levels;
  // returns the SLs of a fit (its tables in rz) or 0.
  int try_vls(int v) {
    int64_t left = st_.paths;
    const int fit = fixed_runs(v, left);
    return late_levels(v, fit, left);
  }
  // The best pinned run that fits (its pins dropped), or -1.
  int64_t best_dropped() const { return best_dropped_; }
  // The SLs the best run at max_vls needed (more than kVirtualSls: unknown)
  // and its fewest paths left over.
  int best_at_max() const { return best_at_max_; }
  int64_t best_unplaced() const { return best_unplaced_; }

 private:
  // The runs with fixed entries at v VLs: the SLs of a fitting run, else 0
  // (left: its fewest paths left over).
  int fixed_runs(int v, int64_t &left);
  // Late levels: a fit with fewer SLs, or one where fixed entries failed
  // (below max_vls only when they came close). Not with pins: late levels
  // may raise the entries a pinned path was placed on. Returns the SLs of
  // the fit kept, 0 if none.
  int late_levels(int v, int fit, int64_t left);
  void note_at_max(int v, int used, int64_t unplaced) {
    if (v != V_) return;
    best_at_max_ = std::min(best_at_max_, used);
    best_unplaced_ = std::min(best_unplaced_, unplaced);
  }

  TreeRealizer &rz_;
  const VlMapOptions &opt_;
  const int V_, nsl_;
  VlMapStats &st_;
  const bool pinned_;
  std::vector<int32_t> failed_;
  int best_at_max_ = kVirtualSls + 1;
  int64_t best_unplaced_;
  // With pins: the run that fits and drops the fewest pins (the first with
  // none ends the search).
  int64_t best_dropped_ = -1;
  int squeaky_ = 0;  // squeaky-wheel rounds for dropped pins (at most 3)
};

int RunSearch::fixed_runs(int v, int64_t &left) {
  const int rounds = opt_.rounds > 0 ? opt_.rounds : (v < V_ ? 2 : pinned_ ? 16 : 4);
  for (int r = 0; r < rounds; ++r) {
    // At max_vls the run may use virtual SLs, to say what it would need.
    int64_t unplaced = 0, dropped = 0;
    const int used = rz_.run(v, v == V_ ? kVirtualSls : nsl_, nsl_, failed_, unplaced, dropped);
    ++st_.runs;
    if (failed_.empty() && dropped > 0) {
      if (best_dropped_ < 0 || dropped < best_dropped_) {
        best_dropped_ = dropped;
        rz_.save();
      }
      // A rerun in the same order repeats this run. At max_vls (the
      // last VL count tried), squeaky wheel for pins: the destinations
      // that dropped some go first in the remaining rounds.
      if (v < V_ || ++squeaky_ > 3) break;
      rz_.promote(rz_.dropped_dests());
      continue;
    }
    if (failed_.empty()) return used;
    left = std::min(left, unplaced);
    note_at_max(v, used, unplaced);
    rz_.promote(failed_);
    if (pinned_ && v == V_) {
      // The pins of the destinations that needed too many SLs go, and
      // the run repeats (the last VL count: else realize() falls back to
      // a realization without any pin).
      if (rz_.unpin(failed_)) continue;
    }
    // Reruns only help when few paths are left over.
    if (unplaced > st_.paths / 50) break;
  }
  return 0;
}

int RunSearch::late_levels(int v, int fit, int64_t left) {
  const int cap = fit ? fit - 1 : (v == V_ ? kVirtualSls : (left <= st_.paths / 50 ? nsl_ : 0));
  if (cap < 1 || pinned_) return fit;
  if (fit) rz_.stash();
  int64_t unplaced = 0;
  const int used = rz_.run_levels(v, cap, std::min(cap, nsl_), failed_, unplaced);
  ++st_.runs;
  if (failed_.empty()) {
    st_.by_levels = true;
    return used;
  }
  if (fit)
    rz_.unstash();
  else
    note_at_max(v, used, unplaced);
  return fit;
}

}  // namespace

bool realize_tree(const Fabric &f, const minimal::DestTrees &t, const VlDemand &demand,
                  const VlMapOptions &opt, Routing &out, VlMapStats &st, std::string &err) {
  const auto t0 = std::chrono::steady_clock::now();
  auto done = [&] {
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const int V = std::clamp(opt.max_vls, 1, kMaxDataVls);
  const int nsl = std::clamp(opt.max_sls, 1, kNumSls);
  const int32_t S = f.num_switches(), K = t.num_dests();
  st.paths = S > 1 ? static_cast<int64_t>(K) * (S - 1) : 0;
  if (!demand_fits(f, t, demand, err)) return false;
  TreeRealizer rz(f, t, demand, opt);
  rz.survey(V, st.unplaceable, st.min_vls);
  if (st.unplaceable) {
    st.unplaced = st.unplaceable;
    int64_t left = 0;
    int need = 0;
    rz.survey(kMaxDataVls, left, need);
    st.needed_vls = left ? 0 : need;
    done();
    err = strprintf("%lld of %lld paths cannot get VLs their demand accepts within %d VLs (%s)",
                    (long long)st.unplaceable, (long long)st.paths, V,
                    left ? "not even with 15 VLs" : strprintf("they need %d VLs", need).c_str());
    return false;
  }
  rz.order_by_difficulty();
  RunSearch search(rz, opt, V, nsl, st);
  for (int v = opt.fewest_vls ? st.min_vls : V; v <= V; ++v) {
    if (!search.try_vls(v)) continue;
    st.unplaced = 0;
    st.pins_dropped = 0;
    rz.write(out, nsl, st);
    done();
    return true;
  }
  if (search.best_dropped() >= 0) {
    rz.restore();
    st.unplaced = 0;
    st.pins_dropped = search.best_dropped();
    rz.write(out, nsl, st);
    done();
    return true;
  }
  st.needed_sls = search.best_at_max() <= kVirtualSls ? search.best_at_max() : 0;
  st.unplaced = search.best_unplaced();
  done();
  const std::string need =
      st.needed_sls ? strprintf("they need %d SLs with %d VLs", st.needed_sls, V)
                    : strprintf("they need more than %d SLs with %d VLs", kVirtualSls, V);
  err = strprintf("%lld of %lld paths got no SL with %d SLs and %d VLs (%d placement runs); %s",
                  (long long)st.unplaced, (long long)st.paths, nsl, V, st.runs, need.c_str());
  return false;
}

}  // namespace keiro::vlmap
