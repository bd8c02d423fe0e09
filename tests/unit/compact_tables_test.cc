// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro's compact table file (core/io/compact_tables.h): written tables read
// back equal (every engine's SL scope), a directory with it loads as the
// same routing as one with OpenSM's dumps, the documented byte layout
// parses, and a damaged or truncated file is one clear error.
#include "core/io/compact_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/check/verify.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

Fabric test_fabric() {
  // Random 4-regular, 12 switches, 2 CAs each, 8 ports per switch (so some
  // ports stay unconnected: the SL2VL row they share must survive too).
  return fixtures::random_regular(12, 4, 3, {.hcas = 2});
}

std::string written(const Fabric &f, const Routing &r, unsigned sections) {
  std::ostringstream o;
  io::write_compact_tables(o, f, r, sections);
  return o.str();
}

// Every table entry of a and b over f equal (LFT, SL2VL for every port
// pair and SL, terminal SL2VL, path SLs of used LIDs from every switch).
// dump_rows: SL2VL only where OpenSM's dump has rows (out port connected).
void expect_same_tables(const Fabric &f, const Routing &a, const Routing &b,
                        bool dump_rows = false) {
  ASSERT_EQ(a.max_lid(), b.max_lid());
  int lft = 0, sl2vl = 0, sls = 0;
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    for (unsigned lid = 0; lid <= a.max_lid(); ++lid)
      lft += a.out_port(s, static_cast<uint16_t>(lid)) != b.out_port(s, static_cast<uint16_t>(lid));
    const unsigned np = f.sw(s).num_ports;
    for (unsigned o = 0; o <= np; ++o) {
      if (dump_rows && (o == 0 || f.peer(s, static_cast<uint8_t>(o)).kind == PortPeer::kNone))
        continue;
      for (unsigned i = 0; i <= np; ++i)
        for (uint8_t sl = 0; sl < kNumSls; ++sl)
          sl2vl += a.vl(s, static_cast<uint8_t>(i), static_cast<uint8_t>(o), sl) !=
                   b.vl(s, static_cast<uint8_t>(i), static_cast<uint8_t>(o), sl);
    }
    for (const uint16_t lid : f.lids()) sls += a.path_sl(s, lid) != b.path_sl(s, lid);
  }
  for (int32_t t = 0; t < f.num_terminals(); ++t)
    for (uint8_t sl = 0; sl < kNumSls; ++sl) sl2vl += a.terminal_vl(t, sl) != b.terminal_vl(t, sl);
  EXPECT_EQ(lft, 0);
  EXPECT_EQ(sl2vl, 0);
  EXPECT_EQ(sls, 0);
}

// Reads bytes back into a Routing of the file's own SL scope.
Routing read_back(const Fabric &f, const std::string &bytes) {
  io::CompactTables t;
  std::string err;
  EXPECT_TRUE(io::parse_compact_tables(bytes, "t", t, err)) << err;
  Routing r;
  r.reset(f, t.source_switch_sls ? Routing::SlScope::kPerSourceSwitch
                                 : Routing::SlScope::kPerDestination);
  io::DumpReadReport rep;
  io::apply_compact_lfts(t, f, r, rep);
  EXPECT_EQ(rep.unknown_guids, 0);
  EXPECT_TRUE(rep.missing.empty());
  io::DumpReadReport vrep;
  io::apply_compact_sl2vl(t, f, r, vrep);
  EXPECT_TRUE(vrep.ports_without_sl2vl.empty());
  EXPECT_TRUE(vrep.terminals_without_sl2vl.empty());
  io::clear_path_sls(f, r);  // as load_dump_dir: no SL until the file gives one
  io::PathSlFile p;
  io::compact_path_sls(t, f, p);
  EXPECT_EQ(p.engine, t.engine);
  p.apply(f, r);
  return r;
}

