// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Nue routing, Algorithm 2 of Domke, Hoefler, Matsuoka, "Routing on the
// Dependency Graph: A New Approach to Deadlock-Free High-Performance
// Routing", HPDC 2016 (contract in nue.h). The steps and where they are:
//
//   line 1     split destinations into k layers      layers.h (METIS / cluster / random)
//   line 3     N_i^d = destination switches of L_i   Router::prepare_layers
//   line 4     convex subgraph H_i (Sec. 4.3)        graph/convex_subgraph.h
//   line 5     central root of H_i (Brandes)         graph/betweenness.h, or NueOptions::root
//   line 6     new complete CDG D_i (Sec. 4.1)       cdg.h (reset per attempt)
//   line 7     escape paths D_i^s (Sec. 4.2)         graph/spanning_tree.h, escape_paths.h
//              + on layered fabrics (fat trees) the   escape_paths.h (reserve_monotone_turns)
//              up-down turns, reserved
//   line 8-9   per destination LID: Algorithm 1      dijkstra.h (+ 4.6.2 / 4.6.3 and an
//              with Algorithm 3 for every new        escape repair), cdg.h, omega.h
//              dependency; escape fallback
//   line 10    forwarding tables                     layer_routing.h (one column per LID)
//   line 11    channel weight update                 channel_load.h
//
// Destination order. Which dependencies a layer ends up with depends on the
// order in which its destinations are routed, and with few layers that
// decides how well the paths balance: routing a region of the fabric in one
// go lets its dependencies cut the rings through it, and the remaining
// destinations of the region then crowd onto the escape tree. The paper
// leaves the order open. keiro routes each layer's destinations in a seeded
// random order (NueOptions::seed), always with the switches' own LIDs last
// (management traffic, lowest priority). With a single layer, where all
// dependencies share one CDG and the order matters most, a layer whose most
// loaded channel carries more than kRetryImbalance times the mean load (once
// the CA/router LIDs are routed) is routed again, first in the same order
// without the in-run balance of CdgDijkstra, then in another order, and the
// best attempt (smallest largest channel weight after the CA/router LIDs)
// is kept; a later attempt stops as soon as it cannot win any more
// (route_single_layer).
//
// Layers take turns. Algorithm 2 routes layer after layer; with METIS layers
// (compact regions) that means region after region, and the greedy weight
// updates then balance each region's traffic only against the regions
// before it. keiro builds every layer's CDG, root and escape tree first and
// then interleaves the layers' destinations in proportion to the layers'
// sizes, each routed in its own layer's CDG (one CDG per layer in memory;
// route_interleaved). The escape trees are therefore built before any
// weight exists: minimum-depth trees with uniform costs. The layers' CDGs
// are independent, so consecutive LIDs of different layers are routed side
// by side, in waves of at most one LID per layer, against the weights as
// they stood before the wave; a LID misses the line-11 updates of at most
// k - 1 LIDs routed just before it (route_waves; docs/nue.md has what that
// costs in balance).
//
// docs/nue.md ("Design notes and measurements") has the figures behind
// both choices.
//
// Terminals hang off switches: the Dijkstra of a destination LID starts at
// the switch the LID belongs to, and that switch forwards to the LID's port
// (port 0 for its own LIDs). Switch LIDs are destinations like CA LIDs and
// are routed inside the deadlock-free layers. Each CA/router LID (every LMC
// offset) gets its own run with the weights left by the previous ones. With
// several layers, a switch's own LIDs (routed last, management traffic)
// take the tree of a CA/router port's base LID on the same switch in the
// same layer, whose dependencies the layer's CDG already holds
// (route_interleaved); a switch without one gets its own run. The path SL
// of a LID is its layer.
#include "core/nue/nue.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cassert>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/graph/betweenness.h"
#include "core/graph/bfs.h"
#include "core/graph/convex_subgraph.h"
#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"
#include "core/log.h"
#include "core/nue/channel_load.h"
#include "core/nue/escape_paths.h"
#include "core/nue/layer_routing.h"
#include "core/parallel.h"

