// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/cdg.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <limits>
#include <numeric>

#include "core/fabric.h"

namespace keiro::nue {

namespace {

// Search sets larger than this are sorted by radix (fewer mispredicted
// branches than comparison sorting at these sizes).
constexpr int32_t kRadixFrom = 40;

// Sorts n packed keys by their upper 32 bits (the positions, distinct, so
// the order is that of the whole keys): LSD radix, one byte per pass, passes
// in which every key has the same byte skipped. tmp is scratch (capacity
// kept between calls: no allocation once it has grown to the largest set).
void radix_sort_keys(uint64_t *k, int32_t n, std::vector<uint64_t> &tmp) {
  uint32_t count[4][256] = {};
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t h = static_cast<uint32_t>(k[i] >> 32);
    ++count[0][h & 255];
    ++count[1][(h >> 8) & 255];
    ++count[2][(h >> 16) & 255];
    ++count[3][h >> 24];
  }
  tmp.resize(static_cast<size_t>(n));
  uint64_t *from = k, *to = tmp.data();
  for (int d = 0; d < 4; ++d) {
    uint32_t *const c = count[d];
    const int shift = 32 + 8 * d;
    if (c[(from[0] >> shift) & 255] == static_cast<uint32_t>(n)) continue;  // one bucket
    uint32_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      const uint32_t x = c[b];
      c[b] = sum;
      sum += x;
    }
    for (int32_t i = 0; i < n; ++i) to[c[(from[i] >> shift) & 255]++] = from[i];
    std::swap(from, to);
  }
  if (from != k) std::copy(from, from + n, k);
}

}  // namespace

CompleteCdg::CompleteCdg(const Fabric &f) : ch_(f) {
  const int32_t c = f.num_channels();
  first_.assign(c + 1, 0);
  int64_t total = 0;
  for (int32_t i = 0; i < c; ++i) {
    first_[i] = static_cast<int32_t>(total);
    total += f.degree(ch_.dst[i]) - 1;  // every channel leaving dst except the U-turn
    if (total > std::numeric_limits<int32_t>::max())
      throw FabricError("complete CDG too large (more than 2^31 channel dependencies)");
  }
  first_[c] = static_cast<int32_t>(total);
  int32_t max_out = 0;
  edge_src_.resize(total);
  for (int32_t i = 0; i < c; ++i) {
    max_out = std::max(max_out, first_[i + 1] - first_[i]);
    std::fill(edge_src_.begin() + first_[i], edge_src_.begin() + first_[i + 1], i);
  }
  in_pos_.assign(c, 0);
  for (int32_t v = 0; v < f.num_switches(); ++v) {
    max_out = std::max(max_out, ch_.in_first[v + 1] - ch_.in_first[v]);
    for (int32_t k = ch_.in_first[v]; k < ch_.in_first[v + 1]; ++k)
      in_pos_[ch_.in_list[k]] = k - ch_.in_first[v];
  }
  words_ = static_cast<size_t>(std::max(1, (max_out + 63) / 64));
  stack_.resize(c);
  visit_.resize(c);
  bstack_.resize(c);
  bvisit_.resize(c);
  fwd_.reserve(c);
  bwd_.reserve(c);
  pool_.reserve(c);
  slot_.assign(c, Slot{});
  log_.reserve(4 * static_cast<size_t>(c) + 16);
  reset();
}

void CompleteCdg::reset() {
  state_.assign(first_.back(), kUnused);
  act_.assign(static_cast<size_t>(num_channels()) * words_, 0);
  in_act_.assign(static_cast<size_t>(num_channels()) * words_, 0);
  omega_.reset(num_channels(), num_channels() + 2);
  for (int32_t x = 0; x < num_channels(); ++x) slot_[x].ord = x;
  ord_low_ = -1;
  ord_high_ = num_channels();
  log_.clear();
  stats_ = Stats{};
}

void CompleteCdg::next_epoch() {
  if (++epoch_ == 0) {  // stamps wrapped: clear once every 2^32 searches
    for (Slot &sl : slot_) sl.seen = 0;
    epoch_ = 1;
  }
}

