// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/reroute/incremental.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <vector>

#include "core/check/verify.h"
#include "core/graph/bfs.h"
#include "core/graph/dynamic_dag.h"
#include "core/log.h"
#include "core/timing.h"

namespace keiro {

namespace {

// Dependency-graph node of channel c on VL v (room for every VL an entry
// can hold, so frozen entries beyond the budget are recognised, not aliased).
inline int32_t node(int32_t c, int v) {
  return c * kNumSls + v;
}

// VL tries per path (depth-first over its unfrozen entries) before it is
// given up on that SL and next hop.
constexpr int kPathBudget = 256;
// Entries retune() may set per path attempt (the cascades included).
constexpr int kRetuneBudget = 4096;
// Pass-2 rounds (squeaky wheel) before the incremental route gives up.
constexpr int kRounds = 2;

class Incremental {
 public:
  Incremental(const Fabric &f, const PreviousSls &prev, const Routing &fresh, int max_vls,
              int max_sls, bool relax, bool drop_stale, Routing &out, IncrementalStats &st,
              bool lid_major)
      : f_(f),
        prev_(prev),
        fresh_(fresh),
        vls_(max_vls),
        sls_(max_sls),
        lid_major_(lid_major),
        relax_(relax),
        drop_stale_(drop_stale),
        out_(out),
        st_(st) {}

  bool run();

 private:
  // Previous tables of switch s (null: new switch or other port count).
  const PreviousSls::SwitchTables *tables(int32_t s) const { return prevt_[s]; }
  // The previous SL of the path from switch s to LID d (0..15), or -1.
  int prev_sl(int32_t s, uint16_t d) const {
    const std::vector<uint8_t> *row = prev_sl_[s];
    const int v = row && d < row->size() ? (*row)[d] : -1;
    return v < kNumSls ? v : -1;
  }
  size_t entry(int32_t s, unsigned in, unsigned o, unsigned sl) const {
    const unsigned ports = f_.sw(s).num_ports + 1u;
    return entry_start_[s] + (static_cast<size_t>(in) * ports + o) * kNumSls + sl;
  }
  // The LFT column of LID d into out_ (write) and good_[] (intact paths).
  void column(uint16_t d, bool write);
  // Whether LIDs a and b of one switch had the same previous routes and SLs
  // from every switch (then their intact paths are the same). O(S), one
  // row per switch: the reference passes' test (lid_major_).
  bool same_previous_paths(uint16_t a, uint16_t b) const {
    if (alive_[a] != alive_[b]) return false;
    const int32_t t = f_.lid_switch(a);
    for (int32_t s = 0; s < f_.num_switches(); ++s) {
      if (s == t) continue;
      const PreviousSls::SwitchTables *pt = tables(s);
      const uint8_t pa = pt && a < pt->lft.size() ? pt->lft[a] : kNoPort;
      const uint8_t pb = pt && b < pt->lft.size() ? pt->lft[b] : kNoPort;
      if (pa != pb || prev_sl(s, a) != prev_sl(s, b)) return false;
    }
    return true;
  }
  // classes(): per LID its class (cls_) -- the first LID of its switch,
  // or itself when its previous routes or SLs from some switch differ from
  // that LID's -- and the classes' first LIDs (class_lid_). LIDs of one
  // class have the same intact paths. Row by row (switch-major): O(L * S)
  // sequential byte reads.
  void classes();
  // The LFT of every LID into out_ (kept or fresh port), switch-major from
  // the classes' columns (good_bits_); counts kept and repaired entries.
  void write_lfts();
  // good_ of LID d from its class's column.
  void load_column(uint16_t d);
  // The previous SLs of the LIDs pass 2 has no work for, switch-major.
  void keep_untouched_sls();
  // Walks the intact paths of d: freeze (pass 1) or only mark visited_.
  void intact_paths(uint16_t d, bool freeze);
  // Adds the path of switch s to d with SL sl; false (all undone) on a cycle
  // or a VL beyond the budget.
  bool add_path(int32_t s, uint16_t d, int sl);
  // Depth-first over the hops from switch x (entered through port in; 0:
  // the source; prev_e: the entry of the hop before, kNone on the first,
  // with in port prev_in), trying the candidate VLs of each entry; false
  // when the path cannot be completed within budget_ tries (partial work
  // undone by the caller).
  bool extend(int32_t x, unsigned in, size_t prev_e, unsigned prev_in, uint16_t d, int sl,
              int depth);
  // Undo logs' lengths; undo_to() goes back to them.
  struct Mark {
    size_t entries = 0, edges = 0, marks = 0, masks = 0;
  };
  Mark mark() const {
    return {set_entries_.size(), added_edges_.size(), marked_.size(), mask_log_.size()};
  }
  void undo_to(const Mark &m);
  // Pass 2 for LID d: SLs of intact paths, then the new pairs on intact
  // paths, then the broken switches nearest first, each taking the first
  // next hop (towards a switch already routed: the fresh routing's, then the
  // shortest) and SL with which its path fits.
  // A path that fits nowhere puts d into failed_ (st_.why: the first such
  // path) and the round goes on.
  void changed_paths(uint16_t d);
  // The previous SL of the path from switch s to LID d when d survives, else -1.
  int previous_sl(int32_t s, uint16_t d) const { return alive_[d] ? prev_sl(s, d) : -1; }
  // changed_paths() of LID d whose class's first LID d1 routed this round
  // took the first choice everywhere (no detour: the first next hop, SL and
  // VL of every step fitted) and whose fresh ports equal d1's where a path
  // is broken: the same ports and SLs as d1's, which the reference would
  // choose too (each first choice finds its dependencies in the graph
  // already, the last hop to a CA adds none). O(S) instead of the walks.
  bool replay(uint16_t d);
  struct Replay {
    int32_t lid = -1;                    // the class's LID routed without a detour this round
    int64_t changed = 0, new_pairs = 0;  // its counts
  };
  std::vector<Replay> replay_;  // by class
  int64_t detours_ = 0;         // choices other than the first (pass 2)
  // changed_paths() of a LID with every path intact: the previous SLs.
  void keep_previous_sls(uint16_t d);
  // len_: hops to d (switch t) of every switch on an intact route, -1 for the others.
  void route_lengths(int32_t t, uint16_t d);
  // The path of s (route already in out_) with its previous SL old, or the
  // first SL that fits (old < 0); -1 when none fits (all undone).
  int place(int32_t s, uint16_t d, int old);
  // The SLs of the intact routes to d: previous ones, new pairs the first that fits.
  void intact_path_sls(uint16_t d);
  // Broken switches in order of distance to d on the new fabric, each
  // towards a neighbour routed before it; those that fit nowhere wait and
  // try again once the others are routed (more neighbours to go through),
  // until a retry routes none of them.
  void route_broken(uint16_t d);
  // Routes broken switch x to d through a neighbour already routed (len_),
  // its previous SL or (any_sl) the first that fits; false (out port: the
  // fresh one) when none fits.
  bool route_switch(int32_t x, uint16_t d, bool any_sl);
  // cand_: x's channels to switches already routed, shortest first, the fresh one first among
  // equals.
  void next_hop_candidates(int32_t x, uint16_t d);
  // Commits x's path to d over channel c with SL sl (len_, path SL, sl_mask_); true.
  bool take_next_hop(int32_t x, uint16_t d, int32_t c, int sl);
  // route_switch() of pending_ until a round routes none; drops those routed.
  void retry_pending(uint16_t d, bool any_sl);
  // run()'s phases. The previous tables per switch, the entry index and
  // alive_; returns the number of entries.
  size_t index_previous();
  // out_ reset with the previous SL2VL of every switch that was there and
  // the fresh terminal VLs.
  void start_sl2vl();
  // Sizes (and clears) the per-entry, per-junction and per-switch state.
  void size_state(size_t entries);
  // Pass 1 over every LID; false (st_.why) when the intact paths have a credit loop.
  // Per class: its column and intact paths; the LFTs switch-major.
  bool pass1();
  // pass1() as before the classes, per LID (lid_major_).
  void pass1_lid_major();
  // Pass 2 in rounds of kRounds at most; false (st_.why) when paths still fail.
  bool pass2();
  // Every terminal port of a switch takes the SL2VL entries of port 0.
  void first_hop_vls();
  // The mask of VLs the frozen entries use.
  uint32_t used_vls() const;
  // Relaxed with drop_stale_: x's path to d just took another SL; its
  // traffic on the previous SL sl (stale) is walked on the new route through
  // the turns sl's paths use (their dependencies added, logged) up to the
  // first turn no path of sl uses, whose entry becomes VL 15 (frozen:
  // extend() never takes it). kStaleUnsafe when a dependency before it
  // closes a cycle (the caller undoes the path and tries another next hop).
  enum { kStaleDropped, kStaleDelivered, kStaleUnsafe };
  int guard_stale(int32_t x, uint16_t d, int sl);
  bool fail(std::string why) {
    st_.why = std::move(why);
    return false;
  }

