// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The self-check. See verify.h for what is checked and the complexity.
#include "core/check/verify.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>

#include "core/check/paths.h"
#include "core/log.h"
#include "core/parallel.h"
#include "core/timing.h"

namespace keiro::check {

void SourceLidSls::reset(uint16_t max_lid) {
  max_lid_ = max_lid;
  pairs_ = 0;
  row_.assign(static_cast<size_t>(max_lid) + 1, -1);
  sls_.clear();
}

void SourceLidSls::set(uint16_t slid, uint16_t dlid, uint8_t sl) {
  if (slid > max_lid_ || dlid > max_lid_ || slid >= row_.size()) return;
  if (row_[slid] < 0) {
    row_[slid] = static_cast<int32_t>(sls_.size() / (max_lid_ + 1u));
    sls_.resize(sls_.size() + max_lid_ + 1u, 0xFF);
  }
  uint8_t &v = sls_[static_cast<size_t>(row_[slid]) * (max_lid_ + 1u) + dlid];
  if (v == 0xFF) ++pairs_;
  v = sl;
}

namespace {

// "switch-name" for the problem and cycle lines (the GUID when the switch
// has no name): shorter than Fabric::describe, as a cycle names many.
std::string switch_label(const Fabric &f, int32_t s) {
  const SwitchInfo &si = f.sw(s);
  if (!si.name.empty()) return si.name;
  return strprintf("0x%016llx", static_cast<unsigned long long>(si.guid));
}

// "LID 12 ('H4')" for the problem lines.
std::string lid_label(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  switch (o.kind) {
    case LidOwner::kSwitch:
      return strprintf("LID %u ('%s')", lid, switch_label(f, o.id).c_str());
    case LidOwner::kTerminal: {
      const TerminalInfo &t = f.terminal(o.id);
      if (!t.name.empty()) return strprintf("LID %u ('%s')", lid, t.name.c_str());
      return strprintf("LID %u (0x%016llx)", lid, static_cast<unsigned long long>(t.port_guid));
    }
    default:
      return strprintf("LID %u (unused)", lid);
  }
}

constexpr int kVls = 16;  // VL values 0..15 in SL2VL tables (15 = drop)

// A port that injects traffic into a switch: the switch's own port 0 or the
// switch port a CA/router is attached to.
struct Source {
  uint8_t port;      // in port at the switch
  uint16_t lid;      // base LID
  uint16_t nlids;    // 2^lmc
  int32_t terminal;  // -1 for the switch itself
};

class Checker {
 public:
  Checker(const Fabric &f, const Routing &r, const Options &o, Result &res)
      : f_(f),
        r_(r),
        opt_(o),
        fixed_sl_(o.fixed_sl),
        fixed_only_(o.fixed_sl >= 0 && !o.fixed_sl_mixed),
        mixed_(o.fixed_sl >= 0 && o.fixed_sl_mixed),
        source_sls_(fixed_only_ ? nullptr : o.source_sls),
        res_(&res),
        probs_(&res.problems),
        walk_(f, r) {}

  void run() {
    build_sources();
    const int32_t C = f_.num_channels();
    turn_base_.assign(static_cast<size_t>(C) + 1, 0);
    for (int32_t c = 0; c < C; ++c)
      turn_base_[c + 1] = turn_base_[c] + f_.degree(f_.channel(c).dst);
    turn_slot_.assign(turn_base_[C], -1);
    turns_.reserve(static_cast<size_t>(C) * 2);
    vlmask_.assign(static_cast<size_t>(C) * kNumSls, 0);
    touched_.reserve(static_cast<size_t>(C) * kNumSls);
    reported_.reserve(64);
    term_vl15_.assign(f_.num_terminals(), 0);
    find_in_port_free_switches();
    channel_vl_.assign(static_cast<size_t>(C) * kNumSls, 0);
    for (int32_t c = 0; c < C; ++c) {
      const Channel &ch = f_.channel(c);
      if (!in_port_free_[ch.src]) continue;
      for (int sl = 0; sl < kNumSls; ++sl)
        channel_vl_[static_cast<size_t>(c) * kNumSls + sl] =
            r_.vl(ch.src, 0, ch.src_port, static_cast<uint8_t>(sl));
    }

    find_per_switch_sources();
    if (opt_.shortcuts && !source_sls_) find_representatives();
    out_sls_.assign(f_.num_switches(), 0);
    out_vls_.assign(static_cast<size_t>(f_.num_switches()) * kNumSls, 0);
    destinations();
    probs_ = &res_->problems;
    if (opt_.collect_dependencies)
      for_each_edge(-1, [&](size_t from, int64_t to) {
        res_->dependencies.emplace_back(static_cast<int64_t>(from), to);
      });
    add_extra_dependencies();
    find_cycle();
    if (!cycle_nodes_.empty() && opt_.name_cycle_paths) explain_cycle();
    if (!cycle_nodes_.empty()) label_extra_dependencies();
    const bool extra = opt_.extra_deps && !opt_.extra_deps->empty();
    if (holds_without_missing_sls(*res_) && res_->pairs_without_sl == 0 && !extra) project_sl();

    res_->vl_mask = vl_mask_;
    res_->sl_mask = sl_mask_;
    res_->vls_used = std::popcount(vl_mask_);
    res_->sls_used = std::popcount(sl_mask_);
    res_->unreachable = res_->black_holes + res_->wrong_delivery;
    res_->ok = holds_without_missing_sls(*res_) && res_->pairs_without_sl == 0;
    if (res_->pairs_without_sl)
      res_->problems.insert(
          res_->problems.begin(),
          strprintf("no verdict: %lld (source, destination) pairs have no path SL and their paths "
                    "depend on it (SL2VL maps SLs to different VLs on them)",
                    static_cast<long long>(res_->pairs_without_sl)));
    if (!res_->problems.empty()) res_->first_problem = res_->problems.front();
  }

 private:
  void problem(std::string line) {
    if (static_cast<int>(probs_->size()) >= opt_.max_problems) return;
    for (const std::string &p : *probs_)
      if (p == line) return;
    probs_->push_back(std::move(line));
  }
  bool want_problem() const { return static_cast<int>(probs_->size()) < opt_.max_problems; }

  // The destinations in blocks of kBlock (LID order), spread over the
  // workers; each worker is a copy of this checker with its own counters,
  // dependency turns and per-block problem lines, merged in block order, so
  // that the result does not depend on the number of threads.
  static constexpr size_t kBlock = 64;
  // reuse_tree()'s references per worker at most (2 * S * S bytes: 7.2 MB
  // at 1,900 switches); above, every destination is walked.
  static constexpr size_t kMaxMemoBytes = size_t{64} << 20;
  // Runs fn(worker, block) for blocks 0..nblocks-1 on the workers
  // (core/parallel.h; worker 0 on the calling thread); fn returns the
  // destinations done, for Options::progress (main pass only).
  template <class Fn>
  void run_blocks(size_t nblocks, std::vector<Checker> &workers, Fn fn, bool progress = true) {
    std::mutex progress_mu;
    size_t done = 0;
    parallel_for(static_cast<int>(workers.size()), static_cast<int32_t>(nblocks), 1,
                 [&](int w, int32_t b) {
                   const size_t n = fn(workers[w], static_cast<size_t>(b));
                   if (progress && opt_.progress) {
                     const std::lock_guard<std::mutex> lock(progress_mu);
                     done += n;
                     opt_.progress(static_cast<int64_t>(done), static_cast<int64_t>(dests_.size()));
                   }
                 });
  }