namespace keiro::nue {

namespace {

constexpr int kOrderAttempts = 3;
// A single layer is routed again in another order when its first attempt
// leaves the most loaded channel with more than this many times the mean
// channel load.
constexpr double kRetryImbalance = 4.0;

// Destination order of attempt `attempt` for the ports of one layer: CA and
// router ports in a seeded random order, then the switch LIDs, also shuffled.
void attempt_order(std::span<const DestinationPort> ports, std::span<const int32_t> grouped,
                   int attempt, uint64_t seed, std::vector<int32_t> &order) {
  order.assign(grouped.begin(), grouped.end());
  std::mt19937_64 rng(seed * 1000003u + static_cast<uint64_t>(attempt));
  const auto split = std::stable_partition(order.begin(), order.end(),
                                           [&](int32_t p) { return !ports[p].is_switch; });
  std::shuffle(order.begin(), split, rng);
  std::shuffle(split, order.end(), rng);
}

// One run of Algorithm 2 on one fabric: the steps below in the order run()
// calls them. The tables are built in place in out.out_port.
class Router {
 public:
  Router(const Fabric &f, const NueOptions &opt, NueResult &out)
      : f_(f), opt_(opt), out_(out), num_sw_(f.num_switches()) {}

  bool run(std::string &err) {
    out_ = NueResult{};
    out_.num_switches = num_sw_;
    out_.mcast_layer = opt_.mcast_layer;
    if (num_sw_ == 0) return true;
    g_ = graph::switch_graph(f_);
    if (!check_connected(err) || !split_destinations(err)) return false;
    prepare_layers();
    if (layers_ == 1) {
      route_single_layer();
    } else if (layers_ > 1) {
      route_interleaved();
    }
    collect();
    return self_check(err);
  }

 private:
  // The escape paths span the switch graph, so it must be connected.
  bool check_connected(std::string &err) const {
    std::vector<int32_t> dist(num_sw_), order(num_sw_);
    const int32_t reached = graph::bfs(g_, 0, dist, order);
    if (reached == num_sw_) return true;
    int32_t lost = 0;
    while (dist[lost] >= 0) ++lost;
    err = strprintf(
        "the switch graph is disconnected: %d of %d switches (e.g. %s) cannot be reached from %s",
        num_sw_ - reached, num_sw_, f_.describe(lost).c_str(), f_.describe(0).c_str());
    return false;
  }

  // Line 1, and the layout of the tables: ports grouped by layer (CA/router
  // ports by switch, switch LIDs last), one column per LID in that order.
  bool split_destinations(std::string &err) {
    ports_ = destination_ports(f_);
    std::string why;
    layers_ = assign_layers(g_, ports_, opt_.layers, opt_.partition, opt_.seed, layer_of_, why);
    if (layers_ < 0) {
      err = "partitioning the destinations failed: " + why;
      return false;
    }
    if (!opt_.previous_layer.empty()) {  // re-routing: keep the previous layers
      const int pinned = pin_previous_layers(ports_, opt_.previous_layer, opt_.layers, layer_of_,
                                             out_.pinned_ports);
      if (pinned > 0) layers_ = pinned;
    }
    by_layer_.resize(ports_.size());
    std::iota(by_layer_.begin(), by_layer_.end(), 0);
    std::stable_sort(by_layer_.begin(), by_layer_.end(), [&](int32_t a, int32_t b) {
      const DestinationPort &pa = ports_[a], &pb = ports_[b];
      if (layer_of_[a] != layer_of_[b]) return layer_of_[a] < layer_of_[b];
      if (pa.is_switch != pb.is_switch) return !pa.is_switch;
      return pa.sw != pb.sw ? pa.sw < pb.sw : pa.port < pb.port;
    });
    int64_t num_lids = 0;
    for (const DestinationPort &p : ports_) num_lids += p.num_lids;
    w0_ = ChannelLoad::initial_weight(num_lids);
    weight_.assign(f_.num_channels(), w0_);
    column_of_.resize(ports_.size());
    out_.column_lid.resize(num_lids);
    out_.column_layer.resize(num_lids);
    int32_t next_column = 0;
    for (int32_t pi : by_layer_) {
      column_of_[pi] = next_column;
      for (int j = 0; j < ports_[pi].num_lids; ++j, ++next_column) {
        out_.column_lid[next_column] = static_cast<uint16_t>(ports_[pi].lid + j);
        out_.column_layer[next_column] = static_cast<uint8_t>(layer_of_[pi]);
      }
    }
    out_.out_port.assign(static_cast<size_t>(num_lids) * num_sw_, 0);
    return true;
  }