  const Fabric &f_;
  const PreviousSls &prev_;
  const Routing &fresh_;
  const int vls_, sls_;
  const bool lid_major_;   // the reference passes: per LID, no classes (unit tests)
  const bool relax_;       // a broken path that keeps no SL may take another one
  const bool drop_stale_;  // ... and its previous SL is dropped before it closes a cycle
  Routing &out_;
  IncrementalStats &st_;

  std::vector<const PreviousSls::SwitchTables *> prevt_;
  std::vector<const std::vector<uint8_t> *> prev_sl_;  // previous SL row per switch
  std::vector<char> alive_;                            // by LID: same owner as before
  std::vector<char> touched_;        // by LID: some path broken or new (pass 2 has work)
  std::vector<int32_t> lid_switch_;  // by LID: its switch (-1: not in use)
  std::vector<int32_t> cls_;         // by LID: its class (classes())
  std::vector<uint16_t> class_lid_;  // by class: its first LID
  std::vector<uint64_t> good_bits_;  // by class: bit s set when switch s's path is intact
  size_t good_words_ = 0;            // words per class in good_bits_
  std::vector<size_t> entry_start_;
  std::vector<int32_t>
      entry_block_;              // by entry / 64: the switch whose entries start there or before
  std::vector<uint8_t> frozen_;  // per entry: 1 when a path uses it (then only retune() moves it)
  // Per entry, its junctions: bit i of pred_ when a path comes from the
  // previous switch's entry with in port i, bit o of succ_ when one leaves
  // the next switch through port o (retune() moves exactly these
  // dependencies).
  std::vector<uint64_t> pred_, succ_;  // by jx()
  // Per switch: start of its junction masks, its switch ports; per (switch,
  // port): the port's rank among the switch ports (1..), 0 for others.
  std::vector<size_t> jstart_, port_start_;
  std::vector<int32_t> switch_ports_;
  std::vector<int16_t> port_slot_;
  struct MaskLog {
    size_t e;
    uint64_t pred, succ;
  };
  std::vector<MaskLog> mask_log_;  // undo log of pred_ / succ_ (pass 2)
  static constexpr size_t kNone = SIZE_MAX;
  // The hop after entry e (in port `in`, channel c) on the path to d: noted
  // (note_hop) and, with from >= 0 (the node of e's hop, pass 2), its
  // dependency added (false on a cycle); from < 0: pass 1, noted only.
  bool link_next(unsigned in, int32_t c, uint16_t d, int sl, size_t e, int32_t from);
  // Adds the dependency a -> b (logged); false if it closes a cycle.
  bool link(int32_t a, int32_t b);
  // The channel that enters switch x through port in (in >= 1).
  int32_t into(int32_t x, unsigned in) const {
    return f_.channel(f_.peer(x, static_cast<uint8_t>(in)).id).reverse;
  }
  // Junction masks are kept for entries between switch ports only (in port
  // 0 or a switch port, out a switch port): jx() maps an entry to that
  // compact index (kNone for others, which no path hop uses).
  size_t jx(size_t e) const {
    // The switch of entry e: the one whose entries start in e's block of 64
    // (no switch has fewer entries), or the next one.
    auto s = entry_block_[e >> 6];
    if (s + 1 < static_cast<int32_t>(entry_start_.size()) && e >= entry_start_[s + 1]) ++s;
    const size_t rel = e - entry_start_[s];
    const size_t ports = f_.sw(s).num_ports + 1u;
    const auto sl = static_cast<unsigned>(rel % kNumSls);
    const size_t io = rel / kNumSls;
    const int in = io / ports == 0 ? 0 : port_slot_[port_start_[s] + io / ports];
    const int out = port_slot_[port_start_[s] + io % ports] - 1;
    if (in < 0 || out < 0) return kNone;
    return jstart_[s] + (static_cast<size_t>(in) * switch_ports_[s] + out) * kNumSls + sl;
  }
  // Records the junction of a hop over entry e (leaving its switch through
  // port p) after entry e_prev (kNone: a first hop) whose in port was
  // prev_in; log: undoable (pass 2).
  void note_hop(size_t e_prev, unsigned prev_in, uint8_t p, size_t e, bool log) {
    if (e_prev == kNone) return;
    e = jx(e);
    e_prev = jx(e_prev);
    if (e == kNone || e_prev == kNone) return;
    if (log) {
      mask_log_.push_back({e, pred_[e], succ_[e]});
      mask_log_.push_back({e_prev, pred_[e_prev], succ_[e_prev]});
    }
    pred_[e] |= uint64_t{1} << prev_in;
    succ_[e_prev] |= uint64_t{1} << p;
  }
  graph::DynamicDag dag_;
  // Per destination, reused.
  std::vector<int8_t> good_;  // per switch: 1 intact path, 0 not, -1 unknown, 2 on the walk
  // Per (channel, VL, SL): stamp when the path's suffix from there is in the
  // graph (the next hops' VLs depend on the channel and SL only).
  std::vector<uint32_t> visited_;
  uint32_t stamp_ = 0;
  std::vector<int32_t> walk_, dist_, order_, len_, pending_;
  std::vector<std::pair<int32_t, int32_t>> cand_;  // (route length + preference, channel)
  // Undo logs of one path attempt.
  struct SetEntry {
    size_t e;
    int32_t sw;
    uint8_t in, out, sl, vl;  // vl: the value before
    bool used;                // frozen before (set by retune()): stays frozen on undo
  };
  // Sets the frozen entry (x, in, p, sl) to VL w with the dependencies of
  // every path over it (pred_, succ_), lifting the entries before it or
  // sinking those after it so that no path climbs a VL; all logged for
  // undo_to(). False (partly logged) when a dependency closes a cycle.
  bool retune(int32_t x, unsigned in, uint8_t p, int sl, int w);
  std::vector<SetEntry> set_entries_;
  std::vector<std::pair<int32_t, int32_t>> added_edges_;
  std::vector<size_t> marked_;
  int budget_ = 0;
  int retunes_ = 0;               // entries retune() may still set in this path's attempt
  std::vector<uint16_t> failed_;  // LIDs with a path that did not fit, this round
  uint32_t sl_mask_ = 0;
};

void Incremental::column(uint16_t d, bool write) {
  const int32_t S = f_.num_switches();
  const int32_t t = f_.lid_switch(d);
  std::fill(good_.begin(), good_.end(), -1);
  good_[t] = 1;
  const bool survives = alive_[d];
  for (int32_t s0 = 0; s0 < S; ++s0) {
    if (!survives) {
      good_[s0] = s0 == t;
      continue;
    }
    // Follow the previous hops until a switch whose state is known.
    walk_.clear();
    int32_t x = s0;
    int8_t verdict = 0;
    while (true) {
      if (good_[x] == 0 || good_[x] == 1) {
        verdict = good_[x];
        break;
      }
      if (good_[x] == 2) break;  // a loop in the previous tables
      const PreviousSls::SwitchTables *pt = tables(x);
      const uint8_t p = pt && d < pt->lft.size() ? pt->lft[d] : kNoPort;
      const PortPeer pp = p == 0 || p > f_.sw(x).num_ports ? PortPeer{} : f_.peer(x, p);
      const int32_t y = pp.kind == PortPeer::kSwitch ? f_.channel(pp.id).dst : -1;
      if (y < 0 || f_.sw(y).guid != pt->peer[p]) {
        good_[x] = 0;  // its previous hop is gone
        break;
      }
      good_[x] = 2;
      walk_.push_back(x);
      x = y;
    }
    for (int32_t w : walk_) good_[w] = verdict;
  }
  if (!write) return;
  for (int32_t s = 0; s < S; ++s) {
    const uint8_t port = s != t && good_[s] == 1 ? tables(s)->lft[d] : fresh_.out_port(s, d);
    out_.set_out_port(s, d, port);
    if (s != t && good_[s] == 1)
      ++st_.kept_entries;
    else if (s != t)
      ++st_.repaired_entries;
  }
}

void Incremental::intact_paths(uint16_t d, bool freeze) {
  const int32_t t = f_.lid_switch(d);
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    if (s == t || good_[s] != 1) continue;
    const int sl = prev_sl(s, d);
    if (sl < 0) continue;
    int32_t x = s, prev_node = -1;
    size_t prev_e = kNone;
    unsigned in = 0, prev_in = 0;
    while (x != t) {
      const uint8_t p = out_.out_port(x, d);
      const int32_t c = f_.peer(x, p).id;
      const size_t e = entry(x, in, p, static_cast<unsigned>(sl));
      const uint8_t v = out_.vl(x, static_cast<uint8_t>(in), p, static_cast<uint8_t>(sl));
      if (freeze) {
        frozen_[e] = 1;
        const int32_t n = node(c, v);
        if (prev_node >= 0) dag_.add_edge_unchecked(prev_node, n);
        note_hop(prev_e, prev_in, p, e, false);
        prev_node = n;
        prev_e = e;
        prev_in = in;
      }
      const size_t key = static_cast<size_t>(node(c, v)) * kNumSls + sl;
      if (visited_[key] == stamp_) {
        // The rest is in the graph; this entry's users go on as it does.
        if (freeze) link_next(in, c, d, sl, e, -1);
        break;
      }
      visited_[key] = stamp_;
      in = f_.channel(c).dst_port;
      x = f_.channel(c).dst;
    }
  }
}

bool Incremental::link(int32_t a, int32_t b) {
  bool added = false;
  if (!dag_.add_edge(a, b, &added)) return false;
  if (added) added_edges_.emplace_back(a, b);
  return true;
}

bool Incremental::link_next(unsigned in, int32_t c, uint16_t d, int sl, size_t e, int32_t from) {
  const int32_t z = f_.channel(c).dst;
  if (z == f_.lid_switch(d)) return true;
  const uint8_t q = out_.out_port(z, d);
  if (q == kNoPort || f_.peer(z, q).kind != PortPeer::kSwitch) return true;
  const uint8_t zin = f_.channel(c).dst_port;
  const auto usl = static_cast<uint8_t>(sl);
  note_hop(e, in, q, entry(z, zin, q, usl), from >= 0);
  return from < 0 || link(from, node(f_.peer(z, q).id, out_.vl(z, zin, q, usl)));
}

// The VLs extend() tries on an entry now at VL now (used: a path takes it;
// prev_vl: the VL the packet arrives on, -1 on a first hop), in order,
// into cand (2 * kNumSls + 2 at least; repeats and VLs >= vls possible);
// returns their number.
// Candidates. A used entry: its VL, then retuned (retune()): sunk to the
// VL the packet arrives on or below when it climbs (the previous tables'
// paths never climb a VL -- ACRO, DL and LOREN labels descend, Nue's VL is
// constant -- so dependencies that do not climb can close a cycle only
// inside one VL), then lifted, then the other lower VLs. A free entry:
// its previous value, the VL the packet arrives on, higher, then lower
// VLs (on the 6x6x6 fail-in-place series with keiro-dl at 8 VLs this
// keeps a few more SLs than trying lower VLs first); on a first hop from
// VL 0 up.
int candidate_vls(bool used, int now, int prev_vl, int vls, int *cand) {
  int n = 0;
  cand[n++] = now;
  if (used) {
    // Sinking to the arriving VL (or below) first when the entry climbs,
    // then lifting, then the other lower VLs.
    if (prev_vl >= 0 && prev_vl < now)
      for (int w = prev_vl; w >= 0; --w) cand[n++] = w;
    for (int w = now + 1; w < vls; ++w) cand[n++] = w;
    for (int w = now - 1; w >= 0; --w) cand[n++] = w;
  } else if (prev_vl >= 0) {
    cand[n++] = prev_vl;
    for (int w = prev_vl + 1; w < vls; ++w) cand[n++] = w;
    for (int w = prev_vl - 1; w >= 0; --w) cand[n++] = w;
  } else {
    for (int w = 0; w < vls; ++w) cand[n++] = w;
  }
  return n;
}

bool Incremental::extend(int32_t x, unsigned in, size_t prev_e, unsigned prev_in, uint16_t d,
                         int sl, int depth) {
  const int32_t t = f_.lid_switch(d);
  if (x == t) return true;
  const uint8_t p = out_.out_port(x, d);
  if (p == kNoPort || depth > f_.num_switches()) return true;  // unrouted: nothing to add
  const PortPeer pp = f_.peer(x, p);
  if (pp.kind != PortPeer::kSwitch) return true;
  const int32_t c = pp.id;
  const auto usl = static_cast<uint8_t>(sl);
  const auto uin = static_cast<uint8_t>(in);
  const size_t e = entry(x, in, p, usl);
  const uint8_t now = out_.vl(x, uin, p, usl);
  const int32_t cin = in == 0 ? -1 : into(x, in);
  // The VL the packet arrives on, from the table (a retune may move it).
  auto arriving = [&] {
    return prev_e == kNone
               ? -1
               : static_cast<int>(out_.vl(f_.channel(cin).src, static_cast<uint8_t>(prev_in),
                                          f_.channel(cin).src_port, usl));
  };
  const int prev_vl = arriving();
  const bool used = frozen_[e];
  if (used && now == kDropVl) {  // stale traffic of its SL is dropped here
    ++detours_;
    return false;
  }
  int cand[2 * kNumSls + 2];
  const int n = candidate_vls(used, now, prev_vl, vls_, cand);
  uint32_t tried = 0;
  for (int i = 0; i < n; ++i) {
    const int w = cand[i];
    if (w >= vls_ || (tried >> w & 1u)) continue;
    tried |= 1u << w;
    if (i > 0 || tried != 1u << w) ++detours_;  // not the entry's own VL first
    if (budget_-- <= 0) return false;
    const Mark m0 = mark();
    // This path is one of the entry's users before any retune.
    note_hop(prev_e, prev_in, p, e, true);
    if (used && w != now && !retune(x, in, p, sl, w)) {
      undo_to(m0);
      continue;
    }
    const int32_t from = prev_e == kNone ? -1 : node(cin, arriving());
    const int32_t to = node(c, w);
    if (from >= 0 && !link(from, to)) {
      undo_to(m0);
      continue;
    }
    if (!frozen_[e]) {
      set_entries_.push_back({e, x, uin, p, usl, now, false});
      frozen_[e] = 1;
      out_.set_vl(x, uin, p, usl, static_cast<uint8_t>(w));
    }
    const size_t key = static_cast<size_t>(to) * kNumSls + usl;
    if (visited_[key] == stamp_) {
      // The rest of the path is in the graph; the step into it is added
      // here (a retune may have moved the node it was walked from).
      if (!link_next(in, c, d, sl, e, to)) {
        undo_to(m0);
        continue;
      }
      return true;
    }
    visited_[key] = stamp_;
    marked_.push_back(key);
    if (extend(f_.channel(c).dst, f_.channel(c).dst_port, e, in, d, sl, depth + 1)) return true;
    undo_to(m0);
    if (budget_ <= 0) return false;
  }
  return false;
}

bool Incremental::retune(int32_t x, unsigned in, uint8_t p, int sl, int w) {
  if (retunes_-- <= 0) return false;
  const auto usl = static_cast<uint8_t>(sl);
  const auto uin = static_cast<uint8_t>(in);
  const size_t e = entry(x, in, p, usl);
  const int was = out_.vl(x, uin, p, usl);
  set_entries_.push_back({e, x, uin, p, usl, static_cast<uint8_t>(was), true});
  out_.set_vl(x, uin, p, usl, static_cast<uint8_t>(w));
  const int32_t c = f_.peer(x, p).id;
  const int32_t to = node(c, w);
  const size_t je = jx(e);
  // The dependencies of the entry's users, now on (c, w): from the entries
  // they come from, and into the entries they take at the next switch.
  // VLs never climb along a path: a lift takes the entries before it below
  // w along, a sink the entries after it above w (each with its own users).
  if (in != 0) {
    const int32_t cin = into(x, in);
    const int32_t u = f_.channel(cin).src;
    const uint8_t pu = f_.channel(cin).src_port;
    for (uint64_t m = je == kNone ? 0 : pred_[je]; m; m &= m - 1) {
      const auto i = static_cast<uint8_t>(std::countr_zero(m));
      if (w > was && out_.vl(u, i, pu, usl) < w && !retune(u, i, pu, sl, w)) return false;
      if (!link(node(cin, out_.vl(u, i, pu, usl)), to)) return false;
    }
  }
  const int32_t z = f_.channel(c).dst;
  const uint8_t zin = f_.channel(c).dst_port;
  for (uint64_t m = je == kNone ? 0 : succ_[je]; m; m &= m - 1) {
    const auto o = static_cast<uint8_t>(std::countr_zero(m));
    if (w < was && out_.vl(z, zin, o, usl) > w && !retune(z, zin, o, sl, w)) return false;
    if (!link(to, node(f_.peer(z, o).id, out_.vl(z, zin, o, usl)))) return false;
  }
  return true;
}

void Incremental::undo_to(const Mark &m) {
  while (mask_log_.size() > m.masks) {
    const MaskLog &u = mask_log_.back();
    pred_[u.e] = u.pred;
    succ_[u.e] = u.succ;
    mask_log_.pop_back();
  }
  while (added_edges_.size() > m.edges) {
    dag_.remove_last_edge(added_edges_.back().first, added_edges_.back().second);
    added_edges_.pop_back();
  }
  while (set_entries_.size() > m.entries) {
    const SetEntry &u = set_entries_.back();
    frozen_[u.e] = u.used;
    out_.set_vl(u.sw, u.in, u.out, u.sl, u.vl);
    set_entries_.pop_back();
  }
  while (marked_.size() > m.marks) {
    visited_[marked_.back()] = 0;
    marked_.pop_back();
  }
}

bool Incremental::add_path(int32_t s, uint16_t d, int sl) {
  set_entries_.clear();
  added_edges_.clear();
  marked_.clear();
  mask_log_.clear();
  budget_ = kPathBudget;
  retunes_ = kRetuneBudget;
  if (!extend(s, 0, kNone, 0, d, sl, 0)) {
    undo_to(Mark{});
    return false;
  }
  st_.new_dependencies += static_cast<int64_t>(added_edges_.size());
  return true;
}

void Incremental::keep_previous_sls(uint16_t d) {
  const int32_t t = f_.lid_switch(d);
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const int old = previous_sl(s, d);
    out_.set_path_sl(s, d, static_cast<uint8_t>(old >= 0 ? old : 0));
    if (s != t) sl_mask_ |= 1u << old;
  }
}

