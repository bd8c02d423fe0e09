// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Shortest hop distances between switches over the switch-to-switch channels
// (what a minimal routing would achieve), the reference for path stretch and
// for the local(gamma) traffic of the LOREN paper.
//
// One BFS per switch: O(S * (S + C)) time, S * S bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fabric.h"

namespace keiro::metrics {

class SwitchDistances {
 public:
  static constexpr uint8_t kUnreachable = 0xFF;

  explicit SwitchDistances(const Fabric &f);
  // Hops from switch a to switch b (kUnreachable when there is no path;
  // distances of 254 or more read as 254).
  uint8_t operator()(int32_t a, int32_t b) const { return d_[static_cast<size_t>(a) * n_ + b]; }
  int32_t size() const { return n_; }

 private:
  int32_t n_ = 0;
  std::vector<uint8_t> d_;
};

}  // namespace keiro::metrics
