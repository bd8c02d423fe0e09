// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Worker threads for independent items, shared by the engines' parallel
// steps (keiro-nue's layers and order attempts, the VL realization's
// destinations). Results must not depend on the thread count: fn may only
// write state owned by its index or by its worker.
// Cost: one std::thread per extra worker per call; no allocation per item.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace keiro {

// Workers for `items` items: `threads` (0: the machine's cores, at most 8),
// at most one per `per_worker` items, at least 1.
inline int worker_count(int threads, int64_t items, int64_t per_worker = 1) {
  int n = threads;
  if (n <= 0) n = std::min(8, std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(n, items / per_worker)));
}

// Runs fn(worker, i) for every i in [0, n) once, on `workers` threads (the
// caller's included), each taking `block` consecutive indices at a time from
// a shared counter. If a thread cannot be started, the others take its share.
template <class Fn>
void parallel_for(int workers, int32_t n, int32_t block, Fn fn) {
  if (workers <= 1) {
    for (int32_t i = 0; i < n; ++i) fn(0, i);
    return;
  }
  std::atomic<int32_t> next{0};
  auto work = [&](int w) {
    for (;;) {
      const int32_t b = next.fetch_add(block);
      if (b >= n) return;
      for (int32_t i = b; i < std::min(n, b + block); ++i) fn(w, i);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(work, w);
    } catch (const std::system_error &) {
      break;
    }
  }
  work(0);
  for (std::thread &t : pool) t.join();
}

}  // namespace keiro