void Incremental::keep_untouched_sls() {
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    for (uint16_t d : f_.lids()) {
      if (touched_[d]) continue;
      const int old = previous_sl(s, d);
      out_.set_path_sl(s, d, static_cast<uint8_t>(old >= 0 ? old : 0));
      if (lid_switch_[d] != s) sl_mask_ |= 1u << old;
    }
}

void Incremental::route_lengths(int32_t t, uint16_t d) {
  std::fill(len_.begin(), len_.end(), -1);
  len_[t] = 0;
  for (int32_t s0 = 0; s0 < f_.num_switches(); ++s0) {
    if (good_[s0] != 1 || len_[s0] >= 0) continue;
    walk_.clear();
    int32_t x = s0;
    while (len_[x] < 0) {
      walk_.push_back(x);
      x = f_.channel(f_.peer(x, out_.out_port(x, d)).id).dst;
    }
    int32_t hops = len_[x];
    for (auto it = walk_.rbegin(); it != walk_.rend(); ++it) len_[*it] = ++hops;
  }
}

int Incremental::place(int32_t s, uint16_t d, int old) {
  if (old >= 0) return add_path(s, d, old) ? old : (++detours_, -1);
  for (int k = 0; k < sls_; ++k) {
    if (add_path(s, d, k)) return k;
    ++detours_;
  }
  return -1;
}

