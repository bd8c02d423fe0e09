// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/mcast/sl_column.h"

#include <algorithm>
#include <vector>

#include "core/check/paths.h"
#include "core/check/verify.h"

namespace keiro::mcast {

namespace {

// Marks, per switch, the (in, out) turns that unicast paths take (any SL:
// traffic on a fixed SL follows the same LFT paths), and the VLs every path
// uses on switch-to-switch hops.
class Usage {
 public:
  // every_path: the turns of every path; else of the paths with SL sl.
  Usage(const Fabric &f, const Routing &r, uint8_t sl, bool every_path)
      : f_(f), r_(r), sl_(sl), every_(every_path), walk_(f, r), seen_(f.num_channels(), 0) {
    int64_t outs = 0;
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      base_.push_back(static_cast<int64_t>(used_.size()));
      out_base_.push_back(outs);
      const size_t n = f.sw(s).num_ports + 1u;
      used_.resize(used_.size() + n * n, 0);
      outs += static_cast<int64_t>(n);
    }
    vls_noted_.assign(static_cast<size_t>(outs), 0);
    sources_marked_.assign(static_cast<size_t>(outs), 0);
  }

  void run() {
    uint32_t stamp = 0;
    for (uint16_t d : f_.lids()) {
      walk_.run(d);
      ++stamp;
      for (int32_t s = 0; s < f_.num_switches(); ++s) {
        if (walk_.fate(s) != check::Fate::kDelivered) continue;
        const uint8_t psl = r_.path_sl(s, d);
        const int32_t c = walk_.next_channel(s);
        const uint8_t out = r_.out_port(s, d);
        note_vls(s, out, psl, c);
        sl_paths_ += psl == sl_;
        if (!every_ && psl != sl_) continue;
        // The sources on s: its CA ports and port 0; their turns depend on
        // out only, so once per (s, out). (The turn of d's own CA port is a
        // u-turn, which isolate_sl never reads.)
        if (out <= f_.sw(s).num_ports && !sources_marked_[out_base_[s] + out]) {
          sources_marked_[out_base_[s] + out] = 1;
          mark(s, 0, out);
          for (int32_t t : f_.terminals_of(s)) mark(s, f_.terminal(t).sw_port, out);
        }
        // Transit: every switch after s on the path, once per destination.
        for (int32_t x = c >= 0 ? f_.channel(c).dst : -1, cin = c; cin >= 0 && seen_[cin] != stamp;
             cin = walk_.next_channel(x), x = cin >= 0 ? f_.channel(cin).dst : -1) {
          seen_[cin] = stamp;
          mark(x, f_.channel(cin).dst_port, r_.out_port(x, d));
        }
      }
    }
  }

  bool used(int32_t s, unsigned in, unsigned out) const {
    const size_t n = f_.sw(s).num_ports + 1u;
    return used_[base_[s] + in * n + out] != 0;
  }
  uint32_t vl_mask() const { return vl_mask_; }
  int64_t sl_paths() const { return sl_paths_; }  // (source switch, LID) paths with SL sl

 private:
  void mark(int32_t s, unsigned in, unsigned out) {
    if (out > f_.sw(s).num_ports) return;
    const size_t n = f_.sw(s).num_ports + 1u;
    used_[base_[s] + in * n + out] = 1;
  }
  // The VLs this destination's paths from s take on the first switch hop
  // (later hops are first hops of the switches after). Over every in port
  // of s, since the SL2VL may depend on it.
  // Depends on (s, out, psl) only: once each.
  void note_vls(int32_t s, uint8_t out, uint8_t psl, int32_t c) {
    if (c < 0 || psl >= kNumSls || out > f_.sw(s).num_ports) return;
    uint16_t &noted = vls_noted_[out_base_[s] + out];
    if (noted >> psl & 1u) return;
    noted = static_cast<uint16_t>(noted | 1u << psl);
    vl_mask_ |= 1u << r_.vl(s, 0, out, psl);
    for (int32_t t : f_.terminals_of(s))
      vl_mask_ |= 1u << r_.vl(s, f_.terminal(t).sw_port, out, psl);
    for (int32_t ci : f_.in_channels(s))
      vl_mask_ |= 1u << r_.vl(s, f_.channel(ci).dst_port, out, psl);
  }

  const Fabric &f_;
  const Routing &r_;
  uint8_t sl_;
  bool every_;
  int64_t sl_paths_ = 0;
  check::DestinationWalk walk_;
  std::vector<uint32_t> seen_;
  std::vector<int64_t> base_;
  std::vector<uint8_t> used_;
  std::vector<int64_t> out_base_;        // per switch: its first (s, out) index
  std::vector<uint16_t> vls_noted_;      // per (s, out): the path SLs note_vls has seen
  std::vector<uint8_t> sources_marked_;  // per (s, out): the sources' turns are marked
  uint32_t vl_mask_ = 0;
};

}  // namespace

// Whether SL sl maps to one VL on every switch entry (nothing to isolate).
bool uniform(const Fabric &f, const Routing &r, uint8_t sl) {
  if (f.num_switches() == 0) return true;
  const uint8_t v0 = r.vl(0, 0, 0, sl);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (unsigned in = 0; in <= f.sw(s).num_ports; ++in)
      for (unsigned o = 0; o <= f.sw(s).num_ports; ++o)
        if (r.vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), sl) != v0) return false;
  return true;
}

SlColumn isolate_sl(const Fabric &f, Routing &r, uint8_t sl, int max_vls, bool protect_all_traffic,
                    int threads) {
  SlColumn out;
  Usage own(f, r, sl, false);
  own.run();
  if (own.sl_paths() > 0 && uniform(f, r, sl)) {
    out.uniform = true;
    return out;
  }
  int limit = std::min(max_vls, kMaxDataVls);
  for (const Channel &c : f.channels()) limit = std::min<int>(limit, c.vls);
  for (int v = 0; v < limit; ++v)
    if (!(own.vl_mask() >> v & 1)) {
      out.vl = v;
      break;
    }
  if (out.vl < 0) return out;
  // All traffic on the SL (MPI that never asks the SA) takes every LFT path:
  // when that is deadlock free now, it must stay so -- only turns no path
  // of any SL takes may change.
  const Usage *u = &own;
  Usage every(f, r, sl, true);
  if (protect_all_traffic) {
    check::Options co;
    co.fixed_sl = sl;
    co.threads = threads;
    co.max_problems = 1;
    co.name_cycle_paths = false;
    out.all_traffic_safe = check::verify(f, r, co).ok;
    if (out.all_traffic_safe) {
      every.run();
      u = &every;
    }
  }
  const auto vl = static_cast<uint8_t>(out.vl);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const unsigned ports = f.sw(s).num_ports;
    for (unsigned in = 0; in <= ports; ++in)
      for (unsigned o = 1; o <= ports; ++o) {
        if (in == o) continue;
        if (u->used(s, in, o)) {
          ++out.used_turns;
          continue;
        }
        r.set_vl(s, static_cast<uint8_t>(in), static_cast<uint8_t>(o), sl, vl);
        ++out.free_turns;
      }
  }
  return out;
}

}  // namespace keiro::mcast
