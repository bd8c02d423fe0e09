// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A generated fabric as the nodes of an ibsim net file, in file order: every
// switch and HCA with its GUID, node id, description, port count and the
// peers of its connected ports. write_net() (gen_fabric.h) writes a GenFabric
// through this list; relabel() writes the same fabric in another labelling.
//
// relabel(list, seed) permutes, deterministically per seed:
//  - the switch GUIDs among the switches and the HCA node GUIDs among the
//    HCAs (the GUID values stay the generator's, only who holds which changes;
//    an HCA's port GUID stays node GUID + 1 as ibsim gives it),
//  - the order of all nodes in the file (switches and HCAs mixed, as
//    ibnetdiscover lists them); node ids become S<i> / H<i> in the new order,
//  - the port numbers inside each switch: a permutation of 1..ports, applied
//    to switch-to-switch links and HCA links alike (unused ports move too).
// The fabric stays the same graph: node k of the result is node of_node[k] of
// the input, and port p of a switch was port of_port[k][p] of that node.
// LIDs and written port GUIDs (none in a generated list) stay as they are.
//
// net_list(fabric, ...) is the other way in: a fabric read from any file
// (io::read_topology) as such a list, which `keiro topo convert` writes so
// that ibsim can run it and keiro reads it back as the same fabric (the same
// `keiro topo show`): every switch with its GUID, description, port count and
// LID; one CA node per node GUID of the end ports, with the
// highest port number among them as port count; every link with its port
// numbers; every end port's LID. ibsim gives a CA's port p the GUID node + p
// and ignores ibnetdiscover's "[p](guid)"; keiro reads that form. A port
// whose GUID is not node + p (a ports report's CA, whose node GUID keiro
// takes from the port GUID) is written so: keiro reads it back as it was,
// OpenSM on ibsim sees node + p.
//
// Time: O(N + P) for N nodes and P ports (net_list of a fabric: O(N log N)).
// Memory: O(N + P).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/topo/gen_fabric.h"

namespace keiro::topo {

struct NetPeer {
  int port = 0;            // this node's port
  int32_t node = -1;       // index of the peer node in NetList::nodes
  int peer_port = 0;       // the peer's port
  uint64_t port_guid = 0;  // CA port: written as "[p](guid)"; 0 = none (node + p)
  uint16_t lid = 0;        // CA port: its LID, written as "lid L"; 0 = none
};

struct NetListNode {
  bool is_switch = false;
  uint64_t guid = 0;           // switch GUID / HCA node GUID
  std::string id;              // node id in the file ("S3", "H3-1")
  std::string desc;            // node description
  int ports = 0;               // declared port count
  uint16_t lid = 0;            // switch: port 0's LID, written as "lid L"; 0 = none
  int32_t gen_switch = -1;     // index in GenFabric::sw for switches, -1 for HCAs
  std::vector<NetPeer> peers;  // sorted by port
};

struct NetList {
  std::vector<std::string> notes;
  std::vector<NetListNode> nodes;
};

// The nodes of g: switches in GenFabric order, then the HCAs of every switch.
NetList net_list(const GenFabric &g);

// The nodes of a finalized fabric as described at the top (node ids
// "S-<guid>" and "H-<guid>" as ibnetdiscover names them; no notes). False,
// with err saying why, when a net file cannot carry the fabric: a router
// (ibsim and keiro read no router port LIDs from a net file, so its LID would
// change), a description longer than ibsim's 63 characters or holding a
// double quote, end ports of one node GUID with different descriptions.
bool net_list(const Fabric &f, NetList &out, std::string &err);

// The ibsim net file text of a node list (notes as '#' lines, then the nodes).
std::string write_net_list(const NetList &n);

struct Relabelled {
  NetList net;
  std::vector<int32_t> of_node;           // input node of every output node
  std::vector<std::vector<int>> of_port;  // [output node][new port] = old port (index 0 unused)
};

Relabelled relabel(const NetList &in, uint64_t seed);

// The layout file of g for a node list made from it (switch GUIDs as the list
// gives them).
std::string write_layout(const GenFabric &g, const NetList &n);

// The ibsim net file text of a generated fabric (through net_list()).
std::string write_net(const GenFabric &g);
// The layout file: one "GUID X Y NAME" line per switch that has coordinates.
std::string write_layout(const GenFabric &g);

}  // namespace keiro::topo
