// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/fail_links.h"

#include <cmath>
#include <numeric>
#include <string>

#include "core/topo/graph_metrics.h"
#include "core/topo/rng.h"

namespace keiro::topo {

std::vector<GenLink> fail_links(GenFabric &g, double fraction, uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0)) throw TopoError("--fail-links must be in [0, 1)");
  const size_t want = static_cast<size_t>(std::llround(fraction * g.links.size()));
  if (!want) return {};
  // A stream separate from the one that built the topology.
  Rng rng(seed ^ 0x6661696c6c696e6bULL);
  std::vector<size_t> order(g.links.size());
  std::iota(order.begin(), order.end(), 0);
  rng.shuffle(order);
  std::vector<char> gone(g.links.size(), 0);
  size_t removed = 0;
  for (size_t i : order) {
    if (removed == want) break;
    gone[i] = 1;
    if (connected(adjacency(g, gone))) {
      ++removed;
    } else {
      gone[i] = 0;
    }
  }
  if (removed < want)
    throw TopoError("--fail-links: only " + std::to_string(removed) + " of " +
                    std::to_string(want) + " links can be removed without disconnecting");
  std::vector<GenLink> out, kept;
  for (size_t i = 0; i < g.links.size(); ++i) (gone[i] ? out : kept).push_back(g.links[i]);
  g.links.swap(kept);
  for (const GenLink &l : out)
    g.notes.push_back("failed link: S" + std::to_string(l.a) + "[" + std::to_string(l.pa) + "] \"" +
                      g.sw[l.a].desc + "\" -- S" + std::to_string(l.b) + "[" +
                      std::to_string(l.pb) + "] \"" + g.sw[l.b].desc + "\"");
  return out;
}

}  // namespace keiro::topo