void CompleteCdg::mark_used(int32_t a, int32_t b, int32_t label) {
  const int32_t e = edge(a, b);
  if (active(e)) return;
  if (slot_[a].ord > slot_[b].ord)
    place(a, b, omega_.of(a), omega_.of(b));  // the caller adds no cycle
  state_[e] = kUsed;
  set_active(a, e);
  for (int32_t ch : {a, b}) {
    const int32_t w = omega_.of(ch);
    if (w == 0)
      omega_.assign(ch, label);
    else
      omega_.merge(w, label);
  }
}

bool CompleteCdg::use_unused(int32_t a, int32_t b, int32_t e, bool block_on_cycle) {
  const int32_t wa = omega_.of(a), wb = omega_.of(b);
  if (wa == 0 || wb == 0 || wa != wb) {  // (c): joins two disjoint acyclic subgraphs
    if (wa == 0 && wb == 0) {
      const int32_t l = omega_.fresh();
      omega_.assign(a, l);
      omega_.assign(b, l);
    } else if (wa == 0) {
      omega_.assign(a, wb);
    } else if (wb == 0) {
      omega_.assign(b, wa);
    } else {
      omega_.merge(wa, wb);
      ++stats_.merges;
    }
    if (slot_[a].ord > slot_[b].ord)
      place(a, b, wa, wb);  // no cycle possible, only the order moves
    set_tentative(a, e);
    return true;
  }
  // (d): both in the same acyclic subgraph; (a, b) closes a cycle iff a is
  // reachable from b, which the topological order rules out if ord[a] < ord[b].
  if (slot_[a].ord > slot_[b].ord) {
    ++stats_.cycle_searches;
    if (!reorder(a, b)) {
      if (block_on_cycle) {
        state_[e] = kBlocked;
        ++stats_.blocked;
      } else if (used_path(b, a)) {
        // Used edges stay for the whole layer: the cycle is permanent, and
        // blocking (a, b) spares the checked attempts of Dijkstra that
        // propose it again the same search.
        state_[e] = kBlocked;
        ++stats_.blocked;
      }
      return false;
    }
  }
  set_tentative(a, e);
  return true;
}

void CompleteCdg::set_state(int32_t e, State s) {
  if (active(e)) clear_active(edge_src_[e], e);
  state_[e] = s;
  if (active(e)) set_active(edge_src_[e], e);
}

void CompleteCdg::place(int32_t a, int32_t b, int32_t wa, int32_t wb) {
  // A channel with ω 0 has no used edge: it can move to either end of the
  // order at no cost.
  if (wb == 0) {
    slot_[b].ord = ord_high_++;
  } else if (wa == 0) {
    slot_[a].ord = ord_low_--;
  } else {
    reorder(a, b);
  }
}

// The two-way search of reorder(): forward from b through channels ordered
// below a, and backward from a through channels ordered above b, one
// channel of each in turn. Hot loop: raw pointers, so that the stores into
// the stacks and the stamps do not force the compiler to reload the member
// vectors, and every member inlines into reorder() (the object lives in
// registers there).
struct CompleteCdg::Search {
  // How the search ended: a cycle, the forward set alone moves to the top
  // (no edge out of it to a channel above a), the backward set alone moves
  // to the bottom (no edge into it from a channel below b), or both sets
  // complete (they swap places).
  enum Outcome { kCycle, kForwardSet, kBackwardSet, kBoth };

  __attribute__((always_inline))
  Search(CompleteCdg &g, int32_t a_, int32_t b_, uint32_t ef_, uint32_t eb_)
      : src(g.ch_.src.data()),
        dst(g.ch_.dst.data()),
        rev(g.ch_.rev.data()),
        out_begin(g.ch_.out_begin.data()),
        in_first(g.ch_.in_first.data()),
        in_list(g.ch_.in_list.data()),
        act(g.act_.data()),
        in_act(g.in_act_.data()),
        words(g.words_),
        slot(g.slot_.data()),
        fstack(g.stack_.data()),
        bstack(g.bstack_.data()),
        fvisit(g.visit_.data()),
        bvisit(g.bvisit_.data()),
        a(a_),
        b(b_),
        lower(slot[b_].ord),
        upper(slot[a_].ord),
        ef(ef_),
        eb(eb_) {
    fstack[ft++] = b;
    slot[b].seen = ef;
    bstack[bt++] = a;
    slot[a].seen = eb;
  }

