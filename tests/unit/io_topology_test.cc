// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// io::read_topology(): ibsim net files, ibnetdiscover output, opensm-subnet.lst.
// The expected GUIDs and LIDs were observed by running ibsim 0.10 and OpenSM
// 3.3.23 on the same files (the subnet.lst below is such a run's dump).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/io/net_file.h"
#include "core/io/topology_file.h"

namespace keiro {
namespace {

int term_by_guid(const Fabric &f, uint64_t port_guid) {
  for (int t = 0; t < f.num_terminals(); ++t)
    if (f.terminal(t).port_guid == port_guid) return t;
  return -1;
}

// Parallel links S1-S2, a CA with two ports on two switches, a router, a CA as
// first node (so the SM sits on H0's port 1).
constexpr const char *kNet = R"(# keiro test fabric
Hca 2 "H0"
[1] "S1"[6]

Switch 8 "S1"
[1] "H1"[1]
[2] "H2"[1]
[3] "S2"[3]
[4] "S2"[4]
[5] "R1"[1]
[6] "H0"[1]

Switch 8 "S2"
[3] "S1"[3]
[4] "S1"[4]
[1] "H2"[2]

Hca 2 "H1"
[1] "S1"[1]

Hca 2 "H2" # "two port hca"
[1] "S1"[2]
[2] "S2"[1]

rtguid=0x300000
Rt 1 "R1"
[1] "S1"[5]
)";

TEST(IoTopology, NetFileGuidsLikeIbsim) {
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(kNet, "t.net", f, err)) << err;
  ASSERT_EQ(f.num_switches(), 2);
  EXPECT_EQ(f.sw(0).guid, 0x200000u);
  EXPECT_EQ(f.sw(1).guid, 0x200001u);
  EXPECT_EQ(f.sw(0).name, "S1");
  EXPECT_EQ(f.sw(0).num_ports, 8);
  ASSERT_EQ(f.num_terminals(), 5);
  // CAs from 0x100000, each taking ports + 1 GUIDs; port p = node + p.
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100001)).name, "H0");
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100004)).name, "H1");
  const TerminalInfo &h2p2 = f.terminal(term_by_guid(f, 0x100008));
  EXPECT_EQ(h2p2.name, "two port hca");
  EXPECT_EQ(h2p2.node_guid, 0x100006u);
  EXPECT_EQ(h2p2.port_num, 2);
  EXPECT_EQ(h2p2.sw, 1);
  EXPECT_EQ(h2p2.sw_port, 1);
  const TerminalInfo &r1 = f.terminal(term_by_guid(f, 0x300001));
  EXPECT_TRUE(r1.router);
  EXPECT_EQ(r1.sw, 0);
  EXPECT_EQ(r1.sw_port, 5);
  // Two parallel channels S1 -> S2.
  EXPECT_EQ(f.num_channels(), 4);
  EXPECT_EQ(f.degree(0), 2);
  EXPECT_EQ(f.peer(0, 3).kind, PortPeer::kSwitch);
  EXPECT_EQ(f.channel(f.peer(0, 4).id).dst_port, 4);
  EXPECT_EQ(f.peer(0, 7).kind, PortPeer::kNone);
}

// The LIDs OpenSM 3.3.23 gave this fabric under ibsim with lmc 2: the SM's
// port first (H0), then byte-swapped GUID order, blocks aligned to 4.
TEST(IoTopology, LidsInOpenSmOrderWithLmc) {
  Fabric f;
  std::string err;
  io::TopologyReadOptions opt;
  opt.lmc = 2;
  ASSERT_TRUE(io::parse_topology(kNet, "t.net", f, err, opt)) << err;
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100001)).lid, 4);   // H0, SM
  EXPECT_EQ(f.sw(0).lid, 8);                                 // S1 0x200000
  EXPECT_EQ(f.sw(1).lid, 9);                                 // S2 0x200001
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x300001)).lid, 12);  // R1
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100004)).lid, 16);  // H1
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100007)).lid, 20);  // H2 port 1
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100008)).lid, 24);  // H2 port 2
  EXPECT_EQ(f.terminal(0).lmc, 2);
  EXPECT_EQ(f.sw(0).lmc, 0);
  EXPECT_EQ(f.max_lid(), 27);
}

