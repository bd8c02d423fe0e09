// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/dumps.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/io/path_sl_file.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

using fixtures::route_ring;

using fixtures::unit_data;

// The file without its first line if that is the SPDX tag added to fixtures.
std::string fixture(const std::string &name) {
  std::ifstream in(unit_data(name));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.rfind("# SPDX", 0) == 0) s.erase(0, s.find('\n') + 1);
  return s;
}

// The fabric of tests/unit/data/ring5-minhop as ibsim and OpenSM numbered it.
Fabric ring5() {
  Fabric f;
  const uint16_t sw_lids[] = {1, 4, 5, 8, 9};
  for (int i = 0; i < 5; ++i) {
    SwitchInfo s;
    s.guid = 0x200000u + i;
    s.name = "S" + std::to_string(i + 1);
    s.num_ports = 8;
    s.lid = sw_lids[i];
    f.add_switch(s);
  }
  f.add_link(0, 2, 1, 3);
  f.add_link(0, 3, 4, 2);
  f.add_link(1, 2, 2, 3);
  f.add_link(2, 2, 3, 3);
  f.add_link(3, 2, 4, 3);
  f.add_link(3, 5, 4, 5);
  const struct {
    int sw, port;
    uint16_t lid;
  } cas[] = {{0, 1, 2}, {1, 1, 6}, {2, 1, 10}, {3, 1, 12}, {4, 1, 14}, {0, 4, 16}};
  for (int i = 0; i < 6; ++i) {
    TerminalInfo t;
    t.node_guid = 0x100000u + 2 * i;
    t.port_guid = t.node_guid + 1;
    t.name = "H" + std::to_string(i + 1);
    t.sw = cas[i].sw;
    t.sw_port = static_cast<uint8_t>(cas[i].port);
    t.lid = cas[i].lid;
    t.lmc = 1;
    f.add_terminal(t);
  }
  f.finalize();
  return f;
}

// A dump format: its stream reader and writer (core/io/dumps.h).
struct DumpFormat {
  bool (*read)(std::istream &, const std::string &, const Fabric &, Routing &, io::DumpReadReport &,
               std::string &);
  void (*write)(std::ostream &, const Fabric &, const Routing &);
};

// Reads the test data file `name` in format fmt into r (reset for f) with
// report rep; writing r back must give the file byte for byte.
void round_trip(const DumpFormat &fmt, const std::string &name, const Fabric &f, Routing &r,
                io::DumpReadReport &rep) {
  r.reset(f);
  const std::string text = fixture(name);
  std::istringstream in(text);
  std::string err;
  ASSERT_TRUE(fmt.read(in, name, f, r, rep, err)) << err;
  std::ostringstream out;
  fmt.write(out, f, r);
  EXPECT_EQ(out.str(), text);
}

TEST(Dumps, OpenSmLftsRoundTripByteForByte) {
  const Fabric f = ring5();
  Routing r;
  io::DumpReadReport rep;
  ASSERT_NO_FATAL_FAILURE(round_trip({io::read_lfts_dump, io::write_lfts_dump},
                                     "ring5-minhop/opensm-lfts.dump", f, r, rep));
  EXPECT_EQ(rep.tables, 5);
  EXPECT_EQ(rep.unknown_guids, 0);
  EXPECT_TRUE(rep.missing.empty());
  EXPECT_EQ(rep.entries, 5 * 17);
  EXPECT_EQ(r.out_port(0, 1), 0);
  EXPECT_EQ(r.out_port(0, 16), 4);  // S1 -> H6
  EXPECT_EQ(r.out_port(1, 2), 3);   // S2 -> H1 via S1
  EXPECT_EQ(r.out_port(0, 0), kNoPort);
}

TEST(Dumps, OpenSmSl2vlRoundTripByteForByte) {
  const Fabric f = ring5();
  Routing r;
  io::DumpReadReport rep;
  ASSERT_NO_FATAL_FAILURE(round_trip({io::read_sl2vl_dump, io::write_sl2vl_dump},
                                     "ring5-minhop/opensm-sl2vl.dump", f, r, rep));
  EXPECT_EQ(rep.tables, 11);
  EXPECT_TRUE(rep.ports_without_sl2vl.empty());
  EXPECT_TRUE(rep.terminals_without_sl2vl.empty());
  // OpenSM's default table masked to 8 VLs: SL 8 -> VL 0, SL 15 -> VL 7.
  EXPECT_EQ(r.vl(0, 1, 2, 3), 3);
  EXPECT_EQ(r.vl(0, 1, 2, 8), 0);
  EXPECT_EQ(r.vl(3, 5, 2, 15), 7);
  EXPECT_EQ(r.terminal_vl(5, 9), 1);
}