  void destinations() {
    dests_.clear();
    for (const uint16_t dlid : f_.lids())
      if (wanted(dlid)) dests_.push_back(dlid);
    const size_t nblocks = (dests_.size() + kBlock - 1) / kBlock;
    const int nt = nt_ = worker_count(std::min(opt_.threads, 256), static_cast<int64_t>(nblocks));
    std::vector<std::vector<std::string>> block_problems(nblocks);
    std::vector<Result> wres(nt);
    std::vector<Checker> workers;
    workers.reserve(nt);
    for (int i = 0; i < nt; ++i) {
      workers.push_back(*this);
      workers.back().res_ = &wres[i];
    }
    run_blocks(nblocks, workers, [&](Checker &w, size_t b) {
      w.probs_ = &block_problems[b];
      std::fill(w.term_vl15_.begin(), w.term_vl15_.end(), 0);
      const size_t end = std::min(dests_.size(), (b + 1) * kBlock);
      w.load_block_sls(b * kBlock, end);
      for (size_t i = b * kBlock; i < end; ++i) {
        w.block_pos_ = i - b * kBlock;
        w.destination(dests_[i]);
      }
      w.block_sls_on_ = false;
      return end - b * kBlock;
    });
    for (int i = 0; i < nt; ++i) {
      const Result &w = wres[i];
      res_->pairs_checked += w.pairs_checked;
      res_->black_holes += w.black_holes;
      res_->wrong_delivery += w.wrong_delivery;
      res_->loops += w.loops;
      res_->vl_errors += w.vl_errors;
      res_->stale_drops += w.stale_drops;
      res_->pairs_without_sl += w.pairs_without_sl;
      res_->pairs_assumed_sl += w.pairs_assumed_sl;
      res_->pairs_sl_free += w.pairs_sl_free;
      vl_mask_ |= workers[i].vl_mask_;
      sl_mask_ |= workers[i].sl_mask_;
      merge_turns(workers[i]);
    }
    probs_ = &res_->problems;
    for (std::vector<std::string> &lines : block_problems)
      for (std::string &line : lines) problem(std::move(line));
  }

  // ORs the dependencies worker w found into this checker's.
  void merge_turns(const Checker &w) {
    for (size_t t = 0; t < w.turn_slot_.size(); ++t) {
      const int32_t ws = w.turn_slot_[t];
      if (ws < 0) continue;
      std::array<uint16_t, kVls> &turn = turn_at(static_cast<int64_t>(t));
      for (int v = 0; v < kVls; ++v) turn[v] |= w.turns_[ws][v];
    }
  }

  // Per switch: the LIDs of its sources and the SLs any of its CA/router
  // sources maps to VL 15 on its own port (destination()'s shortcut).
  void find_per_switch_sources() {
    const int32_t S = f_.num_switches();
    src_nlids_.assign(S, 0);
    src_vl15_.assign(S, 0);
    all_nlids_ = 0;
    for (int32_t s = 0; s < S; ++s)
      for (int32_t i = src_start_[s]; i < src_start_[s + 1]; ++i) {
        const Source &e = sources_[i];
        src_nlids_[s] += e.nlids;
        all_nlids_ += e.nlids;
        if (e.terminal < 0) continue;
        for (int sl = 0; sl < kNumSls; ++sl)
          if (r_.terminal_vl(e.terminal, static_cast<uint8_t>(sl)) == 15) src_vl15_[s] |= 1u << sl;
      }
  }

  void build_sources() {
    const int32_t S = f_.num_switches();
    src_start_.assign(static_cast<size_t>(S) + 1, 0);
    sources_.clear();
    for (int32_t s = 0; s < S; ++s) {
      const SwitchInfo &si = f_.sw(s);
      if (si.lid && opt_.switch_sources)
        sources_.push_back({0, si.lid, static_cast<uint16_t>(1u << si.lmc), -1});
      for (const int32_t t : f_.terminals_of(s)) {
        const TerminalInfo &ti = f_.terminal(t);
        if (ti.lid)
          sources_.push_back({ti.sw_port, ti.lid, static_cast<uint16_t>(1u << ti.lmc), t});
      }
      src_start_[s + 1] = static_cast<int32_t>(sources_.size());
    }
  }

  bool wanted(uint16_t dlid) const {
    return opt_.switch_destinations || f_.lid_owner(dlid).kind != LidOwner::kSwitch;
  }

  bool is_owner(int32_t s, const Source &e) const {
    const LidOwner o = walk_.owner();
    if (o.kind == LidOwner::kTerminal) return e.terminal == o.id;
    return e.terminal < 0 && o.id == s;
  }

  // The SLs used by the LIDs of source e towards the current destination;
  // missing receives the number of its LIDs whose SL is not known.
  // With Options::fixed_sl: SL fixed_sl only, or (mixed) as well.
  uint32_t source_sls(int32_t s, const Source &e, uint16_t dlid, int64_t &missing) const {
    missing = 0;
    if (fixed_only_) return 1u << fixed_sl_;
    const uint32_t fixed = mixed_ ? 1u << fixed_sl_ : 0;
    const uint8_t base = path_sl(s, dlid);
    if (!source_sls_) {
      if (base == kNoPathSl) {
        missing = e.nlids;
        return fixed;
      }
      return fixed | 1u << std::min<uint8_t>(base, 31);
    }
    uint32_t mask = fixed;
    for (uint32_t l = e.lid; l < e.lid + e.nlids; ++l) {
      const int g = source_sls_->get(static_cast<uint16_t>(l), dlid);
      const int sl = g >= 0 ? g : base;
      if (sl == kNoPathSl)
        ++missing;
      else
        mask |= 1u << std::min<int>(sl, 31);
    }
    return mask;
  }

  // The SL2VL entries of switch u from port in to port out give one VL for
  // every SL.
  bool hop_sl_free(int32_t u, uint8_t in, uint8_t out) const {
    const uint8_t v0 = r_.vl(u, in, out, 0);
    for (int sl = 1; sl < kNumSls; ++sl)
      if (r_.vl(u, in, out, static_cast<uint8_t>(sl)) != v0) return false;
    return true;
  }
  bool terminal_sl_free(int32_t t) const {
    for (int sl = 1; sl < kNumSls; ++sl)
      if (r_.terminal_vl(t, static_cast<uint8_t>(sl)) != r_.terminal_vl(t, 0)) return false;
    return true;
  }
  bool last_hop_sl_free(int32_t d, uint8_t in) const {
    return dest_port_ == 0 || hop_sl_free(d, in, dest_port_);
  }

  // tail_free_[u] for every delivered switch u of the current destination:
  // every hop after u's own (at the switches after u and the last hop to the
  // destination port) maps all SLs to one VL. Nearest switches first.
  void compute_tail_free() {
    const int32_t d = walk_.dest_switch();
    tail_free_.assign(f_.num_switches(), 0);
    for (const int32_t u : walk_.delivered_by_distance()) {
      if (u == d) continue;
      const Channel &ch = f_.channel(walk_.next_channel(u));
      const int32_t v = ch.dst;
      if (v == d)
        tail_free_[u] = last_hop_sl_free(d, ch.dst_port);
      else
        tail_free_[u] = tail_free_[v] &&
                        hop_sl_free(v, ch.dst_port, f_.channel(walk_.next_channel(v)).src_port);
    }
    tail_free_dlid_ = walk_.dlid();
  }

  // The path of source e (on switch s, delivered) to the current destination
  // does not depend on the SL.
  bool pair_sl_free(int32_t s, const Source &e) {
    if (tail_free_dlid_ != walk_.dlid()) compute_tail_free();
    if (e.terminal >= 0 && !terminal_sl_free(e.terminal)) return false;
    const int32_t d = walk_.dest_switch();
    if (s == d) return last_hop_sl_free(d, e.port);
    return tail_free_[s] && hop_sl_free(s, e.port, f_.channel(walk_.next_channel(s)).src_port);
  }

  // The SL to follow the pairs of e without a known SL with, or -1 when they
  // cannot be checked (counted in pairs_without_sl).
  int missing_sl(int32_t s, const Source &e, int64_t missing) {
    if (pair_sl_free(s, e)) {
      res_->pairs_sl_free += missing;
      return 0;  // any SL gives the same (channel, VL) chain
    }
    if (opt_.assume_sl >= 0) {
      res_->pairs_assumed_sl += missing;
      sl_mask_ |= 1u << opt_.assume_sl;
      return opt_.assume_sl;
    }
    res_->pairs_without_sl += missing;
    return -1;
  }

  // Walks destination dlid and resets the per-destination state.
  void start_destination(uint16_t dlid) {
    if (block_sls_on_)
      walk_.run(dlid, block_lft_.data() + block_pos_, kBlock);
    else
      walk_.run(dlid);
    const LidOwner owner = walk_.owner();
    dest_port_ = owner.kind == LidOwner::kTerminal ? f_.terminal(owner.id).sw_port : 0;
    for (const size_t idx : touched_) vlmask_[idx] = 0;
    touched_.clear();
    slot_of_sl_.fill(-1);
    nslots_ = 0;
    reported_.clear();
  }

