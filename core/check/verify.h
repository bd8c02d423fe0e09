// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Verification of installed-style tables: reachability of every destination
// LID from every source LID without forwarding loops or black holes, and
// absence of credit loops in the dependency graph over (directed switch-to-
// switch channel, VL), using the path SLs and SL2VL entries of the Routing.
//
// Sources are every switch LID (its traffic enters the switch on port 0) and
// every CA/router LID (entering its switch on the port it is attached to);
// destinations are every LID in use, LMC ranges expanded. Pairs whose source
// and destination are the same port are not checked.
//
// The VL of a hop that leaves switch u on port out, having entered on port in,
// is Routing::vl(u, in, out, SL) with SL the path's SL (Routing::path_sl of the
// source switch, or SourceLidSls when given). A path SL of kNoPathSl means the
// SL is not known (io::load_dump_dir leaves the pairs its SL source does not
// cover so). Such a pair is checked only when its path does not depend on the
// SL (every hop of it, and the source port's own SL2VL, maps all 16 SLs to one
// VL), or with Options::assume_sl; otherwise it is counted in
// Result::pairs_without_sl, left out of the dependency graph, and the result
// is not ok (no verdict). The dependency graph has a
// vertex per (switch-to-switch channel, VL) and an edge for every pair of
// consecutive hops of some path; the routing is deadlock free iff it has no
// cycle.
//
// Complexity (S switches, T terminals, C channels, L LIDs in use, P max ports):
//  time   O(L * (S + T + C * V)) for the walks, V = distinct VLs a destination's
//         traffic uses on one channel (1 for most engines): each destination's
//         LFT tree is resolved once (paths.h) and each (channel, SL, VL) suffix
//         of it is followed once; plus O(E) for the cycle search over the
//         E distinct dependencies (sort-free: a 16x16 VL bit matrix per turn).
//         With a cycle, one more pass over the destinations whose trees make a
//         turn of the cycle names the paths behind each dependency.
//         Pairs without an SL add O(S) per destination (and O(16) per hop)
//         to decide whether their paths depend on the SL.
//         Per destination, a source switch whose sources share one known
//         SL (no SourceLidSls) and no VL 15 at its CA ports costs O(1) plus
//         its new hops, not O(its sources): with an SL2VL table that ignores
//         the in port one chain is followed; with one that depends on it
//         (keiro-acro, keiro-dl: the VL changes along the path) one chain
//         per distinct VL its sources' in ports map the SL to on the first
//         hop (at most 16; precomputed per (switch, out port, SL) in
//         O(sum of ports * 16 * sources) time, O(sum of ports * 16 * 4
//         bytes) memory). The rest of a path only depends on (channel, SL),
//         so every (channel, SL, VL) is followed once per destination and
//         each dependency is set once (a 16x16 VL bit matrix per turn):
//         O(L * (S + C * V)) in total; other source switches (per source
//         LID SLs, missing SLs, VL 15 at a source) cost O(their source
//         LIDs) per destination. Options::shortcuts = false follows every
//         source LID (the reference of the differential unit tests).
//         With per-source-switch SLs, a CA/router destination LID whose LFT
//         entries and path SLs equal, at every switch but its own, those of
//         an earlier LID of its switch (keiro-acro, keiro-dl: one tree and
//         one SL per (source switch, destination switch)) reuses that LID's
//         tree: O(S) to compare the columns plus O(its switch's sources and
//         last hops), instead of the walk and the tree pass. Only the first
//         LID of each switch a worker meets is walked, so the walks cost
//         O((S + switch LIDs) * workers * (S + C * V)) instead of
//         O(L * (S + C * V)); the comparisons O(L * S) (byte reads).
//  memory O(S + T + 16 * C + sum of turns (C * P) + 32 bytes * turns used)
//         per worker thread, sized once per call (with per-source-switch
//         SLs also 160 bytes per switch for the tree pass and the block
//         copies of SLs and LFT entries, and 10 bytes per (switch port, SL)
//         for the first-hop VLs; for the tree reuse 2 * S * S bytes, the
//         reference columns per destination switch, 7.2 MB at 1,900
//         switches, not used above 64 MB), plus the problem lines of
//         each block of 64 destinations; SourceLidSls adds its own rows.
//         The workers add a few MB at 2,000 switches; the Routing being
//         checked (LFTs S * L bytes, SL2VL S * P * P * 16) dominates.
//         Measured (tests/bench/check_bench, 2 shared cores): random
//         12-regular graph of 1,900 switches, 24 CAs each (47,500 LIDs,
//         2.26e9 pairs), up*/down* tables: 3.0 s with 1 thread (13.8 s
//         before the per-switch shortcut), peak RSS of the whole process
//         144 MB (143 MB before); min-hop tables with a credit loop (the
//         cycle's paths named in a second pass): 6.3 s (23.5 s before).
//         keiro-nue's tables (8 VLs) on such a fabric: keiro check 4.6 s
//         with 1 thread, 188 MB peak RSS for the whole tool (the issue's
//         self-check took 69 s before). keiro-acro's tables (per-source-
//         switch SLs, in-port-dependent SL2VL) there: keiro route 26 s of
//         user CPU in all, check 17 s wall with 2 threads (~100 s of CPU
//         before: every source LID was followed), same result.
//
// Threads: Options::threads workers take blocks of 64 destinations (LID
// order); each has its own walk, counters, dependency turns and problem
// lines per block. Counts are summed, dependencies ORed and problem lines
// merged in block order (each block keeps its first max_problems distinct
// lines, enough for the merged list), so the Result, including the cycle
// found and its example paths, is the same for every thread count and the
// same as one thread walking the destinations in LID order. The cycle
// search runs on the calling thread; naming the cycle's paths uses the
// workers on the same blocks (paths and examples merged in block order).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/routing.h"

