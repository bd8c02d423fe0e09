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
                           std::span<const int64_t> weight, bool slack)
    : f_(f),
      policy_(policy),
      slack_(slack),
      rng_(seed),
      weight_(weight.begin(), weight.end()),
      load_(f.num_channels(), 0),
      rank_(f.num_switches(), -1) {}

void PathSelector::select(const DestSearch &search, int32_t d, int64_t dest_weight,
                          std::span<int32_t> next) {
  const std::span<const int32_t> order = search.order();
  next[d] = -1;
  rank_[d] = -1;
  // Nearest first (order[0] is d): the path behind every candidate is fixed.
  for (size_t i = 1; i < order.size(); ++i) {
    const int32_t s = order[i];
    int32_t pick = -1;
    uint64_t seen = 0;
    int64_t best_max = 0, best_sum = 0;
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) {
      if (slack_ ? !search.allows(c, rank_[f_.channel(c).dst]) : !search.eligible(c)) continue;
      if (policy_ == Policy::kLowPort) {
        pick = c;
        break;
      }
      if (policy_ == Policy::kRandom) {  // reservoir sampling: the k-th candidate wins with 1/k
        if (rng_() % ++seen == 0) pick = c;
        continue;
      }
      int64_t mx = load_[c], sum = load_[c];
      for (int32_t t = f_.channel(c).dst; t != d; t = f_.channel(next[t]).dst) {
        mx = std::max(mx, load_[next[t]]);
        sum += load_[next[t]];
      }
      if (pick < 0 || mx < best_max || (mx == best_max && sum < best_sum))
        pick = c, best_max = mx, best_sum = sum;
    }
    next[s] = pick;  // the search labelled s through at least one eligible channel
    rank_[s] = static_cast<int16_t>(search.hop_rank(pick, rank_[f_.channel(pick).dst]));
    const int64_t add = weight_[s] * dest_weight;
    for (int32_t t = s; t != d; t = f_.channel(next[t]).dst) load_[next[t]] += add;
  }
}

void PathSelector::remove(const DestSearch &search, int32_t d, int64_t dest_weight,
                          std::span<const int32_t> next) {
  for (int32_t s : search.order()) {
    const int64_t sub = weight_[s] * dest_weight;
    for (int32_t t = s; t != d; t = f_.channel(next[t]).dst) load_[next[t]] -= sub;
  }
}

}  // namespace keiro::dl