// Without lmc and with the SM on a switch that has a given LID (observed on
// ibsim: S1 keeps 7, the others count up from 1 in byte-swapped GUID order).
TEST(IoTopology, GivenLidsKeptOthersFilled) {
  const char *net = R"(Switch 8 "S1" # "switch one" lid 7
[1] "H1"[1]
[2] "H2"[1]
[3] "S2"[3]
[4] "S2"[4]
[5] "R1"[1]

Switch 8 "S2"
[3] "S1"[3]
[4] "S1"[4]
[1] "H2"[2]

Hca 2 "H1"
[1] "S1"[1]

Hca 2 "H2" # "two port hca"
[1] "S1"[2]
[2] "S2"[1]

Rt 1 "R1"
[1] "S1"[5]
)";
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(net, "t.net", f, err)) << err;
  EXPECT_EQ(f.sw(0).name, "switch one");
  EXPECT_EQ(f.sw(0).lid, 7);
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100001)).lid, 1);
  EXPECT_EQ(f.sw(1).lid, 2);
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100004)).lid, 3);
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100005)).lid, 4);
  // ibsim gives the router GUID 0 (no rtguid=); OpenSM ignores such a node.
  EXPECT_EQ(f.num_terminals(), 3);
  EXPECT_EQ(f.peer(0, 5).kind, PortPeer::kNone);
}

TEST(IoTopology, GuidDirectivesAndCaLids) {
  const char *net = R"(switchguid=0x5000
Switch 4 "A" # "sw a" enhanced port 0 lid 10 lmc 0
[1] "B"[1]
[2] "C"[1]

switchguid+0x10
Switch 4 "B"
[1] "A"[1]

caguid=010
Ca 1 "C" # "ca c"
[1] "A"[2] # lid 4 lmc 0 "sw a" lid 10 4xQDR
)";
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(net, "t.net", f, err)) << err;
  EXPECT_EQ(f.sw(0).guid, 0x5000u);
  EXPECT_EQ(f.sw(0).name, "sw a");
  EXPECT_EQ(f.sw(0).lid, 10);
  EXPECT_EQ(f.sw(1).guid, 0x5010u);  // relative to the last absolute base
  EXPECT_EQ(f.sw(1).name, "B");      // no description: the node id
  EXPECT_EQ(f.sw(1).lid, 1);
  EXPECT_EQ(f.terminal(0).node_guid, 8u);  // "010" is octal, as strtoull(.., 0) reads it
  EXPECT_EQ(f.terminal(0).port_guid, 9u);
  EXPECT_EQ(f.terminal(0).lid, 4);
}

// ibsim reads a CA port LID only when "lid" follows the last double quote.
TEST(IoTopology, CaLidNeedsTrailingLidLikeIbsim) {
  std::vector<io::NetNode> nodes;
  std::string err;
  ASSERT_TRUE(io::parse_net_file("Ca 1 \"C\"\n[1] \"A\"[2] # lid 4 \"x\"\n", "t", nodes, err));
  EXPECT_EQ(nodes[0].ports[0].lid, 0);
  nodes.clear();
  ASSERT_TRUE(io::parse_net_file("Ca 1 \"C\"\n[1] \"A\"[2] # lid 4\n", "t", nodes, err));
  EXPECT_EQ(nodes[0].ports[0].lid, 4);
}

// ibnetdiscover output as taken from ibsim (GUIDs from the directives, port
// GUIDs in parentheses, LIDs in the comments).
TEST(IoTopology, IbnetdiscoverOutput) {
  const char *text = R"(#
# Topology file: generated on Sun Nov 22 05:38:23 2026
#
# Initiated from node 0000000000200000 port 0000000000200000

vendid=0x0
devid=0x0
sysimgguid=0x200001
switchguid=0x200001(200001)
Switch	8 "S-0000000000200001"		# "S2" base port 0 lid 2 lmc 0
[1]	"H-0000000000100003"[2](100005) 		# "two port hca" lid 4 4xSDR
[3]	"S-0000000000200000"[3]		# "switch one" lid 7 4xSDR
[4]	"S-0000000000200000"[4]		# "switch one" lid 7 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x200000
switchguid=0x200000(200000)
Switch	8 "S-0000000000200000"		# "switch one" base port 0 lid 7 lmc 0
[1]	"H-0000000000100000"[1](100001) 		# "H1" lid 1 4xSDR
[2]	"H-0000000000100003"[1](100004) 		# "two port hca" lid 3 4xSDR
[3]	"S-0000000000200001"[3]		# "S2" lid 2 4xSDR
[4]	"S-0000000000200001"[4]		# "S2" lid 2 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x100003
caguid=0x100003
Ca	2 "H-0000000000100003"		# "two port hca"
[1](100004) 	"S-0000000000200000"[2]		# lid 3 lmc 0 "switch one" lid 7 4xSDR
[2](100005) 	"S-0000000000200001"[1]		# lid 4 lmc 0 "S2" lid 2 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x100000
caguid=0x100000
Ca	2 "H-0000000000100000"		# "H1"
[1](100001) 	"S-0000000000200000"[1]		# lid 1 lmc 0 "switch one" lid 7 4xSDR
)";
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::parse_topology(text, "ibnd.out", f, err)) << err;
  ASSERT_EQ(f.num_switches(), 2);
  EXPECT_EQ(f.sw(0).guid, 0x200001u);
  EXPECT_EQ(f.sw(0).name, "S2");
  EXPECT_EQ(f.sw(0).lid, 2);
  EXPECT_EQ(f.sw(1).lid, 7);
  ASSERT_EQ(f.num_terminals(), 3);
  const TerminalInfo &t = f.terminal(term_by_guid(f, 0x100005));
  EXPECT_EQ(t.lid, 4);
  EXPECT_EQ(t.sw, 0);
  EXPECT_EQ(t.sw_port, 1);
  EXPECT_EQ(f.terminal(term_by_guid(f, 0x100001)).lid, 1);
  EXPECT_EQ(f.num_channels(), 4);
}

