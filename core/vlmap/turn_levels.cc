// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/vlmap/turn_levels.h"

#include <algorithm>
#include <cassert>

namespace keiro::vlmap {

TurnLevels::TurnLevels(const Fabric &f, const TurnTable &tt, const VlDemand &d, int V, int num_sls)
    : f_(f), tt_(tt), d_(d), V_(V), nsl_(num_sls), S_(f.num_switches()), T_(tt.num_turns()) {
  assert(V >= 1 && V <= kMaxDataVls && "TurnLevels: V out of range");
  ordered_ = d.ranked() || d.non_increasing;
  bounded_ = !d.lo.empty();
  const int32_t C = f.num_channels();
  P_ = 1;
  for (int32_t s = 0; s < S_; ++s)
    P_ = std::max<int32_t>(P_, static_cast<int32_t>(f.in_channels(s).size()) + 1);
  ok_.assign(T_, 0);
  pred0_.assign(T_, -1);
  stride_.assign(T_, 0);
  npred_.assign(T_, 0);
  slot_.assign(T_, 0);
  for (int32_t s = 0; s < S_; ++s) {
    const auto in = f.in_channels(s);
    for (int32_t i = 0; i <= static_cast<int32_t>(in.size()); ++i) {
      const int32_t cin = i == 0 ? -1 : in[i - 1];
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
        const int32_t a = tt.turn(cin, c);
        slot_[a] = static_cast<uint8_t>(i);
        if (cin < 0) continue;
        const int32_t u = f.channel(cin).src;
        pred0_[a] = tt.turn(-1, cin);
        stride_[a] = f.degree(u);
        npred_[a] = static_cast<uint8_t>(f.in_channels(u).size() + 1);
        ok_[a] = d.same_vl_mask(cin, c, V, C);
      }
    }
  }
  lvl_.assign(static_cast<size_t>(nsl_) * T_, -1);
  cap_.assign(static_cast<size_t>(nsl_) * T_, static_cast<int8_t>(V - 1));
  arc_.assign((static_cast<size_t>(nsl_) * T_ * P_ + 63) / 64, 0);
  parent_.resize(S_);
  tsrc_.resize(S_);
  tin_.resize(S_);
  lo_.assign(S_, 0);
  hi_.assign(S_, static_cast<uint8_t>(V - 1));
}

void TurnLevels::load(const minimal::DestTrees &t, int32_t k) {
  k_ = k;
  root_ = t.root[k];
  const size_t kb = static_cast<size_t>(k) * S_;
  for (int32_t x = 0; x < S_; ++x) {
    if (x == root_) {
      parent_[x] = -1;
      tsrc_[x] = tin_[x] = -1;
      continue;
    }
    const int32_t c = t.hop(k, x);
    const int32_t p = f_.channel(c).dst;
    parent_[x] = p;
    tsrc_[x] = tt_.turn(-1, c);
    tin_[x] = p == root_ ? -1 : tt_.turn(c, t.hop(k, p));
    if (bounded_) {
      lo_[x] = d_.lo[kb + x];
      hi_[x] = static_cast<uint8_t>(std::min<int>(d_.hi[kb + x], V_ - 1));
    }
  }
}

bool TurnLevels::raise(int q, int32_t turn, int level) {
  work_.clear();
  work_.emplace_back(turn, static_cast<int8_t>(level));
  while (!work_.empty()) {
    const auto [a, l] = work_.back();
    work_.pop_back();
    const size_t i = idx(q, a);
    if (lvl_[i] >= l) continue;
    if (l > cap_[i]) return false;
    log_.push_back({i, lvl_[i], 0});
    lvl_[i] = l;
    if (pred0_[a] < 0) continue;
    const int n = need(a, l);
    const uint64_t base = static_cast<uint64_t>(i) * P_;
    for (int s = 0; s < npred_[a]; ++s) {
      if (!((arc_[(base + s) >> 6] >> ((base + s) & 63)) & 1u)) continue;
      const int32_t z = pred0_[a] + s * stride_[a];
      if (lvl_[idx(q, z)] < n) work_.emplace_back(z, static_cast<int8_t>(n));
    }
  }
  return true;
}

bool TurnLevels::set_cap(int q, int32_t turn, int hi) {
  const size_t i = idx(q, turn);
  if (hi < cap_[i]) {
    log_.push_back({i, cap_[i], 1});
    cap_[i] = static_cast<int8_t>(hi);
  }
  return lvl_[i] <= cap_[i];
}

void TurnLevels::rollback() {
  for (size_t j = log_.size(); j-- > 0;) {
    const Undo &u = log_[j];
    if (u.kind == 0)
      lvl_[u.index] = u.old;
    else if (u.kind == 1)
      cap_[u.index] = u.old;
    else
      arc_[u.index >> 6] &= ~(uint64_t{1} << (u.index & 63));
  }
  log_.clear();
}

bool TurnLevels::add_source(int q, int32_t s, std::span<uint64_t> in) {
  assert(q < 64 && "TurnLevels::add_source: q >= 64");
  const uint64_t bit_q = uint64_t{1} << q;
  assert(s != root_ && "TurnLevels::add_source: the root has no path");
  log_.clear();
  // The new turns: s's source turn, then the turns entered from s, next(s),
  // ... up to the first switch already marked (its turn and everything
  // above are in q) or the root's child. chain_ holds (turn, switch whose
  // hop it is) pairs, source end first.
  chain_.clear();
  chain_.push_back(tsrc_[s]);
  chain_.push_back(s);
  bool joined = false;
  for (int32_t x = s; parent_[x] != root_;) {
    chain_.push_back(tin_[x]);
    chain_.push_back(parent_[x]);
    if (in[x] & bit_q) {
      joined = true;
      break;
    }
    x = parent_[x];
  }
  const size_t n = chain_.size() / 2;
  // Turns present, within bounds; the top one only when it is new.
  for (size_t j = n; j-- > 0;) {
    const int32_t a = chain_[2 * j], x = chain_[2 * j + 1];
    if (joined && j == n - 1) continue;
    if (bounded_ && !set_cap(q, a, hi_[x])) return rollback(), false;
    if (lvl_[idx(q, a)] < lo_[x] && !raise(q, a, lo_[x])) return rollback(), false;
    if (lvl_[idx(q, a)] < 0) {
      log_.push_back({idx(q, a), -1, 0});
      lvl_[idx(q, a)] = 0;
    }
  }
  // Arcs, top first: each may raise its lower turn and what leads into it.
  for (size_t j = n - 1; j-- > 0;) {
    const int32_t z = chain_[2 * j], a = chain_[2 * (j + 1)];
    const uint64_t bit = static_cast<uint64_t>(idx(q, a)) * P_ + slot_[z];
    uint64_t &w = arc_[bit >> 6];
    if (!((w >> (bit & 63)) & 1u)) {
      w |= uint64_t{1} << (bit & 63);
      log_.push_back({bit, 0, 2});
    }
    const int nd = need(a, lvl_[idx(q, a)]);
    if (lvl_[idx(q, z)] < nd && !raise(q, z, nd)) return rollback(), false;
  }
  log_.clear();
  for (size_t j = 0; j < n; ++j) in[chain_[2 * j + 1]] |= bit_q;
  return true;
}

}  // namespace keiro::vlmap
