// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The identification numbers ω of Nue's used, acyclic subgraphs of the
// complete CDG (Domke et al. 2016, Section 4.6.1 and Algorithm 3).
//
// Every channel (vertex of the complete CDG) carries a label: 0 = unused, or
// a label >= 1 that names the used subgraph it belongs to. Algorithm 3 merges
// two subgraphs by relabelling every member of one; here a merge is a
// union-find link between the two labels (union by size, path halving), so
// a channel's ω is find(label). That keeps the paper's meaning, "two channels
// have the same ω iff their subgraphs were merged", at O(α(n)) amortised per
// query or merge instead of O(subgraph size) per merge.
//
// The labels only ever get coarser, which is safe for Nue: a used edge
// removed later (a tentative dependency that Dijkstra dropped) can leave two
// channels with one ω although they are no longer connected; condition (d)
// then runs a DFS that condition (c) might have skipped, nothing worse.
//
// Memory: O(C + number of labels handed out).
#pragma once

#include <cstdint>
#include <vector>

namespace keiro::nue {

class OmegaLabels {
 public:
  // All channels unused; capacity for max_labels labels without reallocating.
  void reset(int32_t num_channels, int32_t max_labels);

  // ω of a channel: 0 when unused, else the representative label.
  int32_t of(int32_t channel) {
    const int32_t l = label_[channel];
    return l == 0 ? 0 : find(l);
  }
  // A new label for a fresh used subgraph.
  int32_t fresh();
  // Puts an unused channel into subgraph `label`.
  void assign(int32_t channel, int32_t label) { label_[channel] = label; }
  // Merges two subgraphs; returns the ω of the union.
  int32_t merge(int32_t a, int32_t b);
  // Number of merges of distinct subgraphs so far.
  int64_t merges() const { return merges_; }

  int32_t find(int32_t l) {
    while (parent_[l] != l) {
      parent_[l] = parent_[parent_[l]];
      l = parent_[l];
    }
    return l;
  }

 private:
  std::vector<int32_t> label_;   // per channel, 0 = unused
  std::vector<int32_t> parent_;  // union-find over labels; parent_[0] = 0 (unused)
  std::vector<int32_t> size_;
  int64_t merges_ = 0;
};

}  // namespace keiro::nue
