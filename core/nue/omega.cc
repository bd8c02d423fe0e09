// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/nue/omega.h"

#include <utility>

namespace keiro::nue {

void OmegaLabels::reset(int32_t num_channels, int32_t max_labels) {
  label_.assign(num_channels, 0);
  parent_.clear();
  size_.clear();
  parent_.reserve(max_labels + 1);
  size_.reserve(max_labels + 1);
  parent_.push_back(0);  // label 0: unused
  size_.push_back(0);
  merges_ = 0;
}

int32_t OmegaLabels::fresh() {
  const auto l = static_cast<int32_t>(parent_.size());
  parent_.push_back(l);
  size_.push_back(1);
  return l;
}

int32_t OmegaLabels::merge(int32_t a, int32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return a;
  if (size_[a] < size_[b]) std::swap(a, b);
  parent_[b] = a;
  size_[a] += size_[b];
  ++merges_;
  return a;
}

}  // namespace keiro::nue
