// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/fabric.h"

#include <algorithm>
#include <cinttypes>
#include <numeric>

#include "core/log.h"
#include "core/options.h"

namespace keiro {

namespace {
std::string port_name(const SwitchInfo &s, int port) {
  return "switch '" + s.name + "' port " + std::to_string(port);
}
}  // namespace

int32_t Fabric::add_switch(SwitchInfo info) {
  if (finalized_) throw FabricError("add_switch after finalize");
  switches_.push_back(std::move(info));
  return num_switches() - 1;
}

int32_t Fabric::add_terminal(TerminalInfo t) {
  if (finalized_) throw FabricError("add_terminal after finalize");
  if (t.sw < 0 || t.sw >= num_switches())
    throw FabricError("terminal '" + t.name + "' attached to an unknown switch");
  if (t.sw_port == 0 || t.sw_port > switches_[t.sw].num_ports)
    throw FabricError("terminal '" + t.name + "' attached to invalid " +
                      port_name(switches_[t.sw], t.sw_port));
  terminals_.push_back(std::move(t));
  return num_terminals() - 1;
}

void Fabric::add_link(int32_t a, uint8_t port_a, int32_t b, uint8_t port_b, uint8_t vls) {
  if (finalized_) throw FabricError("add_link after finalize");
  if (a < 0 || b < 0 || a >= num_switches() || b >= num_switches())
    throw FabricError("link between unknown switches");
  if (a == b) throw FabricError("loopback link on " + port_name(switches_[a], port_a));
  const auto c = static_cast<int32_t>(channels_.size());
  channels_.push_back(Channel{a, b, port_a, port_b, vls, c + 1});
  channels_.push_back(Channel{b, a, port_b, port_a, vls, c});
}

void Fabric::sort_channels() {
  std::vector<int32_t> order(channels_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
    const Channel &cx = channels_[x], &cy = channels_[y];
    return cx.src != cy.src ? cx.src < cy.src : cx.src_port < cy.src_port;
  });
  std::vector<int32_t> new_id(channels_.size());
  for (size_t i = 0; i < order.size(); ++i) new_id[order[i]] = static_cast<int32_t>(i);
  std::vector<Channel> sorted(channels_.size());
  for (size_t i = 0; i < order.size(); ++i) {
    sorted[i] = channels_[order[i]];
    sorted[i].reverse = new_id[sorted[i].reverse];
  }
  channels_.swap(sorted);
}

void Fabric::index_channels() {
  const int32_t S = num_switches();
  out_start_.assign(S + 1, 0);
  in_start_.assign(S + 1, 0);
  for (const Channel &c : channels_) {
    ++out_start_[c.src + 1];
    ++in_start_[c.dst + 1];
  }
  for (int32_t s = 0; s < S; ++s) {
    out_start_[s + 1] += out_start_[s];
    in_start_[s + 1] += in_start_[s];
  }
  in_list_.assign(channels_.size(), 0);
  {
    std::vector<int32_t> fill(in_start_.begin(), in_start_.end() - 1);
    for (int32_t c = 0; c < num_channels(); ++c) in_list_[fill[channels_[c].dst]++] = c;
  }

  term_start_.assign(S + 1, 0);
  for (const TerminalInfo &t : terminals_) ++term_start_[t.sw + 1];
  for (int32_t s = 0; s < S; ++s) term_start_[s + 1] += term_start_[s];
  term_list_.assign(terminals_.size(), 0);
  {
    std::vector<int32_t> fill(term_start_.begin(), term_start_.end() - 1);
    for (int32_t t = 0; t < num_terminals(); ++t) term_list_[fill[terminals_[t].sw]++] = t;
  }
}

void Fabric::index_ports() {
  const int32_t S = num_switches();
  port_start_.assign(S + 1, 0);
  for (int32_t s = 0; s < S; ++s) port_start_[s + 1] = port_start_[s] + switches_[s].num_ports + 1;
  port_peer_.assign(port_start_[S], PortPeer{});
  auto claim = [&](int32_t s, uint8_t port, PortPeer p) {
    if (port == 0 || port > switches_[s].num_ports)
      throw FabricError("invalid " + port_name(switches_[s], port));
    PortPeer &slot = port_peer_[port_start_[s] + port];
    if (slot.kind != PortPeer::kNone)
      throw FabricError(port_name(switches_[s], port) + " is connected twice");
    slot = p;
  };
  for (int32_t c = 0; c < num_channels(); ++c)
    claim(channels_[c].src, channels_[c].src_port, PortPeer{PortPeer::kSwitch, c});
  for (int32_t t = 0; t < num_terminals(); ++t)
    claim(terminals_[t].sw, terminals_[t].sw_port, PortPeer{PortPeer::kTerminal, t});
}

