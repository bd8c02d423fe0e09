// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Destination-based Descending Layers routing (M. Koibuchi, A. Jouraku,
// K. Watanabe, H. Amano, "Descending Layers Routing: A Deadlock-Free
// Deterministic Routing using Virtual Channels in System Area Networks with
// Irregular Topologies", ICPP 2003):
// up/down directions from a BFS tree (updown.h, paper Section 2), n layers
// with the restriction (UD)*, (UD-DU)* or UD-(DU)* (restriction.h, Section
// 3.1/3.2), one in-tree per destination switch whose paths are legal,
// shortest among what the tree allows and start in the lowest possible
// layer (dest_search.h, Section 3.3), and a path-selection policy among the
// equally good channels (path_select.h, Section 3.3 step 4).
//
// Destinations (per-LID spreading, issue 14): every switch first gets one
// base tree for all its LIDs (its own and its terminals', every LMC
// offset). Where base trees stay in sub-network 0 (every hop rank <= 1),
// and such trees are the majority of the destinations, each LID of those
// switches then gets its own tree: chosen per LID against the loads of all
// LIDs routed so far (path_select.h), with every hop's rank at most the
// base tree's (so it stays in sub-network 0), the LMC offsets of a port on
// different links where there are equally good ones. The engine realizes
// only the other trees, on SLs 1.. (engine.cc), so the realization's work
// stays that of one tree per switch. Otherwise (most destinations need
// higher sub-networks: random fabrics with several VLs) every switch keeps
// its base tree, exactly as before issue 14, and so do the SLs the
// realization needs. On a fat tree routed from a leaf (default_root) every
// CA's tree stays in sub-network 0, so the LIDs of a leaf are spread like
// d-mod-k spreads them, with one VL or many.
//
// Deadlock freedom (Theorem 1 of the paper, in the form the VL realization
// checks): in layer v, give channel c the position
//   UD layer: up c -> S + pos(src c), down c -> S - 1 - pos(src c)
//   DU layer: down c -> 2S - 1 - pos(src c), up c -> pos(src c)
// (pos: the (level, GUID) order of updown.h; up channels strictly decrease
// pos, down channels increase it). Every turn a layer allows strictly lowers
// the position, the forbidden turn raises it, and a packet never moves to a
// higher layer, so along every legal path the labels (layer, position)
// strictly descend. One fixed label per (channel, VL) that strictly descends
// on every path makes the (channel, VL) dependency graph acyclic. These rows
// go to the realization (core/vlmap/) as VlDemand::rank.
//
// Time: O(S * (S + C)) for the default root, plus O(S * (S + C)) for the
// searches (more only when the repair of dest_search.h reruns), plus
// O(C * H) per tree placed (base trees, spread LIDs, and again in the
// rip-up pass). Memory: next-hop (4 bytes) and rank (2 bytes) tables of
// LIDs * S entries, plus O(S + C) scratch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dl/path_select.h"
#include "core/dl/restriction.h"
#include "core/dl/updown.h"
#include "core/fabric.h"
#include "core/minimal/dest_trees.h"
#include "core/vlmap/vl_demand.h"

