// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/hdn_exchange.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace keiro::topo {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

class Simulator {
 public:
  Simulator(const HdnIndex &idx, const Adjacency &adj, const ExchangeModel &m, ExchangeReport &rep)
      : idx_(idx), adj_(adj), model_(m), rep_(rep), p_(static_cast<uint32_t>(idx.size())) {
    const HdnSpec &spec = idx.spec();
    k_ = spec.k;
    r_ = static_cast<int>(spec.rings.size());
    coord_.resize(k_ + 1);
    partner_.resize(k_ + 1);
    via_.resize(k_ + 1);
    for (int i = 1; i <= k_; ++i) {
      coord_[i].resize(p_);
      partner_[i].resize(p_);
      const uint64_t local = idx.count(i - 1);
      via_[i].resize(static_cast<size_t>(p_) * local);
      for (uint32_t v = 0; v < p_; ++v) {
        coord_[i][v] = idx.coord(v, i);
        partner_[i][v] = static_cast<uint32_t>(idx.partner(v, i));
        const uint64_t s = spec.sizes[i - 1];
        for (uint64_t l = 0; l < local; ++l)
          via_[i][v * local + l] = static_cast<uint32_t>(
              idx.with_coord(v, i, {coord_[i][v].c, coord_[i][v].u, l / s, l % s}));
      }
    }
    ring_next_.resize(r_);
    base_coord_.resize(r_);
    for (int j = 0; j < r_; ++j) {
      ring_next_[j].resize(p_);
      base_coord_[j].resize(p_);
      for (uint32_t v = 0; v < p_; ++v) {
        ring_next_[j][v] = static_cast<uint32_t>(idx.ring_next(v, j));
        base_coord_[j][v] = static_cast<uint16_t>(idx.base_coord(v, j));
      }
    }
    send_to_.resize(p_);
    recv_from_.resize(p_);
    count_.resize(p_);
    targets_.resize(k_ + 1);
  }

  void run() {
    const uint64_t msgs = static_cast<uint64_t>(p_) * p_;
    pos_.resize(msgs);
    std::vector<uint32_t> &dst = targets_[k_];
    dst.resize(msgs);
    for (uint64_t id = 0; id < msgs; ++id) {
      pos_[id] = static_cast<uint32_t>(id / p_);
      dst[id] = static_cast<uint32_t>(id % p_);
    }
    exchange(k_, dst);
    if (!rep_.error.empty()) return;
    rep_.delivered = true;
    for (uint64_t id = 0; id < msgs; ++id)
      if (pos_[id] != id % p_) {
        rep_.delivered = false;
        rep_.error = "message " + std::to_string(id / p_) + " -> " + std::to_string(id % p_) +
                     " ended at node " + std::to_string(pos_[id]);
        return;
      }
  }

 private:
  // One communication step: next(id) gives the node a token moves to (its
  // current node = it stays).
  template <typename Next>
  void step(Next next) {
    if (!rep_.error.empty()) return;
    std::fill(send_to_.begin(), send_to_.end(), kNone);
    std::fill(recv_from_.begin(), recv_from_.end(), kNone);
    std::fill(count_.begin(), count_.end(), 0);
    bool moved = false;
    for (uint64_t id = 0; id < pos_.size(); ++id) {
      const uint32_t u = pos_[id];
      const uint32_t v = next(id);
      if (v == u) continue;
      if (send_to_[u] == kNone) {
        if (std::find(adj_[u].begin(), adj_[u].end(), static_cast<int32_t>(v)) == adj_[u].end()) {
          rep_.error = "step " + std::to_string(rep_.steps + 1) + ": node " + std::to_string(u) +
                       " sends to node " + std::to_string(v) + ", which is not a neighbour";
          return;
        }
        if (recv_from_[v] != kNone) {
          rep_.error = "step " + std::to_string(rep_.steps + 1) + ": node " + std::to_string(v) +
                       " receives from two nodes";
          return;
        }
        send_to_[u] = v;
        recv_from_[v] = u;
      } else if (send_to_[u] != v) {
        rep_.error = "step " + std::to_string(rep_.steps + 1) + ": node " + std::to_string(u) +
                     " sends to two nodes";
        return;
      }
      ++count_[u];
      pos_[id] = v;
      moved = true;
    }
    if (!moved) return;
    ++rep_.steps;
    const uint64_t most = *std::max_element(count_.begin(), count_.end());
    rep_.time += model_.ts + model_.tw * model_.m * static_cast<double>(most);
  }

