// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Independent checkers (oracles) for the routing tests, written without the
// engines' code: Kahn's acyclicity test, a credit-loop walk of installed
// tables, a route walker with hop and forwarding-index figures (Nue), and the
// DL paper's rules (reference up/down directions, the shortest legal DL path
// of every pair, a walk that checks the DL rules on the realized VLs), a
// plain destination-based up*/down* routing (the baseline DL is compared
// with), and LOREN's forwarding rule walked from every source (livelock).
//
// Cost: the walks are O(S * LIDs * hops) time, O(C * VLs + edges) memory;
// pair_distances O(S * S * layers * C); updown_routing O(LIDs * C);
// loren_walk O(S^2 * (hops + t)).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/loren/layout.h"
#include "core/loren/tables.h"
#include "core/routing.h"
#include "tests/unit/fabrics.h"

namespace keiro::fixtures {

// Kahn's algorithm: true when the graph given as out-lists has no cycle.
inline bool acyclic(const std::vector<std::vector<int32_t>> &out) {
  std::vector<int32_t> indeg(out.size(), 0), queue;
  for (const auto &o : out)
    for (int32_t v : o) ++indeg[v];
  for (size_t v = 0; v < out.size(); ++v)
    if (!indeg[v]) queue.push_back(static_cast<int32_t>(v));
  for (size_t i = 0; i < queue.size(); ++i)
    for (int32_t w : out[queue[i]])
      if (--indeg[w] == 0) queue.push_back(w);
  return queue.size() == out.size();
}

// Brute-force reachability: whether `to` can be reached from `from` in a
// graph on n nodes whose successors of x are those successors(x, visit)
// calls visit(y) for. Depth first, O(n + edges).
template <typename Successors>
bool reaches(int32_t n, int32_t from, int32_t to, Successors successors) {
  std::vector<char> seen(n, 0);
  std::vector<int32_t> stack = {from};
  seen[from] = 1;
  while (!stack.empty()) {
    const int32_t x = stack.back();
    stack.pop_back();
    if (x == to) return true;
    successors(x, [&](int32_t y) {
      if (!seen[y]) seen[y] = 1, stack.push_back(y);
    });
  }
  return false;
}

// Independent credit-loop test of installed-style tables: builds the graph
// over (channel, VL) from every (source switch, destination LID) path with
// the path SL and the SL2VL entries (first hop: from in port 0 and from each
// CA's cable port, as the switch's own and its HCAs' traffic enter), and
// looks for a
// cycle with Kahn's algorithm. Returns "" or a description of the problem.
// With fixed_sl >= 0 every path uses SL fixed_sl instead; with mixed as
// well, every path is walked with its own SL and with fixed_sl, in one graph.
// With stale (a routing of the same fabric before a re-route, same switch
// ids) every path uses the SL stale gave it instead, and a hop on VL 15
// drops the packet (counted in *drops; no dependency from it on).
inline std::string credit_loop_problem(const Fabric &f, const Routing &r, int fixed_sl = -1,
                                       bool mixed = false, const Routing *stale = nullptr,
                                       int64_t *drops = nullptr) {
  const int32_t S = f.num_switches(), C = f.num_channels();
  const int V = kMaxDataVls + 1;  // VL 0..15
  std::vector<std::vector<int32_t>> out(static_cast<size_t>(C) * V);
  if (drops) *drops = 0;
  for (int32_t src = 0; src < S; ++src)
    for (uint16_t lid : f.lids()) {
      const int32_t dst = f.lid_switch(lid);
      std::vector<uint8_t> sls;
      if (fixed_sl < 0 || mixed) sls.push_back((stale ? *stale : r).path_sl(src, lid));
      if (fixed_sl >= 0) sls.push_back(static_cast<uint8_t>(fixed_sl));
      for (const uint8_t sl : sls) {
        if (src == dst) continue;
        const uint8_t first = r.out_port(src, lid);
        if (f.peer(src, first).kind != PortPeer::kSwitch)
          return "black hole to LID " + std::to_string(lid);
        // The first hop's VL over every in port traffic enters src on: port
        // 0 (the switch's own) and each CA's cable port (HCA traffic).
        std::vector<uint8_t> first_vls{r.vl(src, 0, first, sl)};
        for (int32_t t : f.terminals_of(src))
          first_vls.push_back(r.vl(src, f.terminal(t).sw_port, first, sl));
        std::sort(first_vls.begin(), first_vls.end());
        first_vls.erase(std::unique(first_vls.begin(), first_vls.end()), first_vls.end());
        for (const uint8_t v0 : first_vls) {
          int32_t s = src, prev = -1, prev_node = -1;
          for (int hops = 0; s != dst; ++hops) {
            if (hops > S) return "forwarding loop to LID " + std::to_string(lid);
            const uint8_t port = r.out_port(s, lid);
            const PortPeer p = f.peer(s, port);
            if (p.kind != PortPeer::kSwitch) return "black hole to LID " + std::to_string(lid);
            const uint8_t vl = prev < 0 ? v0 : r.vl(s, f.channel(prev).dst_port, port, sl);
            if (stale && vl == 15) {
              ++*drops;
              break;
            }
            const int32_t node = p.id * V + vl;
            if (prev_node >= 0) out[prev_node].push_back(node);
            prev_node = node;
            prev = p.id;
            s = f.channel(p.id).dst;
          }
        }
      }
    }
  for (auto &o : out) {
    std::sort(o.begin(), o.end());
    o.erase(std::unique(o.begin(), o.end()), o.end());
  }
  return acyclic(out) ? "" : "credit loop";
}

// The walk above with the SLs of stale: jobs still on the SLs of the
// routing before a re-route.
inline std::string stale_credit_loop_problem(const Fabric &f, const Routing &r,
                                             const Routing &stale, int64_t &drops) {
  return credit_loop_problem(f, r, -1, false, &stale, &drops);
}

// Up/down as in Autonet/OpenSM: level from a BFS at root; a channel is up
// when it ends nearer the root, or at the same level on the lower GUID.
inline std::vector<uint8_t> reference_up(const Fabric &f, int32_t root) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> level(S, -1), queue{root};
  level[root] = 0;
  for (size_t i = 0; i < queue.size(); ++i)
    for (int32_t c = f.out_begin(queue[i]); c < f.out_end(queue[i]); ++c) {
      const int32_t t = f.channel(c).dst;
      if (level[t] < 0) level[t] = level[queue[i]] + 1, queue.push_back(t);
    }
  std::vector<uint8_t> up(f.num_channels());
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    up[c] = level[ch.dst] != level[ch.src] ? level[ch.dst] < level[ch.src]
                                           : f.sw(ch.dst).guid < f.sw(ch.src).guid;
  }
  return up;
}

