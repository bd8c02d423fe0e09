// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A grid layout for LOREN derived from the fabric's links alone
// (`loren_layout=auto`), for fabrics whose machine-room positions nobody wrote
// down.
//
// LOREN (Kawano et al., "LOREN: A Scalable Routing Method for Layout-conscious
// Random Topologies", Sect. III-A) forwards by the Manhattan distance between
// switch positions on a grid. On a layout-conscious fabric every link joins
// switches a few grid steps apart, so hop distance and grid distance go
// together; the derived layout rebuilds such positions from hop distances:
//
//  1. Four landmark switches, chosen from the structure (hop counts only):
//     A the most peripheral switch (largest eccentricity, then largest
//     distance sum), B the switch farthest from A, C the switch farthest from
//     both (largest min(d(A,·), d(B,·)), then largest distance sum: on a grid
//     the corners off the A-B diagonal) and D the switch farthest from C.
//  2. Coordinates u = d(A,·) - d(B,·) and w = d(C,·) - d(D,·), turned by 45
//     degrees: px = u + w, py = u - w (on a full grid graph with A, B, C, D
//     at the corners this is the grid itself, scaled).
//  3. Grid cells: W = ceil(sqrt(S)) columns of H = ceil(S / W) cells; the
//     switches sorted by px fill the columns in order, each column sorted by
//     py. The last column may be short: the cells form a staircase, on which
//     every cell has a grid neighbour closer to any other cell (what LOREN's
//     livelock-freedom argument needs, Sect. V).
//  4. Local improvement: a switch swaps cells with one at most two cells away
//     when that shortens the total Manhattan length of the links, in passes
//     over the cells in grid order until a pass changes nothing (at most
//     max_passes, 64 by default).
// Ties at every step go to the switch's distance sum and then to its index:
// on symmetric fabrics the tied candidates are equivalent, so the layout's
// quality does not depend on the numbering.
//
// Time: O(S * L) for the eccentricities (one BFS per switch, L links), plus
// O(P * S * 25 * d) for P improvement passes of degree-d switches.
// Memory: O(S + L).
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/loren/layout.h"

namespace keiro::loren {

struct AutoLayoutStats {
  int32_t width = 0, height = 0;
  int64_t links = 0;         // switch pairs joined by at least one link
  int64_t total_length = 0;  // sum of the Manhattan lengths of those links
  int32_t longest = 0;       // longest link, in grid steps
  int32_t passes = 0;        // improvement passes run
  int64_t swaps = 0;         // cells swapped by the improvement
};

// Fails (one line in err) on a fabric without switches or not connected.
// max_passes caps step 4 (0: the landmark placement alone; tests).
bool derive_layout(const Fabric &f, Layout &out, AutoLayoutStats &stats, std::string &err,
                   int32_t max_passes = 64);

// The layout as a layout file (docs/loren.md): a comment line, then
// "GUID X Y description" per switch, in switch order.
std::string layout_text(const Fabric &f, const Layout &layout, const std::string &comment);

}  // namespace keiro::loren
