// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Big-endian field access in MAD buffers, for the harness's SA clients
// (sa_path_sl.cc, sa_mcast.cc). Header only, O(1) per field.
#pragma once

#include <cstdint>

namespace keiro::harness {

inline void put16(uint8_t *p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
inline void put32(uint8_t *p, uint32_t v) {
  for (int i = 3; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v);
}
inline void put64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v);
}
inline uint16_t get16(const uint8_t *p) {
  return static_cast<uint16_t>(p[0] << 8 | p[1]);
}
inline uint32_t get32(const uint8_t *p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

}  // namespace keiro::harness
