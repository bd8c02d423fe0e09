// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro check --live: reads a running fabric's topology and tables through
// infiniband-diags, as a LoadedRouting that check::verify can check like a
// dump directory: the fabric from ibnetdiscover, the LFTs from ibroute per
// switch, the SL2VL tables from smpquery sl2vl per connected port, and the
// path SLs from the SA (saquery -p per pair, or one bulk helper command).
// The diagnostics run from a scratch directory in /tmp (umad2sim leaves
// sys-<pid> trees in the cwd), removed afterwards.
// Cost: S + P + pairs diagnostic commands (S switches, P connected ports,
// pairs = source LIDs x LIDs unless a bulk SA tool is given), `jobs` at once.
#pragma once

#include <string>
#include <vector>

#include "core/io/dump_dir.h"
#include "core/mcast/group.h"

namespace keiro::tool {

// umad2sim's preload library as the Debian/Ubuntu package installs it.
inline constexpr const char *kUmad2simLib = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

struct LiveOptions {
  std::string preload;             // LD_PRELOAD for the diagnostics, or empty
  std::string sl_pairs = "ports";  // PathRecords asked for: all | ports | none
  std::string sa_tool;             // bulk PathRecord command ('slid dlid' lines in,
                                   // 'slid dlid sl' out), or empty for saquery
  int jobs = 4;                    // diagnostic commands at once
  // Also the switches' multicast tables (ibroute -M), here when not null.
  std::vector<mcast::Tree> *mcast_trees = nullptr;
};

// Reads the live fabric into out (opt.lmc < 0: LMC from the LFTs; opt.vls:
// data VLs when the diagnostics do not say); out.notes tell what was
// missing or assumed. commands receives the number of diagnostic commands
// run. False with err (one sentence) when the fabric cannot be read.
bool read_live_fabric(const LiveOptions &live, const io::LoadOptions &opt, io::LoadedRouting &out,
                      int &commands, std::string &err);

}  // namespace keiro::tool
