// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Multicast tables and groups in OpenSM's dump formats (OpenSM 3.3.23,
// osm_dump.c and osm_sa.c):
//
// opensm.mcfdbs (written with log flag 0x40 after every multicast change):
//   Switch 0x0002c90000000001
//   LID    : Out Port(s)
//   0xC000 : 0x001  0x003  0x000
// one "Switch" block per switch with entries, one line per MLID listing the
// ports whose mask bit is set (0x000: the switch itself).
//
// opensm-sa.dump (sa_db_dump TRUE), the multicast part:
//   MC Group 0xc000 (well known): mgid=0x..:0x.. port_gid=... qkey=... mlid=0xc000
//     mtu=... tclass=... pkey=... rate=... pkt_life=... sl_flow_hop=0x00000000 ...
//   mcm_port: port_gid=0xfe80000000000000:0x0002c90000000002 scope_state=0x01 ...
// (one line per record); the SL is the top 4 bits of sl_flow_hop, a member's
// port GUID is the interface id of its port GID. Several records may share an
// MLID: their members and SLs are merged into one Group. Other records
// (services, InformInfo) are skipped.
//
// Readers map GUIDs onto the Fabric; unknown ones are counted and skipped.
// Time and memory O(size of the file + S + T).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/mcast/group.h"

namespace keiro::io {

inline constexpr const char *kMcfdbsFileName = "opensm.mcfdbs";
inline constexpr const char *kSaDumpFileName = "opensm-sa.dump";

struct McastReadReport {
  int unknown_switches = 0;  // Switch blocks / members for GUIDs the fabric lacks
  int unknown_ports = 0;
  int entries = 0;  // (switch, MLID) lines / member lines applied
};

// Trees ascending by MLID, masks ascending by switch; root unknown (-1).
bool read_mcfdbs(std::istream &in, const std::string &name, const Fabric &f,
                 std::vector<mcast::Tree> &out, McastReadReport &rep, std::string &err);
void write_mcfdbs(std::ostream &out, const Fabric &f, const std::vector<mcast::Tree> &trees);

// `ibroute -M LID` output of any number of switches (infiniband-diags:
// "Multicast mlids [...] of switch Lid L guid 0x... (...):", a "Ports:" row
// of port numbers two columns apart, then one row per MLID with an 'x'
// under every port of its mask), as the multicast tables of a live fabric.
bool read_ibroute_mfts(std::istream &in, const std::string &name, const Fabric &f,
                       std::vector<mcast::Tree> &out, McastReadReport &rep, std::string &err);

// Groups ascending by MLID.
bool read_sa_groups(std::istream &in, const std::string &name, const Fabric &f,
                    std::vector<mcast::Group> &out, McastReadReport &rep, std::string &err);
void write_sa_groups(std::ostream &out, const Fabric &f, const std::vector<mcast::Group> &groups);

}  // namespace keiro::io
