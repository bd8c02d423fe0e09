// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The test fixture library (unit tests and benchmarks): fabrics built from
// link lists under one GUID/port rule, rings, tori, random regular fabrics
// (core/topo's generator), hand-made small fabrics, reference routings
// (min-hop, ring, spanning tree), all-pairs hop distances, channel lookup,
// destination-tree builders, and one "run an engine and capture its log"
// helper. The independent checkers (oracles) are in tests/unit/oracles.h.
//
// Cost: the builders are O(S + L + T); distances O(S * (S + C)); min_hop
// O(S * (S + C) + LIDs * C). Memory O(S * S) for the distance tables.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/engine/engine.h"
#include "core/fabric.h"
#include "core/log.h"
#include "core/loren/layout.h"
#include "core/loren/tables.h"
#include "core/minimal/dest_trees.h"
#include "core/pipeline/pipeline.h"
#include "core/routing.h"
#include "core/topo/net_list.h"

namespace keiro::fixtures {

// A file of the source tree by its path from the top ("ibsim-topologies/
// ring.net"): under $srcdir (make check sets it), else under ".".
inline std::string source_path(const std::string &rel) {
  const char *srcdir = std::getenv("srcdir");
  return std::string(srcdir ? srcdir : ".") + "/" + rel;
}
// The same for a file of the unit tests' data directory (tests/unit/data/).
inline std::string unit_data(const std::string &name) {
  return source_path("tests/unit/data/" + name);
}

// Writes text to a file named name in GoogleTest's temporary directory;
// returns its path (layout files for keiro-loren).
inline std::string temp_file(const std::string &name, const std::string &text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A switch-to-switch link; port 0 = the next free port of that switch.
struct Link {
  int32_t a = -1, b = -1;
  uint8_t pa = 0, pb = 0;
  Link(int32_t a_, int32_t b_, uint8_t pa_ = 0, uint8_t pb_ = 0) : a(a_), b(b_), pa(pa_), pb(pb_) {}
  Link(std::pair<int32_t, int32_t> p) : a(p.first), b(p.second) {}  // NOLINT: implicit on purpose
};
using Links = std::vector<Link>;

// How from_links() numbers and names things. The one rule:
//  switch i: name "<prefix><i + first>" (or names[i]), GUID guid + i,
//            max(min_ports, used ports) ports;
//  links:    in list order, each repeated `parallel` times; a port given as 0
//            takes the next port of that switch not given explicitly;
//  CAs:      `hcas` per switch on the lowest ports the links left free;
//            CA k (switch-major order) is named "H<k + first>", node GUID
//            hca_guid + 2k, port GUID node GUID + 1, `vls` data VLs;
//  LIDs:     assign_lids(lmc) (switches first, as OpenSM on a fresh subnet),
//            then finalize().
struct Spec {
  int hcas = 0;
  uint8_t lmc = 0;
  uint8_t vls = 8;
  int parallel = 1;
  std::string prefix = "S";
  int first = 0;
  uint64_t guid = 0x1000;
  uint64_t hca_guid = 0x100000;
  int min_ports = 8;
  std::vector<std::string> names = {};
};

Fabric from_links(int32_t n, const Links &links, const Spec &spec = {});

// A ring of n switches: switch i's port hcas+1 goes to port hcas+2 of switch
// i+1 (mod n), its CAs on ports 1..hcas. Channels are sorted by (switch,
// port), so for n >= 3 the channel ids are 2i (i -> i+1) and 2i+1 (i -> i-1).
Fabric ring(int32_t n, const Spec &spec = {});

// f without switch drop_sw (and its CAs) and without the link of channel
// drop_channel (-1: none for either); GUIDs, port numbers and LIDs stay (a
// fault as OpenSM sees it after a re-sweep).
Fabric without(const Fabric &f, int32_t drop_sw, int32_t drop_channel);

// The ring the check, dump and metrics tests describe by hand: ring() with
// one CA per switch (port 1; links on ports 2 and 3), switches S1..Sn, CAs
// H1..Hn with node GUID 0x2000 + 2i.
inline Fabric ca_ring(int32_t n, uint8_t lmc = 0, uint8_t vls = 8) {
  return ring(n, {.hcas = 1, .lmc = lmc, .vls = vls, .first = 1, .hca_guid = 0x2000});
}

// Links of an x * y * z torus, switch (i, j, k) = i + x * (j + y * k); wrap
// links, no duplicates for size-2 rings; fail_fraction of the links (rounded)
// removed at random (seeded), keeping the graph connected.
Links torus_links(int x, int y, int z = 1, double fail_fraction = 0, uint64_t seed = 1);

// The torus `keiro topo torus` writes (ports in dimension order, as ibsim
// files have them), hcas HCAs per switch, parsed as from a net file.
Fabric generated_torus(const std::vector<int> &dims, int hcas);

// Links of a random connected simple d-regular graph on n switches from
// core/topo's generator (gen_random_regular, same seed = same graph), in the
// generator's (sorted) order.
Links random_regular_links(int32_t n, int d, uint64_t seed);
inline Fabric random_regular(int32_t n, int d, uint64_t seed, const Spec &spec = {}) {
  return from_links(n, random_regular_links(n, d, seed), spec);
}

// A connected random irregular topology as in the DL paper's Section 5: n
// switches, at most max_links switch links each, at most one link between two
// switches (random stub pairing, redrawn until connected).
Links random_irregular_links(int32_t n, int max_links, uint64_t seed);

// Hand-wired switches "L0".."L<n-1>" (GUID i + 1, 4 ports) joined by links
// (switch a port pa to switch b port pb), one CA "h<i>" on port 3 of each
// switch; LIDs assigned with LMC lmc, finalized. Time O(n + links).
struct PortLink {
  int32_t a;
  uint8_t pa;
  int32_t b;
  uint8_t pb;
};
Fabric hand_wired(int32_t n, const std::vector<PortLink> &links, uint8_t lmc = 0);

// Two 8-port switches A (GUID 0x10) and B (0x20) joined by two parallel links
// (ports 3 and 5; the one on port 3 has 4 VLs, the other 8), one CA on port 1
// of each. Not finalized: LIDs and finalize() are up to the test.
Fabric two_switches();
Fabric two_switches_finalized();  // the same, LIDs (LMC 0) assigned, finalized

// The channel from switch a to switch b (the first one if parallel), -1 if none.
int32_t channel_between(const Fabric &f, int32_t a, int32_t b);

// BFS hop distances between all switch pairs: dist[a * S + b], -1 unreachable.
std::vector<int32_t> distances(const Fabric &f);

// The port of LID lid on its own switch (0 for a switch LID).
uint8_t home_port(const Fabric &f, uint16_t lid);

// Shortest-path LFTs, SL 0, SL2VL VL 0. kLowestPort: every switch forwards on
// its lowest port one hop closer to the LID's switch. kBalanced (in the
// manner of OpenSM's minhop): LIDs in ascending order, among the ports one hop
// closer the one carrying the fewest LIDs on that switch so far (lowest on ties).
enum class MinHop { kLowestPort, kBalanced };
Routing min_hop(const Fabric &f, MinHop mode = MinHop::kLowestPort);

// Routes LID lid at switch s over channel best (its source port), counting
// the LID in used[s][port] for balanced choices; best < 0 leaves s without
// a port (kNoPort). Shared by min_hop() and the up*/down* oracle. Time O(1).
void take_channel(const Fabric &f, Routing &r, int32_t s, uint16_t lid, int32_t best,
                  std::vector<std::vector<int32_t>> &used);

// The port switch `at` of a ca_ring() of n (port 2 clockwise, 3 counter-
// clockwise) uses towards switch `to`: neighbours directly, the opposite
// switch of an even ring clockwise from even switch ids and counter-clockwise
// from odd ones (deadlock free with one VL on a 4-ring); clockwise_only sends
// everything clockwise.
uint8_t ring_port(int n, int at, int to, bool clockwise_only);
// The LFTs of such a ring; SLs 0, SL2VL all VL 0.
Routing route_ring(const Fabric &f, bool clockwise_only,
                   Routing::SlScope scope = Routing::SlScope::kPerDestination);

// Routing along a BFS spanning tree of the switches rooted at switch 0 (up to
// the common ancestor, then down): up*/down*, deadlock free whatever the SLs
// and SL2VL tables. SL 0, SL2VL VL 0.
Routing route_tree(const Fabric &f);

// Destination trees given as "next switch" per (destination, switch); -1 at
// the root. One destination per listed root, holding that switch's LIDs.
minimal::DestTrees trees_from_next_switch(const Fabric &f, const std::vector<int32_t> &roots,
                                          const std::vector<std::vector<int32_t>> &next_sw);
// Shortest-path trees, one per switch (destination k at switch k): every
// switch takes its first channel (port order) one hop closer to k.
minimal::DestTrees min_hop_trees(const Fabric &f);

// A LOREN layout from (x, y) per switch; throws std::runtime_error if invalid.
loren::Layout layout(const Fabric &f, const std::vector<std::pair<int32_t, int32_t>> &pos);
// "dst>next@hops" for every entry of switch u's LOREN table, in table order.
std::string dump_table(const Fabric &f, const loren::LorenTables &t, int32_t u);

// Writes an ibsim net file for f; false on I/O error. CA records first so
// that the SM binds to a CA.
bool write_ibsim_net(const Fabric &f, const std::string &path);

// One engine run with its log captured.
struct EngineRun {
  bool ok = false;
  Routing out;
  EngineReport rep;
  pipeline::StageResults stages;  // through pipeline::route() only
  CaptureLogger log;
  std::string last_line() const { return log.lines.empty() ? "" : log.lines.back().text; }
  std::string first_line() const { return log.lines.empty() ? "" : log.lines.front().text; }
};

// The engine's typed result of a run (EngineReport::result()); a failed
// expectation and a default result when the engine did not leave one.
template <class Res, class Run>
const Res &result_of(const Run &run) {
  const Res *r = run.rep.template result<Res>();
  EXPECT_NE(r, nullptr);
  static const Res none{};
  return r ? *r : none;
}

// Runs engine `engine` (short or OpenSM name) on f with the options string
// opts. self_check: through pipeline::route() (route + self-check, core/engine/engine.h);
// otherwise the engine's route function alone. Throws std::invalid_argument
// on an unknown engine or a bad options string.
struct RunArgs {
  std::string opts = {};
  int max_vls = 8;
  int max_sls = 16;
  bool qos = true;
  bool self_check = true;
};
EngineRun run_captured(const Fabric &f, const std::string &engine, const RunArgs &a = {});

// The path SLs in use (every source switch, every LID of f).
std::set<int> path_sls(const Fabric &f, const Routing &r);
// Lines of log at level that contain needle.
int count_containing(const CaptureLogger &log, LogLevel level, const std::string &needle);

// A structured relabelling (issue 32's "reversed" labellings): what it
// reverses.
struct Flip {
  bool order = false;  // node order in the file
  bool guids = false;  // switch GUIDs among switches, HCA GUIDs among HCAs
  bool ports = false;  // every switch's ports, p -> ports + 1 - p
};
// in with what reversed: the same fabric in another labelling.
topo::NetList flip(const topo::NetList &in, Flip what);

}  // namespace keiro::fixtures