namespace keiro::check {

// A path SL that is not known (Routing::path_sl, or no entry in SourceLidSls
// and this in the Routing).
inline constexpr uint8_t kNoPathSl = 0xFF;

// Path SLs that depend on the source LID, not only on its switch (for example
// dfsssp's, read from SA PathRecords). Pairs set here override
// Routing::path_sl. Rows are allocated per source LID on first use:
// O(rows * L) memory.
class SourceLidSls {
 public:
  void reset(uint16_t max_lid);
  void set(uint16_t slid, uint16_t dlid, uint8_t sl);
  // The SL of the pair, or -1 when it is not set.
  int get(uint16_t slid, uint16_t dlid) const {
    if (slid >= row_.size() || row_[slid] < 0 || dlid > max_lid_) return -1;
    const uint8_t v = sls_[static_cast<size_t>(row_[slid]) * (max_lid_ + 1u) + dlid];
    return v == 0xFF ? -1 : v;
  }
  bool empty() const { return pairs_ == 0; }
  int64_t pairs() const { return pairs_; }

 private:
  uint16_t max_lid_ = 0;
  int64_t pairs_ = 0;
  std::vector<int32_t> row_;
  std::vector<uint8_t> sls_;
};

// Vertices of the dependency graph: node = channel * kDependencyVls + VL.
inline constexpr int kDependencyVls = 16;
inline int64_t dependency_node(int32_t channel, uint8_t vl) {
  return int64_t{channel} * kDependencyVls + vl;
}

// A dependency that no unicast path makes: a multicast tree's turn at the
// switch that from_channel enters (to_channel must leave that switch), so
// that unicast and multicast traffic are checked in one graph
// (core/mcast/check.h). label indexes Options::extra_labels, which name who
// makes it ("multicast MLID 0xC001 SL 0").
struct ExtraDependency {
  int32_t from_channel = -1, to_channel = -1;
  uint8_t from_vl = 0, to_vl = 0;
  int32_t label = 0;
};

struct Options {
  const SourceLidSls *source_sls = nullptr;  // per source LID SLs, if any
  // Which traffic to check. Switch LIDs as sources (management traffic sent
  // by switches) and as destinations are included by default; some engines
  // only make CA/router traffic deadlock free (OpenSM's dfsssp leaves
  // switch-sourced paths out of its dependency graph, Nue without
  // nue_include_switches leaves switch destinations out).
  bool switch_sources = true;
  bool switch_destinations = true;
  // The SL for pairs whose SL is not known (kNoPathSl) and whose path depends
  // on the SL; -1: none (such pairs are counted in Result::pairs_without_sl).
  int assume_sl = -1;
  // Data VLs every port operates: a hop (switch-to-switch or switch-to-CA)
  // on a VL >= vls is an error naming the path. The links' own Channel::vls /
  // TerminalInfo::vls limit as well.
  int vls = kMaxDataVls;
  // Optional per switch port operational data VLs (e.g. PortInfo:OperVLs of a
  // live fabric): port_vls[s][p], 0 = not known. Limits like vls.
  const std::vector<std::vector<uint8_t>> *port_vls = nullptr;
  // Worker threads over the destinations; 0 = the machine's cores, capped
  // at 8. The result is the same for every value.
  int threads = 0;
  // Called after each block of destinations with (done, total), from the
  // worker threads (one call at a time): for a progress line.
  std::function<void(int64_t, int64_t)> progress;
  // Fixed-SL traffic (MPI through UCX_IB_SL or NCCL_IB_SL, which never asks
  // the SA): with fixed_sl = N (0..15) every pair is followed on SL N instead
  // of its path SL (path SLs, source_sls and assume_sl are then not used;
  // no pair lacks an SL). With fixed_sl_mixed as well, every pair is
  // followed on its own path SL *and* on SL N, in one dependency graph: a
  // fabric carrying both kinds of traffic at once. An acyclic mixed graph
  // means both kinds alone are deadlock free too (each is a subgraph).
  // -1: every pair on its own path SL only.
  int fixed_sl = -1;
  bool fixed_sl_mixed = false;
  // The SLs checked are stale: a previous routing's (source_sls from its
  // path-SL file), checked against re-routed tables. A switch-to-switch or
  // last hop on VL 15 is then a drop the re-route set on purpose
  // (core/reroute/incremental.h, step 5: jobs still on an SL the new route could not
  // keep lose their packets instead of closing a credit loop), counted in
  // Result::stale_drops instead of vl_errors. The tables' own SLs must pass
  // without this: a pair whose SL did not change follows the same entries
  // with either SL file, so only pairs whose SL changed can meet a drop.
  bool stale_sls = false;
  // Also the verdict for all traffic on SL project_sl (every pair on it, as
  // fixed_sl = project_sl would check) at the cost of one more cycle search,
  // O(E), when that SL maps to one VL everywhere (every switch's SL2VL, in
  // and out ports alike, and every CA port's): such traffic makes the same
  // turns as the pairs checked, each channel on that one VL. Only when
  // everything else holds (Result::projected_sl_ok stays -1 otherwise, and
  // when the SL2VL is not uniform: check with fixed_sl then). -1: off.
  int project_sl = -1;
  // Dependencies to add to the unicast ones before the cycle search (with
  // extra_labels). A cycle that uses one names its label among the examples
  // of that dependency (CycleDependency::examples). project_sl is not
  // decided when there are any. O(number of extra dependencies).
  const std::vector<ExtraDependency> *extra_deps = nullptr;
  const std::vector<std::string> *extra_labels = nullptr;
  // Hand the unicast dependency graph back in Result::dependencies (the
  // multicast trees are built against it: core/mcast/trees.h). O(E) memory.
  bool collect_dependencies = false;
  int max_problems = 20;  // problem lines kept
  int max_examples = 3;   // example paths kept per cycle dependency
  // With a credit loop, name the paths behind each dependency of the cycle
  // (Result::cycle_deps; one more pass over the destinations whose trees
  // make a turn of it). false: cycle_deps stays empty.
  bool name_cycle_paths = true;
  // false: follow every source LID on its own (no per-switch sharing); the
  // same Result, slower: the reference the differential tests compare with.
  bool shortcuts = true;
  // false: walk every destination LID, also those whose tree repeats the
  // one of a LID of the same switch (Checker::reuse_tree in verify.cc;
  // shortcuts = false walks them all as well). The same Result, slower.
  bool reuse_trees = true;
};

// One dependency (edge) of an offending cycle and the paths that create it.
struct CycleDependency {
  std::string from, to;               // "switch-name port P VL v"
  int64_t paths = 0;                  // (source LID, destination LID) pairs
  std::vector<std::string> examples;  // "'H1' (LID 2) -> LID 10 ('H3') SL 0"
};

struct Result {
  bool ok = false;             // every check holds and no pair lacks a needed SL
  int64_t pairs_checked = 0;   // (source LID, destination LID) pairs
  int64_t unreachable = 0;     // pairs not delivered for another reason than a loop
                               // = black_holes + wrong_delivery
  int64_t black_holes = 0;     // ... dropped: LFT entry 0xFF, port out of range, or a
                               // port with nothing connected
  int64_t wrong_delivery = 0;  // ... handed to the wrong CA/router port or to port 0
                               // of a switch that does not own the LID
  int64_t loops = 0;           // pairs whose walk revisits a switch
  int64_t vl_errors = 0;       // hops (each suffix counted once per destination) on VL 15
                               // (drop) or on a VL the port does not operate (link VLs,
                               // Options::vls, Options::port_vls); path SLs 16..254
  int64_t stale_drops = 0;     // Options::stale_sls: hops on VL 15 (counted as vl_errors are)
  // Pairs (source LID, destination LID) whose SL is not known (kNoPathSl):
  int64_t pairs_without_sl = 0;  // ... whose path depends on the SL, no assume_sl: not
                                 // checked for credit loops (ok is false: no verdict)
  int64_t pairs_assumed_sl = 0;  // ... whose path depends on the SL, checked with assume_sl
  int64_t pairs_sl_free = 0;     // ... whose path maps every SL to one VL on every hop:
                                 // checked without an SL
  bool credit_loop = false;
  std::vector<std::string> cycle;  // one offending cycle, "switch-name port P VL v" per hop
  std::vector<CycleDependency> cycle_deps;  // cycle[i] -> cycle[i+1 mod n], with paths
  std::string first_problem;                // one line: the first failure found
  std::vector<std::string> problems;        // up to max_problems lines, first_problem first
  int vls_used = 0, sls_used = 0;     // distinct VLs on switch-to-switch hops, distinct path SLs
  uint32_t vl_mask = 0, sl_mask = 0;  // which ones (bit per VL / SL)
  int64_t dependency_nodes = 0, dependency_edges = 0;
  // Options::collect_dependencies: every edge (from, to) of the unicast
  // dependency graph, as dependency_node() ids, extra dependencies left out.
  std::vector<std::pair<int64_t, int64_t>> dependencies;
  // The cycle found uses at least one extra dependency (Options::extra_deps).
  bool cycle_uses_extra = false;
  // Options::project_sl: 1 free of credit loops with all traffic on that SL,
  // 0 not (projected_sl_problem: the cycle, as fixed_sl would report it),
  // -1 not decided.
  int projected_sl_ok = -1;
  std::string projected_sl_problem;
  double seconds = 0;
};

// Sets switch_sources/switch_destinations from "all", "ca-sources" (traffic
// sent by CA/router ports) or "ca" (between CA/router ports); false for
// anything else.
// The checks that were made hold (ok, except that pairs_without_sl > 0 is
// allowed): for callers that report "no verdict" instead of a failure.
inline bool holds_without_missing_sls(const Result &r) {
  return r.unreachable == 0 && r.loops == 0 && r.vl_errors == 0 && !r.credit_loop;
}

bool parse_pairs(const std::string &which, Options &o);

Result verify(const Fabric &f, const Routing &r);
Result verify(const Fabric &f, const Routing &r, const Options &opt);

}  // namespace keiro::check