  // Lines 3-5 and 7 for every layer: N_i^d, convex subgraph, root, escape
  // tree, each in its own LayerRouter (with its own CDG). The layers are
  // independent here: one worker per layer.
  void prepare_layers() {
    layer_begin_.assign(layers_ + 1, 0);
    out_.layer.resize(layers_);
    for (int layer = 0; layer < layers_; ++layer) {
      size_t end = layer_begin_[layer];
      while (end < by_layer_.size() && layer_of_[by_layer_[end]] == layer) ++end;
      layer_begin_[layer + 1] = end;
    }
    // Every channel still has the initial weight: uniform tree costs.
    const std::vector<int64_t> tree_cost(f_.num_channels(), 2 * w0_);
    // On layered fabrics (fat trees) the escape trees avoid valleys where
    // they can (graph/spanning_tree.h): the structure decides, not the ids.
    std::vector<int32_t> height;
    if (!layered_heights(f_, height)) height.clear();
    // Where a switch must hang below a valley, the valley with the fewest
    // end ports (graph/spanning_tree.h).
    std::vector<int64_t> end_ports(num_sw_);
    for (int32_t s = 0; s < num_sw_; ++s)
      end_ports[s] = static_cast<int64_t>(f_.terminals_of(s).size());
    routers_.resize(layers_);
    parallel_for(worker_count(opt_.threads, layers_), layers_, 1, [&](int, int layer) {
      std::vector<int32_t> dest_count(num_sw_, 0), parent(num_sw_), dest_switches;
      for (size_t i = layer_begin_[layer]; i < layer_begin_[layer + 1]; ++i)
        dest_count[ports_[by_layer_[i]].sw] += ports_[by_layer_[i]].num_lids;
      for (int32_t s = 0; s < num_sw_; ++s)
        if (dest_count[s] > 0) dest_switches.push_back(s);
      NueLayer &info = out_.layer[layer];
      info.root = opt_.root;
      if (info.root < 0) {
        const graph::ConvexSubgraph h = graph::convex_subgraph(g_, dest_switches);
        info.convex_subgraph = h.num_nodes;
        const std::vector<double> centrality_weight(dest_count.begin(), dest_count.end());
        const std::vector<double> c =
            graph::betweenness(g_, h.node_in.data(), h.arc_in.data(), centrality_weight);
        info.root =
            graph::most_central(g_, c, h.node_in.data(), h.arc_in.data(), centrality_weight);
      }
      info.ports = static_cast<int32_t>(layer_begin_[layer + 1] - layer_begin_[layer]);
      info.switches = static_cast<int32_t>(dest_switches.size());
      graph::min_depth_spanning_tree(g_, info.root, tree_cost, parent, height, end_ports);
      routers_[layer] = std::make_unique<LayerRouter>(f_);
      routers_[layer]->set_layer(info.root, parent, dest_count);
      routers_[layer]->set_all_escape_turns(layer == opt_.mcast_layer);
      routers_[layer]->set_balance(w0_);
    });
    outcome_.resize(std::max(layers_, 1));
  }

  // Lines 6-11 with one layer: route it in up to attempts_ destination
  // orders and keep the best attempt.
  //
  // The attempts are independent (each in its own CDG, with its own copy of
  // the weights and its own tables) and run side by side on the workers; the
  // decisions are taken in attempt order, as a sequential run takes them, so
  // the kept attempt is the same for every thread count. An attempt stops
  // early only when it cannot change the outcome: its largest channel weight
  // exceeds the score of an earlier finished attempt before its own score is
  // taken (it would lose against that one), or an earlier attempt was kept
  // with an imbalance that ends the retries (it would not have run).
  // One order attempt of route_single_layer(): its abort signal, outcome
  // and tables; finished: done or skipped (ran: not skipped).
  struct Attempt {
    AbortSignal abort;
    LayerOutcome outcome;
    std::vector<uint8_t> columns;
    bool finished = false, ran = false;
  };

