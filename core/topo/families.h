// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Topology families of `keiro topo` (HDN is in core/topo/hdn.h). Every
// generator returns a GenFabric with port numbers, HCAs and descriptions;
// random families draw only from Rng(seed), so a seed gives one fabric.
//
//  random N d         random d-regular connected switch graph (Steger-Wormald
//                     pairing with restarts); ports in order of sorted links.
//  lrt N d r          layout-conscious random topology LRT(N = n*n, d, r) of
//                     the LOREN paper (II-B): switches on an n x n grid, node
//                     i at x = i mod n, y = i / n, d-regular, every link at
//                     Manhattan distance <= r; random pairing inside the
//                     radius with edge-swap repair and restarts.
//  torus / mesh KxKxK k-ary n-dimensional torus or mesh; dimension i uses ports
//                     2i+1 (+) and 2i+2 (-); a torus dimension of size 2
//                     gets two parallel links (degree stays 2n).
//  fattree k n        k-ary n-tree (Petrini/Vanneschi): n levels of k^(n-1)
//                     switches, level 0 at the top; <w,l> links to <w',l+1>
//                     when w and w' differ at most in digit l; down ports
//                     1..k, up ports k+1..2k; HCAs only on the leaves
//                     (level n-1), k of them by default. With a port split
//                     (real leaf switches) the switches are listed leaf level
//                     first and GUIDs ascend from the leaves; hca-low puts
//                     down ports and HCAs on 1..k and up-links on k+1..2k,
//                     hca-high up-links on 1..k and down ports and HCAs on
//                     k+1..2k, interleaved down ports and HCAs on the odd
//                     ports 1, 3, .., 2k-1 and up-links on the even ones.
//  clos3 R P          3-level folded Clos (pod-based fat tree) of R-port
//                     switches (core/topo/clos3.cc): P pods of R/2 leaves
//                     (R/2 HCAs by default, R/2 up-links) and R/2 middles,
//                     every leaf linked to every middle of its pod; middle j
//                     of a pod is in group j / (R/P), and each of the P/2
//                     groups has R/2 top switches linked to every middle of
//                     the group in every pod (R ports each). P even, R/P an
//                     integer; P = R is the classic k-ary 3-level fat tree
//                     (R^3/4 HCAs). Ports and listing as fattree, with
//                     --port-split; switches declared with R ports.
//  director D R       D director chassis of 648 ports (core/topo/director.cc:
//                     18 spine and 36 line chips of 36 ports each) and R rack
//                     switches with HCAs on their low ports and up-links on
//                     the next ports, dealt over the directors' line chips.
//  dragonfly a p h g  g groups of a all-to-all routers, p HCAs and h global
//                     ports per router; every pair of groups is joined by
//                     floor(a*h/(g-1)) global links dealt round-robin over the
//                     routers (the Nue paper's a=12,p=6,h=6,g=15 gives 180
//                     switches and 1,515 links).
//  kautz d k          Kautz graph: strings of length k over d+1 symbols with
//                     no two equal neighbours, (d+1)*d^(k-1) switches; every
//                     arc s1..sk -> s2..sk x is one link, so the degree is 2d
//                     (arcs u->v and v->u give parallel links).
//
// `redundancy` r multiplies every switch-to-switch link (logical port p
// becomes physical ports (p-1)*r+1 .. p*r), as in the Nue paper's Table 1.
//
// Time: O(S + L) for the regular families; the random ones O(S * d) per
// attempt on average. Memory: O(S + L).
#pragma once

#include <cstdint>
#include <vector>

#include "core/topo/gen_fabric.h"

namespace keiro::topo {

// Fat trees: which ports of a switch go down (to HCAs) and which go up, and
// the order switches are listed in.
enum class PortSplit : uint8_t {
  kTopFirst,     // top level first, down ports 1..k, up ports k+1..2k
  kHcaLow,       // leaf level first, down ports and HCAs 1..k, up-links k+1..2k
  kHcaHigh,      // leaf level first, up-links 1..k, down ports and HCAs k+1..2k
  kInterleaved,  // leaf level first, down ports and HCAs odd, up-links even
};

struct TopoOptions {
  int hcas = -1;       // HCAs per switch (leaf switch for fattree); -1 = family default
  int radix = 36;      // switch port count (36 or 48)
  int redundancy = 1;  // copies of every switch-to-switch link
  uint64_t seed = 1;
  PortSplit port_split = PortSplit::kTopFirst;  // fattree and clos3
  int uplinks = -1;  // director: up-links per rack switch; -1 = as many as HCAs
};

GenFabric gen_random_regular(int n, int d, const TopoOptions &o);
GenFabric gen_lrt(int n_switches, int d, int r, const TopoOptions &o);
GenFabric gen_torus(const std::vector<int> &dims, bool mesh, const TopoOptions &o);
GenFabric gen_fat_tree(int k, int n, const TopoOptions &o);
GenFabric gen_clos3(int r, int pods, const TopoOptions &o);
GenFabric gen_dragonfly(int a, int p, int h, int g, const TopoOptions &o);
GenFabric gen_kautz(int d, int k, const TopoOptions &o);
GenFabric gen_director(int directors, int racks, const TopoOptions &o);

// Replaces every link by r links on ports (p-1)*r+1+c, c < r, and maps a
// reserved HCA port the same way (internal; used by the families).
void apply_redundancy(GenFabric &g, int r);

}  // namespace keiro::topo
