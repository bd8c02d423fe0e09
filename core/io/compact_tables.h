// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro's compact table file (keiro-tables.bin): the LFTs, SL2VL tables and
// path SLs of a routing in one little-endian binary file, for fabrics where
// OpenSM's text dumps are too big (one text line per (switch, LID):
// gigabytes at tens of thousands of LIDs; docs/check.md, "Compact tables",
// has the measured sizes).
// `keiro route --out-format compact` writes it; io::load_dump_dir() reads a
// directory holding it in place of opensm-lfts.dump (keiro check, analyze,
// simulate, route --previous), and --sls FILE accepts it for its path SLs.
//
// Layout (docs/check.md, "Compact tables", byte for byte): the magic
// "KEIROTBL", u32 version (1), u32 section count, then sections, each
//   tag (4 ASCII bytes) | u64 payload length | payload | u32 CRC-32 of payload
// in this order, HEAD first and required, the others optional:
//   HEAD  max_lid, LMC, engine name, switch GUIDs, terminal port GUIDs
//   LFTS  per switch (HEAD order) max_lid + 1 bytes: the out port per LID
//   SL2V  a palette of SL->VL maps (16 nibbles); per switch its port list
//         and a port x port matrix of palette indices; per terminal one index
//   PSLS  path SLs at the Routing's scope: one row (per destination LID) or
//         one per switch (per (source switch, destination LID)), over the LIDs
//         a bitmap marks, 4 bits per SL (or a byte, 0xFF = no SL)
// Tables map onto the reader's fabric by GUID, as OpenSM's dumps do.
//
// Size: S * (L + 1) bytes of LFTs, S * U / 2 bytes of path SLs in
// source-switch scope (U = used LIDs; U / 2 in destination scope), the
// SL2VL tables sum over switches of w * (c + 2)^2 bytes (c connected ports,
// w = 1 byte per palette index while there are at most 256 distinct maps).
// Time: writing and reading O(file size), plus a CRC-32 pass.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/io/dumps.h"
#include "core/io/path_sl_file.h"
#include "core/routing.h"

namespace keiro::io {

inline constexpr const char *kCompactFileName = "keiro-tables.bin";
inline constexpr uint32_t kCompactVersion = 1;

// Which tables a file holds (bit set) or a writer writes.
enum CompactSection : unsigned { kCompactLfts = 1, kCompactSl2vl = 2, kCompactPathSls = 4 };
inline constexpr unsigned kCompactAll = kCompactLfts | kCompactSl2vl | kCompactPathSls;

// Writes the sections of r (and f's GUIDs) named by the mask.
void write_compact_tables(std::ostream &out, const Fabric &f, const Routing &r, unsigned sections);
bool write_compact_tables(const std::string &path, const Fabric &f, const Routing &r,
                          unsigned sections, std::string &err);
// The bytes write_compact_tables() writes for these sections, without
// writing them. O(S * L).
uint64_t compact_tables_size(const Fabric &f, const Routing &r, unsigned sections);

// A parsed file: the header and the (checked) payloads, not yet mapped onto
// a fabric. Holds the file's bytes; the tables are views into them.
struct CompactTables {
  uint16_t max_lid = 0;
  uint8_t lmc = 0;
  std::string engine;
  std::vector<uint64_t> switch_guids, terminal_guids;
  unsigned sections = 0;           // CompactSection bits
  bool source_switch_sls = false;  // PSLS scope

  std::string data;  // the whole file
  // Offsets into data, set by the parser:
  size_t lfts = 0;     // LFTS: switch i's row at lfts + i * (max_lid + 1)
  size_t palette = 0;  // SL2V: palette_size maps of 8 bytes
  uint32_t palette_size = 0;
  uint8_t index_width = 1;           // bytes per palette index
  std::vector<size_t> sl2vl_switch;  // per switch: its u16 port count
  size_t sl2vl_terminals = 0;        // the terminals' indices
  size_t lid_mask = 0;               // PSLS: (max_lid + 8) / 8 bytes
  std::vector<size_t> sl_rows;       // per row: its encoding byte
};

// True when bytes start with the magic.
bool is_compact_tables(const std::string &bytes);
// Parses and checks a whole file (magic, version, section order and sizes,
// CRCs, palette indices, port lists, SL values). On failure returns false
// with err = "NAME: what" (one line).
bool parse_compact_tables(std::string bytes, const std::string &name, CompactTables &out,
                          std::string &err);
bool read_compact_tables(const std::string &path, CompactTables &out, std::string &err);

// Copies the file's LFTs (kCompactLfts must be set) into r (reset for f),
// matching switches by GUID; what did not match goes to rep as
// read_lfts_dump() reports it.
void apply_compact_lfts(const CompactTables &t, const Fabric &f, Routing &r, DumpReadReport &rep);
// The same for the SL2VL tables (kCompactSl2vl must be set).
void apply_compact_sl2vl(const CompactTables &t, const Fabric &f, Routing &r, DumpReadReport &rep);
// The path SLs (kCompactPathSls must be set) as read_path_sl_file() returns
// them: destination or source-switch scope, rows in f's switch order.
void compact_path_sls(const CompactTables &t, const Fabric &f, PathSlFile &out);

}  // namespace keiro::io
