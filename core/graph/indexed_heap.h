// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// An indexed 4-ary min-heap over the items 0..n-1 with decrease-key, for
// Dijkstra-style searches (Nue, core/nue/dijkstra.h) and greedy orders
// (ACRO, core/layers/acro.cc). One implementation; the order policy says where
// the keys live:
//  - StoredKeys<Key>: each item's key is kept in the heap array next to the
//    item (no indirection when sifting). push_or_decrease(item, key) and
//    key(item). Ties are broken by the smaller item id, so the pop order is
//    deterministic.
//  - CallerKeys<Less>: the caller keeps the keys; less(a, b) compares the
//    current keys of items a and b and must be a strict total order (ties
//    broken inside less). build(n) puts every item in; the caller calls
//    decreased(item) after lowering the key of an item in the heap. A key
//    must not change in any other way while its item is in the heap.
// With a strict total order the pop order depends only on the keys, not on
// the heap's shape.
//
// push_or_decrease / decreased / pop: O(log n); build: O(n). Memory O(n),
// allocated once by resize() or build(); the heap is empty again after the
// last pop, so reuse needs no clearing.
#pragma once

#include <cassert>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace keiro::graph {

template <class Key>
struct StoredKeys {
  struct Entry {
    Key key;
    int32_t item;
  };
  static int32_t item(const Entry &e) { return e.item; }
  bool less(const Entry &a, const Entry &b) const {
    return a.key < b.key || (!(b.key < a.key) && a.item < b.item);
  }
};

template <class Less>
struct CallerKeys {
  using Entry = int32_t;
  Less less_items;
  static int32_t item(Entry e) { return e; }
  bool less(Entry a, Entry b) const { return less_items(a, b); }
};

template <class Order = StoredKeys<int64_t>>
class IndexedHeap {
 public:
  using Entry = typename Order::Entry;
  static constexpr bool kStoredKeys = !std::is_same_v<Entry, int32_t>;

  IndexedHeap() = default;
  explicit IndexedHeap(Order order) : order_(std::move(order)) {}

  // Room for the items 0..n-1; the heap is empty.
  void resize(int32_t n) {
    pos_.assign(n, -1);
    heap_.clear();
    heap_.reserve(n);
  }
  bool empty() const { return heap_.empty(); }
  int32_t size() const { return static_cast<int32_t>(heap_.size()); }
  bool contains(int32_t item) const { return pos_[item] >= 0; }
  int32_t top() const { return Order::item(heap_[0]); }

  int32_t pop() {
    assert(!heap_.empty() && "IndexedHeap::pop on an empty heap");
    const int32_t top = Order::item(heap_[0]);
    const Entry last = heap_.back();
    heap_.pop_back();
    pos_[top] = -1;
    if (!heap_.empty()) sift_down(0, last);
    return top;
  }

  // Removes every item (O(size)).
  void clear() {
    for (const Entry &e : heap_) pos_[Order::item(e)] = -1;
    heap_.clear();
  }

  // StoredKeys: inserts item, or lowers its key if it is present with a
  // larger one.
  template <class K>
  void push_or_decrease(int32_t item, const K &key) requires kStoredKeys {
    const Entry e{key, item};
    int32_t i = pos_[item];
    if (i < 0) {
      i = static_cast<int32_t>(heap_.size());
      heap_.push_back(e);
    } else if (!order_.less(e, heap_[i])) {
      return;
    }
    sift_up(i, e);
  }
  // StoredKeys: the key of item, which must be in the heap.
  const auto &key(int32_t item) const requires kStoredKeys {
    assert(contains(item) && "IndexedHeap::key of an item not in the heap");
    return heap_[pos_[item]].key;
  }

  // CallerKeys: puts every item 0..n-1 in the heap.
  void build(int32_t n) requires(!kStoredKeys) {
    heap_.resize(n);
    pos_.resize(n);
    for (int32_t i = 0; i < n; ++i) heap_[i] = pos_[i] = i;
    for (int32_t i = (n - 2) / kArity; i >= 0; --i) sift_down(i, heap_[i]);
  }
  // CallerKeys: the key of item (in the heap) has become smaller.
  void decreased(int32_t item) requires(!kStoredKeys) {
    assert(contains(item) && "IndexedHeap::decreased on an item not in the heap");
    sift_up(pos_[item], heap_[pos_[item]]);
  }

 private:
  static constexpr int kArity = 4;
  void place(int32_t i, const Entry &e) {
    heap_[i] = e;
    pos_[Order::item(e)] = i;
  }
  // Moves e, destined for slot i, up past every larger ancestor.
  void sift_up(int32_t i, Entry e) {
    while (i > 0) {
      const int32_t parent = (i - 1) / kArity;
      if (!order_.less(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  // Moves e, destined for slot i, down past every smaller child.
  void sift_down(int32_t i, Entry e) {
    const auto n = static_cast<int32_t>(heap_.size());
    for (;;) {
      const int32_t c0 = i * kArity + 1;
      if (c0 >= n) break;
      int32_t best = c0;
      const int32_t cend = c0 + kArity < n ? c0 + kArity : n;
      for (int32_t c = c0 + 1; c < cend; ++c)
        if (order_.less(heap_[c], heap_[best])) best = c;
      if (!order_.less(heap_[best], e)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, e);
  }

  Order order_;
  std::vector<int32_t> pos_;  // index in heap_, -1 when absent
  std::vector<Entry> heap_;
};

}  // namespace keiro::graph