void Incremental::intact_path_sls(uint16_t d) {
  const int32_t t = f_.lid_switch(d);
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const int old = previous_sl(s, d);
    if (s == t) {
      out_.set_path_sl(s, d, static_cast<uint8_t>(old >= 0 ? old : 0));
      continue;
    }
    if (good_[s] != 1) continue;
    int sl = old;
    if (old < 0) {  // a new pair on an intact route
      ++st_.changed_paths;
      ++st_.new_pairs;
      sl = place(s, d, -1);
      if (sl < 0) {
        if (failed_.empty())
          fail(strprintf("the path from %s to LID %u fits none of the %d SLs",
                         f_.describe(s).c_str(), d, sls_));
        if (failed_.empty() || failed_.back() != d) failed_.push_back(d);
        continue;
      }
    }
    out_.set_path_sl(s, d, static_cast<uint8_t>(sl));
    sl_mask_ |= 1u << sl;
  }
}

void Incremental::next_hop_candidates(int32_t x, uint16_t d) {
  const uint8_t fresh_port = fresh_.out_port(x, d);
  cand_.clear();
  for (int32_t c = f_.out_begin(x); c < f_.out_end(x); ++c) {
    const int32_t y = f_.channel(c).dst;
    if (len_[y] < 0) continue;
    const bool is_fresh = f_.channel(c).src_port == fresh_port;
    cand_.emplace_back(2 * len_[y] + (is_fresh ? 0 : 1), c);
  }
  std::sort(cand_.begin(), cand_.end());
}