  // Attempt number attempt of route_single_layer() on worker w's router
  // (mu guards the progress callback); table_bytes: the size of its tables.
  void run_attempt(int w, int attempt, Attempt &a, size_t table_bytes, std::mutex &mu) {
    const std::span<const int32_t> grouped(by_layer_);
    const int64_t total = static_cast<int64_t>(grouped.size());
    a.ran = true;
    // Attempt 0 balances inside each LID's run (CdgDijkstra::set_balance);
    // attempt 1 routes the same order without it: where the balanced
    // choices fill the CDG with dependencies that block later
    // destinations (fat trees with failed links on one VL), the plain
    // greedy may do better. Attempt 2 tries another order, also plain.
    // Further attempts (NueOptions::order_attempts) try further orders,
    // plain.
    std::vector<int32_t> order;
    attempt_order(ports_, grouped, attempt == 0 ? 0 : attempt - 1,
                  static_cast<uint64_t>(opt_.seed) * 64, order);
    LayerRouter &router = *routers_[w];
    router.set_balance(attempt == 0 ? w0_ : 0);
    if (opt_.progress)
      router.set_progress([this, total, &mu](int64_t done) {
        const std::lock_guard<std::mutex> lock(mu);
        opt_.progress(done, total);
      });
    std::vector<int64_t> weight = weight_;
    a.columns.assign(table_bytes, 0);
    a.outcome = router.route(ports_, order, column_of_, weight, a.columns, a.abort, w0_);
    router.set_progress({});
  }

  // The sequential decisions of route_single_layer() over the finished
  // prefix of the attempts (under its mutex). Invariant: attempts [0,
  // decided) are decided; best is the kept one among them (smallest largest
  // channel weight, then fewest escape fallbacks, the earlier one on ties);
  // stop: an attempt ended the retries.
  void decide(std::vector<Attempt> &at, int &decided, int &best, bool &stop) {
    while (!stop && decided < attempts_ && at[decided].finished) {
      Attempt &a = at[decided];
      const int k = decided++;
      const LayerOutcome &o = a.outcome;
      // Work is counted here, in attempt order up to the one that ends
      // the retries, as a sequential run would: attempts that ran side by
      // side after it are not counted, so the counters do not depend on
      // the threads' timing (except for an attempt aborted as a loser,
      // which may have got further before its abort).
      if (a.ran) count_work(o);
      const bool wins =
          a.ran && !o.aborted &&
          (best < 0 || o.score < at[best].outcome.score ||
           (o.score == at[best].outcome.score && o.fallbacks < at[best].outcome.fallbacks));
      if (!wins) {
        std::vector<uint8_t>().swap(a.columns);
        continue;
      }
      if (best >= 0) std::vector<uint8_t>().swap(at[best].columns);
      best = k;
      if (o.imbalance <= retry_imbalance_) {
        stop = true;
        for (int j = k + 1; j < attempts_; ++j)
          at[j].abort.cancel.store(true, std::memory_order_relaxed);
      }
    }
  }

  void route_single_layer() {
    const int workers = worker_count(opt_.threads, attempts_);
    for (int w = 1; w < workers; ++w) {  // one router (and CDG) per worker
      routers_.push_back(std::make_unique<LayerRouter>(f_));
      routers_.back()->set_layer_from(*routers_[0]);
    }
    std::vector<Attempt> at(attempts_);
    const size_t table_bytes = out_.out_port.size();
    std::vector<uint8_t>().swap(out_.out_port);  // the kept attempt's tables replace it
    std::mutex mu;
    int decided = 0, best = -1;
    bool stop = false;
    parallel_for(workers, attempts_, 1, [&](int w, int attempt) {
      Attempt &a = at[attempt];
      if (!a.abort.cancel.load(std::memory_order_relaxed))
        run_attempt(w, attempt, a, table_bytes, mu);
      const std::lock_guard<std::mutex> lock(mu);
      a.finished = true;
      if (a.ran && !a.outcome.aborted)  // later attempts above this score lose
        for (int j = attempt + 1; j < attempts_; ++j)
          if (at[j].abort.above.load(std::memory_order_relaxed) > a.outcome.score)
            at[j].abort.above.store(a.outcome.score, std::memory_order_relaxed);
      decide(at, decided, best, stop);
    });
    outcome_[0] = std::move(at[best].outcome);
    out_.out_port.swap(at[best].columns);
  }

