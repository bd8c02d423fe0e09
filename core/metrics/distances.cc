// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/distances.h"

#include <algorithm>

namespace keiro::metrics {

SwitchDistances::SwitchDistances(const Fabric &f) : n_(f.num_switches()) {
  d_.assign(static_cast<size_t>(n_) * n_, kUnreachable);
  std::vector<int32_t> queue(n_);
  for (int32_t a = 0; a < n_; ++a) {
    uint8_t *row = d_.data() + static_cast<size_t>(a) * n_;
    int32_t head = 0, tail = 0;
    row[a] = 0;
    queue[tail++] = a;
    while (head < tail) {
      const int32_t u = queue[head++];
      const uint8_t next = static_cast<uint8_t>(std::min(row[u] + 1, 254));
      for (int32_t c = f.out_begin(u); c < f.out_end(u); ++c) {
        const int32_t v = f.channel(c).dst;
        if (row[v] != kUnreachable) continue;
        row[v] = next;
        queue[tail++] = v;
      }
    }
  }
}

}  // namespace keiro::metrics