  void destination(uint16_t dlid) {
    if (reuse_tree(dlid)) return;
    start_destination(dlid);
    const int32_t d = walk_.dest_switch();
    const bool tree_done = tree_pass(dlid);
    const int32_t S = f_.num_switches();
    for (int32_t s = 0; s < S; ++s) {
      const Fate fate = walk_.fate(s);
      if (s != d && opt_.shortcuts && !source_sls_ && src_start_[s] != src_start_[s + 1] &&
          shortcut(s, d, dlid, fate, tree_done))
        continue;
      check_sources(s, d, dlid, fate);
    }
    if (tree_done && !memo_valid_.empty() && walk_.owner().kind == LidOwner::kTerminal &&
        walk_.delivered_by_distance().size() == static_cast<size_t>(S))
      remember_tree(d);
  }

  // reuse_tree()'s reference for switch d: the current destination's block
  // columns and last hops. O(S).
  void remember_tree(int32_t d) {
    const int32_t S = f_.num_switches();
    uint8_t *col = &memo_cols_[static_cast<size_t>(d) * 2 * S];
    for (int32_t s = 0; s < S; ++s) {
      const size_t a = static_cast<size_t>(s) * kBlock + block_pos_;
      col[s] = block_lft_[a];
      col[S + s] = block_sls_[a];
    }
    memo_last_[d] = tree_last_;
    memo_valid_[d] = 1;
  }

  // The shortcut for the CA/router LIDs of one switch d: destination dlid
  // whose LFT entries and path SLs (LFT entries only with fixed_sl alone,
  // whose walk does not read the path SLs) equal those of the reference this worker
  // remembered for d (remember_tree(): an earlier destination on d whose
  // tree_pass() covered every source switch and that every switch
  // delivers to), at every switch but d, which forwards dlid to its own
  // port. Its walk is then the same, so every switch but d gives the same
  // counts, VLs, SLs and dependencies, which this worker has already added,
  // and no problem lines. What remains is d's own sources (check_sources())
  // and the last hops into dlid's port (the reference's in ports and SLs at
  // d, checked against this port's SL2VL and VLs). False (nothing done)
  // when this does not apply or a last hop fails: destination() then does
  // the full work, naming the paths. Time O(S) for the comparison, instead
  // of the walk and the tree pass.
  bool reuse_tree(uint16_t dlid) {
    if (memo_valid_.empty()) return false;
    const LidOwner o = f_.lid_owner(dlid);
    const int32_t d = f_.lid_switch(dlid);
    if (o.kind != LidOwner::kTerminal || d < 0 || !memo_valid_[d]) return false;
    const TerminalInfo &ti = f_.terminal(o.id);
    const uint8_t port = ti.sw_port;
    const int32_t S = f_.num_switches();
    const uint8_t *col = &memo_cols_[static_cast<size_t>(d) * 2 * S];
    for (int32_t s = 0; s < S; ++s) {
      const size_t b = static_cast<size_t>(s) * kBlock + block_pos_;
      if (s == d ? block_lft_[b] != port
                 : col[s] != block_lft_[b] || (!fixed_only_ && col[S + s] != block_sls_[b]))
        return false;
    }
    const int lim = port_limit(d, port, ti.vls);
    for (const auto &[in, mask] : memo_last_[d])
      for (uint32_t m = mask; m; m &= m - 1) {
        const uint8_t v = r_.vl(d, in, port, static_cast<uint8_t>(std::countr_zero(m)));
        if (v == 15 || v >= lim) return false;
      }
    walk_.retarget(dlid);
    dest_port_ = port;
    for (const size_t idx : touched_) vlmask_[idx] = 0;
    touched_.clear();
    slot_of_sl_.fill(-1);
    nslots_ = 0;
    reported_.clear();
    res_->pairs_checked += all_nlids_ - src_nlids_[d];
    check_sources(d, d, dlid, Fate::kDelivered);
    return true;
  }

  // Sets up reuse_tree() for this worker when it applies (per-source-switch
  // SLs, block columns, Options::reuse_trees) and the references fit in
  // kMaxMemoBytes: 2 * S bytes per switch.
  void init_memo() {
    const size_t S = static_cast<size_t>(f_.num_switches());
    if (!opt_.reuse_trees || !opt_.shortcuts || source_sls_ || !memo_valid_.empty() ||
        2 * S * S > kMaxMemoBytes)
      return;
    memo_cols_.assign(2 * S * S, 0);
    memo_last_.assign(S, {});
    memo_valid_.assign(S, 0);
  }

  // The common case in O(1) for all sources of switch s (not the
  // destination switch d, SLs per source switch): either not delivered or
  // delivered with one known SL through an in-port-free SL2VL table without
  // VL 15 at the sources. The same counts, problems and dependencies as
  // check_sources(); false (nothing done) when the case does not apply.
  bool shortcut(int32_t s, int32_t d, uint16_t dlid, Fate fate, bool tree_done) {
    if (fate != Fate::kDelivered) {
      res_->pairs_checked += src_nlids_[s];
      count_failure(fate, src_nlids_[s]);
      report_failure(s);
      for (int32_t i = src_start_[s]; i < src_start_[s + 1]; ++i)
        if (!is_owner(s, sources_[i])) undelivered_deps(s, sources_[i], dlid);
      return true;
    }
    const uint8_t base = fixed_only_ ? static_cast<uint8_t>(fixed_sl_) : path_sl(s, dlid);
    if (base >= kNumSls || (src_vl15_[s] >> base & 1) || (mixed_ && src_vl15_[s] >> fixed_sl_ & 1))
      return false;
    res_->pairs_checked += src_nlids_[s];
    // The SLs in the order check_sources() follows them (ascending).
    uint8_t sls[2] = {base, base};
    int nsls = 1;
    if (mixed_ && base != fixed_sl_) {
      sls[nsls++] = static_cast<uint8_t>(fixed_sl_);
      if (sls[1] < sls[0]) std::swap(sls[0], sls[1]);
    }
    for (int k = 0; k < nsls; ++k) sl_mask_ |= 1u << sls[k];
    if (tree_done) {
      // tree_pass() added this switch's dependencies.
    } else if (in_port_free_[s]) {
      const Source &e = sources_[src_start_[s]];
      for (int k = 0; k < nsls; ++k) follow(s, e.port, sls[k], d, e);
    } else {
      follow_representatives(s, sls, nsls, d);
    }
    return true;
  }

  // The SLs the pairs of source e (on switch s) to dlid are checked with:
  // their path SLs (those above 15 counted as VL errors, dropped) and, for
  // pairs without one, missing_sl().
  uint32_t checked_sls(int32_t s, const Source &e, uint16_t dlid) {
    int64_t missing = 0;
    uint32_t mask = source_sls(s, e, dlid, missing);
    if (mask >> kNumSls) {
      ++res_->vl_errors;
      if (want_problem())
        problem(strprintf("path SL above 15 from switch '%s' to %s", switch_label(f_, s).c_str(),
                          lid_label(f_, dlid).c_str()));
      mask &= (1u << kNumSls) - 1;
    }
    sl_mask_ |= mask;
    if (missing) {
      const int sl = missing_sl(s, e, missing);
      if (sl >= 0) mask |= 1u << sl;
    }
    return mask;
  }

  // A source terminal that maps sl to VL 15 on its own port: a VL error, one
  // problem per (terminal, SL).
  void check_terminal_vl(int32_t term, uint8_t sl) {
    if (term < 0 || r_.terminal_vl(term, sl) != 15) return;
    ++res_->vl_errors;
    uint16_t &seen = term_vl15_[term];
    if (seen & (1u << sl)) return;
    seen |= 1u << sl;
    problem(strprintf("'%s' maps SL %u to VL 15 (drop) on its own port",
                      f_.terminal(term).name.c_str(), sl));
  }

