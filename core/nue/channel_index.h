// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Flat per-channel arrays of a fabric's directed switch-to-switch channels,
// for Nue's hot loops (complete CDG and modified Dijkstra): endpoints and
// reverse channel, the channels leaving each switch (the fabric's CSR
// order) and the channels entering it. Built once per CompleteCdg, which
// CdgDijkstra borrows.
//
// Construction O(S + C); memory 4C + 2S + 2 ints.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"

namespace keiro::nue {

struct ChannelIndex {
  ChannelIndex() = default;
  explicit ChannelIndex(const Fabric &f) {
    const int32_t c = f.num_channels(), s = f.num_switches();
    src.resize(c);
    dst.resize(c);
    rev.resize(c);
    for (int32_t i = 0; i < c; ++i) {
      src[i] = f.channel(i).src;
      dst[i] = f.channel(i).dst;
      rev[i] = f.channel(i).reverse;
    }
    out_begin.resize(s + 1);
    in_first.resize(s + 1);
    in_list.reserve(c);
    for (int32_t v = 0; v < s; ++v) {
      out_begin[v] = f.out_begin(v);
      in_first[v] = static_cast<int32_t>(in_list.size());
      for (int32_t q : f.in_channels(v)) in_list.push_back(q);
    }
    out_begin[s] = c;
    in_first[s] = static_cast<int32_t>(in_list.size());
  }

  std::vector<int32_t> src, dst, rev;  // per channel: switch ids, reverse channel
  std::vector<int32_t> out_begin;      // per switch + 1: channels leaving it
  std::vector<int32_t> in_first;       // per switch + 1: its range in in_list
  std::vector<int32_t> in_list;        // channels entering each switch
};

}  // namespace keiro::nue
