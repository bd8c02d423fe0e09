// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The ibsim net file / ibnetdiscover format, read with the rules of ibsim 0.10
// (Debian 12's ibsim-utils; sim_net.c):
//  - top-level lines are recognised by their first characters: "Switch",
//    "Hca"/"Ca", "Rt" start a node record; "switchguid", "hcaguids"/"caguid",
//    "rtguid" set the next GUID of that node type ("=V" absolute, "+V" relative
//    to the last absolute value; numbers in C notation: 0x hex, 0 octal);
//    "module" sets a node id prefix; "include "file"" reads another file;
//    vendid/devid/sysimgguid/width/speed/extspeed/pdebug and any other line
//    are ignored;
//  - a header is TYPE COUNT "id" [# "desc" | # desc] [enhanced|base port 0]
//    [lid L] [lmc M]; a record then holds up to COUNT port lines
//    "[p] "remote"[rp]" (rp defaults to 1) and '#' comment lines, and ends at
//    the first other line, which ibsim swallows;
//  - without directives ibsim numbers nodes sequentially: CAs from 0x100000,
//    switches from 0x200000, routers from 0; a switch takes one GUID, a CA or
//    router with P ports takes P + 1 (its port p has GUID node + p);
//  - a CA port's LID is the first "lid N" after the remote id, taken only
//    when some "lid" follows the last double quote of the line (ibsim's regular
//    expression); a switch's LID is "lid N" after its description; routers'
//    port LIDs are not read.
// keiro is stricter than ibsim where ibsim would silently lose data: a node
// header right after a port list (no blank line), a port line outside a record,
// a port listed twice, port aliases ('@'), "do" commands and lines longer than
// ibsim's 255 characters are errors.
//
// Time: O(L) for L lines plus O(N log N) to index node ids. Memory: O(file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keiro::io {

struct NetPort {
  uint8_t port = 0;
  std::string remote;  // node id of the peer (module prefix applied)
  int remote_port = 1;
  uint64_t guid = 0;  // "(guid)" after a CA/router port number; 0 = none given
  uint16_t lid = 0;   // CA port lines only; 0 = none given
  std::string file;
  int line = 0;
};

struct NetNode {
  enum Type : uint8_t { kCa, kSwitch, kRouter };
  Type type = kCa;
  std::string id;    // node id (module prefix applied)
  std::string desc;  // node description (id when the file gives none)
  int num_ports = 0;
  uint64_t guid = 0;  // as ibsim computes it
  uint16_t lid = 0;   // switch port 0 LID; 0 = none given
  std::string file;
  int line = 0;
  std::vector<NetPort> ports;  // in file order
};

// Parses text (named name for messages; include files are looked up as given,
// then relative to name's directory). Appends to nodes. On error returns false
// with err = "file:line: message".
bool parse_net_file(std::string_view text, const std::string &name, std::vector<NetNode> &nodes,
                    std::string &err);

}  // namespace keiro::io