// OpenSM's minhop tables on the ring: every pair delivered, and the ring's
// credit loop (SL 0, VL 0 everywhere).
// OpenSM's LFT and SL2VL dumps of the ring (tests/unit/data/ring5-minhop).
void read_ring5_tables(const Fabric &f, Routing &r) {
  r.reset(f);
  io::DumpReadReport rep;
  std::string err;
  ASSERT_TRUE(io::read_lfts_dump(unit_data("ring5-minhop/opensm-lfts.dump"), f, r, rep, err))
      << err;
  ASSERT_TRUE(io::read_sl2vl_dump(unit_data("ring5-minhop/opensm-sl2vl.dump"), f, r, rep, err))
      << err;
}

TEST(Dumps, CheckOfRealMinhopTables) {
  const Fabric f = ring5();
  Routing r;
  ASSERT_NO_FATAL_FAILURE(read_ring5_tables(f, r));
  const check::Result c = check::verify(f, r);
  EXPECT_EQ(c.pairs_checked, 17LL * 17 - (5 + 6 * 4));
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.vls_used, 1);
  EXPECT_TRUE(c.credit_loop) << c.first_problem;
}

// Packets that are not delivered still take hops and hold buffers until
// they are dropped: the ring's minhop tables with switch S2's entries for
// LIDs 4, 6 and 7 sent to a port with nothing behind it (the case the
// independent oracle found, docs/testing.md) still close the ring's credit
// loop -- packets for S2's LIDs go round to S2 before S2 drops them.
TEST(Dumps, UndeliveredPathsStillMakeDependencies) {
  const Fabric f = ring5();
  Routing r;
  ASSERT_NO_FATAL_FAILURE(read_ring5_tables(f, r));
  int32_t s2 = -1;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (f.sw(s).name == "S2") s2 = s;
  ASSERT_GE(s2, 0);
  ASSERT_EQ(f.peer(s2, 8).kind, PortPeer::kNone);
  for (uint16_t lid : {4, 6, 7}) r.set_out_port(s2, lid, 8);
  check::Options o;
  o.assume_sl = 0;
  const check::Result c = check::verify(f, r, o);
  EXPECT_GT(c.black_holes, 0);
  EXPECT_TRUE(c.credit_loop);
}

// OpenSM's own subnet.lst of the ring, apart from what the Fabric does not
// model: the "-SM" mark and ibsim's revision number.
TEST(Dumps, SubnetLstMatchesOpenSm) {
  const Fabric f = ring5();
  std::string want = fixture("ring5-minhop/opensm-subnet.lst");
  for (size_t p; (p = want.find("SW-SM ")) != std::string::npos;) want.replace(p, 6, "SW ");
  for (size_t p; (p = want.find("Rev:000000A1")) != std::string::npos;)
    want.replace(p, 12, "Rev:00000000");
  std::ostringstream out;
  io::write_subnet_lst(out, f);
  EXPECT_EQ(out.str(), want);
}

TEST(Dumps, LftReaderSkipsUnknownAndReportsMissing) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  std::ostringstream out;
  io::write_lfts_dump(out, f, r);
  std::string text = out.str();
  // Rename S2's GUID: its table becomes unknown and S2 missing.
  const size_t p = text.find("switch Lid 2 guid 0x0000000000001001");
  ASSERT_NE(p, std::string::npos);
  text.replace(p, 36, "switch Lid 2 guid 0x00000000deadbeef");
  Routing back;
  back.reset(f);
  io::DumpReadReport rep;
  std::string err;
  std::istringstream in(text);
  ASSERT_TRUE(io::read_lfts_dump(in, "x", f, back, rep, err)) << err;
  EXPECT_EQ(rep.unknown_guids, 1);
  ASSERT_EQ(rep.missing.size(), 1u);
  EXPECT_EQ(rep.missing[0], 1);
  EXPECT_EQ(back.out_port(1, 1), kNoPort);
  EXPECT_EQ(back.out_port(0, 7), r.out_port(0, 7));
}