  // Lines 6-11 with several layers, taking turns: every layer routes its
  // destinations in its own seeded random order (switch LIDs last) in its
  // own CDG, but the layers interleave in proportion to their sizes instead
  // of one after the other, so that the channel weights see the whole
  // fabric's traffic grow evenly.
  void route_interleaved() {
    std::vector<std::vector<int32_t>> layer_order(layers_);
    std::vector<size_t> cas(layers_, 0);
    for (int layer = 0; layer < layers_; ++layer) {
      const std::span<const int32_t> grouped(by_layer_.data() + layer_begin_[layer],
                                             layer_begin_[layer + 1] - layer_begin_[layer]);
      attempt_order(ports_, grouped, 0, static_cast<uint64_t>(opt_.seed) * 64 + layer,
                    layer_order[layer]);
      for (int32_t pi : layer_order[layer]) cas[layer] += ports_[pi].is_switch ? 0 : 1;
    }
    const std::vector<int32_t> donor = donors();
    // Lines 6-7 (a new CDG with the escape paths) for every layer at once.
    parallel_for(worker_count(opt_.threads, layers_), layers_, 1,
                 [&](int, int layer) { routers_[layer]->begin(weight_, outcome_[layer]); });
    route_waves(interleave(layer_order, cas, donor));
    copy_donor_trees(donor);
    // The progress line counted the routed ports only.
    if (opt_.progress)
      opt_.progress(static_cast<int64_t>(ports_.size()), static_cast<int64_t>(ports_.size()));
    for (int layer = 0; layer < layers_; ++layer) {
      routers_[layer]->end(outcome_[layer]);
      count_work(outcome_[layer]);
    }
  }

  // A switch's own LIDs take the tree of the base LID of a CA/router port
  // on the same switch in the same layer (its donor) instead of a
  // Dijkstra run of their own: the same channels up to the switch, so the
  // same dependencies, already in the layer's CDG, and the same SL (the
  // layer). They come after every CA/router LID and carry management
  // traffic only (no weight update follows them): one run fewer per
  // switch (10x10x10 torus, 4 HCAs: 1,000 of 5,000 runs). Per port: its
  // donor port, -1 for none.
  std::vector<int32_t> donors() const {
    std::vector<int32_t> donor(ports_.size(), -1);
    std::vector<int32_t> own(num_sw_, -1);
    for (size_t pi = 0; pi < ports_.size(); ++pi)
      if (ports_[pi].is_switch) own[ports_[pi].sw] = static_cast<int32_t>(pi);
    for (size_t pj = 0; pj < ports_.size(); ++pj) {
      const int32_t pi = ports_[pj].is_switch ? -1 : own[ports_[pj].sw];
      if (pi >= 0 && donor[pi] < 0 && layer_of_[pj] == layer_of_[pi])
        donor[pi] = static_cast<int32_t>(pj);
    }
    return donor;
  }

  struct Pick;
  // The order of the LIDs (one pick per LID) of route_interleaved(): two
  // rounds, the CA/router ports of all layers (the first cas[layer] of
  // each layer's order), then the switch LIDs; ports with a donor are
  // left out.
  std::vector<Pick> interleave(const std::vector<std::vector<int32_t>> &layer_order,
                               const std::vector<size_t> &cas,
                               const std::vector<int32_t> &donor) const;

  // The columns of the ports with a donor: the donor's, ending at their own
  // port, with the donor's escape fallbacks.
  void copy_donor_trees(const std::vector<int32_t> &donor) {
    for (size_t pi = 0; pi < ports_.size(); ++pi) {
      if (donor[pi] < 0) continue;
      const DestinationPort &p = ports_[pi], &d = ports_[donor[pi]];
      LayerOutcome &o = outcome_[layer_of_[pi]];
      const uint8_t *from =
          out_.out_port.data() + static_cast<size_t>(column_of_[donor[pi]]) * num_sw_;
      const bool fell_back =
          std::find(o.fallback_lids.begin(), o.fallback_lids.end(), d.lid) != o.fallback_lids.end();
      for (int i = 0; i < p.num_lids; ++i) {
        uint8_t *to = out_.out_port.data() + static_cast<size_t>(column_of_[pi] + i) * num_sw_;
        std::copy_n(from, num_sw_, to);
        to[p.sw] = p.port;
        ++o.lids;
        if (fell_back) {
          ++o.fallbacks;
          o.fallback_lids.push_back(static_cast<uint16_t>(p.lid + i));
        }
      }
    }
  }

  struct Pick {
    int32_t layer, port, offset;  // a LID: ports_[port].lid + offset, routed in layer
  };

