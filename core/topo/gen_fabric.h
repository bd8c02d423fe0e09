// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A generated fabric before it is written out: switches with their place in
// the family (description and position code), switch-to-switch links with
// port numbers, HCAs per switch. Written as an ibsim net file with
// switchguid=/caguid= directives so that the GUIDs say where a node sits:
//   switch GUID = 0x02 << 56 | family << 48 | position << 8
//   HCA node GUID = 0x01 << 56 | family << 48 | position << 8 | 2 * j  (HCA j of
//   the switch; its port GUID is node GUID + 1)
// with position < 2^40. Node ids are "S<i>" and "H<i>-<j>"; node descriptions
// carry the position in words ("torus 1,2,3", "lrt x=3 y=5", "hdn c0 u1 s2 n3").
// Switches are declared with the radix as port count (36 unless asked for 48);
// unused ports are simply not connected.
//
// Memory: O(S + L) for S switches and L links. Writing: O(S * P + L).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace keiro::topo {

class TopoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Family : uint8_t {
  kRandom = 1,
  kLrt = 2,
  kTorus = 3,
  kMesh = 4,
  kFatTree = 5,
  kDragonfly = 6,
  kKautz = 7,
  kHdn = 8,
  kDirector = 9,
  kClos3 = 10,
};

struct GenSwitch {
  std::string desc;    // node description
  uint64_t pos = 0;    // position code (family specific, < 2^40)
  int hcas = 0;        // HCAs attached
  int hca_port = 0;    // port of the first HCA (the rest follow); 0 = after the last used port
  int hca_step = 1;    // HCA j sits on port hca_port + j * hca_step
  int x = -1, y = -1;  // layout coordinates (LRT), -1 = none
  int ports = 0;       // port count of this switch; 0 = the fabric's radix
};

struct GenLink {
  int32_t a = -1, b = -1;
  int pa = 0, pb = 0;
};

struct GenFabric {
  Family family = Family::kRandom;
  int radix = 36;
  std::vector<std::string> notes;  // written as '#' lines at the top
  std::vector<GenSwitch> sw;
  std::vector<GenLink> links;

  int32_t add_switch(std::string desc, uint64_t pos);
  void link(int32_t a, int pa, int32_t b, int pb) { links.push_back({a, b, pa, pb}); }
  // Highest port used by links on each switch.
  std::vector<int> max_link_port() const;
  // Gives every switch h HCAs after its highest link port (or from hca_port
  // when a family reserved ports); checks every port number against the radix
  // and that no port is used twice. Throws TopoError naming the family's need.
  void place_hcas(int h, const std::string &what);
  void check_ports(const std::string &what) const;
  int hca_port_of(int32_t s, int j) const { return sw[s].hca_port + j * sw[s].hca_step; }
  uint64_t switch_guid(int32_t s) const;
  uint64_t hca_guid(int32_t s, int j) const;  // node GUID
  int num_hcas() const;
};

// Assigns ports in link order: each link takes the next free port on both
// ends (used by families without a port convention).
void number_ports_in_order(GenFabric &g);

}  // namespace keiro::topo