  // Every source of switch s to dlid (destination switch d), one by one.
  // With an SL2VL table that ignores the in port, the paths of every
  // source on s with one SL are the same (channel, VL) chain: followed
  // once per SL (named after the first source with that SL).
  void check_sources(int32_t s, int32_t d, uint16_t dlid, Fate fate) {
    const bool shared = opt_.shortcuts && s != d && fate == Fate::kDelivered && in_port_free_[s];
    uint32_t shared_sls = 0;
    std::array<int32_t, kNumSls> shared_src;
    for (int32_t i = src_start_[s]; i < src_start_[s + 1]; ++i) {
      const Source &e = sources_[i];
      if (is_owner(s, e)) continue;
      res_->pairs_checked += e.nlids;
      if (fate != Fate::kDelivered) {
        count_failure(fate, e.nlids);
        report_failure(s);
        undelivered_deps(s, e, dlid);
        continue;
      }
      for (uint32_t mask = checked_sls(s, e, dlid); mask; mask &= mask - 1) {
        const auto sl = static_cast<uint8_t>(std::countr_zero(mask));
        if (shared && !(shared_sls & (1u << sl))) {
          shared_sls |= 1u << sl;
          shared_src[sl] = i;
        }
        check_terminal_vl(e.terminal, sl);
        if (s == d)
          last_hop(d, e.port, sl, e);
        else if (!shared)
          follow(s, e.port, sl, d, e);
      }
    }
    for (; shared_sls; shared_sls &= shared_sls - 1) {
      const auto sl = static_cast<uint8_t>(std::countr_zero(shared_sls));
      const Source &e = sources_[shared_src[sl]];
      follow(s, e.port, sl, d, e);
    }
  }

  // Routing::path_sl(s, dlid) for the current destination (block_pos_ of
  // the block load_block_sls() copied), else from the Routing.
  uint8_t path_sl(int32_t s, uint16_t dlid) const {
    if (block_sls_on_) return block_sls_[static_cast<size_t>(s) * kBlock + block_pos_];
    return r_.path_sl(s, dlid);
  }

  // Copies the per-source-switch path SLs of destinations dests_[begin..end)
  // switch by switch: one pass over each switch's row segment instead of a
  // strided access per (switch, destination); the LFT entries as well, for
  // the walk and reuse_tree() (with Options::fixed_sl too, whose walk
  // only needs the LFT entries). Time O(S * kBlock), memory
  // 2 * S * kBlock bytes per worker.
  void load_block_sls(size_t begin, size_t end) {
    block_sls_on_ = false;
    if (r_.sl_scope() != Routing::SlScope::kPerSourceSwitch) return;
    const int32_t S = f_.num_switches();
    block_sls_.resize(static_cast<size_t>(S) * kBlock);
    block_lft_.resize(static_cast<size_t>(S) * kBlock);
    for (int32_t s = 0; s < S; ++s)
      for (size_t i = begin; i < end; ++i) {
        block_sls_[static_cast<size_t>(s) * kBlock + (i - begin)] = r_.path_sl(s, dests_[i]);
        block_lft_[static_cast<size_t>(s) * kBlock + (i - begin)] = r_.out_port(s, dests_[i]);
      }
    block_sls_on_ = true;
    init_memo();
  }

  // The dependencies of the current destination in one pass over its tree,
  // farthest switches first, when every delivered source switch other than
  // the destination's takes destination()'s shortcut: per switch u and SL
  // the VLs its traffic leaves u on (its own sources' first hops, and the
  // traffic of the switches whose next hop is u mapped by u's SL2VL row of
  // that in port). A turn costs one SL2VL row and one turn slot for all its
  // SLs, instead of one follow() step per (channel, SL). Returns false,
  // without problem lines or counts (possibly with some of the dependencies
  // and VLs follow() adds as well), when a switch does not take the
  // shortcut or a hop is on VL 15 or on a VL its port does not operate:
  // destination() then follows the paths, naming them in its order.
  // Time O(S + turns used * (1 + SLs)), memory O(16 * S) per worker.
  bool tree_pass(uint16_t dlid) {
    if (!opt_.shortcuts || source_sls_) return false;
    const int32_t d = walk_.dest_switch();
    const std::span<const int32_t> order = walk_.delivered_by_distance();
    tree_last_.clear();
    for (const int32_t u : order) {
      out_sls_[u] = 0;
      std::fill_n(out_vls_.begin() + static_cast<size_t>(u) * kNumSls, kNumSls, 0);
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int32_t u = *it;
      if (u == d) continue;
      const int32_t c = walk_.next_channel(u);
      const Channel &ch = f_.channel(c);
      uint16_t *vls = &out_vls_[static_cast<size_t>(u) * kNumSls];
      if (src_start_[u] != src_start_[u + 1]) {
        const uint8_t base = fixed_only_ ? static_cast<uint8_t>(fixed_sl_) : path_sl(u, dlid);
        if (base >= kNumSls || (src_vl15_[u] >> base & 1) ||
            (mixed_ && src_vl15_[u] >> fixed_sl_ & 1))
          return false;
        uint32_t own = 1u << base;
        if (mixed_) own |= 1u << fixed_sl_;
        for (; own; own &= own - 1) {
          const auto sl = static_cast<uint8_t>(std::countr_zero(own));
          out_sls_[u] |= static_cast<uint16_t>(1u << sl);
          if (in_port_free_[u]) {
            vls[sl] |=
                static_cast<uint16_t>(1u << channel_vl_[static_cast<size_t>(c) * kNumSls + sl]);
            continue;
          }
          vls[sl] |= rep_vls_[(static_cast<size_t>(port_base_[u]) + ch.src_port) * kNumSls + sl];
        }
      }
      // u's hop: every VL it uses must be operated by its port.
      const int lim = port_limit(u, ch.src_port, ch.vls);
      uint16_t all = 0;
      for (uint32_t m = out_sls_[u]; m; m &= m - 1) all |= vls[std::countr_zero(m)];
      if ((all >> 15 & 1) || (lim < kVls && (all >> lim))) return false;
      vl_mask_ |= all;
      if (!out_sls_[u]) continue;  // no traffic of this destination leaves u
      const int32_t x = ch.dst;
      const uint8_t in = ch.dst_port;
      if (x == d) {
        if (dest_port_ == 0) continue;
        const int dlim = port_limit(d, dest_port_, f_.terminal(walk_.owner().id).vls);
        for (uint32_t m = out_sls_[u]; m; m &= m - 1) {
          const uint8_t v = r_.vl(d, in, dest_port_, static_cast<uint8_t>(std::countr_zero(m)));
          if (v == 15 || v >= dlim) return false;
        }
        tree_last_.emplace_back(in, out_sls_[u]);
        continue;
      }
      const int32_t c2 = walk_.next_channel(x);
      const uint8_t out2 = f_.channel(c2).src_port;
      std::array<uint16_t, kVls> &turn = turn_vls(c, x, c2);
      uint16_t *xvls = &out_vls_[static_cast<size_t>(x) * kNumSls];
      out_sls_[x] |= out_sls_[u];
      for (uint32_t m = out_sls_[u]; m; m &= m - 1) {
        const int sl = std::countr_zero(m);
        const uint8_t v2 = in_port_free_[x] ? channel_vl_[static_cast<size_t>(c2) * kNumSls + sl]
                                            : r_.vl(x, in, out2, static_cast<uint8_t>(sl));
        xvls[sl] |= static_cast<uint16_t>(1u << v2);
        for (uint32_t vm = vls[sl]; vm; vm &= vm - 1)
          turn[std::countr_zero(vm)] |= static_cast<uint16_t>(1u << v2);
      }
    }
    return true;
  }