// Round trip for every engine: keiro-nue decides SLs per destination LID,
// keiro-acro and keiro-dl per (source switch, destination LID); the file
// keeps that scope and every entry.
TEST(CompactTables, RoundTripEveryEngineScope) {
  const Fabric f = test_fabric();
  const struct {
    const char *engine;
    Routing::SlScope scope;
  } runs[] = {{"keiro-nue", Routing::SlScope::kPerDestination},
              {"keiro-acro", Routing::SlScope::kPerSourceSwitch},
              {"keiro-dl", Routing::SlScope::kPerSourceSwitch}};
  for (const auto &run : runs) {
    SCOPED_TRACE(run.engine);
    const fixtures::EngineRun e = fixtures::run_captured(f, run.engine, {.max_vls = 4});
    ASSERT_TRUE(e.ok) << e.last_line();
    ASSERT_EQ(e.out.sl_scope(), run.scope);
    const std::string bytes = written(f, e.out, io::kCompactAll);
    EXPECT_EQ(io::compact_tables_size(f, e.out, io::kCompactAll), bytes.size());
    io::CompactTables t;
    std::string err;
    ASSERT_TRUE(io::parse_compact_tables(bytes, "t", t, err)) << err;
    EXPECT_EQ(t.sections, io::kCompactAll);
    EXPECT_EQ(t.engine, run.engine);
    EXPECT_EQ(t.source_switch_sls, run.scope == Routing::SlScope::kPerSourceSwitch);
    // Path SLs: one row per destination, or one per switch.
    EXPECT_EQ(t.sl_rows.size(), run.scope == Routing::SlScope::kPerDestination
                                    ? 1u
                                    : static_cast<size_t>(f.num_switches()));
    expect_same_tables(f, e.out, read_back(f, bytes));
  }
}

// Entries without an SL (kNoPathSl, e.g. tables read without an SL source)
// take a byte row and come back without an SL; SLs 0..15 all survive the
// nibble rows.
TEST(CompactTables, RowsWithoutSlsAndEverySl) {
  const Fabric f = test_fabric();
  Routing r = fixtures::min_hop(f);
  Routing src;
  src.reset(f, Routing::SlScope::kPerSourceSwitch);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    std::copy(r.lft_row(s), r.lft_row(s) + r.max_lid() + 1, src.lft_row_mut(s));
    for (const uint16_t lid : f.lids())
      src.set_path_sl(
          s, lid,
          s == 3 && lid == f.lids()[5] ? check::kNoPathSl : static_cast<uint8_t>((s + lid) % 16));
  }
  const std::string bytes = written(f, src, io::kCompactAll);
  io::CompactTables t;
  std::string err;
  ASSERT_TRUE(io::parse_compact_tables(bytes, "t", t, err)) << err;
  int byte_rows = 0;
  for (const size_t at : t.sl_rows) byte_rows += t.data[at] == 1;
  EXPECT_EQ(byte_rows, 1);  // switch 3's row only
  const Routing back = read_back(f, bytes);
  EXPECT_EQ(back.path_sl(3, f.lids()[5]), check::kNoPathSl);
  EXPECT_EQ(back.path_sl(2, f.lids()[5]), (2 + f.lids()[5]) % 16);
  expect_same_tables(f, src, back);
}

// A directory with keiro-tables.bin loads as the same routing, with the same
// check verdict, as one with OpenSM's dumps of the same tables.
TEST(CompactTables, DirectoryLoadsLikeOpenSmDumps) {
  const Fabric f = test_fabric();
  for (const char *engine : {"keiro-nue", "keiro-dl"}) {
    SCOPED_TRACE(engine);
    const fixtures::EngineRun e = fixtures::run_captured(f, engine, {.max_vls = 4});
    ASSERT_TRUE(e.ok);
    const std::string base = ::testing::TempDir() + "compact-" + engine;
    std::string err;
    for (const char *d : {"/text", "/bin"}) std::filesystem::create_directories(base + d);
    ASSERT_TRUE(io::write_subnet_lst(base + "/text/opensm-subnet.lst", f, err));
    ASSERT_TRUE(io::write_subnet_lst(base + "/bin/opensm-subnet.lst", f, err));
    ASSERT_TRUE(io::write_lfts_dump(base + "/text/opensm-lfts.dump", f, e.out, err));
    EXPECT_EQ(io::lfts_dump_size(f, e.out),
              std::filesystem::file_size(base + "/text/opensm-lfts.dump"));
    ASSERT_TRUE(io::write_sl2vl_dump(base + "/text/opensm-sl2vl.dump", f, e.out, err));
    ASSERT_TRUE(io::write_path_sl_file(base + "/text/keiro-path-sl.dump", f, e.out, err));
    ASSERT_TRUE(
        io::write_compact_tables(base + "/bin/keiro-tables.bin", f, e.out, io::kCompactAll, err));
    io::LoadedRouting a, b;
    ASSERT_TRUE(io::load_dump_dir(base + "/text", {}, a, err)) << err;
    ASSERT_TRUE(io::load_dump_dir(base + "/bin", {}, b, err)) << err;
    EXPECT_EQ(a.engine, b.engine);
    EXPECT_EQ(a.routing.sl_scope(), b.routing.sl_scope());
    EXPECT_EQ(a.notes, b.notes);
    EXPECT_NE(b.sl_source.find("keiro-tables.bin"), std::string::npos) << b.sl_source;
    expect_same_tables(a.fabric, a.routing, b.routing, true);
    check::Options o;
    o.threads = 1;
    const check::Result ra = check::verify(a.fabric, a.routing, o);
    const check::Result rb = check::verify(b.fabric, b.routing, o);
    EXPECT_TRUE(ra.ok);
    EXPECT_EQ(ra.ok, rb.ok);
    EXPECT_EQ(ra.pairs_checked, rb.pairs_checked);
    // --sls FILE accepts the compact file for its path SLs.
    io::LoadOptions lo;
    lo.sls = base + "/bin/keiro-tables.bin";
    io::LoadedRouting c;
    ASSERT_TRUE(io::load_dump_dir(base + "/text", lo, c, err)) << err;
    expect_same_tables(a.fabric, a.routing, c.routing, true);
    std::filesystem::remove_all(base);
  }
}