bool Incremental::take_next_hop(int32_t x, uint16_t d, int32_t c, int sl) {
  len_[x] = len_[f_.channel(c).dst] + 1;
  out_.set_path_sl(x, d, static_cast<uint8_t>(sl));
  sl_mask_ |= 1u << sl;
  return true;
}

bool Incremental::route_switch(int32_t x, uint16_t d, bool any_sl) {
  const int old = any_sl ? -1 : previous_sl(x, d);
  next_hop_candidates(x, d);
  // Relaxed: the SL it had before, whose stale traffic guard_stale() stops.
  const int stale = any_sl && drop_stale_ ? previous_sl(x, d) : -1;
  int32_t unsafe = -1;  // the first next hop that fits but lets stale traffic close a cycle
  for (const auto &[rank, c] : cand_) {
    if (c != cand_.front().second) ++detours_;
    out_.set_out_port(x, d, f_.channel(c).src_port);
    const int64_t deps = st_.new_dependencies;
    const int sl = place(x, d, old);
    if (sl < 0) continue;
    if (stale >= 0 && sl != stale) {
      const int g = guard_stale(x, d, stale);
      if (g == kStaleUnsafe) {
        undo_to(Mark{});  // the path and its guard
        st_.new_dependencies = deps;
        if (unsafe < 0) unsafe = c;
        continue;
      }
      ++(g == kStaleDropped ? st_.stale_dropped : st_.stale_delivered);
    }
    return take_next_hop(x, d, c, sl);
  }
  if (unsafe >= 0) {  // every next hop that fits leaves the stale traffic a cycle
    out_.set_out_port(x, d, f_.channel(unsafe).src_port);
    const int sl = place(x, d, old);  // fits as before: the state is the same
    if (sl >= 0) {
      ++st_.stale_unsafe;
      return take_next_hop(x, d, unsafe, sl);
    }
  }
  out_.set_out_port(x, d, fresh_.out_port(x, d));
  return false;
}