  // Routes the picks (every LID once) in waves: a wave takes, from the
  // first picks not yet routed, at most one LID per layer (looking at most
  // kWaveWindow layers' worth of picks ahead), so every layer routes its
  // LIDs in pick order. The LIDs of a wave are routed side by side (each
  // layer has its own CDG and router) against the weights as they stood
  // before the wave; their weight updates (line 11) follow in pick order.
  // A LID thus misses the weight updates of at most layers - 1 LIDs routed
  // just before it. The waves depend on the picks only, so the tables are
  // the same for every thread count.
  void route_waves(const std::vector<Pick> &picks) {
    constexpr size_t kWaveWindow = 4;
    std::vector<int32_t> wave_picks;  // pick indices, wave after wave
    std::vector<size_t> wave_begin{0};
    wave_picks.reserve(picks.size());
    {
      std::vector<char> taken(picks.size(), 0), in_wave(layers_, 0);
      size_t first = 0;  // first pick not yet in a wave
      while (first < picks.size()) {
        size_t wave_size = 0;
        const size_t window = kWaveWindow * static_cast<size_t>(layers_);
        for (size_t i = first, seen = 0; i < picks.size() && seen < window; ++i) {
          if (taken[i]) continue;
          ++seen;
          const int32_t layer = picks[i].layer;
          if (in_wave[layer]) continue;
          in_wave[layer] = 1;
          taken[i] = 1;
          wave_picks.push_back(static_cast<int32_t>(i));
          if (++wave_size == static_cast<size_t>(layers_)) break;
        }
        for (size_t k = wave_begin.back(); k < wave_picks.size(); ++k)
          in_wave[picks[wave_picks[k]].layer] = 0;
        wave_begin.push_back(wave_picks.size());
        while (first < picks.size() && taken[first]) ++first;
      }
    }
    const size_t num_waves = wave_begin.size() - 1;
    const auto column = [&](const Pick &pk) {
      return out_.out_port.data() + static_cast<size_t>(column_of_[pk.port] + pk.offset) * num_sw_;
    };
    const int64_t total = static_cast<int64_t>(ports_.size());
    int64_t routed = 0;
    size_t wave = 0;  // written by the barrier's completion step only
    std::atomic<size_t> cursor{0};
    // After every wave, on one thread while the others wait: line 11 in pick
    // order, then the next wave.
    const auto finish_wave = [&]() noexcept {
      for (size_t k = wave_begin[wave]; k < wave_begin[wave + 1]; ++k) {
        const Pick &pk = picks[wave_picks[k]];
        routers_[pk.layer]->add_lid_weight(ports_[pk.port], weight_, outcome_[pk.layer]);
        if (pk.offset == 0 && opt_.progress) opt_.progress(routed++, total);
      }
      ++wave;
      cursor.store(0, std::memory_order_relaxed);
    };
    const int workers =
        static_cast<int>(std::min<size_t>(worker_count(opt_.threads, layers_), num_waves + 1));
    std::barrier sync(workers, finish_wave);
    const auto work = [&] {
      while (wave < num_waves) {
        const size_t b = wave_begin[wave], n = wave_begin[wave + 1] - b;
        for (size_t k; (k = cursor.fetch_add(1, std::memory_order_relaxed)) < n;) {
          const Pick &pk = picks[wave_picks[b + k]];
          routers_[pk.layer]->route_lid_tree(ports_[pk.port], pk.offset, column(pk), weight_,
                                             outcome_[pk.layer]);
        }
        sync.arrive_and_wait();
      }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; ++w) {
      try {
        pool.emplace_back(work);
      } catch (const std::system_error &) {
        sync.arrive_and_drop();  // one participant fewer; the others share its part
      }
    }
    work();
    for (std::thread &t : pool) t.join();
  }

  // Work of one layer routing, kept or not.
  void count_work(const LayerOutcome &o) {
    ++out_.order_attempts;
    out_.cycle_searches += o.cdg.cycle_searches;
    out_.cycle_search_visits += o.cdg.dfs_visits;
  }

  // The kept outcomes into the result.
  void collect() {
    out_.layers = layers_;
    for (int layer = 0; layer < layers_; ++layer) {
      LayerOutcome &o = outcome_[layer];
      NueLayer &info = out_.layer[layer];
      info.lids = o.lids;
      info.escape_dependencies = o.escape_dependencies;
      info.escape_fallbacks = o.fallbacks;
      info.fallback_lids = std::move(o.fallback_lids);
      out_.lids += o.lids;
      out_.escape_fallbacks += o.fallbacks;
      out_.switch_lid_escapes += o.switch_lid_escapes;
      out_.rebalanced_switches += o.rebalanced_switches;
      out_.backtracking += o.backtracks;
      out_.escape_repairs += o.repairs;
      out_.shortcuts += o.shortcuts;
      out_.escape_dependencies += o.escape_dependencies;
      out_.reserved_dependencies += o.reserved_dependencies;
      out_.blocked_dependencies += o.cdg.blocked;
    }
  }