  // The sources of switch s (not the destination switch) that start a new
  // (channel, VL) chain with one of the SLs sls[0..nsls) (ascending): per SL
  // the first source of s for each VL its in port maps that SL to on the
  // out port, in source order. The other sources' first hop is on the same
  // channel and VL as an earlier one's, where follow() stops at once, so
  // following only these, merged in source order (ascending SL within a
  // source), gives the same dependencies, counts and problem lines as
  // following every source.
  void follow_representatives(int32_t s, const uint8_t *sls, int nsls, int32_t d) {
    const uint8_t out = f_.channel(walk_.next_channel(s)).src_port;
    const int32_t *b[2], *e[2];
    for (int k = 0; k < nsls; ++k) {
      const size_t key = (static_cast<size_t>(port_base_[s]) + out) * kNumSls + sls[k];
      b[k] = rep_src_.data() + rep_start_[key];
      e[k] = rep_src_.data() + rep_start_[key + 1];
    }
    if (nsls == 1) {
      for (const int32_t *p = b[0]; p != e[0]; ++p)
        follow(s, sources_[*p].port, sls[0], d, sources_[*p]);
      return;
    }
    while (b[0] != e[0] || b[1] != e[1]) {
      const int k = b[1] == e[1] || (b[0] != e[0] && *b[0] <= *b[1]) ? 0 : 1;
      const Source &src = sources_[*b[k]++];
      follow(s, src.port, sls[k], d, src);
    }
  }

  // rep_start_/rep_src_ for follow_representatives(), for the switches with
  // sources whose SL2VL depends on the in port. Time O(sum of ports * 16 *
  // sources) over those switches, memory O(sum of ports * 16) plus the
  // representatives (at most 16 per switch, port and SL).
  void find_representatives() {
    const int32_t S = f_.num_switches();
    port_base_.assign(static_cast<size_t>(S) + 1, 0);
    for (int32_t s = 0; s < S; ++s) port_base_[s + 1] = port_base_[s] + f_.sw(s).num_ports + 1;
    rep_start_.assign(static_cast<size_t>(port_base_[S]) * kNumSls + 1, 0);
    rep_vls_.assign(static_cast<size_t>(port_base_[S]) * kNumSls, 0);
    rep_src_.clear();
    size_t key = 0;
    for (int32_t s = 0; s < S; ++s) {
      const bool need = !in_port_free_[s] && src_start_[s] != src_start_[s + 1];
      for (unsigned out = 0; out <= f_.sw(s).num_ports; ++out)
        for (int sl = 0; sl < kNumSls; ++sl) {
          if (need && out > 0) {
            uint32_t seen = 0;
            for (int32_t i = src_start_[s]; i < src_start_[s + 1]; ++i) {
              const uint8_t v =
                  r_.vl(s, sources_[i].port, static_cast<uint8_t>(out), static_cast<uint8_t>(sl));
              if (seen >> v & 1) continue;
              seen |= 1u << v;
              rep_src_.push_back(i);
            }
            rep_vls_[key] = static_cast<uint16_t>(seen);
          }
          rep_start_[++key] = static_cast<int32_t>(rep_src_.size());
        }
    }
  }

  // Switches whose SL2VL table gives the same VL for every in port (per out
  // port and SL): the common case, which lets destination() share work.
  void find_in_port_free_switches() {
    in_port_free_.assign(f_.num_switches(), 1);
    for (int32_t s = 0; s < f_.num_switches(); ++s) {
      const unsigned n = f_.sw(s).num_ports;
      for (unsigned out = 1; out <= n && in_port_free_[s]; ++out)
        for (unsigned in = 1; in <= n && in_port_free_[s]; ++in)
          for (int sl = 0; sl < kNumSls; ++sl)
            if (r_.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(out),
                      static_cast<uint8_t>(sl)) !=
                r_.vl(s, 0, static_cast<uint8_t>(out), static_cast<uint8_t>(sl))) {
              in_port_free_[s] = 0;
              break;
            }
    }
  }

  void count_failure(Fate fate, int64_t n) {
    switch (fate) {
      case Fate::kLoop:
        res_->loops += n;
        break;
      case Fate::kWrongSwitch:
      case Fate::kWrongTerminal:
        res_->wrong_delivery += n;
        break;
      default:
        res_->black_holes += n;
        break;
    }
  }

  void report_failure(int32_t s) {
    const int32_t x = walk_.culprit(s);
    if (!want_problem() || x < 0) return;
    if (std::find(reported_.begin(), reported_.end(), x) != reported_.end()) return;
    if (reported_.size() < reported_.capacity()) reported_.push_back(x);
    const std::string lid = lid_label(f_, walk_.dlid());
    const std::string sw = switch_label(f_, x);
    const uint8_t p = walk_.entry(x);
    switch (walk_.fate(s)) {
      case Fate::kDropped:
        if (p == kNoPort)
          problem(
              strprintf("%s is dropped at switch '%s' (LFT entry 0xFF)", lid.c_str(), sw.c_str()));
        else
          problem(strprintf("%s is dropped at switch '%s' (LFT entry port %u, the switch has %u)",
                            lid.c_str(), sw.c_str(), p, f_.sw(x).num_ports));
        break;
      case Fate::kDeadPort:
        problem(strprintf("%s is sent out of switch '%s' port %u, which has no link", lid.c_str(),
                          sw.c_str(), p));
        break;
      case Fate::kWrongTerminal: {
        const PortPeer peer = f_.peer(x, p);
        problem(strprintf("%s is delivered by switch '%s' port %u to '%s', which does not own it",
                          lid.c_str(), sw.c_str(), p, f_.terminal(peer.id).name.c_str()));
        break;
      }
      case Fate::kWrongSwitch:
        problem(strprintf("%s is sent to port 0 of switch '%s', which does not own it", lid.c_str(),
                          sw.c_str()));
        break;
      case Fate::kLoop: {
        std::string loop = "'" + sw + "'";
        int32_t u = x;
        for (int n = 0; n < 12; ++n) {
          const int32_t c = walk_.next_channel(u);
          if (c < 0) break;
          u = f_.channel(c).dst;
          loop += strprintf(" -> '%s'", switch_label(f_, u).c_str());
          if (u == x) break;
        }
        if (u != x) loop += " -> ...";
        problem(strprintf("%s is in a forwarding loop: %s", lid.c_str(), loop.c_str()));
        break;
      }
      default:
        break;
    }
  }

  // Data VLs switch u's port out operates: the link's, Options::vls and
  // Options::port_vls, whichever is smallest.
  int port_limit(int32_t u, uint8_t out, int link_vls) const {
    int lim = std::min(link_vls, opt_.vls);
    if (opt_.port_vls && static_cast<size_t>(u) < opt_.port_vls->size()) {
      const std::vector<uint8_t> &row = (*opt_.port_vls)[u];
      if (out < row.size() && row[out]) lim = std::min<int>(lim, row[out]);
    }
    return lim;
  }

  // A hop of the path (e's LID, current destination, sl) from switch u port
  // in to port out on VL vl, which is 15 or >= the port's vls.
  void vl_problem(int32_t u, uint8_t in, uint8_t out, uint8_t sl, uint8_t vl, int vls,
                  const Source &e) {
    if (vl == 15 && opt_.stale_sls) {
      ++res_->stale_drops;
      return;
    }
    ++res_->vl_errors;
    if (!want_problem()) return;
    const std::string path = strprintf("path %s -> %s SL %u", source_label(e, e.lid).c_str(),
                                       lid_label(f_, walk_.dlid()).c_str(), sl);
    if (vl == 15)
      problem(strprintf("%s: switch '%s' maps it from port %u to port %u onto VL 15 (drop)",
                        path.c_str(), switch_label(f_, u).c_str(), in, out));
    else
      problem(
          strprintf("%s: hop from switch '%s' port %u (in port %u) on VL %u, but the port "
                    "operates %d data VL%s (VL 0..%d)",
                    path.c_str(), switch_label(f_, u).c_str(), out, in, vl, vls,
                    vls == 1 ? "" : "s", vls - 1));
  }

  // The hop from the destination switch to the destination port.
  void last_hop(int32_t d, uint8_t in, uint8_t sl, const Source &e) {
    if (dest_port_ == 0) return;
    const uint8_t v = r_.vl(d, in, dest_port_, sl);
    const int lim = port_limit(d, dest_port_, f_.terminal(walk_.owner().id).vls);
    if (v == 15 || v >= lim) vl_problem(d, in, dest_port_, sl, v, lim, e);
  }

