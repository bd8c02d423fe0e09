// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Total exchange on HDN(B, k, S): Algorithm 2 of Li and Chu (NPC 2013,
// section 4) run as a step-by-step schedule over the generated fabric. Every
// one of the n_k^2 messages (a node's message to itself included) is a token
// whose node is tracked; each step moves tokens over links only, and checks
// the paper's one-port model (a node sends to one neighbour and receives from
// one neighbour per step) and that every transfer uses a link of the fabric.
//
// TOTAL_EXCHANGE(level i, target of every token):
//  1. every token whose target is in a cluster of the holder's class crosses
//     the holder's level-i cross-edge (1 step);
//  2. total exchange inside each cluster (level i-1) that brings a token for
//     (C', U', SN', N') held by (C, U, SN, N) to (C, U, U', (N + N') mod s_i),
//     the node whose cross-edge leads into cluster U' (with s_i = 1 this is the
//     paper's "node with node_ID = q"; spreading over N keeps both inner
//     exchanges balanced);
//  3. every token crosses the level-i cross-edge (1 step);
//  4. total exchange inside each cluster to the targets.
// At level 0 (the base B) the exchange is dimension by dimension: along ring
// j every token still off its target coordinate moves to the next node of the
// ring, b_j - 1 steps. So steps(k) = (2^(k+1) - 2) + 2^k * sum(b_j - 1), the
// step count of Theorem 3.
//
// Time model (packet switching, section 4): a step costs t_s + t_w * m * (most
// tokens any node sends in it). Base exchange: T_0(m) = sum_j (b_j - 1) *
// (t_s + t_w m n0 / 2). Theorem 3 states T_k(m) = (2^(k+1) - 2)(t_s + t_w m
// n_k / 2) + 2^k T_0(m n_k / 2). This schedule takes exactly
// (2^(k+1) - 2)(t_s + 3/4 t_w m n_k) + 2^k T_0(m n_k / n0): stage 3 carries
// all n_k tokens a node holds (the paper charges n_k / 2 although it packs a
// message of length n_k m), and the inner exchanges send n_k / n_{i-1} tokens
// per destination, n_k / n0 in the base.
//
// Time: O(n_k^2 * steps). Memory: O(n_k^2) (one position and one target per
// token and level).
#pragma once

#include <cstdint>
#include <string>

#include "core/topo/graph_metrics.h"
#include "core/topo/hdn.h"

namespace keiro::topo {

struct ExchangeModel {
  double ts = 1.0, tw = 1.0, m = 1.0;
};

struct ExchangeReport {
  uint64_t nodes = 0, messages = 0;
  int steps = 0;           // steps the schedule took
  int base_steps = 0;      // steps of the base exchange
  int theorem3_steps = 0;  // (2^(k+1) - 2) + 2^k * base_steps
  double time = 0;         // T_k(m) of the schedule
  double theorem3 = 0;     // Theorem 3's closed form (with this T_0)
  double closed_form = 0;  // closed form of this schedule
  bool delivered = false;  // every node holds each of its n_k messages, each once
  std::string error;       // first violated rule; empty when none
};

double base_exchange_time(const HdnSpec &spec, double ts, double tw, double m);

// adj: the switch graph of gen_hdn(idx.spec()) (links are checked against it).
// Refuses (error set) more than max_nodes nodes.
ExchangeReport run_total_exchange(const HdnIndex &idx, const Adjacency &adj,
                                  const ExchangeModel &model, uint64_t max_nodes = 2048);

}  // namespace keiro::topo
