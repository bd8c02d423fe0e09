// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Up/down directions of the switch-to-switch channels (DL paper Section 2,
// after Autonet): a BFS spanning tree from a root switch gives every switch
// its level (hop distance from the root); the "up" end of a link is the end
// closer to the root, and between switches of the same level the end with
// the lower unique identifier -- the switch GUID here (the switch id when
// GUIDs are equal), the same tie rule as OpenSM's updn. A channel is up
// when it leads to its up end. Every directed cycle contains an up and a
// down channel, and up channels strictly decrease the key (level, GUID, id).
//
// The default root is the most central switch: the smallest sum of hop
// distances to all other switches (closeness), ties to the lowest GUID. A
// central root gives the shallowest BFS tree, so the up*/down* detours of
// layer 0 (the connectivity guarantee of DL) are short and the root's links
// carry less turn-around traffic; the choice depends only on the topology
// and the GUIDs, so it is reproducible.
//
// build_updown: time O(S log S + C), memory O(S + C).
// central_root: time O(S * (S + C)) (one BFS per switch), memory O(S).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/fabric.h"

namespace keiro::dl {

struct UpDown {
  int32_t root = -1;
  std::vector<int32_t> level;  // per switch: hops from the root
  std::vector<int32_t> pos;    // per switch: place in (level, GUID, id) order; root 0
  std::vector<uint8_t> up;     // per channel: 1 when it leads to the up end of its link
};

// Smallest total hop distance to all switches, ties lowest GUID then id;
// -1 for an empty fabric. Unreachable switches count as S hops. With
// allowed (one flag per switch) only the switches flagged are candidates
// (and only they cost a BFS).
int32_t central_root(const Fabric &f, std::span<const uint8_t> allowed = {});

// Fails (one line in err) when the switches are not all connected.
bool build_updown(const Fabric &f, int32_t root, UpDown &out, std::string &err);

}  // namespace keiro::dl