  // Follows the path from source switch s (entered on port in) with SL sl,
  // adding the dependencies between its consecutive switch-to-switch hops.
  // Stops where this destination's traffic with this SL was already followed
  // on the same channel and VL: the rest of the path is then known.
  void follow(int32_t s, uint8_t in, uint8_t sl, int32_t d, const Source &e) {
    if (slot_of_sl_[sl] < 0) slot_of_sl_[sl] = nslots_++;
    const size_t base = static_cast<size_t>(slot_of_sl_[sl]) * f_.num_channels();
    int32_t c = walk_.next_channel(s);
    const Channel *ch = &f_.channel(c);
    uint8_t v = hop_vl(s, in, c, ch->src_port, sl);
    int32_t u = s;
    for (;;) {
      uint16_t &m = vlmask_[base + c];
      if (m & (1u << v)) return;
      if (!m) touched_.push_back(base + c);
      m |= static_cast<uint16_t>(1u << v);
      if (v != 15) vl_mask_ |= 1u << v;  // VL 15 drops
      if (const int lim = port_limit(u, ch->src_port, ch->vls); v == 15 || v >= lim) {
        vl_problem(u, in, ch->src_port, sl, v, lim, e);
        if (v == 15) return;  // dropped: no further hops
      }
      u = ch->dst;
      in = ch->dst_port;
      if (u == d) {
        last_hop(d, in, sl, e);
        return;
      }
      const int32_t c2 = walk_.next_channel(u);
      const Channel *ch2 = &f_.channel(c2);
      const uint8_t v2 = hop_vl(u, in, c2, ch2->src_port, sl);
      add_edge(c, v, u, c2, v2);
      c = c2;
      ch = ch2;
      v = v2;
    }
  }

  // A path that is not delivered (forwarding loop, black hole, wrong port)
  // still holds buffers on the hops it takes until it is dropped or comes
  // round again: those dependencies join the graph (a forwarding loop on
  // one VL is then a credit loop too). Counts and problem lines are the
  // failure's (count_failure); its SLs as for a delivered pair, pairs
  // without a known SL left out.
  void undelivered_deps(int32_t s, const Source &e, uint16_t dlid) {
    int own = fixed_only_ ? fixed_sl_ : path_sl(s, dlid);
    if (!fixed_only_ && source_sls_) {
      const int g = source_sls_->get(e.lid, dlid);
      if (g >= 0) own = g;
    }
    if (own >= 0 && own < kNumSls) follow_undelivered(s, e.port, static_cast<uint8_t>(own));
    if (mixed_ && own != fixed_sl_) follow_undelivered(s, e.port, static_cast<uint8_t>(fixed_sl_));
  }

  void follow_undelivered(int32_t s, uint8_t in, uint8_t sl) {
    if (slot_of_sl_[sl] < 0) slot_of_sl_[sl] = nslots_++;
    const size_t base = static_cast<size_t>(slot_of_sl_[sl]) * f_.num_channels();
    int32_t c = walk_.next_channel(s);
    if (c < 0) return;  // s's own entry drops it
    uint8_t v = hop_vl(s, in, c, f_.channel(c).src_port, sl);
    for (;;) {
      uint16_t &m = vlmask_[base + c];
      if (m & (1u << v)) return;  // followed already (or round a loop)
      if (!m) touched_.push_back(base + c);
      m |= static_cast<uint16_t>(1u << v);
      if (v == 15) return;
      const int32_t u = f_.channel(c).dst;
      const int32_t c2 = walk_.next_channel(u);
      if (c2 < 0) return;  // dropped at u, or delivered to the wrong port
      const uint8_t v2 = hop_vl(u, f_.channel(c).dst_port, c2, f_.channel(c2).src_port, sl);
      add_edge(c, v, u, c2, v2);
      c = c2;
      v = v2;
    }
  }

  // Routing::vl(u, in, out, sl) for the hop out of u on channel c (port
  // out), from the per-channel copy where u's SL2VL ignores the in port
  // (one small table instead of u's (in, out) rows).
  uint8_t hop_vl(int32_t u, uint8_t in, int32_t c, uint8_t out, uint8_t sl) const {
    if (in_port_free_[u]) return channel_vl_[static_cast<size_t>(c) * kNumSls + sl];
    return r_.vl(u, in, out, sl);
  }

  void add_edge(int32_t c, uint8_t v, int32_t u, int32_t c2, uint8_t v2) {
    turn_vls(c, u, c2)[v] |= static_cast<uint16_t>(1u << v2);
  }

  // The VL dependencies of the turn from channel c on to c2 out of switch u
  // (bit v2 of [v]: (c, v) -> (c2, v2)), allocated empty on first use.
  std::array<uint16_t, kVls> &turn_vls(int32_t c, int32_t u, int32_t c2) {
    return turn_at(turn_base_[c] + (c2 - f_.out_begin(u)));
  }
  // The same by turn index t (turn_base_[c] + out offset).
  std::array<uint16_t, kVls> &turn_at(int64_t t) {
    int32_t slot = turn_slot_[t];
    if (slot < 0) {
      slot = turn_slot_[t] = static_cast<int32_t>(turns_.size());
      turns_.emplace_back();
      turns_.back().fill(0);
    }
    return turns_[slot];
  }

  // Iterative DFS over the (channel, VL) graph; keeps the first cycle found.
  // A cycle of the dependency graph into cyc (empty: none). project >= 0:
  // of its projection instead, every channel on VL project (the graph all
  // traffic on one SL makes when that SL has one VL everywhere: the same
  // turns, one VL); the counts of Result are left alone then.
  // Calls fn(from, to) for every edge of the dependency graph (node ids
  // channel * 16 + VL); project >= 0: every channel on VL project instead.
  template <typename Fn>
  void for_each_edge(int project, Fn &&fn) const {
    const int32_t C = f_.num_channels();
    for (int32_t c = 0; c < C; ++c) {
      const int32_t u = f_.channel(c).dst;
      for (int64_t t = turn_base_[c]; t < turn_base_[c + 1]; ++t) {
        if (turn_slot_[t] < 0) continue;
        const int32_t c2 = f_.out_begin(u) + static_cast<int32_t>(t - turn_base_[c]);
        const auto &vm = turns_[turn_slot_[t]];
        if (project >= 0) {
          fn(static_cast<size_t>(c) * kVls + project, static_cast<int64_t>(c2) * kVls + project);
          continue;
        }
        for (int v = 0; v < kVls; ++v)
          for (uint32_t m = vm[v]; m; m &= m - 1)
            fn(static_cast<size_t>(c) * kVls + v,
               static_cast<int64_t>(c2) * kVls + std::countr_zero(m));
      }
    }
  }

  // Options::extra_deps join the graph as the unicast turns do.
  void add_extra_dependencies() {
    if (!opt_.extra_deps) return;
    for (const ExtraDependency &e : *opt_.extra_deps) {
      const Channel &a = f_.channel(e.from_channel);
      if (f_.channel(e.to_channel).src != a.dst)
        throw std::invalid_argument("check: an extra dependency joins channels of two switches");
      add_edge(e.from_channel, e.from_vl, a.dst, e.to_channel, e.to_vl);
    }
  }

  // The cycle's dependencies that Options::extra_deps make: their labels
  // go first among the dependency's examples.
  void label_extra_dependencies() {
    if (!opt_.extra_deps) return;
    const size_t k = cycle_nodes_.size();
    if (res_->cycle_deps.size() != k) res_->cycle_deps.resize(k);
    for (size_t i = 0; i < k; ++i) {
      const int64_t a = cycle_nodes_[i], b = cycle_nodes_[(i + 1) % k];
      CycleDependency &dep = res_->cycle_deps[i];
      if (dep.from.empty()) {
        dep.from = res_->cycle[i];
        dep.to = res_->cycle[(i + 1) % k];
      }
      for (const ExtraDependency &e : *opt_.extra_deps) {
        if (dependency_node(e.from_channel, e.from_vl) != a ||
            dependency_node(e.to_channel, e.to_vl) != b)
          continue;
        res_->cycle_uses_extra = true;
        const std::string what = opt_.extra_labels && e.label >= 0 &&
                                         static_cast<size_t>(e.label) < opt_.extra_labels->size()
                                     ? (*opt_.extra_labels)[e.label]
                                     : std::string("extra dependency");
        if (std::find(dep.examples.begin(), dep.examples.end(), what) == dep.examples.end())
          dep.examples.insert(dep.examples.begin(), what);
      }
    }
  }

