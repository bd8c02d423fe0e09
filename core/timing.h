// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Wall-clock timing of routing phases (reports, log lines, benchmarks).
#pragma once

#include <chrono>

namespace keiro {

using Clock = std::chrono::steady_clock;

// Seconds elapsed since t0 on the steady clock.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace keiro