TEST(Dumps, LftReaderAcceptsIbrouteOutput) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r;
  r.reset(f);
  std::istringstream in(
      "Unicast lids [0x0-0x8] of switch Lid 2 guid 0x0000000000001001 (S2):\n"
      "  Lid  Out   Destination\n"
      "       Port     Info \n"
      "0x0001 003 : (Switch portguid 0x0000000000001000: 'S1')\n"
      "0x0002 000 : (Switch portguid 0x0000000000001001: 'S2')\n"
      "0x0006 001 : (Channel Adapter portguid 0x0000000000002003: 'H2')\n"
      "3 valid lids dumped \n");
  io::DumpReadReport rep;
  std::string err;
  ASSERT_TRUE(io::read_lfts_dump(in, "ibroute", f, r, rep, err)) << err;
  EXPECT_EQ(rep.entries, 3);
  EXPECT_EQ(r.out_port(1, 1), 3);
  EXPECT_EQ(r.out_port(1, 2), 0);
  EXPECT_EQ(r.out_port(1, 6), 1);
  EXPECT_EQ(r.out_port(1, 5), kNoPort);
}

TEST(Dumps, MalformedInputNamesTheLine) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r;
  r.reset(f);
  io::DumpReadReport rep;
  std::string err;
  std::istringstream a("0x0001 003 # row before header\n");
  EXPECT_FALSE(io::read_lfts_dump(a, "a.dump", f, r, rep, err));
  EXPECT_EQ(err, "a.dump:1: LFT row before any switch header");
  std::istringstream b(
      "Switch 0x0000000000001000, base LID 1, \"S1\"\n"
      "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
      "0   2   : 0  1  2\n");
  EXPECT_FALSE(io::read_sl2vl_dump(b, "b.dump", f, r, rep, err));
  EXPECT_EQ(err, "b.dump:3: SL2VL row needs 16 VLs 0..15");
}

TEST(PathSlFile, DestinationScopeRoundTrip) {
  const Fabric f = fixtures::ca_ring(4);
  Routing r = route_ring(f, false);
  r.engine = "keiro-test";
  for (const uint16_t lid : f.lids()) r.set_dest_sl(lid, static_cast<uint8_t>(lid % 16));
  std::ostringstream out;
  io::write_path_sl_file(out, f, r);
  EXPECT_NE(out.str().find("scope destination\ndest 12345678\n"), std::string::npos) << out.str();
  std::istringstream in(out.str());
  io::PathSlFile p;
  std::string err;
  ASSERT_TRUE(io::read_path_sl_file(in, "p", f, p, err)) << err;
  EXPECT_EQ(p.engine, "keiro-test");
  EXPECT_EQ(p.max_lid, 8);
  Routing back;
  back.reset(f, p.routing_scope());
  p.apply(f, back);
  for (const uint16_t lid : f.lids()) EXPECT_EQ(back.path_sl(2, lid), lid % 16);
}

TEST(PathSlFile, SourceSwitchScopeRoundTrip) {
  const Fabric f = fixtures::ca_ring(4, 1);
  Routing r = route_ring(f, false, Routing::SlScope::kPerSourceSwitch);
  for (int s = 0; s < 4; ++s)
    for (const uint16_t lid : f.lids())
      r.set_path_sl(s, lid, static_cast<uint8_t>((s * 5 + lid) % 16));
  std::ostringstream out;
  io::write_path_sl_file(out, f, r);
  std::istringstream in(out.str());
  io::PathSlFile p;
  std::string err;
  ASSERT_TRUE(io::read_path_sl_file(in, "p", f, p, err)) << err;
  EXPECT_EQ(p.scope, io::PathSlFile::Scope::kSourceSwitch);
  Routing back;
  back.reset(f, p.routing_scope());
  p.apply(f, back);
  for (int s = 0; s < 4; ++s)
    for (const uint16_t lid : f.lids()) EXPECT_EQ(back.path_sl(s, lid), r.path_sl(s, lid));
  // LID 5 is unused with LMC 1 (CA LIDs start at 6): written as '-'.
  EXPECT_NE(out.str().find("switch 0x0000000000001000 "), std::string::npos);
}

TEST(PathSlFile, SourceLidScopeRoundTrip) {
  const Fabric f = fixtures::ca_ring(4);
  check::SourceLidSls sls;
  sls.reset(f.max_lid());
  sls.set(5, 7, 3);
  sls.set(5, 8, 12);
  sls.set(6, 1, 1);
  std::ostringstream out;
  io::write_path_sl_file(out, sls, f.max_lid(), "saquery");
  EXPECT_NE(out.str().find("slid 5 ------3c\n"), std::string::npos) << out.str();
  std::istringstream in(out.str());
  io::PathSlFile p;
  std::string err;
  ASSERT_TRUE(io::read_path_sl_file(in, "p", f, p, err)) << err;
  EXPECT_EQ(p.scope, io::PathSlFile::Scope::kSourceLid);
  EXPECT_EQ(p.by_lid.pairs(), 3);
  EXPECT_EQ(p.by_lid.get(5, 8), 12);
  EXPECT_EQ(p.by_lid.get(6, 1), 1);
  EXPECT_EQ(p.by_lid.get(6, 2), -1);
}

