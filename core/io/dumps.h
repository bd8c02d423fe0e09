// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// OpenSM's routing dump files (osm_dump.c, written with log_flags 0x40 into
// dump_files_dir), byte for byte as OpenSM 3.3.23 writes them:
//
// opensm-lfts.dump, per switch:
//   Unicast lids [0-<max lid>] of switch Lid <lid> guid 0x<16 hex> ('<desc>'):
//   0x<lid, 4 hex> <port, 3 digits> # <type> portguid 0x<16 hex>: '<desc>'
//   ...                  (one row per LID whose port exists; 0xFF rows omitted)
//   <max lid> lids dumped
// where <type> is "Switch", "Channel Adapter" or "Router", and a LID that no
// port owns reads "unknown node and type".
//
// opensm-sl2vl.dump, per port (switches, then CAs and routers):
//   <type> 0x<port guid>, base LID <lid>, "<desc>"
//   #in out : 0  1  2 ... 15
//   #-----...
//   <in> <out> : <VL of SL 0> ... <VL of SL 15>
//   #-----...
//   (blank line)
// A switch has a row for every in port 0..N and every out port that has a link;
// a CA or router has the single row "0 0".
//
// The readers also accept `ibroute` output for the LFTs (same header with hex
// LID range, rows "0x0001 003 : (...)"). They map switches and terminals by
// GUID onto the Fabric and size nothing themselves: the Routing must have been
// reset for the fabric. Rows for GUIDs or LIDs the fabric does not know are
// counted and skipped; switches the dump lacks keep 0xFF (dropped) entries.
//
// Complexity: writing and reading are O(size of the file) = O(S * L) for the
// LFTs and O(sum of P^2) for the SL2VL tables, plus O(S + T) for GUID maps.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::io {

// What a reader found beyond the tables themselves.
struct DumpReadReport {
  int tables = 0;                // switch (or port) tables read
  int unknown_guids = 0;         // tables for GUIDs the fabric does not have (skipped)
  int64_t entries = 0;           // LFT rows / SL2VL rows applied
  int64_t ignored_entries = 0;   // rows beyond the fabric's LIDs or ports
  std::vector<int32_t> missing;  // switches without an LFT (for LFT reads)
  // SL2VL reads: connected switch out ports (switch, port) without any row,
  // and terminals without a table; their entries keep what the Routing had.
  std::vector<std::pair<int32_t, uint8_t>> ports_without_sl2vl;
  std::vector<int32_t> terminals_without_sl2vl;
};

// ---- opensm-lfts.dump ----
void write_lfts_dump(std::ostream &out, const Fabric &f, const Routing &r);
bool write_lfts_dump(const std::string &path, const Fabric &f, const Routing &r, std::string &err);
// The bytes write_lfts_dump() writes, without writing them: O(S * L).
uint64_t lfts_dump_size(const Fabric &f, const Routing &r);
// Reads LFTs into r (which must be reset for f); on malformed input returns
// false with err = "file:line: what".
bool read_lfts_dump(std::istream &in, const std::string &name, const Fabric &f, Routing &r,
                    DumpReadReport &rep, std::string &err);
bool read_lfts_dump(const std::string &path, const Fabric &f, Routing &r, DumpReadReport &rep,
                    std::string &err);

// ---- opensm-sl2vl.dump ----
void write_sl2vl_dump(std::ostream &out, const Fabric &f, const Routing &r);
bool write_sl2vl_dump(const std::string &path, const Fabric &f, const Routing &r, std::string &err);
bool read_sl2vl_dump(std::istream &in, const std::string &name, const Fabric &f, Routing &r,
                     DumpReadReport &rep, std::string &err);
bool read_sl2vl_dump(const std::string &path, const Fabric &f, Routing &r, DumpReadReport &rep,
                     std::string &err);

// ---- opensm-subnet.lst (writer only; core/io/subnet_lst.h reads it) ----
// One line per linked port of every node, both ends in braces, in OpenSM's
// node order. Fields the Fabric does not model are written as OpenSM shows
// them for ibsim nodes without vendor data (VenID/DevID/Rev 0, PHY=4x
// LOG=ACT SPD=2.5); SystemGUID is the node GUID.
void write_subnet_lst(std::ostream &out, const Fabric &f);
bool write_subnet_lst(const std::string &path, const Fabric &f, std::string &err);

// OpenSM's name of a node type in dumps: "Switch", "Channel Adapter", "Router".
const char *dump_node_type(const Fabric &f, LidOwner o);

}  // namespace keiro::io