  // The runtime self-check of the first guarantee in nue.h: a column for
  // every LID, a port for every switch in every column.
  bool self_check(std::string &err) const {
    std::vector<uint8_t> has_column(f_.max_lid() + 1, 0);
    for (uint16_t lid : out_.column_lid) has_column[lid] = 1;
    for (uint16_t lid : f_.lids()) {
      if (has_column[lid]) continue;
      err = strprintf("internal error: no routes to LID %u", lid);
      return false;
    }
    for (int32_t j = 0; j < out_.num_columns(); ++j) {
      for (int32_t s = 0; s < num_sw_; ++s) {
        if (out_.port(s, j) != kNoPort) continue;
        err = strprintf("internal error: switch %s has no route to LID %u", f_.describe(s).c_str(),
                        out_.column_lid[j]);
        return false;
      }
    }
    return true;
  }

  const Fabric &f_;
  const NueOptions &opt_;
  NueResult &out_;
  const int32_t num_sw_;
  // Order attempts of a single layer and the imbalance that ends them
  // (NueOptions::order_attempts: more, and no early end).
  const int attempts_ = std::max(kOrderAttempts, opt_.order_attempts);
  const double retry_imbalance_ = opt_.order_attempts > kOrderAttempts ? 0.0 : kRetryImbalance;
  graph::Graph g_;
  std::vector<DestinationPort> ports_;
  int layers_ = 0;
  std::vector<int32_t> layer_of_, by_layer_, column_of_;  // per port / in layer order / per port
  std::vector<size_t> layer_begin_;  // by_layer_[layer_begin_[i], layer_begin_[i + 1]): layer i
  int64_t w0_ = 0;
  std::vector<int64_t> weight_;  // per channel
  std::vector<std::unique_ptr<LayerRouter>> routers_;
  std::vector<LayerOutcome> outcome_;  // per layer
};

std::vector<Router::Pick> Router::interleave(const std::vector<std::vector<int32_t>> &layer_order,
                                             const std::vector<size_t> &cas,
                                             const std::vector<int32_t> &donor) const {
  std::vector<Pick> picks;
  picks.reserve(out_.column_lid.size());
  std::vector<size_t> next(layers_, 0);
  for (int round = 0; round < 2; ++round) {
    const auto stop = [&](int layer) {
      return round == 0 ? cas[layer] : layer_order[layer].size();
    };
    // Invariant: layer i has routed the first next[i] ports of its order,
    // and the next port always comes from the layer that has routed the
    // smallest fraction next[i] / |order of i| among those with ports
    // left in this round (the lowest layer on ties), so the layers
    // progress in proportion to their sizes. The loop ends when no layer
    // has ports left in this round.
    for (;;) {
      int pick = -1;
      double pick_done = 2.0;
      for (int layer = 0; layer < layers_; ++layer) {
        if (next[layer] >= stop(layer)) continue;
        const double done =
            static_cast<double>(next[layer]) / static_cast<double>(layer_order[layer].size());
        if (done < pick_done) {
          pick_done = done;
          pick = layer;
        }
      }
      if (pick < 0) break;
      const int32_t pi = layer_order[pick][next[pick]++];
      if (donor[pi] >= 0) continue;
      for (int i = 0; i < ports_[pi].num_lids; ++i) picks.push_back({pick, pi, i});
    }
  }
  return picks;
}

}  // namespace

bool route(const Fabric &f, const NueOptions &opt, NueResult &out, std::string &err) {
  assert(f.finalized() && "nue::route: the fabric must be finalized");
  assert(opt.layers >= 1 && opt.layers <= kMaxDataVls && "nue::route: layers not in 1..15");
  assert(opt.root >= -1 && opt.root < f.num_switches() && "nue::route: root is not a switch id");
  const bool ok = Router(f, opt, out).run(err);
  out.partition = opt.partition;
  return ok;
}

}  // namespace keiro::nue
