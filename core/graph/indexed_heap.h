// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// An indexed 4-ary min-heap over the items 0..n-1 with int64 keys and
// decrease-key, for Dijkstra-style searches. Ties are broken by the smaller
// item id, so the pop order is deterministic. Keys live in the heap array
// next to their items (no indirection when sifting).
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
    heap_.clear();
    heap_.reserve(n);
  }
  bool empty() const { return heap_.empty(); }
  int32_t size() const { return static_cast<int32_t>(heap_.size()); }
  bool contains(int32_t item) const { return pos_[item] >= 0; }
  int64_t key(int32_t item) const { return heap_[pos_[item]].key; }

  // Inserts item, or lowers its key if it is present with a larger one.
  void push_or_decrease(int32_t item, int64_t key) {
    int32_t i = pos_[item];
    if (i < 0) {
      i = static_cast<int32_t>(heap_.size());
      heap_.push_back({key, item});
    } else if (!less({key, item}, heap_[i])) {
      return;
    }
    sift_up(i, {key, item});
  }

  int32_t pop() {
    const int32_t top = heap_[0].item;
    const Entry last = heap_.back();
    heap_.pop_back();
    pos_[top] = -1;
    if (!heap_.empty()) sift_down(0, last);
    return top;
  }

  // Removes every item (O(size)).
  void clear() {
    for (const Entry &e : heap_) pos_[e.item] = -1;
    heap_.clear();
  }

 private:
  static constexpr int kArity = 4;
  struct Entry {
    int64_t key;
    int32_t item;
  };
  static bool less(const Entry &a, const Entry &b) {
    return a.key < b.key || (a.key == b.key && a.item < b.item);
  }
  void place(int32_t i, const Entry &e) {
    heap_[i] = e;
    pos_[e.item] = i;
  }
  void sift_up(int32_t i, Entry e) {
    while (i > 0) {
      const int32_t parent = (i - 1) / kArity;
      if (!less(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void sift_down(int32_t i, Entry e) {
    const auto n = static_cast<int32_t>(heap_.size());
    for (;;) {
      const int32_t c0 = i * kArity + 1;
      if (c0 >= n) break;
      int32_t best = c0;
      const int32_t cend = c0 + kArity < n ? c0 + kArity : n;
      for (int32_t c = c0 + 1; c < cend; ++c)
        if (less(heap_[c], heap_[best])) best = c;
      if (!less(heap_[best], e)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, e);
  }

  std::vector<int32_t> pos_;  // index in heap_, -1 when absent
  std::vector<Entry> heap_;
};

}  // namespace keiro::graph
