// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// An indexed 4-ary min-heap over the items 0..n-1 with int64 keys and
// decrease-key, for Dijkstra-style searches. Ties are broken by the smaller
// item id, so the pop order is deterministic.
//
// push / decrease / pop: O(log n). Memory O(n), allocated once by resize();
// the heap is empty again after the last pop, so reuse needs no clearing.
#pragma once

#include <cstdint>
#include <vector>

namespace keiro::graph {

class IndexedHeap {
 public:
  void resize(int32_t n) {
    pos_.assign(n, -1);
    key_.assign(n, 0);
    heap_.clear();
    heap_.reserve(n);
  }
  bool empty() const { return heap_.empty(); }
  int32_t size() const { return static_cast<int32_t>(heap_.size()); }
  bool contains(int32_t item) const { return pos_[item] >= 0; }
  int64_t key(int32_t item) const { return key_[item]; }

  // Inserts item, or lowers its key if it is present with a larger one.
  void push_or_decrease(int32_t item, int64_t key) {
    if (pos_[item] < 0) {
      pos_[item] = static_cast<int32_t>(heap_.size());
      heap_.push_back(item);
    } else if (!less(key, item, key_[item], item)) {
      return;
    }
    key_[item] = key;
    sift_up(pos_[item]);
  }

  int32_t pop() {
    const int32_t top = heap_[0];
    const int32_t last = heap_.back();
    heap_.pop_back();
    pos_[top] = -1;
    if (!heap_.empty()) {
      heap_[0] = last;
      pos_[last] = 0;
      sift_down(0);
    }
    return top;
  }

  // Removes every item (O(size)).
  void clear() {
    for (int32_t item : heap_) pos_[item] = -1;
    heap_.clear();
  }

 private:
  static constexpr int kArity = 4;
  static bool less(int64_t ka, int32_t a, int64_t kb, int32_t b) {
    return ka < kb || (ka == kb && a < b);
  }
  bool item_less(int32_t a, int32_t b) const { return less(key_[a], a, key_[b], b); }
  void place(int32_t i, int32_t item) {
    heap_[i] = item;
    pos_[item] = i;
  }
  void sift_up(int32_t i) {
    const int32_t item = heap_[i];
    while (i > 0) {
      const int32_t parent = (i - 1) / kArity;
      if (!item_less(item, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, item);
  }
  void sift_down(int32_t i) {
    const int32_t item = heap_[i];
    const int32_t n = static_cast<int32_t>(heap_.size());
    for (;;) {
      const int32_t c0 = i * kArity + 1;
      if (c0 >= n) break;
      int32_t best = c0;
      const int32_t cend = c0 + kArity < n ? c0 + kArity : n;
      for (int32_t c = c0 + 1; c < cend; ++c)
        if (item_less(heap_[c], heap_[best])) best = c;
      if (!item_less(heap_[best], item)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, item);
  }

  std::vector<int32_t> pos_;  // index in heap_, -1 when absent
  std::vector<int64_t> key_;
  std::vector<int32_t> heap_;
};

}  // namespace keiro::graph
