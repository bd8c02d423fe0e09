// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The ports report of `ibnetdiscover -p` (core/io/ports_report.h), read
// through io::parse_topology() as keiro's tools read it: a hand-written
// snippet in the exact layout of infiniband-diags' dump_ports_report (with
// the "DR path" progress lines of -s) for nodes, links, ports, LIDs, the
// deduplication of links listed from both ends and the ports without a link;
// then the errors, each naming its line. The real file (a 25-chip director)
// is in tests/unit/real_fabrics_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "core/io/ports_report.h"
#include "core/io/topology_file.h"

namespace keiro {
namespace {

// Two 5-port switches (leaf1, leaf2) with two parallel links; a dual-port
// HCA with one port on each (port GUIDs ...0101 and ...0102); a router port
// on leaf1; a switch port and an HCA port without a link; every link listed
// from both ends, as ibnetdiscover does.
constexpr const char *kReport =
    "DR path slid 0; dlid 0; 0 -> new Channel Adapter {0002c90300000100} portnum 1 lid 0-0 \"\"\n"
    "DR path slid 0; dlid 0; 0,1 -> new Switch {0002c90300001010} portnum 0 lid 0-0 \"\"\n"
    "SW     2  5 0x0002c90300001010 4x QDR - RT     7  1 0x0002c90300000301 ( 'leaf1' - "
    "'gw01' )\n"
    "SW     2  4 0x0002c90300001010 4x SDR                                    'leaf1'\n"
    "SW     2  3 0x0002c90300001010 4x QDR - SW     3  3 0x0002c90300001020 ( 'leaf1' - "
    "'leaf2' )\n"
    "SW     2  2 0x0002c90300001010 4x QDR - SW     3  2 0x0002c90300001020 ( 'leaf1' - "
    "'leaf2' )\n"
    "SW     2  1 0x0002c90300001010 4x QDR - CA     5  1 0x0002c90300000101 ( 'leaf1' - "
    "'node01 HCA-1' )\n"
    "SW     3  5 0x0002c90300001020 4x QDR - CA     6  2 0x0002c90300000102 ( 'leaf2' - "
    "'node01 HCA-1' )\n"
    "SW     3  4 0x0002c90300001020 4x SDR                                    'leaf2'\n"
    "SW     3  3 0x0002c90300001020 4x QDR - SW     2  3 0x0002c90300001010 ( 'leaf2' - "
    "'leaf1' )\n"
    "SW     3  2 0x0002c90300001020 4x QDR - SW     2  2 0x0002c90300001010 ( 'leaf2' - "
    "'leaf1' )\n"
    "SW     3  1 0x0002c90300001020 4x SDR                                    'leaf2'\n"
    "CA     6  2 0x0002c90300000102 4x QDR - SW     3  5 0x0002c90300001020 ( 'node01 HCA-1' - "
    "'leaf2' )\n"
    "CA     5  1 0x0002c90300000101 4x QDR - SW     2  1 0x0002c90300001010 ( 'node01 HCA-1' - "
    "'leaf1' )\n"
    "CA     0  1 0x0002c90300000201 4x SDR                                    'node02 HCA-1'\n"
    "RT     7  1 0x0002c90300000301 4x QDR - SW     2  5 0x0002c90300001010 ( 'gw01' - "
    "'leaf1' )\n";

bool parse(const std::string &text, Fabric &f, std::string &err,
           const io::TopologyReadOptions &opt = {}) {
  return io::parse_topology(text, "snippet", f, err, opt);
}

int32_t term_by_port_guid(const Fabric &f, uint64_t g) {
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    if (f.terminal(t).port_guid == g) return t;
  return -1;
}

TEST(IoPortsReport, DetectsTheFormat) {
  EXPECT_TRUE(io::is_ports_report_line(
      "SW    18  1 0x00066a00ec002dd9 4x SDR                                    'L112'"));
  EXPECT_TRUE(io::is_ports_report_line("  CA   182  1 0x001175000077d284 4x QDR - SW 18 18 0x1"));
  EXPECT_FALSE(io::is_ports_report_line("Switch 36 \"S-0008f10500200b50\" # \"sw\" lid 9"));
  EXPECT_FALSE(io::is_ports_report_line("Ca 2 \"H-0002c90300000100\""));
  EXPECT_FALSE(io::is_ports_report_line("{ SW Ports:24 SystemGUID:0002c90000000001"));
  EXPECT_FALSE(io::is_ports_report_line("switchguid=0x2c90300001010"));
  EXPECT_TRUE(io::is_discovery_progress_line("DR path slid 0; dlid 0; 0,1 -> new Switch {1}"));
  EXPECT_FALSE(io::is_discovery_progress_line("SW 2 1 0x1 4x QDR 'a'"));
}

TEST(IoPortsReport, NodesLinksAndPorts) {
  Fabric f;
  std::string err;
  ASSERT_TRUE(parse(kReport, f, err)) << err;
  ASSERT_EQ(f.num_switches(), 2);
  // leaf1 is mentioned first (line 3), then leaf2.
  EXPECT_EQ(f.sw(0).guid, 0x0002c90300001010u);
  EXPECT_EQ(f.sw(0).name, "leaf1");
  EXPECT_EQ(f.sw(0).lid, 2);
  EXPECT_EQ(f.sw(1).name, "leaf2");
  EXPECT_EQ(f.sw(1).lid, 3);
  for (int32_t s = 0; s < 2; ++s) EXPECT_EQ(f.sw(s).num_ports, 5);
  // Two parallel links, each listed from both ends: 2 links, 4 channels.
  EXPECT_EQ(f.num_channels(), 4);
  for (const Channel &c : f.channels()) EXPECT_EQ(c.src_port, c.dst_port);
  // Unlinked ports are skipped.
  EXPECT_EQ(f.peer(0, 4).kind, PortPeer::kNone);
  EXPECT_EQ(f.peer(1, 4).kind, PortPeer::kNone);
  EXPECT_EQ(f.peer(1, 1).kind, PortPeer::kNone);
  // The dual-port HCA: two end ports, each its own node keyed by its port
  // GUID; the unlinked HCA port (node02) is no end port.
  ASSERT_EQ(f.num_terminals(), 3);
  EXPECT_EQ(term_by_port_guid(f, 0x0002c90300000201), -1);
  const int32_t p1 = term_by_port_guid(f, 0x0002c90300000101);
  const int32_t p2 = term_by_port_guid(f, 0x0002c90300000102);
  ASSERT_GE(p1, 0);
  ASSERT_GE(p2, 0);
  EXPECT_EQ(f.terminal(p1).node_guid, 0x0002c90300000101u);
  EXPECT_EQ(f.terminal(p2).node_guid, 0x0002c90300000102u);
  EXPECT_EQ(f.terminal(p1).port_num, 1);
  EXPECT_EQ(f.terminal(p2).port_num, 2);
  EXPECT_EQ(f.terminal(p1).name, "node01 HCA-1");
  EXPECT_EQ(f.terminal(p1).lid, 5);
  EXPECT_EQ(f.terminal(p2).lid, 6);
  EXPECT_EQ(f.terminal(p1).sw, 0);
  EXPECT_EQ(f.terminal(p1).sw_port, 1);
  EXPECT_EQ(f.terminal(p2).sw, 1);
  EXPECT_EQ(f.terminal(p2).sw_port, 5);
  const int32_t rt = term_by_port_guid(f, 0x0002c90300000301);
  ASSERT_GE(rt, 0);
  EXPECT_TRUE(f.terminal(rt).router);
  EXPECT_EQ(f.terminal(rt).lid, 7);
  EXPECT_EQ(f.terminal(rt).sw_port, 5);
  EXPECT_EQ(f.max_lid(), 7);
}

// Each link once even when only one end lists it; comments and CRLF line
// ends are accepted; the LID 0 of an unconfigured fabric is given as OpenSM
// would, serving first the node named by sm_node.
TEST(IoPortsReport, OneSidedLinksCommentsAndMissingLids) {
  const std::string text =
      "# ibnetdiscover -p of an unconfigured fabric\r\n\r\n"
      "SW     0  2 0x0000000000000b01 4x QDR - SW     0  2 0x0000000000000b02 ( 'a' - 'b' )\r\n"
      "SW     0  1 0x0000000000000b01 4x QDR - CA     0  1 0x0000000000000c01 ( 'a' - 'h1' )\r\n"
      "CA     0  1 0x0000000000000c02 4x QDR - SW     0  1 0x0000000000000b02 ( 'h2' - 'b' )\r\n";
  io::TopologyReadOptions opt;
  opt.sm_node = "h2";
  Fabric f;
  std::string err;
  ASSERT_TRUE(parse(text, f, err, opt)) << err;
  ASSERT_EQ(f.num_switches(), 2);
  EXPECT_EQ(f.num_channels(), 2);
  ASSERT_EQ(f.num_terminals(), 2);
  EXPECT_EQ(f.terminal(term_by_port_guid(f, 0xc02)).lid, 1);  // the SM's port first
  EXPECT_EQ(f.max_lid(), 4);
  opt.sm_node = "nobody";
  EXPECT_FALSE(parse(text, f, err, opt));
  EXPECT_EQ(err, "snippet: SM node 'nobody' not found");
}

// Every rejected input names the file and line and says what is wrong.
TEST(IoPortsReport, ErrorsNameTheLine) {
  const std::string sw_a = "SW     2  1 0x0000000000000a01 4x QDR ";
  const struct {
    std::string text, error;
  } cases[] = {
      {"SW 2 1 0x0000000000000a01 4x QDR 'a'\n" + sw_a +
           "- SW     3 xx 0x0000000000000a02 ( 'a' - 'b' )\n",
       "snippet:2: malformed ibnetdiscover -p line: peer: bad port number 'xx'"},
      {"# header\n\n" + sw_a + "- SW     3  1 0x0000000000000a02 ( 'a' - 'b'\n",
       "snippet:3: malformed ibnetdiscover -p line: expected ( 'description' - 'peer "
       "description' )"},
      {sw_a + "- SW     3  1 0x0000000000000a02 ( 'a' 'b' )\n",
       "snippet:1: malformed ibnetdiscover -p line: expected ' - ' between the two descriptions"},
      {"SW     2  1 0x0000000000000a01 4x\n",
       "snippet:1: malformed ibnetdiscover -p line: missing link speed"},
      {"SW     2  0 0x0000000000000a01 4x QDR 'a'\n",
       "snippet:1: malformed ibnetdiscover -p line: bad port number '0'"},
      {"SW 2 1 0x0000000000000a01 4x QDR 'a'\n?? 3 1 0x0000000000000a02 4x QDR 'x'\n",
       "snippet:2: malformed ibnetdiscover -p line: expected node type SW, CA or RT, found '?\?'"},
      {"SW 2 1 0x0000000000000a01 4x QDR 'a'\nSW 2 1 0x0000000000000a01 4x QDR garbage\n",
       "snippet:2: malformed ibnetdiscover -p line: expected '- PEER' or the 'description' of an "
       "unlinked port"},
      {sw_a + "- SW 3 1 0x0000000000000a02 ( 'a' - 'b' )\n" + sw_a +
           "- SW 3 2 0x0000000000000a02 ( 'a' - 'b' )\n",
       "snippet:2: port 1 of 0x0000000000000a01 contradicts line 1"},
      {sw_a + "- SW 3 1 0x0000000000000a02 ( 'a' - 'b' )\n" +
           "SW     3  1 0x0000000000000a02 4x QDR 'b'\n",
       "snippet:2: port 1 of 0x0000000000000a02 contradicts line 1"},
      {sw_a + "- SW 3 1 0x0000000000000a02 ( 'a' - 'b' )\n" +
           "CA     3  1 0x0000000000000a02 4x QDR 'b'\n",
       "snippet:2: CA 0x0000000000000a02 is a SW on line 1"},
      {sw_a + "- SW 3 1 0x0000000000000a02 ( 'a' - 'b' )\nSW 4 2 0x0000000000000a02 4x QDR 'b'\n",
       "snippet:2: SW 0x0000000000000a02 has LID 4 here, 3 on line 1"},
      {"CA 2 1 0x0000000000000c01 4x QDR - CA 3 1 0x0000000000000c02 ( 'h1' - 'h2' )\n",
       "snippet:1: link between two CA/router ports is not supported"},
      {sw_a + "- SW 2 2 0x0000000000000a01 ( 'a' - 'a' )\n",
       "snippet:1: loopback link on switch 0x0000000000000a01 is not supported"},
      {"# only comments\nDR path slid 0; dlid 0; 0 -> new Switch {1} portnum 0 lid 0-0 \"\"\n",
       "snippet:2: no port lines"},
  };
  for (const auto &c : cases) {
    Fabric f;
    std::string err;
    EXPECT_FALSE(io::parse_ports_report(c.text, "snippet", f, err, {})) << c.text;
    EXPECT_EQ(err, c.error) << c.text;
    if (c.error.find("no port lines") != std::string::npos) continue;  // a net file then
    EXPECT_FALSE(parse(c.text, f, err)) << c.text;
    EXPECT_EQ(err, c.error) << c.text;
  }
}

}  // namespace
}  // namespace keiro