// opensm-subnet.lst that OpenSM wrote for kNet with lmc 2.
constexpr const char *kSubnetLst =
    R"({ CA-SM Ports:02 SystemGUID:0000000000100000 NodeGUID:0000000000100000 PortGUID:0000000000100001 VenID:000000 DevID:0000 Rev:000000A1 {H0} LID:0004 PN:01 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:06 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:01 } { CA Ports:02 SystemGUID:0000000000100003 NodeGUID:0000000000100003 PortGUID:0000000000100004 VenID:00000000 DevID:0000 Rev:000000A1 {H1} LID:0010 PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:02 } { CA Ports:02 SystemGUID:0000000000100006 NodeGUID:0000000000100006 PortGUID:0000000000100007 VenID:00000000 DevID:0000 Rev:000000A1 {two port hca} LID:0014 PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:03 } { SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:00000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:03 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:04 } { SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:00000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:04 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:05 } { Rt Ports:01 SystemGUID:0000000000300000 NodeGUID:0000000000300000 PortGUID:0000000000300001 VenID:00000000 DevID:0000 Rev:000000A1 {R1} LID:000C PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:06 } { CA-SM Ports:02 SystemGUID:0000000000100000 NodeGUID:0000000000100000 PortGUID:0000000000100001 VenID:00000000 DevID:0000 Rev:000000A1 {H0} LID:0004 PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ Rt Ports:01 SystemGUID:0000000000300000 NodeGUID:0000000000300000 PortGUID:0000000000300001 VenID:000000 DevID:0000 Rev:000000A1 {R1} LID:000C PN:01 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:05 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:01 } { CA Ports:02 SystemGUID:0000000000100006 NodeGUID:0000000000100006 PortGUID:0000000000100008 VenID:00000000 DevID:0000 Rev:000000A1 {two port hca} LID:0018 PN:02 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:03 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:03 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:04 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:04 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ CA Ports:02 SystemGUID:0000000000100003 NodeGUID:0000000000100003 PortGUID:0000000000100004 VenID:000000 DevID:0000 Rev:000000A1 {H1} LID:0010 PN:01 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ CA Ports:02 SystemGUID:0000000000100006 NodeGUID:0000000000100006 PortGUID:0000000000100007 VenID:000000 DevID:0000 Rev:000000A1 {two port hca} LID:0014 PN:01 } { SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:00000000 DevID:0000 Rev:000000A1 {S1} LID:0008 PN:02 } PHY=4x LOG=ACT SPD=2.5)"
    "\n"
    R"({ CA Ports:02 SystemGUID:0000000000100006 NodeGUID:0000000000100006 PortGUID:0000000000100008 VenID:000000 DevID:0000 Rev:000000A1 {two port hca} LID:0018 PN:02 } { SW Ports:08 SystemGUID:0000000000200001 NodeGUID:0000000000200001 PortGUID:0000000000200001 VenID:00000000 DevID:0000 Rev:000000A1 {S2} LID:0009 PN:01 } PHY=4x LOG=ACT SPD=2.5)"
    "\n";

