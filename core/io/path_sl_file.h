// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro's path-SL file (keiro-path-sl.dump): the SL that path_sl() answers for
// each (source, destination LID), which no OpenSM dump contains. The plugin
// writes it next to OpenSM's dumps, `keiro route` writes it to --out, and
// `keiro check` reads it.
//
// Text, one record per line, '#' starts a comment line:
//   keiro-path-sl 1                  magic and format version (first line)
//   engine <name>                    the engine that produced it (optional)
//   max_lid <L>                      highest LID covered
//   scope destination | source-switch | source-lid
// then, by scope, rows of SLs written as one hex digit per LID 1..L ('-' for
// a LID without an SL, e.g. an unused LID):
//   destination:    dest <digits>                 one row: SL by destination LID
//   source-switch:  switch 0x<guid> <digits>      one row per source switch: the SL
//                                                 of every path from it (and from the
//                                                 CAs attached to it) to each LID
//   source-lid:     slid <lid> <digits>           one row per source LID (e.g. from
//                                                 SA PathRecords); rows may be missing
// Example (destination scope, LIDs 1..6, LID 3 unused):
//   keiro-path-sl 1
//   engine keiro-nue
//   max_lid 6
//   scope destination
//   dest 01-210
//
// Size: L + 1 bytes per row, so S * (L + 1) for source-switch scope (5 MB for
// 1,000 switches and 5,000 LIDs). Reading and writing are O(file size).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::io {

inline constexpr const char *kPathSlFileName = "keiro-path-sl.dump";

struct PathSlFile {
  enum class Scope : uint8_t { kDestination, kSourceSwitch, kSourceLid };
  Scope scope = Scope::kDestination;
  std::string engine;
  uint16_t max_lid = 0;
  // kDestination: sl[lid]; kSourceSwitch: sl[switch * (max_lid + 1) + lid],
  // switches in Fabric order; 0xFF = no SL. kSourceLid: by_lid.
  std::vector<uint8_t> sl;
  check::SourceLidSls by_lid;
  int unknown_switches = 0;  // source-switch rows for GUIDs the fabric lacks

  // The Routing scope to reset a Routing with before apply().
  Routing::SlScope routing_scope() const {
    return scope == Scope::kSourceSwitch ? Routing::SlScope::kPerSourceSwitch
                                         : Routing::SlScope::kPerDestination;
  }
  // Copies destination / source-switch SLs into r (LIDs up to r.max_lid()).
  // Source-LID SLs stay in by_lid (pass them to check::verify via
  // check::Options::source_sls).
  void apply(const Fabric &f, Routing &r) const;
};

// Writes r's path SLs (destination or source-switch scope, after r's scope).
void write_path_sl_file(std::ostream &out, const Fabric &f, const Routing &r);
bool write_path_sl_file(const std::string &path, const Fabric &f, const Routing &r,
                        std::string &err);
// Writes per-source-LID SLs (source-lid scope); rows only for LIDs that have any.
void write_path_sl_file(std::ostream &out, const check::SourceLidSls &sls, uint16_t max_lid,
                        const std::string &engine);

bool read_path_sl_file(std::istream &in, const std::string &name, const Fabric &f, PathSlFile &out,
                       std::string &err);
bool read_path_sl_file(const std::string &path, const Fabric &f, PathSlFile &out, std::string &err);

}  // namespace keiro::io
