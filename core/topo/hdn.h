// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Hierarchical dual-nets HDN(B, k, S) (Li and Chu, "Total Exchange Routing
// on Hierarchical Dual-Nets", NPC 2013, section 2).
//
// B = C_b1 x ... x C_br is a product of rings (a ring of 2 nodes is built as
// two parallel links, so it adds 2 to the degree as the paper counts it; a
// ring of 1 adds nothing). HDN(B, 0) = B. HDN(B, i) consists of 2 * M_i
// clusters, each a copy of HDN(B, i-1) (N_{i-1} nodes), in two classes of
// M_i = N_{i-1} / s_i clusters; a cluster is cut into M_i super-nodes SN^i of
// s_i nodes, each a sub-product of the rings (the set of rings is the level's
// super-node choice). A node of HDN(B, i) is (C, U, SN, N): class, cluster,
// super-node in the cluster, node in the super-node; the level-i cross-edge
// joins (C, U, SN, N) and (1-C, SN, U, N). Hence N_i = 2 N_{i-1}^2 / s_i and
// the degree is d0 + k.
//
// Re-indexing (section 3) as keiro defines it: a node of a cluster
// HDN(B, i-1) is its base node b in B plus the (class, cluster) pairs of
// levels 1..i-1. Its level-i node id N is the mixed-radix number of b's
// coordinates in the super-node's rings (lower ring index more significant);
// its super-node id is SN = upper * (n0 / s_i) + q, where q is the mixed-radix
// number of b's other coordinates and upper = the pairs of the lower levels,
// upper_j = (C_j * M_j + U_j) * (N_{j-1} / n0) + upper_{j-1}, upper_0 = 0. The
// serial number of a node of HDN(B, i) is C * M_i * N_{i-1} + U * N_{i-1} +
// SN * s_i + N, as in the paper's Table 4; switch ids in generated fabrics are
// the serial numbers at level k, and the names say "hdn cC uU sSN nN" of
// level k.
//
// A size s_i written as a number is the product of the rings of the subset
// with the smallest bitmask (lowest ring indices first) whose sizes multiply
// to s_i; "0+2" names rings 0 and 2 explicitly. describe() says which.
//
// Time: decode/encode O(k + r); generation O(N_k * (r + k^2)). Memory O(N_k).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"

namespace keiro::topo {

struct HdnSpec {
  std::vector<int> rings;       // b_1..b_r (each >= 1)
  int k = 1;                    // 1..4
  std::vector<uint32_t> masks;  // per level 1..k: bit j set = ring j in the super-node
  std::vector<uint64_t> sizes;  // s_1..s_k
};

// base "2x3x5", S "6" or "6,15" or "0+1,1+2" (one entry per level).
HdnSpec parse_hdn(const std::string &base, int k, const std::string &S);
// "level 1: super-node C2 x C3 (rings 0,1), s1 = 6" lines.
std::string describe(const HdnSpec &spec);
// N_k = (2 n0)^(2^k) / (2 prod s_i), computed level by level; 0 on overflow
// of 64 bits.
uint64_t hdn_node_count(uint64_t n0, const std::vector<uint64_t> &sizes);
// d0: 2 per ring of size >= 2.
int hdn_base_degree(const HdnSpec &spec);

class HdnIndex {
 public:
  static constexpr int kMaxLevels = 4;
  struct Coord {
    uint64_t c, u, sn, n;
  };
  // Throws TopoError when N_k exceeds max_nodes.
  HdnIndex(const HdnSpec &spec, uint64_t max_nodes);
  const HdnSpec &spec() const { return spec_; }
  uint64_t size() const { return count_[spec_.k]; }
  uint64_t count(int level) const { return count_[level]; }  // N_level
  uint64_t n0() const { return count_[0]; }
  // Level-i coordinates of node v (1 <= i <= k).
  Coord coord(uint64_t v, int level) const;
  // The node reached over v's level-i cross-edge.
  uint64_t partner(uint64_t v, int level) const;
  // The node with v's coordinates above level i and level-i coordinates c.
  uint64_t with_coord(uint64_t v, int level, const Coord &c) const;
  // Base coordinate of v in ring dim, and the next node along that ring.
  int base_coord(uint64_t v, int dim) const;
  uint64_t ring_next(uint64_t v, int dim) const;

 private:
  struct Canon {
    uint64_t b = 0;  // base node, mixed radix (ring 0 most significant)
    uint64_t c[kMaxLevels + 1] = {}, u[kMaxLevels + 1] = {};  // index 1..k
  };
  Canon decode(uint64_t v) const;
  uint64_t encode(const Canon &x) const;
  uint64_t upper(const Canon &x, int below_level) const;  // upper_{below_level}
  // Sets levels < i and b from the level-i local pair (sn, n).
  void set_local(Canon &x, int level, uint64_t sn, uint64_t n) const;
  uint64_t sub(uint64_t b, uint32_t mask) const;
  uint64_t quot(uint64_t b, uint32_t mask) const;
  uint64_t compose(uint32_t mask, uint64_t s, uint64_t q) const;

  HdnSpec spec_;
  std::vector<uint64_t> count_;   // N_0..N_k
  std::vector<uint64_t> stride_;  // ring strides in b
};

// The HDN as a switch fabric: ports 2j+1 / 2j+2 for ring j (+ / -), port
// 2r + i for the level-i cross-edge, HCAs after that.
GenFabric gen_hdn(const HdnSpec &spec, const TopoOptions &o);

}  // namespace keiro::topo