// Whether layer v of a restriction ("ud", "ud-du", "ud-dudu") is up*/down*.
inline bool layer_ud(const std::string &restriction, int v) {
  if (restriction == "ud") return true;
  if (restriction == "ud-du") return v % 2 == 0;
  return v == 0;  // ud-dudu
}

// Whether a packet in layer v whose last hop there went `last_up` may take a
// hop `up` in the same layer.
inline bool turn_ok(bool ud, bool last_up, bool up) {
  return ud ? !(!last_up && up) : !(last_up && !up);
}

// Hop counts of the shortest legal DL path from every switch to every switch,
// searched per pair straight from the paper's rules (a packet may start in
// any layer, may change to any lower layer at any hop, and inside a layer
// obeys its rule). dist[s * S + t]. layers = 1 with "ud" is up*/down*.
inline std::vector<int32_t> pair_distances(const Fabric &f, int32_t root,
                                           const std::string &restriction, int layers) {
  const int32_t S = f.num_switches();
  const std::vector<uint8_t> up = reference_up(f, root);
  std::vector<int32_t> out(static_cast<size_t>(S) * S, -1);
  // state = (switch * layers + layer) * 2 + last_up
  std::vector<int32_t> dist(static_cast<size_t>(S) * layers * 2);
  std::vector<int32_t> queue;
  for (int32_t s = 0; s < S; ++s) {
    std::fill(dist.begin(), dist.end(), -1);
    queue.clear();
    out[static_cast<size_t>(s) * S + s] = 0;
    auto push = [&](int32_t t, int v, bool u, int32_t d) {
      const int32_t st = (t * layers + v) * 2 + (u ? 1 : 0);
      if (dist[st] >= 0) return;
      dist[st] = d;
      queue.push_back(st);
      int32_t &o = out[static_cast<size_t>(s) * S + t];
      if (o < 0 || d < o) o = d;
    };
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
      for (int v = 0; v < layers; ++v) push(f.channel(c).dst, v, up[c], 1);
    for (size_t i = 0; i < queue.size(); ++i) {
      const int32_t st = queue[i];
      const int32_t u = st / 2 / layers;
      const int v = st / 2 % layers;
      const bool last_up = st % 2;
      for (int32_t c = f.out_begin(u); c < f.out_end(u); ++c) {
        const int32_t t = f.channel(c).dst;
        if (turn_ok(layer_ud(restriction, v), last_up, up[c])) push(t, v, up[c], dist[st] + 1);
        for (int w = 0; w < v; ++w) push(t, w, up[c], dist[st] + 1);
      }
    }
  }
  return out;
}

