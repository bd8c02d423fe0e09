// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro's multicast trees: for each group, a tree over its members'
// switches whose channel dependencies, together with those of every unicast
// path (with the path SLs, and with a fixed SL when asked) and of every
// other group's tree, form no cycle. The idea is that of torus-2QoS's
// multicast routing (OpenSM's man page, "MULTICAST ROUTING": trees built so
// that they cannot close a loop with its DOR unicast routes) and of Nue's
// escape paths (Domke et al., HPDC'16, section 4: a spanning tree whose
// dependencies are kept acyclic with the layer's), made general: the
// unicast dependency graph of the installed tables is loaded into a
// dynamic DAG (core/graph/dynamic_dag.h, Pearce-Kelly), and a tree only
// takes a link if the turns its packets then make keep that graph acyclic.
//
// What a tree's packets do (IBA 18.2.4.3.3): a switch copies a packet to
// every port of its mask but the one it came in on, each copy on VL
// SL2VL(in, out, SL). So at a tree switch u every in port i (a tree link, a
// member CA's port, port 0 when u is a member) turns to every other tree
// link o, on VL SL2VL(u, i, o, SL), coming in on each VL the channel into u
// carries (which depends on the in ports of the switch before: SL2VL may
// depend on the in port, as keiro-acro's and keiro-dl's do).
//
// Building a group's tree (build()):
//  1. Roots: the switches with the smallest eccentricity to the member
//     switches (BFS hops), then the smallest sum of distances, then the
//     fewest trees rooted there and the least multicast load on its links
//     (so groups with the same members spread over equal centres); up to
//     RouterOptions::max_roots are tried in that order.
//  2. Growth from the root in BFS order (Prim-like: a candidate link's key
//     is the depth it gives, then how many trees use the link, then the
//     switches' GUIDs): a link joins only if every dependency it adds is
//     accepted by the dynamic DAG; otherwise the switch beyond it is tried
//     through another link later. Growth stops once every member switch is
//     in the tree, or (with a master tree to fall back on) after
//     RouterOptions::max_refused refused links, each of which costs a
//     dynamic-DAG search.
//  3. Pruning: branches without a member are cut; the dependencies of the
//     final tree replace the tentative ones (a subset: still acyclic).
//  4. Fallback: before the first group of an SL set, a master tree over
//     every switch, with every CA port and port 0 as a source, is reserved
//     and its dependencies are kept for good (torus-2QoS's master spanning
//     tree, Nue's escape paths): the min-depth spanning tree from one of the
//     best roots as it is (core/graph/spanning_tree.h, the tree Nue's escape
//     paths use), else one grown as in step 2. A group whose own tree cannot be grown gets
//     the master tree pruned to its members: its dependencies are a subset
//     of the master's, so it always fits. Own trees spread the load; the
//     master guarantees a tree whenever it could be reserved.
// A group that gets neither gets no tree (build() returns false with one
// line saying why): its members are then not reached, but nothing loops.
//
// Dependencies are reference-counted (several trees, and unicast, may make
// the same one); remove() drops a tree's and frees those no one else makes,
// so joins and leaves between sweeps cost one tree each.
//
// Time: create() is one unicast check with its dependencies collected
// (check::verify, O(L * (S + C * V))) and O(E) to load them; build() is
// O(M * (S + C)) for the BFS from M member switches plus the growth, each
// tentative link O(d^2 * SLs) dependencies with Pearce-Kelly's cost per
// dependency (small windows in practice). Memory: O(E) for the DAG (C * 16
// nodes, two adjacency lists each) plus O(tree) per group.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/check/verify.h"
#include "core/fabric.h"
#include "core/graph/dynamic_dag.h"
#include "core/mcast/group.h"
#include "core/options.h"
#include "core/routing.h"

