// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The ports of a link-list file (opensm-subnet.lst, `ibnetdiscover -p`) and
// what each is linked to, for their readers: a port is linked to one peer
// however often the file lists the link, and a line that says otherwise is
// named by the line it contradicts. Not from a paper. Cost: O(log P) per
// call, 2 map entries per linked port (P ports).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace keiro::io {

// A port of a node: its node GUID (a CA port's GUID where the format shows
// no node) and port number.
struct PortKey {
  uint64_t guid;
  int port;
  bool operator<(const PortKey &o) const { return guid != o.guid ? guid < o.guid : port < o.port; }
  bool operator==(const PortKey &o) const { return guid == o.guid && port == o.port; }
};

class PortPeers {
 public:
  // Records that a is linked to b ({0, 0}: to nothing) on line. 0 when that
  // agrees with every earlier line, else the first line that said otherwise.
  int set(PortKey a, PortKey b, int line) {
    auto [it, fresh] = peer_.try_emplace(a, std::pair{b, line});
    return fresh || it->second.first == b ? 0 : it->second.second;
  }
  // set() for both ends of the link a-b.
  int link(PortKey a, PortKey b, int line) {
    if (int c = set(a, b, line)) return c;
    return set(b, a, line);
  }
  // True the first time the link a-b is passed here from either end: each
  // link is built once however often the file lists it.
  bool first_listing(PortKey a, PortKey b) {
    if (built_.count(a) || built_.count(b)) return false;
    built_[a] = built_[b] = true;
    return true;
  }

 private:
  std::map<PortKey, std::pair<PortKey, int>> peer_;  // port -> (peer port, line)
  std::map<PortKey, bool> built_;
};

}  // namespace keiro::io
