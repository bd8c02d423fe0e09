// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// An indexed binary min-heap over the ids 0..n-1 whose keys live outside the
// heap and only ever decrease while an id is in the heap (ACRO's f(c) and
// H_c[f(c)] only fall). Less(a, b) compares the current keys of two ids.
//
// build O(n), pop O(log n), decreased O(log n), contains O(1); memory 2n ints.
#pragma once

#include <cstdint>
#include <vector>

namespace keiro {

template <class Less>
class IndexHeap {
 public:
  explicit IndexHeap(Less less) : less_(less) {}

  // Puts every id 0..n-1 in the heap.
  void build(int32_t n) {
    heap_.resize(n);
    pos_.resize(n);
    for (int32_t i = 0; i < n; ++i) heap_[i] = pos_[i] = i;
    for (int32_t i = n / 2 - 1; i >= 0; --i) down(i);
  }
  bool empty() const { return heap_.empty(); }
  int32_t size() const { return static_cast<int32_t>(heap_.size()); }
  bool contains(int32_t id) const { return pos_[id] >= 0; }
  int32_t top() const { return heap_[0]; }
  int32_t pop() {
    const int32_t id = heap_[0];
    const int32_t last = heap_.back();
    heap_.pop_back();
    pos_[id] = -1;
    if (!heap_.empty()) {
      heap_[0] = last;
      pos_[last] = 0;
      down(0);
    }
    return id;
  }
  // The key of id (in the heap) has become smaller.
  void decreased(int32_t id) { up(pos_[id]); }

 private:
  void up(int32_t i) {
    const int32_t id = heap_[i];
    while (i > 0) {
      const int32_t p = (i - 1) / 2;
      if (!less_(id, heap_[p])) break;
      heap_[i] = heap_[p];
      pos_[heap_[i]] = i;
      i = p;
    }
    heap_[i] = id;
    pos_[id] = i;
  }
  void down(int32_t i) {
    const auto n = static_cast<int32_t>(heap_.size());
    const int32_t id = heap_[i];
    for (;;) {
      int32_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && less_(heap_[c + 1], heap_[c])) ++c;
      if (!less_(heap_[c], id)) break;
      heap_[i] = heap_[c];
      pos_[heap_[i]] = i;
      i = c;
    }
    heap_[i] = id;
    pos_[id] = i;
  }
  Less less_;
  std::vector<int32_t> heap_, pos_;
};

}  // namespace keiro
