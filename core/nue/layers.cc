// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/layers.h"

#include <algorithm>

#include "core/enum_names.h"
#include "core/fabric.h"
#include "core/graph/partition.h"

namespace keiro::nue {

std::vector<DestinationPort> destination_ports(const Fabric &f) {
  std::vector<DestinationPort> ports;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    if (ti.lid == 0) continue;
    ports.push_back({ti.sw, ti.sw_port, false, ti.lid, static_cast<uint16_t>(1u << ti.lmc)});
  }
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    const SwitchInfo &si = f.sw(s);
    if (si.lid == 0) continue;
    ports.push_back({s, 0, true, si.lid, static_cast<uint16_t>(1u << si.lmc)});
  }
  return ports;
}

namespace {
constexpr EnumName<PartitionMethod> kMethodWords[] = {
    {PartitionMethod::kMetis, "metis"},
    {PartitionMethod::kCluster, "cluster"},
    {PartitionMethod::kRandom, "random"},
};
}  // namespace

bool parse_partition_method(const std::string &name, PartitionMethod &m) {
  return parse_enum(kMethodWords, name, m);
}

const char *partition_name(PartitionMethod m) {
  return enum_name(kMethodWords, m);
}

int assign_layers(const graph::Graph &switches, std::span<const DestinationPort> ports, int k,
                  PartitionMethod method, int seed, std::vector<int32_t> &layer, std::string &err) {
  const int32_t s = switches.num_nodes();
  layer.assign(ports.size(), 0);
  if (k <= 1 || ports.empty()) return ports.empty() ? 0 : 1;

  std::vector<int64_t> lids_of_switch(s, 0);
  for (const DestinationPort &p : ports) lids_of_switch[p.sw] += p.num_lids;

  if (method == PartitionMethod::kRandom) {
    std::vector<int64_t> w(ports.size());
    for (size_t i = 0; i < ports.size(); ++i) w[i] = ports[i].num_lids;
    layer = graph::balanced_random_partition(w, k, static_cast<uint64_t>(seed));
  } else {
    std::vector<int32_t> part;
    if (method == PartitionMethod::kMetis) {
      if (!graph::metis_partition(switches, lids_of_switch, k, seed, part, err)) return -1;
    } else {
      part = graph::balanced_random_partition(lids_of_switch, k, static_cast<uint64_t>(seed));
    }
    for (size_t i = 0; i < ports.size(); ++i) layer[i] = part[ports[i].sw];
  }

  // Drop empty layers: renumber in order of the original part numbers.
  std::vector<int32_t> remap(k, -1);
  for (int32_t l : layer) remap[l] = 0;
  int used = 0;
  for (int i = 0; i < k; ++i)
    if (remap[i] == 0) remap[i] = used++;
  for (int32_t &l : layer) l = remap[l];
  return used;
}

int pin_previous_layers(std::span<const DestinationPort> ports, std::span<const uint8_t> previous,
                        int k, std::vector<int32_t> &layer, int32_t &pinned) {
  std::vector<int32_t> next = layer;
  std::vector<char> is_pinned(ports.size(), 0);
  pinned = 0;
  for (size_t i = 0; i < ports.size(); ++i) {
    const uint16_t lid = ports[i].lid;
    if (lid < previous.size() && previous[lid] < k) {
      next[i] = previous[lid];
      is_pinned[i] = 1;
      ++pinned;
    }
  }
  int layers = 0;
  std::vector<int32_t> count(k, 0);
  for (int32_t l : next) {
    ++count[l];
    layers = std::max(layers, l + 1);
  }
  // Fill layers left empty with ports that had no previous layer, taken
  // from the most populated layers' tail.
  for (int l = 0; l < layers; ++l) {
    if (count[l] > 0) continue;
    size_t best = ports.size();
    for (size_t i = ports.size(); i-- > 0;)
      if (!is_pinned[i] && count[next[i]] > 1 &&
          (best == ports.size() || count[next[i]] > count[next[best]]))
        best = i;
    if (best == ports.size()) {
      pinned = 0;
      return -1;
    }
    --count[next[best]];
    next[best] = l;
    ++count[l];
  }
  layer = std::move(next);
  return layers;
}

}  // namespace keiro::nue