TEST(IoTopology, SubnetLstMatchesNetFile) {
  Fabric a, b;
  std::string err;
  io::TopologyReadOptions opt;
  opt.lmc = 2;
  ASSERT_TRUE(io::parse_topology(kNet, "t.net", a, err, opt)) << err;
  ASSERT_TRUE(io::parse_topology(kSubnetLst, "opensm-subnet.lst", b, err, opt)) << err;
  ASSERT_EQ(a.num_switches(), b.num_switches());
  ASSERT_EQ(a.num_terminals(), b.num_terminals());
  EXPECT_EQ(a.num_channels(), b.num_channels());
  for (int s = 0; s < b.num_switches(); ++s) {
    const int sa = a.find_switch(b.sw(s).guid);
    ASSERT_GE(sa, 0);
    EXPECT_EQ(a.sw(sa).lid, b.sw(s).lid);
    EXPECT_EQ(a.sw(sa).name, b.sw(s).name);
    EXPECT_EQ(a.sw(sa).num_ports, b.sw(s).num_ports);
    for (int p = 1; p <= b.sw(s).num_ports; ++p) EXPECT_EQ(a.peer(sa, p).kind, b.peer(s, p).kind);
  }
  for (int t = 0; t < b.num_terminals(); ++t) {
    const int ta = term_by_guid(a, b.terminal(t).port_guid);
    ASSERT_GE(ta, 0);
    EXPECT_EQ(a.terminal(ta).lid, b.terminal(t).lid);  // offline LIDs == OpenSM's
    EXPECT_EQ(a.terminal(ta).router, b.terminal(t).router);
    EXPECT_EQ(a.sw(a.terminal(ta).sw).guid, b.sw(b.terminal(t).sw).guid);
    EXPECT_EQ(a.terminal(ta).sw_port, b.terminal(t).sw_port);
    EXPECT_EQ(b.terminal(t).lmc, 2);
  }
}

std::string error_of(const std::string &text) {
  Fabric f;
  std::string err;
  EXPECT_FALSE(io::parse_topology(text, "bad.net", f, err));
  return err;
}

TEST(IoTopology, ErrorsNameFileAndLine) {
  EXPECT_EQ(error_of("Switch 4 \"A\"\n[1] \"B\"[2]\n\nSwitch 4 \"B\"\n[1] \"A\"[1]\n"),
            "bad.net:2: port 2 of node \"B\" is not connected back to node \"A\" port 1");
  EXPECT_EQ(error_of("Switch 4 \"A\"\n[1] \"X\"[1]\n"), "bad.net:2: can't find remote node \"X\"");
  EXPECT_EQ(error_of("Switch 2 \"A\"\n[3] \"B\"[1]\n"),
            "bad.net:2: bad port number 3 for node \"A\" with 2 ports");
  EXPECT_EQ(error_of("Switch 4 \"A\"\n[1] \"B\"[1]\nSwitch 4 \"B\"\n[1] \"A\"[1]\n"),
            "bad.net:3: line right after the port list of node \"A\": ibsim needs a blank line "
            "between records");
  EXPECT_EQ(error_of("Switch 1 \"A\"\n[1] \"B\"[1]\n[2] \"B\"[2]\n"),
            "bad.net:3: port line outside a node record (more port lines than the node has "
            "ports, or a missing header)");
  EXPECT_EQ(error_of("Switch 4 \"A\"\n\nSwitch 4 \"A\"\n"),
            "bad.net:3: node id \"A\" already exists");
  EXPECT_EQ(error_of("switchguid=0x10\nSwitch 4 \"A\"\n\nswitchguid=0x10\nSwitch 4 \"B\"\n"),
            "bad.net:5: node GUID 0x10 already exists");
  EXPECT_EQ(error_of("Switch \"A\"\n"), "bad.net:1: node header without a port count");
  EXPECT_EQ(error_of("Hca 1 \"H\"\n[1] \"G\"[1]\n\nHca 1 \"G\"\n[1] \"H\"[1]\n"),
            "bad.net:2: link between two CA/router ports is not supported");
  EXPECT_EQ(error_of("Switch 4 \"A\"\n[1] \"A\"[2]\n[2] \"A\"[1]\n"),
            "bad.net:2: loopback link on switch \"A\" is not supported");
  EXPECT_EQ(error_of("Switch 4 \"A\"\n[1] \"B\"[1]\n[1] \"B\"[2]\n"),
            "bad.net:3: port 1 of node \"A\" is listed twice");
  EXPECT_EQ(error_of("# only a comment\n"), "bad.net: no nodes");
  EXPECT_NE(error_of("{ SW Ports:08 NodeGUID:1 }\n").find("bad.net:1: malformed"),
            std::string::npos);
}

TEST(IoTopology, ReadsFilesAndIncludes) {
  char dir[] = "/tmp/keiro_io_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string d = dir;
  std::ofstream(d + "/part.net") << "Switch 4 \"B\"\n[1] \"A\"[1]\n";
  std::ofstream(d + "/main.net") << "Switch 4 \"A\"\n[1] \"B\"[1]\n\ninclude \"part.net\"\n";
  Fabric f;
  std::string err;
  ASSERT_TRUE(io::read_topology(d + "/main.net", f, err)) << err;
  EXPECT_EQ(f.num_switches(), 2);
  EXPECT_EQ(f.num_channels(), 2);
  EXPECT_FALSE(io::read_topology(d + "/missing.net", f, err));
  EXPECT_EQ(err, d + "/missing.net: cannot open");
  std::remove((d + "/part.net").c_str());
  std::remove((d + "/main.net").c_str());
  std::remove(dir);
}

}  // namespace
}  // namespace keiro
