// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/path_select.h"

#include <algorithm>

#include "core/enum_names.h"

namespace keiro::dl {

namespace {
constexpr EnumName<Policy> kPolicyWords[] = {
    {Policy::kLowPort, "lowport"}, {Policy::kRandom, "random"}, {Policy::kLoad, "load"}};
}  // namespace

bool parse_policy(std::string_view text, Policy &out) {
  return parse_enum(kPolicyWords, text, out);
}

const char *policy_name(Policy p) {
  return enum_name(kPolicyWords, p);
}

PathSelector::PathSelector(const Fabric &f, Policy policy, uint64_t seed,
                           std::span<const int64_t> weight, bool slack, int tables, int consistency)
    : f_(f),
      policy_(policy),
      slack_(slack),
      consistency_(consistency),
      C_(f.num_channels()),
      rng_(seed),
      weight_(weight.begin(), weight.end()),
      load_(static_cast<size_t>(std::max(1, tables)) * f.num_channels(), 0),
      sub_(f.num_switches(), 0),
      behind_(f.num_switches(), 0),
      share_(f.num_switches(), 0),
      prov_(f.num_channels(), 0),
      rank_(f.num_switches(), -1) {
  int degree = 0;
  for (int32_t s = 0; s < f.num_switches(); ++s) degree = std::max(degree, f.degree(s));
  cand_.reserve(static_cast<size_t>(degree));
}

void PathSelector::expected(const DestSearch &search) {
  const std::span<const int32_t> order = search.order();
  for (int32_t s : order) behind_[s] = 0;
  for (size_t i = order.size(); i-- > 1;) {
    const int32_t s = order[i];
    int64_t n = 0;
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c)
      n += search.depth(f_.channel(c).dst) + 1 == search.depth(s);
    share_[s] = n ? (behind_[s] + weight_[s]) / n : 0;
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c)
      if (search.depth(f_.channel(c).dst) + 1 == search.depth(s))
        behind_[f_.channel(c).dst] += share_[s];
  }
}

void PathSelector::withdraw(const DestSearch &search, int32_t s, int32_t d,
                            std::span<const int32_t> next) {
  if (!share_[s]) return;
  const int64_t w = share_[s] * ahead_weight_;
  for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
    const int32_t t = f_.channel(c).dst;
    if (search.depth(t) + 1 != search.depth(s)) continue;
    for (int32_t u = t; u != d; u = f_.channel(next[u]).dst) prov_[next[u]] -= w;
  }
}

void PathSelector::select(const DestSearch &search, int32_t d, int64_t dest_weight,
                          std::span<int32_t> next, int table,
                          std::span<const int32_t *const> siblings, const int32_t *base_next,
                          const int16_t *base_rank, bool ahead) {
  const std::span<const int32_t> order = search.order();
  int64_t *load = load_.data() + static_cast<size_t>(table) * C_;
  ahead = ahead && policy_ == Policy::kLoad && dest_weight > 0;
  if (ahead) expected(search);
  ahead_weight_ = dest_weight;
  const int64_t *prov = ahead ? prov_.data() : nullptr;
  next[d] = -1;
  rank_[d] = -1;
  // Nearest first (order[0] is d): the path behind every candidate is fixed.
  for (size_t i = 1; i < order.size(); ++i) {
    const int32_t s = order[i];
    int32_t pick = -1;
    uint64_t seen = 0;
    int best_sib = 0;
    int64_t best_max = 0, best_sum = 0;
    // Above sub-network 0 in the base tree: its choice (see the header).
    const bool frozen = base_next && Ranks::layer_of(base_rank[s]) > 0;
    if (frozen) pick = base_next[s];
    if (ahead) withdraw(search, s, d, next);
    cand_.clear();
    for (int32_t c = frozen ? f_.out_end(s) : f_.out_begin(s); c < f_.out_end(s); ++c) {
      const int32_t t = f_.channel(c).dst;
      if (slack_ ? !search.allows(c, rank_[t]) : !search.eligible(c)) continue;
      if (base_rank && search.hop_rank(c, rank_[t]) > base_rank[s]) continue;
      if (policy_ == Policy::kLowPort) {
        pick = c;
        break;
      }
      if (policy_ == Policy::kRandom) {  // reservoir sampling: the k-th candidate wins with 1/k
        if (rng_() % ++seen == 0) pick = c;
        continue;
      }
      int sib = 0;
      for (const int32_t *row : siblings) sib += row[s] == c;
      int64_t mx = load[c] + (prov ? prov[c] : 0), sum = mx;
      for (int32_t u = t; u != d; u = f_.channel(next[u]).dst) {
        const int64_t l = load[next[u]] + (prov ? prov[next[u]] : 0);
        mx = std::max(mx, l);
        sum += l;
      }
      if (consistency_ > 0) cand_.push_back({c, sib, mx});
      if (pick < 0 || sib < best_sib ||
          (sib == best_sib && (mx < best_max || (mx == best_max && sum < best_sum))))
        pick = c, best_sib = sib, best_max = mx, best_sum = sum;
    }
    // Consistent choices: the first candidate (port order) close enough.
    for (const Candidate &k : cand_) {
      if (k.c >= pick) break;
      if (k.sib == best_sib && k.max <= best_max + best_max * consistency_ / 100) {
        pick = k.c;
        break;
      }
    }
    // The search labelled s through at least one eligible channel.
    next[s] = pick;
    rank_[s] = static_cast<int16_t>(search.hop_rank(pick, rank_[f_.channel(pick).dst]));
    const int64_t add = weight_[s] * dest_weight;
    if (add)
      for (int32_t u = s; u != d; u = f_.channel(next[u]).dst) load[next[u]] += add;
    if (ahead && behind_[s])
      for (int32_t u = s; u != d; u = f_.channel(next[u]).dst)
        prov_[next[u]] += behind_[s] * dest_weight;
  }
  if (ahead)
    for (size_t i = 1; i < order.size(); ++i) prov_[next[order[i]]] = 0;
}

void PathSelector::remove(const DestSearch &search, int64_t dest_weight,
                          std::span<const int32_t> next, int table) {
  if (!dest_weight) return;
  const std::span<const int32_t> order = search.order();
  int64_t *load = load_.data() + static_cast<size_t>(table) * C_;
  for (int32_t s : order) sub_[s] = weight_[s];
  // Farthest first: a switch's subtree is complete when it passes it on.
  for (size_t i = order.size(); i-- > 1;) {
    const int32_t s = order[i], c = next[s];
    load[c] -= sub_[s] * dest_weight;
    sub_[f_.channel(c).dst] += sub_[s];
  }
}

}  // namespace keiro::dl