// Average of dist over ordered pairs of distinct terminals (each switch's
// terminal count as weight; switches when there are no terminals).
inline double average_pair_hops(const Fabric &f, const std::vector<int32_t> &dist) {
  const int32_t S = f.num_switches();
  std::vector<double> w(S, 0);
  for (int32_t s = 0; s < S; ++s)
    w[s] = f.num_terminals() ? static_cast<double>(f.terminals_of(s).size()) : 1.0;
  double total = 0, hops = 0;
  for (double x : w) total += x;
  for (int32_t s = 0; s < S; ++s)
    for (int32_t t = 0; t < S; ++t) hops += w[s] * w[t] * dist[static_cast<size_t>(s) * S + t];
  return hops / (total * (total - 1));
}

// Walks every (source switch, destination LID) path of the installed tables
// with its path SL and the SL2VL entries, and checks the DL rules on the VLs
// the packets get (VL = sub-network): VLs below `layers`, never rising, and
// every turn inside one VL allowed by that layer's rule. Also counts the
// switch-to-switch hops per VL. Returns "" or the first problem.
inline std::string check_dl_rules(const Fabric &f, const Routing &r, int32_t root,
                                  const std::string &restriction, int layers,
                                  std::vector<int64_t> *hops_per_vl = nullptr) {
  const std::vector<uint8_t> up = reference_up(f, root);
  if (hops_per_vl) hops_per_vl->assign(16, 0);
  for (int32_t s0 = 0; s0 < f.num_switches(); ++s0)
    for (uint16_t lid : f.lids()) {
      const int32_t dst = f.lid_switch(lid);
      const uint8_t sl = r.path_sl(s0, lid);
      int prev_vl = -1;
      bool prev_up = false;
      uint8_t in = 0;
      int32_t s = s0;
      for (int steps = 0; s != dst; ++steps) {
        if (steps > f.num_switches()) return "loop";
        const uint8_t port = r.out_port(s, lid);
        const PortPeer p = f.peer(s, port);
        if (p.kind != PortPeer::kSwitch) return "path leaves the switches early";
        const int32_t c = p.id;
        const int vl = r.vl(s, in, port, sl);
        if (vl >= layers) return "VL beyond the sub-networks";
        if (prev_vl >= 0 && vl > prev_vl) return "VL rises along a path";
        if (prev_vl == vl && !turn_ok(layer_ud(restriction, vl), prev_up, up[c]))
          return "forbidden turn inside sub-network " + std::to_string(vl) + " at switch " +
                 f.sw(s).name;
        if (hops_per_vl) ++(*hops_per_vl)[vl];
        prev_vl = vl;
        prev_up = up[c];
        in = f.channel(c).dst_port;
        s = f.channel(c).dst;
      }
    }
  return "";
}

