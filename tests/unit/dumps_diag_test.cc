// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Parsers of infiniband-diags output and the LMC guess from LFT dumps, on
// text as the Debian 12 tools print it (captured on ibsim).
#include <gtest/gtest.h>

#include "core/io/diag_output.h"
#include "core/io/dump_dir.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

TEST(DiagOutput, SaqueryPathRecords) {
  const std::string text =
      "PathRecord dump:\n"
      "\t\tservice_id..............0x0000000000000000\n"
      "\t\tdgid....................fe80::10:5\n"
      "\t\tdlid....................7\n"
      "\t\tslid....................5\n"
      "\t\tnum_path_revers.........0x80\n"
      "\t\tsl......................0x3\n"
      "\t\tmtu.....................0x84\n"
      "PathRecord dump:\n"
      "\t\tdlid....................8\n"
      "\t\tslid....................5\n"
      "\t\tsl......................0xc\n"
      "PathRecord dump:\n"
      "\t\tdlid....................0\n"
      "\t\tslid....................0\n"
      "\t\tsl......................0x0\n";
  check::SourceLidSls sls;
  sls.reset(8);
  std::string err;
  EXPECT_EQ(io::parse_saquery_paths(text, "sa", sls, err), 2);
  EXPECT_EQ(sls.get(5, 7), 3);
  EXPECT_EQ(sls.get(5, 8), 12);
  EXPECT_EQ(sls.get(7, 5), -1);
  EXPECT_EQ(io::parse_saquery_paths("PathRecord dump:\n\t\tsl......................zz\n", "bad",
                                    sls, err),
            -1);
  EXPECT_EQ(err, "bad:2: malformed PathRecord field");
}

TEST(DiagOutput, SmpquerySl2vl) {
  const Fabric f = fixtures::ca_ring(4);  // S2 is LID 2, H1 LID 5
  Routing r;
  r.reset(f);
  const std::string sw =
      "# SL2VL table: Lid 2\n"
      "#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\n"
      "ports: in  0, out  3: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n"
      "ports: in  1, out  3: | 1| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6|15|\n";
  std::string err;
  EXPECT_EQ(io::parse_smpquery_sl2vl(sw, "smp", f, r, err), 2);
  EXPECT_EQ(r.vl(1, 0, 3, 9), 1);
  EXPECT_EQ(r.vl(1, 1, 3, 0), 1);
  EXPECT_EQ(r.vl(1, 1, 3, 15), 15);
  EXPECT_EQ(r.vl(0, 1, 3, 9), 0);  // another switch untouched
  const std::string ca =
      "# SL2VL table: Lid 5\n"
      "#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\n"
      "ports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n";
  EXPECT_EQ(io::parse_smpquery_sl2vl(ca, "smp", f, r, err), 1);
  EXPECT_EQ(r.terminal_vl(0, 10), 2);
  EXPECT_EQ(io::parse_smpquery_sl2vl("# SL2VL table: Lid 2\nports: in  0, out  3: | 0| 1|\n", "x",
                                     f, r, err),
            -1);
}

// smpquery portinfo LID PORT, filtered to the lines keiro check --live keeps
// (grep '^# Port info|^OperVLs'), as ibsim answers them; plus a CA's LID and
// a port the switch lacks, which are skipped.
TEST(DiagOutput, SmpqueryOperVls) {
  const Fabric f = fixtures::ca_ring(4);  // switch LIDs 1..4, CA LIDs 5..8
  const std::string text =
      "# Port info: Lid 1 port 2\n"
      "OperVLs:.........................VL0-7\n"
      "# Port info: Lid 1 port 3\n"
      "OperVLs:.........................VL0-3\n"
      "# Port info: Lid 2 port 1\n"
      "OperVLs:.........................VL0\n"
      "# Port info: Lid 3 port 2\n"
      "OperVLs:.........................VL0-14\n"
      "# Port info: Lid 5 port 1\n"
      "OperVLs:.........................VL0-1\n"
      "# Port info: Lid 4 port 200\n"
      "OperVLs:.........................VL0-1\n";
  std::vector<std::vector<uint8_t>> vls;
  EXPECT_EQ(io::parse_oper_vls(text, f, vls), 4);
  ASSERT_EQ(vls.size(), 4u);
  EXPECT_EQ(vls[0][2], 8);
  EXPECT_EQ(vls[0][3], 4);
  EXPECT_EQ(vls[1][1], 1);
  EXPECT_EQ(vls[2][2], 15);
  EXPECT_EQ(vls[0][1], 0);  // not read
  for (const uint8_t v : vls[3]) EXPECT_EQ(v, 0);
}

TEST(DiagOutput, LmcFromLfts) {
  EXPECT_EQ(io::lmc_from_lfts("Unicast lids [0-5] of switch Lid 1 guid 0x1 ('S'):\n"
                              "0x0001 000 # Switch portguid 0x0000000000000001: 'S'\n"
                              "0x0002 001 # Channel Adapter portguid 0x0000000000000011: 'H'\n"
                              "0x0003 002 # Channel Adapter portguid 0x0000000000000013: 'H2'\n"),
            0);
  // ibroute prints the other LIDs of an LMC range as "path #k out of n".
  EXPECT_EQ(io::lmc_from_lfts("Unicast lids [0x0-0x11] of switch Lid 4 guid 0x1 (S2):\n"
                              "0x0002 003 : (Channel Adapter portguid 0x0000000000100001: 'H1')\n"
                              "0x0003 003 : (path #2 out of 2: portguid 0x0000000000100001)\n"),
            1);
  EXPECT_EQ(io::lmc_from_lfts("nothing\n"), -1);
}

}  // namespace
}  // namespace keiro