  void exchange(int level, const std::vector<uint32_t> &tgt) {
    if (level == 0) {
      for (int j = 0; j < r_; ++j) {
        const std::vector<uint16_t> &bc = base_coord_[j];
        const std::vector<uint32_t> &nx = ring_next_[j];
        for (int rep = 1; rep < idx_.spec().rings[j]; ++rep)
          step([&](uint64_t id) {
            const uint32_t u = pos_[id];
            return bc[u] != bc[tgt[id]] ? nx[u] : u;
          });
      }
      return;
    }
    const std::vector<HdnIndex::Coord> &co = coord_[level];
    const std::vector<uint32_t> &pa = partner_[level];
    // Stage 1: tokens for clusters of the holder's class cross over.
    step([&](uint64_t id) {
      const uint32_t u = pos_[id];
      return co[tgt[id]].c == co[u].c ? pa[u] : u;
    });
    // Stage 2: to the node whose cross-edge leads into the target's cluster.
    std::vector<uint32_t> &via = targets_[level - 1];
    via.resize(pos_.size());
    const uint64_t s = idx_.spec().sizes[level - 1];
    const uint64_t local = idx_.count(level - 1);
    for (uint64_t id = 0; id < pos_.size(); ++id) {
      const uint32_t u = pos_[id];
      const HdnIndex::Coord &t = co[tgt[id]];
      via[id] = via_[level][u * local + t.u * s + (co[u].n + t.n) % s];
    }
    exchange(level - 1, via);
    // Stage 3: everything crosses.
    step([&](uint64_t id) { return pa[pos_[id]]; });
    // Stage 4: inside the target cluster.
    exchange(level - 1, tgt);
  }

  const HdnIndex &idx_;
  const Adjacency &adj_;
  const ExchangeModel &model_;
  ExchangeReport &rep_;
  uint32_t p_;
  int k_ = 0, r_ = 0;
  std::vector<std::vector<HdnIndex::Coord>> coord_;
  std::vector<std::vector<uint32_t>> partner_, via_, ring_next_, targets_;
  std::vector<std::vector<uint16_t>> base_coord_;
  std::vector<uint32_t> pos_, send_to_, recv_from_;
  std::vector<uint64_t> count_;
};

}  // namespace

double base_exchange_time(const HdnSpec &spec, double ts, double tw, double m) {
  double n0 = 1;
  for (int b : spec.rings) n0 *= b;
  double t = 0;
  for (int b : spec.rings) t += (b - 1) * (ts + tw * m * n0 / 2);
  return t;
}

ExchangeReport run_total_exchange(const HdnIndex &idx, const Adjacency &adj,
                                  const ExchangeModel &model, uint64_t max_nodes) {
  ExchangeReport rep;
  const HdnSpec &spec = idx.spec();
  rep.nodes = idx.size();
  rep.messages = rep.nodes * rep.nodes;
  for (int b : spec.rings) rep.base_steps += b - 1;
  const int k = spec.k;
  const double two_k = static_cast<double>(1u << k);
  rep.theorem3_steps = ((2 << k) - 2) + (1 << k) * rep.base_steps;
  const double nk = static_cast<double>(rep.nodes), n0 = static_cast<double>(idx.n0());
  rep.theorem3 = (2 * two_k - 2) * (model.ts + model.tw * model.m * nk / 2) +
                 two_k * base_exchange_time(spec, model.ts, model.tw, model.m * nk / 2);
  rep.closed_form = (2 * two_k - 2) * (model.ts + 0.75 * model.tw * model.m * nk) +
                    two_k * base_exchange_time(spec, model.ts, model.tw, model.m * nk / n0);
  if (rep.nodes > max_nodes) {
    rep.error = "HDN has " + std::to_string(rep.nodes) + " nodes; the simulation is limited to " +
                std::to_string(max_nodes);
    return rep;
  }
  if (adj.size() != rep.nodes) {
    rep.error = "fabric does not match the HDN";
    return rep;
  }
  Simulator sim(idx, adj, model, rep);
  sim.run();
  return rep;
}

}  // namespace keiro::topo