// Plain destination-based up*/down* (Autonet; directions of reference_up
// from root), written without DL's code: per destination switch d a BFS
// backwards from d labels every switch with the first (hops, kind) it can
// get, in the order hops, then down-only before up: s -> t down is allowed
// only onto a down-only t (s becomes down-only), s -> t up always (s
// becomes "up"). Every switch then takes a channel to a switch one hop
// closer that keeps this rule, so paths go up*, then down* (a down hop
// always reaches a down-only switch). Among equal choices: the lowest port
// (balanced = false) or, LIDs in ascending order, the port carrying the
// fewest LIDs on that switch so far. SL 0, VL 0; a switch left without a
// label (none on (UD)* fabrics, docs/dl.md) gets no port.
Routing updown_routing(const Fabric &f, int32_t root, bool balanced = true);

// LOREN's forwarding rule (Kawano et al., Sect. V) walked plainly on the
// tables: at switch u a packet for switch v takes the first entry of u's
// table (table order) with the smallest Manhattan distance md(v_dst, v);
// an exact entry v_dst = v always wins. Walks every (source, destination)
// pair of switches and fails on a revisited switch (the rule depends on (u,
// v) only, so that is a livelock) or an empty table. next (if given) gets
// the channel the rule picks, next[v * S + u] (-1 at v). Returns "" or
// "livelock from 'A' to 'B' at 'C'".
std::string loren_walk(const Fabric &f, const loren::Layout &l, const loren::LorenTables &t,
                       std::vector<int32_t> *next = nullptr);

struct RouteCheck {
  bool ok = true;
  std::string problem;               // first problem found
  int64_t paths = 0;                 // (switch, LID) walks
  int64_t max_hops = 0;              // longest switch-to-switch path
  double avg_hops = 0;               // average switch hops over CA->CA paths
  int64_t max_efi = 0, min_efi = 0;  // edge forwarding index over CA->CA paths
  double avg_efi = 0;
  int vls = 0;  // distinct VLs on switch-to-switch hops
};

// Walks every (switch, LID) route, checks that it reaches the LID's port
// without loops, and that the dependency graph over (channel, VL) (VL from
// the path SL of the LID and the SL2VL entry of each hop) is acyclic. Also
// computes the hop and edge-forwarding-index figures over all pairs of CA
// base LIDs.
RouteCheck check_routes(const Fabric &f, const Routing &r);

// Routes f with engine (8 VLs) through the pipeline and checks the tables
// with the independent walker (check_routes, credit_loop_problem): every
// (switch, LID) path, 1..8 VLs, no error line, no credit loop. Returns the
// walker's figures (rc.ok false on any failure, also reported).
// Inline: the benchmarks link oracles.cc without GoogleTest.
inline RouteCheck route_and_walk(const Fabric &f, const char *engine, EngineRun &run) {
  run = run_captured(f, engine, {.max_vls = 8});
  EXPECT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  RouteCheck rc = check_routes(f, run.out);
  EXPECT_TRUE(rc.ok) << rc.problem;
  EXPECT_EQ(rc.paths, static_cast<int64_t>(f.num_switches()) * f.lids().size());
  EXPECT_GE(rc.vls, 1);
  EXPECT_LE(rc.vls, 8);
  EXPECT_EQ(credit_loop_problem(f, run.out), "");
  rc.ok = rc.ok && run.ok;
  return rc;
}

}  // namespace keiro::fixtures