  // One channel of the forward (kForward) or the backward search; false on
  // a cycle. Forward: the active out-edges of the channel in increasing
  // order (the order of the channels), to channels below a; backward: its
  // active in-edges in the order of the channels entering its src, from
  // channels above b.
  template <bool kForward>
  __attribute__((always_inline)) bool step() {
    int32_t *const stack = kForward ? fstack : bstack;
    int32_t &top = kForward ? ft : bt;
    const int32_t x = stack[--top];
    (kForward ? fvisit[nf++] : bvisit[nb++]) = x;
    const uint32_t mine = kForward ? ef : eb, other = kForward ? eb : ef;
    const uint64_t *const mx = (kForward ? act : in_act) + static_cast<size_t>(x) * words;
    const int32_t base = kForward ? out_begin[dst[x]] : 0;
    const int32_t r = kForward ? rev[x] - base : 0;
    const int32_t *const in = kForward ? nullptr : in_list + in_first[src[x]];
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t m = mx[w]; m != 0; m &= m - 1) {
        const int32_t i = static_cast<int32_t>(w * 64) + std::countr_zero(m);
        const int32_t y =
            kForward ? base + i + (i >= r ? 1 : 0) : in[i];  // out-edges skip the U-turn
        if (kForward ? slot[y].ord >= upper : slot[y].ord <= lower) {
          if (y == (kForward ? a : b)) return false;  // ord[a] == upper, ord[b] == lower
          (kForward ? leaves_window : enters_window) = true;
        } else if (slot[y].seen != mine) {
          if (slot[y].seen == other) return false;
          slot[y].seen = mine;
          stack[top++] = y;
        }
      }
    }
    return true;
  }

  // Both searches in turn until one runs out (the other completes when its
  // set has an edge out of the window) or they meet.
  __attribute__((always_inline)) Outcome run() {
    for (;;) {
      if (ft == 0) {
        if (!leaves_window) return kForwardSet;  // nothing after the forward set but itself
        while (bt > 0)
          if (!step<false>()) return kCycle;
        return kBoth;
      }
      if (!step<true>()) return kCycle;
      if (bt == 0) {
        if (!enters_window) return kBackwardSet;  // nothing before the backward set but itself
        while (ft > 0)
          if (!step<true>()) return kCycle;
        return kBoth;
      }
      if (!step<false>()) return kCycle;
    }
  }

  const int32_t *const src, *const dst, *const rev, *const out_begin, *const in_first,
                                                                          *const in_list;
  const uint64_t *const act, *const in_act;
  const size_t words;
  Slot *const slot;
  int32_t *const fstack, *const bstack, *const fvisit, *const bvisit;
  const int32_t a, b, lower, upper;
  const uint32_t ef, eb;                   // the stamps of the forward and backward sets
  int32_t ft = 0, bt = 0, nf = 0, nb = 0;  // stack tops, set sizes
  bool leaves_window = false;              // an edge from the forward set to a channel above a
  bool enters_window = false;              // an edge into the backward set from a channel below b
};

void CompleteCdg::sorted_keys(const int32_t *set, int32_t n, std::vector<uint64_t> &keys) {
  keys.resize(static_cast<size_t>(n));
  uint64_t *const k = keys.data();
  for (int32_t i = 0; i < n; ++i) k[i] = order_key(set[i]);
  if (n > kRadixFrom) {
    radix_sort_keys(k, n, pool_);
    return;
  }
  if (n > 24) {
    std::sort(k, k + n);
    return;
  }
  for (int32_t i = 1; i < n; ++i) {  // the sets are usually tiny
    const uint64_t x = k[i];
    int32_t j = i;
    for (; j > 0 && k[j - 1] > x; --j) k[j] = k[j - 1];
    k[j] = x;
  }
}