void Incremental::retry_pending(uint16_t d, bool any_sl) {
  for (size_t before = pending_.size() + 1; !pending_.empty() && pending_.size() < before;) {
    before = pending_.size();
    std::erase_if(pending_, [&](int32_t x) {
      if (!route_switch(x, d, any_sl)) return false;
      const int old = previous_sl(x, d);
      if (any_sl && old >= 0 && out_.path_sl(x, d) != old) ++st_.sl_changed_paths;
      return true;
    });
  }
}

void Incremental::route_broken(uint16_t d) {
  const int32_t t = f_.lid_switch(d);
  pending_.clear();
  const int32_t reached = graph::switch_bfs(f_, t, dist_, order_);
  for (int32_t i = 0; i < reached; ++i) {
    const int32_t x = order_[i];
    if (x == t || good_[x] == 1) continue;
    ++st_.changed_paths;
    if (previous_sl(x, d) < 0) ++st_.new_pairs;
    if (!route_switch(x, d, false)) pending_.push_back(x);
  }
  retry_pending(d, false);
  // Relaxed: what keeps no SL takes the first that fits.
  if (relax_) retry_pending(d, true);
  if (pending_.empty()) return;
  const int32_t x = pending_.front();
  const int old = previous_sl(x, d);
  if (failed_.empty())
    fail(old >= 0 ? strprintf("no next hop from %s to LID %u keeps its previous SL %d free of "
                              "credit loops",
                              f_.describe(x).c_str(), d, old)
                  : strprintf("no next hop and SL from %s to LID %u is free of credit loops",
                              f_.describe(x).c_str(), d));
  if (failed_.empty() || failed_.back() != d) failed_.push_back(d);
  // The round goes on (its result is dropped): the rest of the switches
  // route through these as the fresh routing does.
  for (int32_t y : pending_) len_[y] = f_.num_switches();
}

void Incremental::changed_paths(uint16_t d) {
  // Most LIDs keep every path (pass 1 found them so): their SLs, and
  // nothing else to do.
  if (!touched_[d]) {
    if (lid_major_) keep_previous_sls(d);  // else keep_untouched_sls() did
    return;
  }
  if (lid_major_) {
    column(d, false);
  } else {
    load_column(d);
    if (replay(d)) return;
  }
  const int64_t detours = detours_, changed = st_.changed_paths, fresh = st_.new_pairs;
  const size_t failed = failed_.size();
  ++stamp_;
  intact_paths(d, false);
  route_lengths(f_.lid_switch(d), d);
  intact_path_sls(d);
  route_broken(d);
  if (lid_major_ || detours_ != detours || failed_.size() != failed || !pending_.empty()) return;
  Replay &r = replay_[cls_[d]];
  r = {d, st_.changed_paths - changed, st_.new_pairs - fresh};
}

bool Incremental::replay(uint16_t d) {
  const Replay &r = replay_[cls_[d]];
  if (r.lid < 0) return false;
  const auto d1 = static_cast<uint16_t>(r.lid);
  const int32_t t = f_.lid_switch(d);
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    if (s != t && good_[s] != 1 && fresh_.out_port(s, d) != fresh_.out_port(s, d1)) return false;
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    if (s == t) {
      const int old = previous_sl(s, d);
      out_.set_path_sl(s, d, static_cast<uint8_t>(old >= 0 ? old : 0));
      continue;
    }
    if (good_[s] != 1) out_.set_out_port(s, d, out_.out_port(s, d1));
    out_.set_path_sl(s, d, out_.path_sl(s, d1));
  }
  st_.changed_paths += r.changed;
  st_.new_pairs += r.new_pairs;
  ++st_.replayed_lids;
  return true;
}

int Incremental::guard_stale(int32_t x, uint16_t d, int sl) {
  const int32_t t = f_.lid_switch(d);
  const auto usl = static_cast<uint8_t>(sl);
  int32_t from = -1;
  unsigned in = 0;
  for (int hops = 0; x != t && hops <= f_.num_switches(); ++hops) {
    const uint8_t port = out_.out_port(x, d);
    const PortPeer pp = f_.peer(x, port);
    if (pp.kind != PortPeer::kSwitch) break;
    const auto uin = static_cast<uint8_t>(in);
    const size_t e = entry(x, in, port, usl);
    const uint8_t v = out_.vl(x, uin, port, usl);
    if (!frozen_[e]) {
      // No path of this SL takes this turn: the stale traffic stops here.
      set_entries_.push_back({e, x, uin, port, usl, v, false});
      frozen_[e] = 1;
      out_.set_vl(x, uin, port, usl, kDropVl);
      return kStaleDropped;
    }
    if (v == kDropVl) return kStaleDropped;  // dropped here for another stale path
    // A turn its SL's paths use: the stale traffic goes on with them.
    const int32_t to = node(pp.id, v);
    if (from >= 0 && !link(from, to)) return kStaleUnsafe;
    from = to;
    in = f_.channel(pp.id).dst_port;
    x = f_.channel(pp.id).dst;
  }
  return kStaleDelivered;
}

size_t Incremental::index_previous() {
  const int32_t S = f_.num_switches();
  prevt_.assign(S, nullptr);
  prev_sl_.assign(S, nullptr);
  for (int32_t s = 0; s < S; ++s)
    if (const auto it = prev_.switch_sl.find(f_.sw(s).guid); it != prev_.switch_sl.end())
      prev_sl_[s] = &it->second;
  size_t entries = 0;
  entry_start_.resize(S);
  for (int32_t s = 0; s < S; ++s) {
    const auto it = prev_.tables.find(f_.sw(s).guid);
    if (it != prev_.tables.end() && it->second.ports == f_.sw(s).num_ports &&
        it->second.peer.size() == f_.sw(s).num_ports + 1u)
      prevt_[s] = &it->second;
    entry_start_[s] = entries;
    const size_t ports = f_.sw(s).num_ports + 1u;
    entries += ports * ports * kNumSls;  // at least 4 * 16: one block of 64
  }
  entry_block_.resize(entries / 64 + 1);
  for (int32_t s = 0, b = 0; b < static_cast<int32_t>(entry_block_.size()); ++b) {
    while (s + 1 < S && entry_start_[s + 1] <= static_cast<size_t>(b) * 64) ++s;
    entry_block_[b] = s;
  }
  alive_.assign(f_.max_lid() + 1u, 0);
  for (uint16_t lid : f_.lids()) alive_[lid] = lid_survives(f_, prev_, lid);
  return entries;
}