void Fabric::index_lids() {
  const int32_t S = num_switches();
  max_lid_ = 0;
  auto top = [](uint16_t lid, uint8_t lmc) { return lid ? lid + (1u << lmc) - 1 : 0u; };
  for (const SwitchInfo &s : switches_) max_lid_ = std::max<uint32_t>(max_lid_, top(s.lid, s.lmc));
  for (const TerminalInfo &t : terminals_)
    max_lid_ = std::max<uint32_t>(max_lid_, top(t.lid, t.lmc));
  if (max_lid_ >= 0xC000) throw FabricError("unicast LIDs exceed 0xBFFF");
  lid_owner_.assign(max_lid_ + 1, LidOwner{});
  auto own = [&](uint16_t lid, uint8_t lmc, LidOwner o, const std::string &name) {
    if (!lid) return;
    for (uint32_t l = lid; l <= top(lid, lmc); ++l) {
      if (lid_owner_[l].kind != LidOwner::kNone)
        throw FabricError("LID " + std::to_string(l) + " of '" + name + "' is used twice");
      lid_owner_[l] = o;
    }
  };
  for (int32_t s = 0; s < S; ++s)
    own(switches_[s].lid, switches_[s].lmc, LidOwner{LidOwner::kSwitch, s}, switches_[s].name);
  for (int32_t t = 0; t < num_terminals(); ++t)
    own(terminals_[t].lid, terminals_[t].lmc, LidOwner{LidOwner::kTerminal, t}, terminals_[t].name);
  lids_.clear();
  for (uint32_t l = 1; l <= max_lid_; ++l)
    if (lid_owner_[l].kind != LidOwner::kNone) lids_.push_back(static_cast<uint16_t>(l));
}

void Fabric::finalize() {
  sort_channels();
  index_channels();
  index_ports();
  index_lids();
  finalized_ = true;
}

PortPeer Fabric::peer(int32_t s, uint8_t port) const {
  if (port == 0 || port > switches_[s].num_ports) return {};
  return port_peer_[port_start_[s] + port];
}

int32_t Fabric::lid_switch(uint16_t lid) const {
  const LidOwner o = lid_owner(lid);
  switch (o.kind) {
    case LidOwner::kSwitch:
      return o.id;
    case LidOwner::kTerminal:
      return terminals_[o.id].sw;
    default:
      return -1;
  }
}

uint8_t Fabric::min_switch_vls() const {
  uint8_t v = kMaxDataVls;
  for (const Channel &c : channels_) v = std::min(v, c.vls);
  return v;
}

int32_t Fabric::find_switch(uint64_t guid) const {
  for (int32_t s = 0; s < num_switches(); ++s)
    if (switches_[s].guid == guid) return s;
  return -1;
}

int32_t Fabric::find_switch(std::string_view text, std::string &err) const {
  uint64_t guid = 0;
  if (parse_guid(text, guid)) {
    const int32_t s = find_switch(guid);
    if (s >= 0) return s;
  }
  int32_t found = -1, matches = 0;
  for (int32_t s = 0; s < num_switches(); ++s) {
    if (switches_[s].name != text) continue;
    if (matches++ == 0) found = s;
  }
  if (matches == 1) return found;
  const std::string quoted = "'" + std::string(text) + "'";
  if (matches == 0)
    err = quoted + " names no switch (neither a switch GUID nor a node description)";
  else
    err = strprintf(
        "%s is the node description of %d switches (e.g. %s and another): name the "
        "switch by its GUID",
        quoted.c_str(), matches, describe(found).c_str());
  return -1;
}

std::string Fabric::describe(int32_t s) const {
  return strprintf("'%s' (0x%016" PRIx64 ")", switches_[s].name.c_str(), switches_[s].guid);
}

void assign_lids(Fabric &f, uint8_t lmc, bool switches_use_lmc) {
  if (f.finalized()) throw FabricError("assign_lids after finalize");
  // Collect LIDs already taken so that given LIDs are kept.
  std::vector<bool> used(0xC000, false);
  auto mark = [&](uint16_t lid, uint8_t l) {
    if (!lid) return;
    for (uint32_t x = lid; x < lid + (1u << l) && x < used.size(); ++x) used[x] = true;
  };
  for (int32_t s = 0; s < f.num_switches(); ++s) mark(f.sw(s).lid, f.sw(s).lmc);
  for (int32_t t = 0; t < f.num_terminals(); ++t) mark(f.terminal(t).lid, f.terminal(t).lmc);
  uint32_t next = 1;
  auto take = [&](uint8_t l) -> uint16_t {
    const uint32_t block = 1u << l;
    for (;;) {
      next = (next + block - 1) & ~(block - 1);
      if (next + block > 0xC000) throw FabricError("out of unicast LIDs");
      bool free = true;
      for (uint32_t x = next; x < next + block; ++x) free = free && !used[x];
      if (free) {
        for (uint32_t x = next; x < next + block; ++x) used[x] = true;
        const auto lid = static_cast<uint16_t>(next);
        next += block;
        return lid;
      }
      next += block;
    }
  };
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    SwitchInfo &si = f.sw_mut(s);
    if (si.lid) continue;
    si.lmc = switches_use_lmc ? lmc : 0;
    si.lid = take(si.lmc);
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    TerminalInfo &ti = f.terminal_mut(t);
    if (ti.lid) continue;
    ti.lmc = lmc;
    ti.lid = take(lmc);
  }
}

}  // namespace keiro