  void search_cycle(int project, std::vector<int64_t> &cyc) {
    const int32_t C = f_.num_channels();
    const size_t N = static_cast<size_t>(C) * kVls;
    std::vector<int64_t> start(N + 1, 0);
    for_each_edge(project, [&](size_t from, int64_t) { ++start[from + 1]; });
    for (size_t i = 0; i < N; ++i) start[i + 1] += start[i];
    std::vector<int64_t> adj(start[N]);
    {
      std::vector<int64_t> fill(start.begin(), start.end() - 1);
      for_each_edge(project, [&](size_t from, int64_t to) { adj[fill[from]++] = to; });
    }
    std::vector<uint8_t> color(N, 0);  // 0 white, 1 on stack, 2 done
    if (project < 0) {
      res_->dependency_edges = static_cast<int64_t>(adj.size());
      for (size_t x = 0; x < N; ++x) {
        if (start[x] != start[x + 1]) color[x] = 3;
        for (int64_t e = start[x]; e < start[x + 1]; ++e) color[adj[e]] = 3;
      }
      for (size_t x = 0; x < N; ++x) {
        res_->dependency_nodes += color[x] == 3;
        color[x] = 0;
      }
    }
    std::vector<int64_t> it(N, 0);
    std::vector<int64_t> stack;
    cyc.clear();
    for (size_t root = 0; root < N && cyc.empty(); ++root) {
      if (color[root] || start[root] == start[root + 1]) continue;
      stack.push_back(static_cast<int64_t>(root));
      color[root] = 1;
      it[root] = start[root];
      while (!stack.empty()) {
        const int64_t x = stack.back();
        if (it[x] < start[x + 1]) {
          const int64_t y = adj[it[x]++];
          if (color[y] == 1) {
            auto pos = std::find(stack.begin(), stack.end(), y);
            cyc.assign(pos, stack.end());
            break;
          }
          if (color[y] == 0) {
            color[y] = 1;
            it[y] = start[y];
            stack.push_back(y);
          }
        } else {
          color[x] = 2;
          stack.pop_back();
        }
      }
    }
    // Start the cycle at its smallest vertex, so that reports are stable.
    std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
  }

  std::string cycle_line(const std::vector<int64_t> &cyc, std::vector<std::string> *labels) const {
    std::vector<std::string> own;
    std::vector<std::string> &hops = labels ? *labels : own;
    for (const int64_t n : cyc) hops.push_back(node_label(n));
    std::string line = strprintf("credit loop over %zu (channel, VL) pairs: ", cyc.size());
    for (const std::string &h : hops) line += h + " -> ";
    return line + hops.front();
  }

  void find_cycle() {
    search_cycle(-1, cycle_nodes_);
    if (cycle_nodes_.empty()) return;
    res_->credit_loop = true;
    problem(cycle_line(cycle_nodes_, &res_->cycle));
  }