void Incremental::start_sl2vl() {
  out_.reset(f_, Routing::SlScope::kPerSourceSwitch);
  // SL2VL: the previous entries of every switch that was there.
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const PreviousSls::SwitchTables *pt = tables(s);
    if (!pt) continue;
    const unsigned ports = pt->ports + 1u;
    for (unsigned in = 0; in < ports; ++in)
      for (unsigned o = 0; o < ports; ++o)
        for (unsigned sl = 0; sl < kNumSls; ++sl)
          out_.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o),
                      static_cast<uint8_t>(sl), pt->sl2vl[(in * ports + o) * kNumSls + sl]);
  }
  for (int32_t t = 0; t < f_.num_terminals(); ++t)
    for (unsigned sl = 0; sl < kNumSls; ++sl)
      out_.set_terminal_vl(t, static_cast<uint8_t>(sl),
                           fresh_.terminal_vl(t, static_cast<uint8_t>(sl)));
}

void Incremental::size_state(size_t entries) {
  const int32_t S = f_.num_switches();
  frozen_.assign(entries, 0);
  jstart_.resize(S);
  port_start_.resize(S);
  switch_ports_.assign(S, 0);
  port_slot_.clear();
  size_t junctions = 0;
  for (int32_t s = 0; s < S; ++s) {
    port_start_[s] = port_slot_.size();
    port_slot_.push_back(0);
    for (unsigned p = 1; p <= f_.sw(s).num_ports; ++p) {
      const bool link = f_.peer(s, static_cast<uint8_t>(p)).kind == PortPeer::kSwitch;
      port_slot_.push_back(static_cast<int16_t>(link ? ++switch_ports_[s] : -1));
    }
    jstart_[s] = junctions;
    junctions += static_cast<size_t>(switch_ports_[s] + 1) * switch_ports_[s] * kNumSls;
  }
  pred_.assign(junctions, 0);
  succ_.assign(junctions, 0);
  dag_.reset(f_.num_channels() * kNumSls);
  good_.assign(S, -1);
  len_.assign(S, -1);
  dist_.assign(S, -1);
  order_.assign(S, -1);
  visited_.assign(static_cast<size_t>(f_.num_channels()) * kNumSls * kNumSls, 0);
  stamp_ = 0;
}

void Incremental::pass1_lid_major() {
  const int32_t S = f_.num_switches();
  std::vector<int32_t> first_lid(S, -1);  // per destination switch: the LID walked
  for (uint16_t d : f_.lids()) {
    column(d, true);
    // Pass 2 has work for d when a path is broken or new.
    const int32_t t = f_.lid_switch(d);
    for (int32_t s = 0; s < S && !touched_[d]; ++s)
      touched_[d] = s != t && (good_[s] != 1 || !alive_[d] || prev_sl(s, d) < 0);
    int32_t &d0 = first_lid[t];
    if (d0 >= 0 && same_previous_paths(static_cast<uint16_t>(d0), d)) continue;
    if (d0 < 0) d0 = d;
    ++stamp_;
    intact_paths(d, true);
  }
}

void Incremental::classes() {
  const int32_t S = f_.num_switches();
  lid_switch_.assign(f_.max_lid() + 1u, -1);
  std::vector<int32_t> first(S, -1);  // per switch: its first LID
  for (uint16_t d : f_.lids()) {
    const int32_t t = f_.lid_switch(d);
    lid_switch_[d] = t;
    if (first[t] < 0) first[t] = d;
  }
  // same[d]: every switch's previous port and SL to d equal those to the
  // first LID of d's switch (so far, row by row).
  std::vector<char> same(f_.max_lid() + 1u, 0);
  for (uint16_t d : f_.lids()) {
    const int32_t d0 = first[lid_switch_[d]];
    same[d] = d0 != d && alive_[d] == alive_[d0];
  }
  for (int32_t s = 0; s < S; ++s) {
    const PreviousSls::SwitchTables *pt = tables(s);
    const std::vector<uint8_t> *row = prev_sl_[s];
    const auto port = [&](uint16_t d) { return pt && d < pt->lft.size() ? pt->lft[d] : kNoPort; };
    const auto sl = [&](uint16_t d) {
      const int v = row && d < row->size() ? (*row)[d] : -1;
      return v < kNumSls ? v : -1;
    };
    for (uint16_t d : f_.lids()) {
      if (!same[d] || lid_switch_[d] == s) continue;
      const auto d0 = static_cast<uint16_t>(first[lid_switch_[d]]);
      same[d] = port(d) == port(d0) && sl(d) == sl(d0);
    }
  }
  cls_.assign(f_.max_lid() + 1u, -1);
  class_lid_.clear();
  for (uint16_t d : f_.lids()) {
    const int32_t d0 = first[lid_switch_[d]];
    if (same[d]) {
      cls_[d] = cls_[d0];
      continue;
    }
    cls_[d] = static_cast<int32_t>(class_lid_.size());
    class_lid_.push_back(d);
  }
}

void Incremental::load_column(uint16_t d) {
  const uint64_t *bits = &good_bits_[static_cast<size_t>(cls_[d]) * good_words_];
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    good_[s] = static_cast<int8_t>((bits[s >> 6] >> (s & 63)) & 1u);
}

void Incremental::write_lfts() {
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const PreviousSls::SwitchTables *pt = tables(s);
    const uint8_t *fresh = fresh_.lft_row(s);
    uint8_t *lft = out_.lft_row_mut(s);
    const size_t word = static_cast<size_t>(s >> 6);
    const uint64_t bit = uint64_t{1} << (s & 63);
    for (uint16_t d : f_.lids()) {
      if (lid_switch_[d] == s) {
        lft[d] = fresh[d];
        continue;
      }
      const bool good = good_bits_[static_cast<size_t>(cls_[d]) * good_words_ + word] & bit;
      lft[d] = good ? pt->lft[d] : fresh[d];
      ++(good ? st_.kept_entries : st_.repaired_entries);
    }
  }
}

