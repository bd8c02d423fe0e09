// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The machine-room layout LOREN routes by (Kawano et al., "LOREN: A Scalable
// Routing Method for Layout-conscious Random Topologies", Sect. III-A): every
// switch sits at an integer grid position (x, y), and md(i, j) = |x_i - x_j| +
// |y_i - y_j| is the Manhattan distance between two switches.
//
// Layout file (docs/loren.md), the format `keiro topo lrt` writes:
//   # comment
//   SWITCH X Y [rest of the line is ignored: usually the node description]
// SWITCH is a GUID written with 0x (node GUID of the switch), or the node
// description, in double quotes when it contains blanks. X and Y are whole
// numbers 0..65535. Every switch of the fabric must appear exactly once, and
// no two switches may share a position. Lines naming a switch that is not in
// the fabric (no switch has that GUID or node description: it failed or was
// removed; admins keep one file across faults) are skipped and counted
// (Layout::absent); its position is then a hole in the grid (LOREN's
// forwarding check rejects the fabric if a hole makes it loop). Errors name
// the file and line.
//
// Time: O(L + S log S) for L lines and S switches. Memory: O(S).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"

namespace keiro::loren {

struct Layout {
  std::vector<int32_t> x, y;      // per switch id
  int32_t width = 0, height = 0;  // 1 + largest x, 1 + largest y
  // parse_layout: lines skipped because their switch is not in the fabric,
  // and the first one's SWITCH word.
  int32_t absent = 0;
  std::string first_absent;

  int32_t num_switches() const { return static_cast<int32_t>(x.size()); }
  int32_t md(int32_t a, int32_t b) const {
    const int32_t dx = x[a] - x[b], dy = y[a] - y[b];
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
  }
  // The switch at (px, py), or -1. O(log S); requires index() after the
  // positions were set.
  int32_t at(int32_t px, int32_t py) const;
  // Builds the position index (and width/height). Returns the first switch
  // whose position another switch already has, or -1.
  int32_t index();

 private:
  std::vector<uint64_t> by_pos_;  // (x << 40 | y << 20 | switch), sorted
};

// Parses layout text for fabric f; name is used in error messages. On error
// returns false with one line in err: "name:LINE: what is wrong" (or
// "name: ..." for a switch that is missing).
bool parse_layout(std::string_view text, const std::string &name, const Fabric &f, Layout &out,
                  std::string &err);
bool read_layout(const std::string &path, const Fabric &f, Layout &out, std::string &err);

// A layout built from coordinates (tests, generators). Fails on a duplicate
// position or a size mismatch.
bool make_layout(const Fabric &f, const std::vector<int32_t> &x, const std::vector<int32_t> &y,
                 Layout &out, std::string &err);

}  // namespace keiro::loren