void CompleteCdg::swap_sets(int32_t nf, int32_t nb) {
  sorted_keys(visit_.data(), nf, fwd_);
  sorted_keys(bvisit_.data(), nb, bwd_);
  pool_.resize(fwd_.size() + bwd_.size());
  std::merge(bwd_.begin(), bwd_.end(), fwd_.begin(), fwd_.end(), pool_.begin());
  size_t i = 0;
  for (uint64_t k : bwd_) slot_[key_channel(k)].ord = key_order(pool_[i++]);
  for (uint64_t k : fwd_) slot_[key_channel(k)].ord = key_order(pool_[i++]);
}

bool CompleteCdg::reorder(int32_t a, int32_t b) {
  if (ord_high_ > std::numeric_limits<int32_t>::max() - 2 * num_channels() ||
      ord_low_ < std::numeric_limits<int32_t>::min() + 2 * num_channels())
    renumber();
  // Two-way search: forward from b through channels ordered below a, and
  // backward from a through channels ordered above b, one channel of each in
  // turn. Meeting a (forward), b (backward) or the other search's set is a
  // path from b to a: a cycle. A search that runs out without meeting
  // proves there is none; if its set has no edge leaving the window (out of
  // the forward set to a channel above a, into the backward set from a
  // channel below b), that set alone moves to the top (forward) or the
  // bottom (backward) of the order, in its own order. Otherwise the other
  // search completes and the two sets swap places (Pearce-Kelly).
  next_epoch();
  const uint32_t ef = epoch_;
  next_epoch();
  const uint32_t eb = epoch_;
  Search s(*this, a, b, ef, eb);
  const Search::Outcome outcome = s.run();
  stats_.dfs_visits += s.nf + s.nb;
  switch (outcome) {
    case Search::kCycle:
      return false;
    case Search::kForwardSet:
      sorted_keys(visit_.data(), s.nf, fwd_);
      for (uint64_t k : fwd_) slot_[key_channel(k)].ord = ord_high_++;
      return true;
    case Search::kBackwardSet:
      sorted_keys(bvisit_.data(), s.nb, bwd_);
      for (size_t i = bwd_.size(); i-- > 0;) slot_[key_channel(bwd_[i])].ord = ord_low_--;
      return true;
    case Search::kBoth:
      break;
  }
  // Everything that reaches a now goes before everything reachable from b,
  // reusing the positions the two sets held.
  swap_sets(s.nf, s.nb);
  return true;
}

bool CompleteCdg::used_path(int32_t from, int32_t to) {
  // Forward DFS over used edges inside the order window below `to` (used
  // edges are active, so the order bounds them too).
  next_epoch();
  const int32_t upper = slot_[to].ord;
  int32_t top = 0;
  stack_[top++] = from;
  slot_[from].seen = epoch_;
  while (top > 0) {
    const int32_t x = stack_[--top];
    const int32_t base = ch_.out_begin[ch_.dst[x]], r = ch_.rev[x] - base;
    const uint64_t *const mx = act_.data() + static_cast<size_t>(x) * words_;
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t m = mx[w]; m != 0; m &= m - 1) {
        const int32_t i = static_cast<int32_t>(w * 64) + std::countr_zero(m);
        if (state_[first_[x] + i] != kUsed) continue;
        const int32_t y = base + i + (i >= r ? 1 : 0);
        if (y == to) return true;
        if (slot_[y].ord < upper && slot_[y].seen != epoch_) {
          slot_[y].seen = epoch_;
          stack_[top++] = y;
        }
      }
    }
  }
  return false;
}

void CompleteCdg::renumber() {
  // Same relative order, positions 0 .. C - 1 again.
  pool_.resize(num_channels());
  for (int32_t x = 0; x < num_channels(); ++x) pool_[x] = order_key(x);
  std::sort(pool_.begin(), pool_.end());
  for (int32_t i = 0; i < num_channels(); ++i) slot_[key_channel(pool_[i])].ord = i;
  ord_low_ = -1;
  ord_high_ = num_channels();
}

void CompleteCdg::rollback(size_t mark) {
  for (size_t i = mark; i < log_.size(); ++i) release(log_[i]);
  log_.resize(mark);
}

void CompleteCdg::commit(std::span<const int32_t> keep) {
  for (int32_t e : keep)
    if (state_[e] == kTentative) state_[e] = kUsed;
  for (int32_t e : log_) release(e);
  log_.clear();
}

}  // namespace keiro::nue