namespace keiro::mcast {

struct RouterOptions {
  // The unicast traffic the trees must not close a loop with: path SLs, and
  // with fixed_sl >= 0 every pair on that SL as well (check::Options
  // fixed_sl with fixed_sl_mixed).
  int fixed_sl = -1;
  int threads = 1;            // for the unicast check in create()
  int max_roots = 2;          // roots tried per group (then the master)
  int max_refused = 64;       // refused links after which an own tree gives up (with a master)
  int max_master_roots = 64;  // roots tried for a master tree (once per SL set)
  // Roots whose min-depth spanning tree the engine kept free for multicast
  // (EngineReport::mcast_roots): tried first, as they are, for the master.
  std::vector<int32_t> hint_roots;
};

// The plugin and keiro route take these options from the pipeline's
// settings (core/pipeline/settings.h pipeline::router_options()).

class Router {
 public:
  // Loads the unicast dependency graph of (f, r). nullptr with err set when
  // that graph already has a cycle (the tables are not deadlock free for
  // the traffic asked) or the tables fail their check.
  static std::unique_ptr<Router> create(const Fabric &f, const Routing &r, const RouterOptions &o,
                                        std::string &err);

  // (Re)builds g's tree, replacing the tree g.mlid had. false: no tree (the
  // old one is gone too), err says why. A group with members on one switch
  // gets a one-switch tree; one without members an empty tree.
  bool build(const Group &g, Tree &out, std::string &err);
  // Drops the tree of mlid (no-op when it has none).
  void remove(uint16_t mlid);
  const Tree *tree(uint16_t mlid) const;
  std::vector<uint16_t> mlids() const;  // the MLIDs with a tree, ascending
  // Whether the last successful build() took the pruned master tree.
  bool last_from_master() const { return last_from_master_; }

  int64_t unicast_dependencies() const { return unicast_edges_; }
  // Groups built as a pruned master tree (their own did not fit).
  int64_t master_fallbacks() const { return master_fallbacks_; }
  // The master tree of an SL set, or nullptr (not reserved or it failed).
  const Tree *master(uint16_t sl_mask) const;
  int64_t multicast_dependencies() const { return static_cast<int64_t>(refs_.size()); }
  // Trees using channel c (the multicast load the growth balances).
  int32_t channel_load(int32_t c) const { return load_[c]; }
  // Every unicast dependency and every tree's, acyclic? An independent
  // DFS over the whole graph (not the DAG's order): the self-check after
  // each build. O(E).
  bool acyclic() const;

 private:
  Router(const Fabric &f, const Routing &r, const RouterOptions &o) : f_(f), r_(r), o_(o) {}
  bool grow(const Group &g, int32_t root, Tree &out, std::vector<uint64_t> &deps, std::string &why,
            int max_refused);
  std::vector<int32_t> root_order(const Group &g, int max_roots) const;
  const Tree *reserve_master(uint16_t sl_mask, std::string &why);
  bool take_bfs_tree(const Group &all, int32_t root, Tree &out, std::vector<uint64_t> &deps);
  bool prune_master(const Group &g, const Tree &master, Tree &out, std::vector<uint64_t> &deps);
  bool take(uint64_t key);
  void release(uint64_t key);

  const Fabric &f_;
  const Routing &r_;
  RouterOptions o_;
  graph::DynamicDag dag_;
  int64_t unicast_edges_ = 0;
  std::unordered_map<uint64_t, int32_t> refs_;  // multicast-made dependency -> trees making it
  std::map<uint16_t, Tree> trees_;
  std::map<uint16_t, std::vector<uint64_t>> tree_deps_;
  std::vector<int32_t> load_;         // [channel] trees using it (both directions counted)
  std::vector<int32_t> root_count_;   // [switch] trees rooted there
  std::map<uint16_t, Tree> masters_;  // by SL mask; an empty tree: could not be reserved
  std::map<uint16_t, std::string> master_why_;
  int64_t master_fallbacks_ = 0;
  bool last_from_master_ = false;
};

// The dependencies a tree's packets make, from its structure (every tree
// port of a switch an in port): keys (from node << 32 | to node),
// check::dependency_node() ids, sorted and unique.
std::vector<uint64_t> tree_dependency_keys(const Fabric &f, const Routing &r, const Tree &t,
                                           const Group &g);

}  // namespace keiro::mcast
