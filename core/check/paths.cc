// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/check/paths.h"

#include <algorithm>

#include "core/enum_names.h"
#include "core/parallel.h"

namespace keiro::check {

namespace {
constexpr uint8_t kInProgress = 0xFE;
}  // namespace

const char *fate_name(Fate f) {
  static constexpr EnumName<Fate> kNames[] = {
      {Fate::kUnknown, "unknown"},
      {Fate::kDelivered, "delivered"},
      {Fate::kDropped, "dropped"},
      {Fate::kDeadPort, "sent to an unconnected port"},
      {Fate::kWrongTerminal, "delivered to the wrong port"},
      {Fate::kWrongSwitch, "consumed by the wrong switch"},
      {Fate::kLoop, "forwarding loop"},
  };
  return enum_name(kNames, f);
}

DestinationWalk::DestinationWalk(const Fabric &f, const Routing &r) : f_(f), r_(r) {
  const size_t S = static_cast<size_t>(f.num_switches());
  fate_.assign(S, 0);
  hops_.assign(S, 0);
  next_.assign(S, -1);
  culprit_.assign(S, -1);
  stack_.reserve(S);
  order_.reserve(S);
  bucket_.reserve(S + 2);
}

uint8_t DestinationWalk::entry(int32_t s) const {
  return r_.out_port(s, dlid_);
}

void DestinationWalk::retarget(uint16_t dlid) {
  dlid_ = dlid;
  owner_ = f_.lid_owner(dlid);
}

void DestinationWalk::run(uint16_t dlid, const uint8_t *ports, size_t stride) {
  dlid_ = dlid;
  owner_ = f_.lid_owner(dlid);
  dest_sw_ = f_.lid_switch(dlid);
  const int32_t S = f_.num_switches();
  const bool to_terminal = owner_.kind == LidOwner::kTerminal;
  const uint8_t dest_port = to_terminal ? f_.terminal(owner_.id).sw_port : 0;
  std::fill(fate_.begin(), fate_.end(), 0);
  std::fill(next_.begin(), next_.end(), -1);

  for (int32_t s = 0; s < S; ++s) {
    if (fate_[s] != 0) continue;
    stack_.clear();
    int32_t u = s;
    Fate tail = Fate::kUnknown;
    int32_t tail_culprit = -1;
    uint16_t tail_hops = 0;
    for (;;) {
      if (fate_[u] == kInProgress) {  // back on a switch of this walk: a loop
        tail = Fate::kLoop;
        tail_culprit = u;
        break;
      }
      if (fate_[u] != 0) {  // resolved by an earlier walk
        tail = static_cast<Fate>(fate_[u]);
        tail_culprit = culprit_[u];
        tail_hops = hops_[u];
        break;
      }
      const uint8_t p = ports ? ports[static_cast<size_t>(u) * stride] : r_.out_port(u, dlid);
      Fate here = Fate::kUnknown;
      if (u == dest_sw_ && p == dest_port) {
        here = Fate::kDelivered;
        hops_[u] = to_terminal ? 1 : 0;
      } else if (p == 0) {
        here = Fate::kWrongSwitch;
      } else if (p > f_.sw(u).num_ports) {
        here = Fate::kDropped;
      } else {
        const PortPeer peer = f_.peer(u, p);
        if (peer.kind == PortPeer::kNone) {
          here = Fate::kDeadPort;
        } else if (peer.kind == PortPeer::kTerminal) {
          here = Fate::kWrongTerminal;  // the owner's own port was handled above
        } else {
          fate_[u] = kInProgress;
          next_[u] = peer.id;
          stack_.push_back(u);
          u = f_.channel(peer.id).dst;
          continue;
        }
      }
      fate_[u] = static_cast<uint8_t>(here);
      culprit_[u] = here == Fate::kDelivered ? -1 : u;
      tail = here;
      tail_culprit = culprit_[u];
      tail_hops = hops_[u];
      break;
    }
    // Every switch on the stack forwards to the one above it (the last one to
    // the switch that ended the walk), so it shares that switch's fate.
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      const int32_t x = *it;
      if (tail == Fate::kDelivered) {
        ++tail_hops;
        hops_[x] = tail_hops;
        culprit_[x] = -1;
      } else {
        culprit_[x] = tail_culprit;
      }
      fate_[x] = static_cast<uint8_t>(tail);
    }
  }
  sort_delivered();
}

void DestinationWalk::sort_delivered() {
  const int32_t S = f_.num_switches();
  uint16_t max_hops = 0;
  for (int32_t s = 0; s < S; ++s)
    if (fate_[s] == static_cast<uint8_t>(Fate::kDelivered)) max_hops = std::max(max_hops, hops_[s]);
  bucket_.assign(static_cast<size_t>(max_hops) + 2, 0);
  int32_t delivered = 0;
  for (int32_t s = 0; s < S; ++s)
    if (fate_[s] == static_cast<uint8_t>(Fate::kDelivered)) {
      ++bucket_[hops_[s] + 1];
      ++delivered;
    }
  for (size_t h = 1; h < bucket_.size(); ++h) bucket_[h] += bucket_[h - 1];
  order_.resize(delivered);
  for (int32_t s = 0; s < S; ++s)
    if (fate_[s] == static_cast<uint8_t>(Fate::kDelivered)) order_[bucket_[hops_[s]]++] = s;
}

std::vector<uint8_t> hop_counts_to(const Fabric &f, const Routing &r,
                                   std::span<const uint16_t> lids, int threads) {
  const size_t n = lids.size();
  std::vector<uint8_t> out(static_cast<size_t>(f.num_switches()) * n, 0xFF);
  const int workers = worker_count(threads, static_cast<int64_t>(n), 32);
  std::vector<DestinationWalk> walks;
  walks.reserve(workers);
  for (int w = 0; w < workers; ++w) walks.emplace_back(f, r);
  // Each LID is its own column: the workers write disjoint entries.
  parallel_for(workers, static_cast<int32_t>(n), 16, [&](int w, int32_t i) {
    const uint16_t lid = lids[i];
    if (lid > r.max_lid()) return;
    DestinationWalk &walk = walks[w];
    walk.run(lid);
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (walk.fate(s) == Fate::kDelivered)
        out[s * n + i] = static_cast<uint8_t>(std::min<uint16_t>(walk.hops(s), 0xFE));
  });
  return out;
}

std::vector<uint8_t> hop_counts(const Fabric &f, const Routing &r, int threads) {
  const size_t stride = static_cast<size_t>(r.max_lid()) + 1;
  std::vector<uint16_t> lids;
  for (const uint16_t lid : f.lids())
    if (lid < stride) lids.push_back(lid);
  const std::vector<uint8_t> cols = hop_counts_to(f, r, lids, threads);
  const size_t n = lids.size();
  std::vector<uint8_t> out(static_cast<size_t>(f.num_switches()) * stride, 0xFF);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (size_t i = 0; i < n; ++i) out[s * stride + lids[i]] = cols[s * n + i];
  return out;
}

}  // namespace keiro::check