  // Options::project_sl: when SL p maps to one VL on every hop and at every
  // CA port, all traffic on SL p follows the turns just collected, each
  // channel on that VL: its verdict from the projection, without a walk.
  void project_sl() {
    const int p = opt_.project_sl;
    if (p < 0 || p >= kNumSls) return;
    const auto sl = static_cast<uint8_t>(p);
    const int v0 = f_.num_switches() > 0 ? r_.vl(0, 0, 0, sl) : 0;
    for (int32_t s = 0; s < f_.num_switches(); ++s) {
      const unsigned ports = f_.sw(s).num_ports;
      for (unsigned in = 0; in <= ports; ++in)
        for (unsigned o = 0; o <= ports; ++o)
          if (r_.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), sl) != v0) return;
    }
    for (int32_t t = 0; t < f_.num_terminals(); ++t)
      if (r_.terminal_vl(t, sl) != v0) return;
    // A VL the ports do not operate is the full check's matter (VL errors).
    if (v0 >= std::min(opt_.vls, kVls) || v0 == 15 || opt_.port_vls) return;
    for (int32_t c = 0; c < f_.num_channels(); ++c)
      if (v0 >= f_.channel(c).vls) return;
    for (int32_t t = 0; t < f_.num_terminals(); ++t)
      if (v0 >= f_.terminal(t).vls) return;
    std::vector<int64_t> cyc;
    search_cycle(v0, cyc);
    res_->projected_sl_ok = cyc.empty() ? 1 : 0;
    if (!cyc.empty()) res_->projected_sl_problem = cycle_line(cyc, nullptr);
  }

  std::string node_label(int64_t n) const {
    const Channel &ch = f_.channel(static_cast<int32_t>(n / kVls));
    return strprintf("%s port %u VL %d", switch_label(f_, ch.src).c_str(), ch.src_port,
                     static_cast<int>(n % kVls));
  }

  std::string source_label(const Source &e, uint16_t slid) const {
    const std::string name =
        e.terminal >= 0 ? f_.terminal(e.terminal).name : switch_label(f_, f_.lid_switch(e.lid));
    return strprintf("'%s' (LID %u)", name.c_str(), slid);
  }

  // Names the (source, destination, SL) paths behind every dependency of the cycle.
  void explain_cycle() {
    const size_t k = cycle_nodes_.size();
    index_.assign(static_cast<size_t>(f_.num_channels()) * kVls, -1);
    for (size_t i = 0; i < k; ++i) index_[cycle_nodes_[i]] = static_cast<int32_t>(i);
    res_->cycle_deps.resize(k);
    for (size_t i = 0; i < k; ++i) {
      res_->cycle_deps[i].from = res_->cycle[i];
      res_->cycle_deps[i].to = res_->cycle[(i + 1) % k];
    }
    cycle_channel_.assign(f_.num_channels(), 0);
    for (size_t i = 0; i < k; ++i) cycle_channel_[cycle_nodes_[i] / kVls] = 1;
    through_cycle_.assign(f_.num_switches(), 0);
    // In blocks as destinations(): per block the paths and first examples of
    // each dependency, merged in block order.
    const size_t nblocks = (dests_.size() + kBlock - 1) / kBlock;
    std::vector<std::vector<CycleDependency>> block_deps(nblocks);
    std::vector<Checker> workers;
    workers.reserve(nt_);
    for (int i = 0; i < nt_; ++i) workers.push_back(*this);
    run_blocks(
        nblocks, workers,
        [&](Checker &w, size_t b) {
          block_deps[b].resize(k);
          w.deps_ = &block_deps[b];
          const size_t end = std::min(dests_.size(), (b + 1) * kBlock);
          for (size_t i = b * kBlock; i < end; ++i) w.explain_destination(dests_[i]);
          return end - b * kBlock;
        },
        false);
    for (const std::vector<CycleDependency> &deps : block_deps)
      for (size_t i = 0; i < deps.size(); ++i) {
        CycleDependency &dep = res_->cycle_deps[i];
        dep.paths += deps[i].paths;
        for (const std::string &x : deps[i].examples)
          if (static_cast<int>(dep.examples.size()) < opt_.max_examples) dep.examples.push_back(x);
      }
  }

  // The paths to dlid behind the dependencies of the cycle, into *deps_.
  void explain_destination(uint16_t dlid) {
    const size_t k = cycle_nodes_.size();
    const std::vector<int32_t> &index = index_;
    const std::vector<uint8_t> &cycle_channel = cycle_channel_;
    {
      walk_.run(dlid);
      bool relevant = false;
      for (size_t i = 0; i < k && !relevant; ++i) {
        const int32_t c = static_cast<int32_t>(cycle_nodes_[i] / kVls);
        const int32_t c2 = static_cast<int32_t>(cycle_nodes_[(i + 1) % k] / kVls);
        const int32_t u = f_.channel(c).dst;
        relevant = walk_.fate(u) == Fate::kDelivered && walk_.next_channel(u) == c2;
      }
      if (!relevant) return;
      const LidOwner owner = walk_.owner();
      dest_port_ = owner.kind == LidOwner::kTerminal ? f_.terminal(owner.id).sw_port : 0;
      tail_free_dlid_ = 0;
      // Only switches whose path crosses a channel of the cycle can create
      // one of its dependencies (nearest switches first, so that the next
      // hop is already known).
      for (const int32_t s : walk_.delivered_by_distance()) {
        const int32_t c = walk_.next_channel(s);
        through_cycle_[s] = c >= 0 && (cycle_channel[c] || through_cycle_[f_.channel(c).dst]);
      }
      const int32_t d = walk_.dest_switch();
      for (int32_t s = 0; s < f_.num_switches(); ++s) {
        if (s == d || walk_.fate(s) != Fate::kDelivered || !through_cycle_[s]) continue;
        for (int32_t j = src_start_[s]; j < src_start_[s + 1]; ++j) {
          const Source &e = sources_[j];
          if (is_owner(s, e)) continue;
          // Pairs without a known SL: as destination() followed them.
          auto known = [&](int sl) {
            if (sl != kNoPathSl) return sl;
            if (pair_sl_free(s, e)) return 0;
            return opt_.assume_sl;
          };
          if (fixed_only_) {
            trace(s, e, e.lid, e.nlids, fixed_sl_, dlid, index);
          } else if (!source_sls_) {
            const int own = known(r_.path_sl(s, dlid));
            trace(s, e, e.lid, e.nlids, own, dlid, index);
            if (mixed_ && own != fixed_sl_) trace(s, e, e.lid, e.nlids, fixed_sl_, dlid, index);
          } else {
            for (uint32_t l = e.lid; l < e.lid + e.nlids; ++l) {
              const int g = source_sls_->get(static_cast<uint16_t>(l), dlid);
              const int own = known(g >= 0 ? g : r_.path_sl(s, dlid));
              trace(s, e, static_cast<uint16_t>(l), 1, own, dlid, index);
              if (mixed_ && own != fixed_sl_)
                trace(s, e, static_cast<uint16_t>(l), 1, fixed_sl_, dlid, index);
            }
          }
        }
      }
    }
  }

  void trace(int32_t s, const Source &e, uint16_t slid, int64_t n, int sl, uint16_t dlid,
             const std::vector<int32_t> &index) {
    if (sl < 0 || sl >= kNumSls) return;
    const size_t k = cycle_nodes_.size();
    const int32_t d = walk_.dest_switch();
    int32_t c = walk_.next_channel(s);
    uint8_t v = r_.vl(s, e.port, f_.channel(c).src_port, static_cast<uint8_t>(sl));
    for (size_t guard = 0; guard <= static_cast<size_t>(f_.num_switches()); ++guard) {
      const Channel &ch = f_.channel(c);
      if (v == 15 || ch.dst == d) return;
      const int32_t c2 = walk_.next_channel(ch.dst);
      const uint8_t v2 =
          r_.vl(ch.dst, ch.dst_port, f_.channel(c2).src_port, static_cast<uint8_t>(sl));
      const int32_t i = index[static_cast<size_t>(c) * kVls + v];
      if (i >= 0 && cycle_nodes_[(i + 1) % k] == static_cast<int64_t>(c2) * kVls + v2) {
        CycleDependency &dep = (*deps_)[i];
        dep.paths += n;
        if (static_cast<int>(dep.examples.size()) < opt_.max_examples)
          dep.examples.push_back(strprintf("%s -> %s SL %d", source_label(e, slid).c_str(),
                                           lid_label(f_, dlid).c_str(), sl));
      }
      c = c2;
      v = v2;
    }
  }

  const Fabric &f_;
  const Routing &r_;
  const Options &opt_;
  int fixed_sl_;                    // Options::fixed_sl
  bool fixed_only_, mixed_;         // every pair on SL fixed_sl_ only / as well
  const SourceLidSls *source_sls_;  // Options::source_sls, unless fixed_only_
  Result *res_;
  std::vector<std::string> *probs_;  // where problem() adds lines
  DestinationWalk walk_;
  std::vector<Source> sources_;
  std::vector<int32_t> src_start_;
  std::vector<int64_t> turn_base_;
  std::vector<int32_t> turn_slot_;
  std::vector<std::array<uint16_t, kVls>> turns_;  // [VL in] -> bit mask of VLs out
  std::vector<uint16_t> vlmask_;  // [SL slot * C + channel] -> VLs followed, this destination
  std::vector<size_t> touched_;
  std::array<int, kNumSls> slot_of_sl_{};
  int nslots_ = 0;
  uint8_t dest_port_ = 0;
  std::vector<int32_t> reported_;
  std::vector<uint16_t> term_vl15_;
  std::vector<uint8_t> in_port_free_;
  std::vector<uint16_t> dests_;                   // the destinations checked, LID order
  int nt_ = 1;                                    // workers
  std::vector<CycleDependency> *deps_ = nullptr;  // explain_destination() adds here
  std::vector<int32_t> index_;          // [channel * 16 + VL] -> its place in the cycle, or -1
  std::vector<uint8_t> cycle_channel_;  // [channel] is on the cycle
  std::vector<uint8_t> channel_vl_;     // [channel * 16 + SL] -> VL, in-port-free switches
  std::vector<int64_t> src_nlids_;      // [switch] LIDs of its sources
  int64_t all_nlids_ = 0;               // ... of all switches
  // reuse_tree(): per destination switch d, the reference's LFT entries
  // and path SLs ([d * 2S + s], [d * 2S + S + s]), its last hops into d
  // ((in port, SLs)) and whether there is one; empty: not used.
  std::vector<uint8_t> memo_cols_;
  std::vector<std::vector<std::pair<uint8_t, uint16_t>>> memo_last_;
  std::vector<uint8_t> memo_valid_;
  std::vector<std::pair<uint8_t, uint16_t>> tree_last_;  // tree_pass(): last hops into d
  std::vector<uint16_t> src_vl15_;      // [switch] SLs a CA/router source of it maps to VL 15
  std::vector<uint8_t> block_sls_;      // load_block_sls(): [switch * kBlock + position]
  std::vector<uint8_t> block_lft_;      // ... the LFT entries, the same way
  size_t block_pos_ = 0;                // the current destination's position in its block
  bool block_sls_on_ = false;           // path_sl() reads block_sls_
  std::vector<uint16_t> out_sls_;       // tree_pass(): [switch] SLs leaving it
  std::vector<uint16_t> out_vls_;       // tree_pass(): [switch * 16 + SL] -> VLs leaving it
  std::vector<int32_t> port_base_;      // [switch] first of its (num_ports + 1) port slots
  std::vector<int32_t> rep_start_;      // [(port slot) * 16 + SL] -> range in rep_src_
  std::vector<uint16_t> rep_vls_;       // [(port slot) * 16 + SL] -> VLs of those sources
  std::vector<int32_t> rep_src_;        // source indexes, see follow_representatives()
  std::vector<uint8_t> tail_free_;      // see compute_tail_free()
  uint16_t tail_free_dlid_ = 0;         // the destination tail_free_ is for (0: none)
  std::vector<uint8_t> through_cycle_;  // explain_cycle(): path of the switch uses a cycle channel
  uint32_t vl_mask_ = 0, sl_mask_ = 0;
  std::vector<int64_t> cycle_nodes_;
};

}  // namespace

bool parse_pairs(const std::string &which, Options &o) {
  if (which != "all" && which != "ca-sources" && which != "ca") return false;
  o.switch_sources = which == "all";
  o.switch_destinations = which != "ca";
  return true;
}

Result verify(const Fabric &f, const Routing &r) {
  return verify(f, r, Options{});
}

Result verify(const Fabric &f, const Routing &r, const Options &opt) {
  const auto t0 = Clock::now();
  Result res;
  if (opt.fixed_sl >= kNumSls) {
    res.first_problem = strprintf("fixed SL %d is not an SL (0..15)", opt.fixed_sl);
    res.problems.push_back(res.first_problem);
    res.seconds = seconds_since(t0);
    return res;
  }
  if (!f.finalized() || r.num_switches() != f.num_switches() || r.max_lid() < f.max_lid()) {
    res.first_problem = strprintf(
        "routing tables do not match the fabric (%d switches and max LID %u in the tables, %d "
        "and %u in the fabric)",
        r.num_switches(), r.max_lid(), f.num_switches(), f.max_lid());
    res.problems.push_back(res.first_problem);
    res.seconds = seconds_since(t0);
    return res;
  }
  Checker(f, r, opt, res).run();
  res.seconds = seconds_since(t0);
  return res;
}

}  // namespace keiro::check