namespace keiro::dl {

struct DlOptions {
  Restriction restriction = Restriction::kUD;
  Policy policy = Policy::kLoad;
  int layers = 2;     // sub-networks = VLs the routes may use, 1..15
  int32_t root = -1;  // -1: default_root()
  uint64_t seed = 1;  // for Policy::kRandom
  // Next-hop choices: true = every equally short channel that keeps all
  // paths legal (dest_search.h "Slack"); false = only those that keep the
  // lowest sub-network (the paper's step 3).
  bool slack = true;
  // Policy::kLoad: times every tree is taken off the loads and placed again
  // once all trees exist (each pass O(K * C * H)). The first pass takes
  // every tree (base or spread LID); the whole-switch trees are placed with
  // the sources expected from behind (PathSelector::select, ahead); later
  // passes take only those trees again and are kept only if they lower the
  // largest load. On `keiro topo director 3 52 --uplinks 16` (8 VLs) max EFI
  // 3,888 before the expected sources, 1,944 with them and one pass (as
  // written; 1,620 relabelled), 1,620 in every labelling with two; random
  // regular 128 switches 736 -> 688, the 6x6x6 torus with failed links
  // 696 -> 676, fat trees unchanged (their trees are all spread).
  int reroute_passes = 2;
  // Spread the LIDs of switches whose trees stay in sub-network 0 (above).
  // The engine turns it off when it cannot give them an SL of their own
  // (one SL with several sub-networks).
  bool spread_lids = true;
  // Also spread the LIDs of switches whose base tree leaves sub-network 0
  // (and do so whatever the majority): each LID gets a tree of its own,
  // chosen against the loads of all LIDs routed so far, in any sub-network
  // its legal paths need (not bounded by the base tree's ranks). The
  // realization then places every tree's paths (S x LIDs of them), so the
  // engine asks for it only as an alternative (engine.cc). On director
  // fabrics one tree per switch sends a rack switch's LIDs down the same
  // links from every source (`keiro topo director 3 52 --uplinks 16`: max
  // EFI 1,620 -> 1,188).
  bool spread_upper = false;
  // Policy::kLoad: consistent choices (PathSelector, percent; 0: off).
  int consistency = 0;
};

struct DlResult {
  Restriction restriction = Restriction::kUD;
  int layers = 1;
  UpDown updown;
  minimal::DestTrees trees;
  // rank[k * S + s]: lowest legal rank of the hop out of s towards
  // destination k (-1 at its root); its layer is rank / 2.
  std::vector<int16_t> rank;
  std::vector<int64_t> load;    // routes per channel, base LIDs (edge forwarding index)
  int layers_needed = 0;        // 1 + highest layer any hop needs
  int64_t repaired_dests = 0;   // destinations whose search needed the repair
  int64_t reruns = 0;           // reruns of those searches in total
  int64_t spread_trees = 0;     // destinations that are single spread LIDs
  int64_t unspread_groups = 0;  // switches with several LIDs kept on one tree
};

// The default root of the up/down directions (paper Section 2; "Root
// rule" in docs/dl.md). Candidates: c1, the most central switch
// (central_root(), updown.h), and c2, the most central switch among those
// with the most terminals. When they differ, each is scored by the trees of
// sub-network 0 (plain up*/down*, what DL has with one VL) towards up to 64
// destination switches with terminals, spread over the switch ids: first
// the terminal-weighted hops (fewer is better), then the terminal-weighted
// number of equally good next hops (more is better: room for the path
// selection to spread). Ties keep c1. On a fabric whose switches all have
// the same number of terminals c1 = c2, the most central switch. On a fat
// tree c2 is a leaf: from a leaf, every shortest path between leaves is
// up*/down* (the top level is reached at depth n-1 and acts as the root of
// every other subtree), so every equal-cost next hop stays legal; from a
// top switch, the other top switches' links lead down, so paths between
// subtrees must climb through the root's own group, which carries them
// all. No fat-tree detection: the score decides.
// Time O(S * (S + C)) for central_root (twice when the switches' terminal
// counts differ), plus O(64 * (S + C)) per candidate.
int32_t default_root(const Fabric &f);

// Whether one sub-network (plain up*/down* from root, layer 0 of the
// restriction) gives every route between terminals -- from a switch with
// terminals to a switch with terminals; every switch when the fabric has
// none -- exactly the hops that `layers` sub-networks give (the trees'
// depths, dest_search.h). Then the extra layers only shorten routes from
// and to switches without terminals (management traffic to switch LIDs)
// and keiro-dl takes one layer with dl_subnets 0: one VL, and every CA
// tree spread per LID (on a fat tree routed from a leaf, also with failed
// links). Stops at the first route that one layer makes longer (random
// fabrics, tori: at the first destinations). Time O(S * (S + C)) at most
// (two searches per switch with terminals), memory O(S + C).
bool one_layer_suffices(const Fabric &f, Restriction restriction, int layers, int32_t root);

// Fails (one line in err) when the fabric is not connected or has no switch.
bool route(const Fabric &f, const DlOptions &opt, DlResult &out, std::string &err);

// The VL demand of the routes for core/vlmap/vlmap.h: the rank rows above for
// every layer, and
//  - exact: each hop exactly on its layer (lo = hi = rank / 2), the paper's
//    assignment;
//  - otherwise: any layer in [0, r.layers - 1] per hop; the realization may
//    then give a path any layer sequence that obeys the DL rules (its
//    labels strictly descend), which leaves it more freedom to share SLs.
void vl_demand(const Fabric &f, const DlResult &r, bool exact, vlmap::VlDemand &out);

// The destinations of r whose tree has a hop above sub-network 0 (a rank
// >= 2), with their ranks, in out (the other fields as in r). The others
// are plain up*/down* trees: every path of theirs may stay on VL 0, so the
// engine gives them an SL of their own (SL 0, VL 0 on every hop) and hands
// only these to the realization. O(K * S).
void upper_part(const DlResult &r, DlResult &out);

// Average switch-to-switch hops over ordered pairs of distinct terminals
// (terminal base LIDs; switches when the fabric has no terminals), the
// measure of the paper's Table 7. O(K * S).
double average_hops(const Fabric &f, const minimal::DestTrees &t);

}  // namespace keiro::dl