bool Incremental::pass1() {
  const int32_t S = f_.num_switches();
  touched_.assign(f_.max_lid() + 1u, 0);
  if (lid_major_) {
    pass1_lid_major();
  } else {
    classes();
    good_words_ = (static_cast<size_t>(S) + 63) / 64;
    good_bits_.assign(class_lid_.size() * good_words_, 0);
    for (size_t k = 0; k < class_lid_.size(); ++k) {
      const uint16_t d = class_lid_[k];
      column(d, false);
      const int32_t t = lid_switch_[d];
      bool touched = false;
      for (int32_t s = 0; s < S; ++s) {
        if (good_[s] == 1) good_bits_[k * good_words_ + (s >> 6)] |= uint64_t{1} << (s & 63);
        touched = touched || (s != t && (good_[s] != 1 || !alive_[d] || prev_sl(s, d) < 0));
        // intact_paths() reads the kept ports of d.
        if (s != t && good_[s] == 1) out_.set_out_port(s, d, tables(s)->lft[d]);
      }
      touched_[d] = touched;
      ++stamp_;
      intact_paths(d, true);
    }
    for (uint16_t d : f_.lids()) touched_[d] = touched_[class_lid_[cls_[d]]];
    write_lfts();
  }
  if (!dag_.build_order()) return fail("the previous tables' intact paths have a credit loop");
  return true;
}

bool Incremental::pass2() {
  std::vector<uint16_t> order(f_.lids());
  const Routing after_pass1 = out_;
  const std::vector<uint8_t> frozen1 = frozen_;
  const std::vector<uint64_t> pred1 = pred_;
  const std::vector<uint64_t> succ1 = succ_;
  const graph::DynamicDag dag1 = dag_;
  const IncrementalStats st1 = st_;
  for (int round = 0;; ++round) {
    failed_.clear();
    replay_.assign(class_lid_.size(), Replay{});
    if (!lid_major_) keep_untouched_sls();
    for (uint16_t d : order) changed_paths(d);
    if (failed_.empty()) return true;
    if (round + 1 >= kRounds) {
      st_.why += strprintf(" (%zu LIDs with such paths after %d rounds)", failed_.size(), kRounds);
      return false;
    }
    std::vector<char> first(f_.max_lid() + 1u, 0);
    for (uint16_t d : failed_) first[d] = 1;
    std::stable_partition(order.begin(), order.end(), [&](uint16_t d) { return first[d]; });
    out_ = after_pass1;
    frozen_ = frozen1;
    pred_ = pred1;
    succ_ = succ1;
    dag_ = dag1;
    st_ = st1;
    sl_mask_ = 0;
  }
}

void Incremental::first_hop_vls() {
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const unsigned ports = f_.sw(s).num_ports;
    for (int32_t term : f_.terminals_of(s)) {
      const uint8_t tp = f_.terminal(term).sw_port;
      for (unsigned o = 1; o <= ports; ++o)
        for (unsigned sl = 0; sl < kNumSls; ++sl)
          out_.set_vl(s, tp, static_cast<uint8_t>(o), static_cast<uint8_t>(sl),
                      out_.vl(s, 0, static_cast<uint8_t>(o), static_cast<uint8_t>(sl)));
    }
  }
}

uint32_t Incremental::used_vls() const {
  uint32_t vmask = 0;
  for (int32_t s = 0; s < f_.num_switches(); ++s) {
    const unsigned ports = f_.sw(s).num_ports + 1u;
    for (unsigned in = 0; in < ports; ++in)
      for (unsigned o = 1; o < ports; ++o) {
        if (f_.peer(s, static_cast<uint8_t>(o)).kind != PortPeer::kSwitch) continue;
        for (unsigned sl = 0; sl < kNumSls; ++sl)
          if (frozen_[entry(s, in, o, sl)] &&
              out_.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o),
                      static_cast<uint8_t>(sl)) != kDropVl)
            vmask |= 1u << out_.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o),
                                   static_cast<uint8_t>(sl));
      }
  }
  return vmask;
}

bool Incremental::run() {
  if (prev_.scope != Routing::SlScope::kPerSourceSwitch || prev_.tables.empty())
    return fail("the previous routing has no per-source-switch tables");
  if (fresh_.sl_scope() != Routing::SlScope::kPerSourceSwitch)
    return fail("the engine's SLs are not per source switch");
  const size_t entries = index_previous();
  start_sl2vl();
  size_state(entries);
  // Pass 1: LFT columns, and the intact paths' dependencies, frozen. The
  // LIDs of one switch often had the same routes and SLs (one tree per
  // destination switch): their intact paths then add nothing new.
  if (!pass1()) return false;
  // Pass 2: the paths that changed, on top. The choices of one LID's paths
  // constrain the next LIDs', so when paths do not fit, the round is undone
  // and the LIDs that failed go first in the next one (squeaky wheel).
  if (!pass2()) return false;
  // First hops: every source port of a switch (its CAs, port 0) uses the
  // entry of port 0, the one the walks (and guard_stale()) set.
  first_hop_vls();
  // VLs in use: the values of the entries the paths use (frozen).
  out_.vls_used = std::max(1, std::popcount(used_vls()));
  out_.sls_used = std::max(1, std::popcount(sl_mask_));
  out_.engine = fresh_.engine;
  return true;
}

}  // namespace

namespace {

bool run_incremental(const Fabric &f, const PreviousSls &prev, const Routing &fresh, int max_vls,
                     int max_sls, Routing &out, IncrementalStats &st, bool relax, bool drop_stale,
                     bool lid_major) {
  const auto t0 = std::chrono::steady_clock::now();
  st = {};
  Incremental inc(f, prev, fresh, max_vls, max_sls, relax, relax && drop_stale, out, st, lid_major);
  const bool ok = inc.run();
  st.seconds = seconds_since(t0);
  return ok;
}

}  // namespace

bool incremental_reroute(const Fabric &f, const PreviousSls &prev, const Routing &fresh,
                         int max_vls, int max_sls, Routing &out, IncrementalStats &st, bool relax,
                         bool drop_stale) {
  return run_incremental(f, prev, fresh, max_vls, max_sls, out, st, relax, drop_stale, false);
}

bool incremental_reroute_lid_major(const Fabric &f, const PreviousSls &prev, const Routing &fresh,
                                   int max_vls, int max_sls, Routing &out, IncrementalStats &st,
                                   bool relax, bool drop_stale) {
  return run_incremental(f, prev, fresh, max_vls, max_sls, out, st, relax, drop_stale, true);
}

}  // namespace keiro