// Little-endian helpers for building a file by hand from docs/check.md.
void put(std::string &s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}
uint32_t crc32_ref(const std::string &s) {  // bitwise CRC-32 (IEEE), as zlib's crc32()
  uint32_t c = 0xFFFFFFFFu;
  for (const char ch : s) {
    c ^= static_cast<uint8_t>(ch);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}
void section(std::string &file, const char *tag, const std::string &payload) {
  file.append(tag, 4);
  put(file, payload.size(), 8);
  file += payload;
  put(file, crc32_ref(payload), 4);
}

// The byte layout of docs/check.md, built by hand for two switches joined on
// port 1 with one CA each (on port 2): the reader maps it as documented.
TEST(CompactTables, DocumentedLayout) {
  const Fabric f = fixtures::from_links(2, {{0, 1}}, {.hcas = 1, .min_ports = 2});
  // LIDs: switches 1, 2; CAs 3 (on switch 0), 4 (on switch 1).
  ASSERT_EQ(f.max_lid(), 4);
  std::string head;
  put(head, 4, 2);  // max_lid
  put(head, 0, 1);  // LMC
  put(head, 8, 1);
  head += "keiro-dl";
  put(head, 2, 4);
  put(head, f.sw(0).guid, 8);
  put(head, f.sw(1).guid, 8);
  put(head, 2, 4);
  put(head, f.terminal(0).port_guid, 8);
  put(head, f.terminal(1).port_guid, 8);
  // LFTS: LID 0..4 per switch.
  const std::string lfts =
      std::string("\xFF\x00\x01\x02\x01", 5) + std::string("\xFF\x01\x00\x01\x02", 5);
  // SL2V: palette {all VL 0, SL s -> VL s % 2}, index width 1; both switches list ports 0, 1, 2.
  std::string sl2v;
  put(sl2v, 2, 4);
  put(sl2v, 1, 1);
  put(sl2v, 0, 3);
  put(sl2v, 0, 8);
  put(sl2v, 0x1010101010101010ull, 8);
  for (int s = 0; s < 2; ++s) {
    put(sl2v, 3, 2);
    for (int p = 0; p < 3; ++p) put(sl2v, p, 1);
    for (int k = 0; k < 9; ++k) put(sl2v, k == 5 ? 1 : 0, 1);  // (in 1, out 2) -> map 1
  }
  put(sl2v, 1, 1);  // terminal 0: map 1
  put(sl2v, 0, 1);
  // PSLS: source-switch scope, LIDs 1..4 marked; switch 0 nibbles, switch 1 bytes.
  std::string psls;
  put(psls, 1, 1);
  put(psls, 0, 3);
  put(psls, 2, 4);
  put(psls, 0x1E, 1);  // bits 1..4
  put(psls, 0, 1);
  put(psls, 0x21, 1);  // LID 1: SL 1, LID 2: SL 2
  put(psls, 0x43, 1);  // LID 3: SL 3, LID 4: SL 4
  put(psls, 1, 1);
  put(psls, 0x05, 1);
  put(psls, 0xFF, 1);  // LID 2: no SL
  put(psls, 0x0F, 1);
  put(psls, 0x00, 1);
  std::string file = "KEIROTBL";
  put(file, 1, 4);
  put(file, 4, 4);
  section(file, "HEAD", head);
  section(file, "LFTS", lfts);
  section(file, "SL2V", sl2v);
  section(file, "PSLS", psls);

  Routing r = read_back(f, file);
  EXPECT_EQ(r.out_port(0, 2), 1);
  EXPECT_EQ(r.out_port(0, 3), 2);
  EXPECT_EQ(r.out_port(1, 4), 2);
  EXPECT_EQ(r.out_port(0, 0), kNoPort);
  EXPECT_EQ(r.vl(0, 1, 2, 1), 1);
  EXPECT_EQ(r.vl(0, 1, 2, 2), 0);
  EXPECT_EQ(r.vl(0, 2, 1, 1), 0);
  EXPECT_EQ(r.terminal_vl(0, 3), 1);
  EXPECT_EQ(r.terminal_vl(1, 3), 0);
  EXPECT_EQ(r.path_sl(0, 1), 1);
  EXPECT_EQ(r.path_sl(0, 4), 4);
  EXPECT_EQ(r.path_sl(1, 1), 5);
  EXPECT_EQ(r.path_sl(1, 3), 15);
  EXPECT_EQ(r.path_sl(1, 4), 0);
  EXPECT_EQ(r.path_sl(1, 2), check::kNoPathSl);
  // And the writer writes these very bytes for these tables.
  r.engine = "keiro-dl";
  EXPECT_EQ(written(f, r, io::kCompactAll), file);
}

// A damaged file is one clear error line, never a crash or wrong tables:
// every truncation, a flipped byte in each section, a bad version, an
// unknown section.
TEST(CompactTables, DamagedFilesAreOneClearError) {
  const Fabric f = test_fabric();
  const fixtures::EngineRun e = fixtures::run_captured(f, "keiro-dl", {.max_vls = 4});
  ASSERT_TRUE(e.ok);
  const std::string good = written(f, e.out, io::kCompactAll);
  io::CompactTables t;
  std::string err;
  for (size_t n = 0; n < good.size(); n += n < 64 ? 1 : 97) {
    SCOPED_TRACE(n);
    EXPECT_FALSE(io::parse_compact_tables(good.substr(0, n), "f.bin", t, err));
    EXPECT_EQ(err.rfind("f.bin: ", 0), 0u) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
  EXPECT_FALSE(io::parse_compact_tables(good.substr(0, 40), "f.bin", t, err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  // A byte flipped in every section's payload: that section's CRC fails.
  ASSERT_TRUE(io::parse_compact_tables(good, "f.bin", t, err)) << err;
  for (const char *tag : {"HEAD", "LFTS", "SL2V", "PSLS"}) {
    const size_t at = good.find(tag) + 12 + 3;
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    EXPECT_FALSE(io::parse_compact_tables(bad, "f.bin", t, err));
    EXPECT_EQ(err,
              std::string("f.bin: section ") + tag + " fails its CRC-32 check (file corrupted)");
  }
  std::string v2 = good;
  v2[8] = 2;
  EXPECT_FALSE(io::parse_compact_tables(v2, "f.bin", t, err));
  EXPECT_EQ(err, "f.bin: compact table file version 2; this keiro reads version 1");
  std::string unknown = good;
  unknown.replace(good.find("LFTS"), 4, "LFTX");
  EXPECT_FALSE(io::parse_compact_tables(unknown, "f.bin", t, err));
  EXPECT_EQ(err, "f.bin: unknown section 'LFTX'");
  EXPECT_FALSE(io::parse_compact_tables(good + "x", "f.bin", t, err));
  EXPECT_EQ(err, "f.bin: 1 bytes after the last section");
  // Through the directory reader as keiro check uses it.
  const std::string dir = ::testing::TempDir() + "compact-bad";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(io::write_subnet_lst(dir + "/opensm-subnet.lst", f, err));
  std::ofstream(dir + "/keiro-tables.bin", std::ios::binary) << good.substr(0, good.size() / 2);
  io::LoadedRouting lr;
  EXPECT_FALSE(io::load_dump_dir(dir, {}, lr, err));
  EXPECT_NE(err.find("keiro-tables.bin: truncated"), std::string::npos) << err;
  std::filesystem::remove_all(dir);
}

// --out-files without some tables: the file holds only those sections, and
// a directory without LFTs says so.
TEST(CompactTables, OnlyTheSectionsAskedFor) {
  const Fabric f = test_fabric();
  const fixtures::EngineRun e = fixtures::run_captured(f, "keiro-nue", {.max_vls = 4});
  ASSERT_TRUE(e.ok);
  io::CompactTables t;
  std::string err;
  const std::string sls = written(f, e.out, io::kCompactPathSls);
  ASSERT_TRUE(io::parse_compact_tables(sls, "p", t, err)) << err;
  EXPECT_EQ(t.sections, static_cast<unsigned>(io::kCompactPathSls));
  EXPECT_LT(sls.size(), written(f, e.out, io::kCompactAll).size() / 4);
  const std::string dir = ::testing::TempDir() + "compact-sls-only";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(io::write_subnet_lst(dir + "/opensm-subnet.lst", f, err));
  std::ofstream(dir + "/keiro-tables.bin", std::ios::binary) << sls;
  io::LoadedRouting lr;
  EXPECT_FALSE(io::load_dump_dir(dir, {}, lr, err));
  EXPECT_EQ(err, dir + "/keiro-tables.bin: no LFTs in it (written without lfts)");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keiro
