// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Multicast for keiro route and keiro check (docs/multicast.md): the groups
// and tables of a dump directory (opensm.mcfdbs, opensm-sa.dump), keiro's
// trees for groups given offline, and the lines both print.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/mcast/check.h"
#include "core/mcast/group.h"
#include "core/options.h"
#include "core/routing.h"

namespace keiro::tool {

struct McastInput {
  bool present = false;        // there is something to check
  bool members_known = false;  // the groups come from opensm-sa.dump (or --mcast)
  std::vector<mcast::Group> groups;
  std::vector<mcast::Tree> trees;
  std::vector<std::string> notes;
};

// DIR/opensm.mcfdbs and DIR/opensm-sa.dump when present; without the SA
// dump every MLID of the tables is a group of the ports its masks show,
// on SL sl. false with err on a file that cannot be read.
bool load_mcast_dir(const std::string &dir, const Fabric &f, int sl, McastInput &out,
                    std::string &err);

// One group per tree with the ports its masks show (members not known), on
// SL sl: for tables read without the SA's records.
void groups_from_masks(const Fabric &f, const std::vector<mcast::Tree> &trees, int sl,
                       std::vector<mcast::Group> &groups);

// The groups of --mcast SPEC: "broadcast" (every CA port, MLID 0xC000),
// "broadcast+K[:SEED]" (and K groups of 8-16 CA ports chosen with SEED,
// default 1, MLIDs 0xC001..) or an opensm-sa.dump-format file; sl: the SL
// of the generated groups.
bool read_mcast_groups(const std::string &spec, const Fabric &f, int sl,
                       std::vector<mcast::Group> &out, std::string &err);

// keiro route --mcast: keiro's trees for the groups of spec over (f, r) with
// the plugin's settings (fixed_sl, threads, the engine's mcast_roots), checked with the unicast
// tables into res. 0 every group has a tree and the check holds; 1 some
// group has none or the check fails (err says which); 2 unusable input.
int route_mcast(const Fabric &f, const Routing &r, const Options &opt, const std::string &spec,
                const std::vector<int32_t> &hint_roots, McastInput &out, mcast::Result &res,
                std::string &err);
// opensm.mcfdbs of in, and opensm-sa.dump when its members are known, into dir.
bool write_mcast_dir(const std::string &dir, const Fabric &f, const McastInput &in,
                     std::string &err);

// Text rows for a multicast result ("  multicast       ..."), and the
// problem lines.
std::string mcast_text(const Fabric &f, const McastInput &in, const mcast::Result &r);

}  // namespace keiro::tool
