// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Checks multicast forwarding tables against their groups, and multicast
// and unicast traffic together for credit loops.
//
// Per group (flood()): a packet from every member source (a CA/router port
// enters its switch on the port it is cabled to, a member switch on port 0)
// is replicated through the masks as a switch does (every mask port but the
// in port, VL from SL2VL with each SL of the group). It must come back to
// no channel it crossed (else the masks hold a cycle: a forwarding loop, a
// storm), reach every other member exactly once, reach no port that is not
// a member (when membership is known), and never be dropped (VL 15 on the
// group's SL, a VL the link does not have, a mask port with nothing behind
// it, a switch without an entry for the MLID). The turns the copies make
// are the group's channel dependencies, (channel in, VL) -> (channel out,
// VL), exactly those of the sources that exist.
//
// verify() floods every group, then runs the unicast check (check::verify)
// with the multicast dependencies added (check::Options::extra_deps), so
// that a credit loop is found whether it needs unicast paths, multicast
// turns or both; the cycle's dependencies name the unicast paths and the
// multicast groups behind them.
//
// Time: per member switch and distinct SL2VL row of its sources' in ports,
// one flood over the tree, O(tree switches * ports) (sources on one switch
// share it: what differs is only what they deliver at their own switch,
// O(k^2) for k members on it); plus one unicast check. Memory: O(T + S + C)
// per group, plus the dependencies (a hash set per group while flooding).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/mcast/group.h"
#include "core/routing.h"

namespace keiro::mcast {

struct GroupVerdict {
  uint16_t mlid = 0;
  bool ok = false;
  bool loop = false;        // the masks hold a cycle a copy comes back around
  int64_t unreached = 0;    // (source, member) pairs without a copy
  int64_t duplicates = 0;   // (source, member) pairs with more than one
  int64_t non_members = 0;  // (source, port) pairs that reach a port not in the group
  int64_t drops = 0;        // copies dropped (VL 15 / VL beyond the link / dead port / no entry)
  int64_t switches = 0;     // switches with an entry for the MLID
  int depth = 0;            // most switch-to-switch hops from a source to a member
  std::string problem;      // the first failure, one line
};

struct FloodOptions {
  // false: the members are not known (a dump without the SA's records):
  // every CA port in a mask and every switch with port 0 set count as
  // members, and nothing counts as a non-member.
  bool members_known = true;
  int32_t label = 0;  // ExtraDependency::label of the dependencies found
};

// Floods group g through tree t (t.mlid == g.mlid). Appends its
// dependencies to *deps (when not null), each once.
GroupVerdict flood(const Fabric &f, const Routing &r, const Group &g, const Tree &t,
                   const FloodOptions &o, std::vector<check::ExtraDependency> *deps);

// The members a tree's masks show (CA ports in a mask, switches with port
// 0 set), SL 0: for tables read without the SA's records. O(tree).
Group group_of_masks(const Fabric &f, const Tree &t);

struct Options {
  check::Options unicast;     // what the unicast side checks (SLs, fixed SL, threads, ...)
  bool members_known = true;  // FloodOptions::members_known
  int max_problems = 20;
};

struct Result {
  bool ok = false;  // every group ok and no credit loop, unicast ok
  int64_t groups = 0, groups_ok = 0, loops = 0;
  int64_t unreached = 0, duplicates = 0, non_members = 0, drops = 0;
  int64_t dependencies = 0;            // distinct multicast dependencies added
  std::vector<GroupVerdict> verdicts;  // one per group, in the order given
  std::vector<std::string> problems;   // multicast problem lines (up to max_problems)
  check::Result combined;              // unicast + multicast dependencies in one graph
};

// trees: one per group (matched by MLID; a group without a tree has no
// entries anywhere: its members are unreached when it has sources on two
// or more switches); a tree without a group is checked with the members
// its masks show.
Result verify(const Fabric &f, const Routing &r, const std::vector<Group> &groups,
              const std::vector<Tree> &trees, const Options &o);

// What keiro analyze and the tools print about a set of trees.
struct TreeStats {
  int64_t trees = 0;               // trees with at least one switch
  int64_t switches = 0;            // (tree, switch) entries
  int max_depth = 0;               // most switch-to-switch hops from a member to another
  int64_t links_used = 0;          // switch-to-switch links (both directions) some tree uses
  int64_t max_trees_per_link = 0;  // trees sharing the busiest link
  int64_t roots = 0;               // distinct roots (trees whose root is known)
};
// Depth from the verdicts of verify() (GroupVerdict::depth); the rest from
// the masks. O(sum of tree sizes * ports).
TreeStats tree_stats(const Fabric &f, const std::vector<Tree> &trees,
                     const std::vector<GroupVerdict> &verdicts);
std::string json_string(const TreeStats &s, const Result &r);

}  // namespace keiro::mcast
