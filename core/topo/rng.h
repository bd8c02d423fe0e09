// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The random source of the topology generators: xoshiro256** seeded through
// splitmix64, with its own bounded-integer and shuffle routines, so that a
// seed gives the same fabric on every platform and standard library (the
// std:: distributions are implementation-defined).
//
// Time: O(1) per number (below() rejects with probability < 1/2). Memory: O(1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace keiro::topo {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  // Uniform in [0, n); n > 0.
  uint64_t below(uint64_t n);
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  template <typename T>
  void shuffle(std::vector<T> &v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  uint64_t s_[4];
};

}  // namespace keiro::topo
