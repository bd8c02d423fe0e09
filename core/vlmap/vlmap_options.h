// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The settings (VlMapOptions) and the outcome counters (VlMapStats) of the
// VL realization, realize() of core/vlmap/vlmap.h, which describes the
// methods they select and tune. Its method implementations (e.g.
// realize_tree(), core/vlmap/tree_realize.h) take them from here, so they
// need not include the dispatcher that calls them.
#pragma once

#include <cstdint>
#include <span>

namespace keiro::vlmap {

struct VlMapOptions {
  enum Method { kFirstFit, kBestFit, kRepair, kTree };
  Method method = kTree;
  int max_vls = 8;
  int max_sls = 16;
  uint64_t seed = 1;        // random order of equally hard paths and of equal repair moves
  int64_t max_moves = 0;    // placements allowed; 0: 40 * paths + 100000
  int32_t tabu_tenure = 0;  // moves an evicted path stays away from its SL; 0: 10
  // Try the fewest VLs first: short runs (4 moves per path) with the VLs the
  // lowest acceptable vectors need, then one more, ..., then max_vls with
  // the whole budget.
  bool fewest_vls = true;
  // kTree: placement runs per VL count (0: 2 below max_vls, 4 at max_vls),
  // and worker threads (0: the machine's cores, at most 8). Results are
  // identical for every thread count.
  int rounds = 0;
  int threads = 1;
  // kTree also runs the per-path repair up to this many paths (0: never).
  int64_t small_paths = 300000;
  // Pins: [k * S + s], the SL the path of source switch s to destination k
  // must keep (-1: free; the root's cell is ignored). Empty: none. The caller
  // keeps the storage alive during realize().
  std::span<const int8_t> pins;
};

struct VlMapStats {
  int64_t paths = 0;                 // (source switch, destination) pairs with at least one hop
  int64_t first_pass_misfits = 0;    // paths that found no conflict-free SL on their first
                                     // try (in the last run)
  int64_t evictions = 0, moves = 0;  // over all runs
  int64_t unplaced = 0;              // paths without an SL at the end (0 on success)
  int64_t unplaceable = 0;           // paths no VL vector within max_vls accepts at all
  int sls_used = 0, vls_used = 0;
  int min_vls = 0;  // VLs the lowest acceptable vectors need (a lower bound)
  // kTree: placement runs made, and on failure the SLs the best run at
  // max_vls needs (0: more than 64) or, when paths are unplaceable, the VLs
  // they need (needed_vls; 0: more than kMaxDataVls).
  int runs = 0, needed_sls = 0, needed_vls = 0;
  bool by_paths = false;   // kTree on a small fabric: the per-path repair's result was better
  bool by_levels = false;  // kTree: the late-levels run (turn_levels.h) gave the result
  // Pins given (paths with a pin >= 0) and those not honoured; pins_fallback:
  // no pinned run fitted, so the result is the realization without pins.
  int64_t pins = 0, pins_dropped = 0;
  bool pins_fallback = false;
  double seconds = 0;
};

}  // namespace keiro::vlmap
