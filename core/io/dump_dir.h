// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A routing as OpenSM installed it, read back from a directory of dumps (what
// `keiro check DIR` and `keiro analyze DIR` work on):
//   opensm-subnet.lst   the fabric (or --topology FILE instead)
//   opensm-lfts.dump    LFTs (required)
//   opensm-sl2vl.dump   SL2VL tables (absent: every SL on VL 0, and said so)
//   keiro-path-sl.dump  path SLs (core/io/path_sl_file.h), or saquery
//                       PathRecord output (saquery-paths.txt or --sls FILE).
// Pairs the SL source does not cover (no source at all, LIDs beyond the
// file's max_lid, '-' entries, missing source rows, pairs without a
// PathRecord) get check::kNoPathSl in the Routing, never a guessed SL:
// check::verify then checks them only where their path does not depend on the
// SL, or with check::Options::assume_sl. LoadedRouting::sl_gap says why.
// The fabric file carries no LMC; unless given, it is taken from the LFT dump
// (the number of LIDs that lead to one CA port).
// Every assumption made is one line in `notes`.
//
// Time and memory: those of the readers, O(S * L + sum of P^2) (plus the
// source-LID SL rows when PathRecords are read).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::io {

struct LoadedRouting {
  Fabric fabric;
  Routing routing;
  check::SourceLidSls source_sls;  // filled from PathRecords (source-LID scope)
  bool use_source_sls = false;
  std::string engine;     // from the path-SL file, when it names one
  std::string sl_source;  // where the path SLs came from, in words
  // Why pairs may have no SL, in words, for the message when some do ("no
  // path-SL file ...", "FILE has PathRecords for 10 of 12 LID pairs").
  std::string sl_gap;
  std::vector<std::string> notes;
  // Operational data VLs per switch port, port_vls[switch][port] (0 = not
  // known), when the source tells them (keiro check --live: PortInfo
  // OperVLs); empty for dump directories. For check::Options::port_vls.
  std::vector<std::vector<uint8_t>> port_vls;
};

struct LoadOptions {
  std::string topology;  // fabric file instead of DIR/opensm-subnet.lst
  int lmc = -1;          // -1: from the LFT dump
  // Data VLs per port for the fabric model. The dumps hold the SL2VL entries
  // the switches accepted (OpenSM masks VLs to the port's OperVLs), which the
  // files do not record, so by default no VL is flagged as beyond its link;
  // a budget to check goes to check::Options::vls (keiro check --vls).
  uint8_t vls = kMaxDataVls;
  std::string sls;      // path-SL file or saquery output instead of the defaults
  std::string sm_node;  // see TopologyReadOptions
};

bool load_dump_dir(const std::string &dir, const LoadOptions &opt, LoadedRouting &out,
                   std::string &err);

// The LMC the LFT dump (or ibroute output) implies: the most LIDs that name
// one CA/router port GUID in a switch's table, rounded up to a power of two;
// -1 when the text shows none.
int lmc_from_lfts(std::istream &in);
int lmc_from_lfts(const std::string &text);

// Reads path SLs from `path`: a keiro path-SL file or saquery PathRecord
// output (detected from the content), into out (routing's SLs or
// out.source_sls). out.fabric must be loaded and out.routing reset with
// routing_scope_of_sl_file(); its path SLs are set to check::kNoPathSl first,
// so pairs the file does not cover have none. Sets out.sl_source and
// out.sl_gap.
bool load_path_sls(const std::string &path, LoadedRouting &out, std::string &err);
// The Routing SL scope the SL file at path needs (per destination when it is
// not a source-switch keiro path-SL file).
Routing::SlScope routing_scope_of_sl_file(const std::string &path, const Fabric &f);

// Sets every path SL of r to check::kNoPathSl (no SL known). O(S * L) for
// source-switch scope, O(L) otherwise.
void clear_path_sls(const Fabric &f, Routing &r);

}  // namespace keiro::io