TEST(PathSlFile, Errors) {
  const Fabric f = fixtures::ca_ring(4);
  io::PathSlFile p;
  std::string err;
  std::istringstream a("hello\n");
  EXPECT_FALSE(io::read_path_sl_file(a, "a", f, p, err));
  EXPECT_EQ(err, "a:1: not a keiro path-SL file");
  std::istringstream b("keiro-path-sl 1\nmax_lid 8\nscope destination\ndest 123\n");
  EXPECT_FALSE(io::read_path_sl_file(b, "b", f, p, err));
  EXPECT_EQ(err, "b:4: row needs one SL digit per LID");
  std::istringstream c("keiro-path-sl 1\nmax_lid 8\nscope destination\ndest 1234567z\n");
  EXPECT_FALSE(io::read_path_sl_file(c, "c", f, p, err));
}

// ring5-minhop has no path SLs, and its SL2VL tables (QoS on) map SL i to
// VL i mod 8: every pair needs an SL. The load leaves them without one (no
// SL 0 guess) and says why; the check gives no verdict until told an SL.
TEST(DumpDir, PairsWithoutSlsAreReportedNotGuessed) {
  io::LoadedRouting lr;
  std::string err;
  ASSERT_TRUE(io::load_dump_dir(unit_data("ring5-minhop"), {}, lr, err)) << err;
  EXPECT_EQ(lr.sl_source, "none");
  EXPECT_EQ(lr.sl_gap.rfind("no path-SL file", 0), 0u) << lr.sl_gap;
  EXPECT_EQ(lr.routing.path_sl(0, 2), check::kNoPathSl);
  const int64_t pairs = 17LL * 17 - (5 + 6 * 4);
  check::Result c = check::verify(lr.fabric, lr.routing);
  EXPECT_FALSE(c.ok);
  EXPECT_FALSE(c.credit_loop);
  EXPECT_EQ(c.pairs_checked, pairs);
  EXPECT_EQ(c.pairs_without_sl, pairs);
  check::Options opt;
  opt.assume_sl = 0;
  c = check::verify(lr.fabric, lr.routing, opt);
  EXPECT_EQ(c.pairs_assumed_sl, pairs);
  EXPECT_EQ(c.pairs_without_sl, 0);
  EXPECT_TRUE(c.credit_loop);  // minhop on a ring, as CheckOfRealMinhopTables

  // A destination-scope file covering LIDs 1..8 only: the pairs to LIDs 9..17
  // (switch LID 9: 16 sources; 8 CA LIDs: 15 sources each) have no SL.
  const std::string sl_path = ::testing::TempDir() + "ring5-partial-sl.dump";
  {
    std::ofstream out(sl_path);
    out << "keiro-path-sl 1\nmax_lid 8\nscope destination\ndest 00000000\n";
  }
  io::LoadOptions lo;
  lo.sls = sl_path;
  io::LoadedRouting part;
  ASSERT_TRUE(io::load_dump_dir(unit_data("ring5-minhop"), lo, part, err)) << err;
  EXPECT_NE(part.sl_gap.find("covers LIDs up to 8 only"), std::string::npos) << part.sl_gap;
  c = check::verify(part.fabric, part.routing);
  EXPECT_EQ(c.pairs_without_sl, 16 + 8 * 15);
  EXPECT_FALSE(c.ok);

  // A per-source-LID file with one row (source LID 2, H1's base LID): the
  // 15 pairs from LID 2 have SLs, every other pair has none.
  {
    std::ofstream out(sl_path);
    out << "keiro-path-sl 1\nmax_lid 17\nscope source-lid\nslid 2 00000000000000000\n";
  }
  io::LoadedRouting one;
  ASSERT_TRUE(io::load_dump_dir(unit_data("ring5-minhop"), lo, one, err)) << err;
  ASSERT_TRUE(one.use_source_sls);
  check::Options so;
  so.source_sls = &one.source_sls;
  c = check::verify(one.fabric, one.routing, so);
  EXPECT_EQ(c.pairs_without_sl, pairs - 15);
  EXPECT_FALSE(c.ok);
}

}  // namespace
}  // namespace keiro
