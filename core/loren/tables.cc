// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/tables.h"

#include <algorithm>
#include <limits>

#include "core/graph/bfs.h"
#include "core/log.h"

namespace keiro::loren {

int32_t LorenTables::max_size() const {
  int32_t m = 0;
  for (int32_t u = 0; u < num_switches; ++u) m = std::max(m, size(u));
  return m;
}

namespace {

// Working state of one run of Algorithm 1.
struct Builder {
  const Fabric &f;
  const Layout &layout;
  const minimal::DestTrees &shortest;
  const int32_t S;
  std::vector<std::vector<LorenEntry>> table;  // per switch, in insertion order
  std::vector<uint8_t> has;                    // has[u * S + v]: u holds an entry for v
  std::vector<int32_t> next;                   // G_v: next[v * S + u], channel
  std::vector<int16_t> dist;                   // dist[v * S + u] = h(u, v)

  // Scratch for the path choice of kind (2), sized once.
  std::vector<int32_t> dag, stamp, choice, cost_max, cost_sum;
  int32_t epoch = 0;

  Builder(const Fabric &fab, const Layout &l, const minimal::DestTrees &t)
      : f(fab), layout(l), shortest(t), S(fab.num_switches()) {}

  size_t at(int32_t v, int32_t u) const { return static_cast<size_t>(v) * S + u; }
  bool holds(int32_t u, int32_t v) const { return has[static_cast<size_t>(u) * S + v] != 0; }
  int32_t count(int32_t u) const { return static_cast<int32_t>(table[u].size()); }

  void add(int32_t u, int32_t v, int32_t channel, LorenEntry::Kind kind) {
    LorenEntry e;
    e.dst = v;
    e.channel = channel;
    e.hops = dist[at(v, u)];
    e.kind = kind;
    table[u].push_back(e);
    has[static_cast<size_t>(u) * S + v] = 1;
    next[at(v, u)] = channel;
  }

  // BFS over the reversed channels from v: dist[v][*]. False when some switch
  // cannot reach v.
  bool distances(int32_t v, std::vector<int32_t> &queue, std::vector<int32_t> &hops,
                 std::string &err) {
    int16_t *d = dist.data() + at(v, 0);
    const int32_t tail = graph::switch_bfs(f, v, hops, queue);
    for (int32_t s = 0; s < S; ++s) {
      if (hops[s] > std::numeric_limits<int16_t>::max() - 1) {
        err = "a shortest path is longer than 32,000 hops";
        return false;
      }
      d[s] = static_cast<int16_t>(hops[s]);
    }
    if (tail != S) {
      int32_t lost = 0;
      while (d[lost] >= 0) ++lost;
      err = strprintf("switch '%s' cannot reach switch '%s': the fabric is not connected",
                      f.sw(lost).name.c_str(), f.sw(v).name.c_str());
      return false;
    }
    return true;
  }

  // Kind (2) for the grid-neighbour pair (i, j): a shortest path from i to j
  // (or to the first switch that already holds an entry for j) that keeps the
  // largest table on it smallest, then adds the fewest entries.
  void grid_path(int32_t i, int32_t j, bool tree_paths) {
    const int16_t *d = dist.data() + at(j, 0);
    const int32_t *tree = shortest.next.data() + at(j, 0);
    if (tree_paths) {
      for (int32_t w = i; w != j && !holds(w, j); w = f.channel(tree[w]).dst)
        add(w, j, tree[w], LorenEntry::kGridNeighbour);
      return;
    }
    ++epoch;
    int32_t n = 0;
    dag[n++] = i;
    stamp[i] = epoch;
    for (int32_t h = 0; h < n; ++h) {
      const int32_t w = dag[h];
      if (w == j || holds(w, j)) continue;  // the path ends here
      for (int32_t c = f.out_begin(w); c < f.out_end(w); ++c) {
        const int32_t x = f.channel(c).dst;
        if (d[x] == d[w] - 1 && stamp[x] != epoch) {
          stamp[x] = epoch;
          dag[n++] = x;
        }
      }
    }
    // Nodes were found in order of falling distance to j: evaluate backwards.
    for (int32_t h = n - 1; h >= 0; --h) {
      const int32_t w = dag[h];
      if (w == j || holds(w, j)) {
        cost_max[w] = cost_sum[w] = 0;
        continue;
      }
      int32_t best = -1, bmax = 0, bsum = 0;
      for (int32_t c = f.out_begin(w); c < f.out_end(w); ++c) {
        const int32_t x = f.channel(c).dst;
        if (d[x] != d[w] - 1 || stamp[x] != epoch) continue;
        const int32_t m = std::max(count(w) + 1, cost_max[x]), s = cost_sum[x] + 1;
        if (best < 0 || m < bmax || (m == bmax && s < bsum) ||
            (m == bmax && s == bsum && c == tree[w] && best != tree[w])) {
          best = c;
          bmax = m;
          bsum = s;
        }
      }
      choice[w] = best;
      cost_max[w] = bmax;
      cost_sum[w] = bsum;
    }
    for (int32_t w = i; w != j && !holds(w, j); w = f.channel(choice[w]).dst)
      add(w, j, choice[w], LorenEntry::kGridNeighbour);
  }

  // Sizes the state, with G_v the shortest-path trees, and fills dist;
  // false (err) when the fabric is not connected or a tree is not a
  // shortest-path tree.
  bool prepare(std::string &err) {
    table.resize(S);
    has.assign(static_cast<size_t>(S) * S, 0);
    next = shortest.next;
    dist.assign(static_cast<size_t>(S) * S, -1);
    dag.resize(S);
    stamp.assign(S, 0);
    choice.assign(S, -1);
    cost_max.assign(S, 0);
    cost_sum.assign(S, 0);
    std::vector<int32_t> queue(S), hops(S);
    for (int32_t v = 0; v < S; ++v)
      if (!distances(v, queue, hops, err)) return false;
    for (int32_t v = 0; v < S; ++v)
      for (int32_t u = 0; u < S; ++u)
        if (u != v && dist[at(v, u)] != dist[at(v, f.channel(shortest.hop(v, u)).dst)] + 1) {
          err = strprintf("the tree of switch '%s' is not a shortest-path tree at switch '%s'",
                          f.sw(v).name.c_str(), f.sw(u).name.c_str());
          return false;
        }
    return true;
  }

  // (1) Adjacent switches: <j, j> on every switch i, once per neighbour
  // (parallel links: the channel the tree of j uses).
  void adjacent() {
    for (int32_t i = 0; i < S; ++i)
      for (int32_t c = f.out_begin(i); c < f.out_end(i); ++c) {
        const int32_t j = f.channel(c).dst;
        if (!holds(i, j)) add(i, j, shortest.hop(j, i), LorenEntry::kAdjacent);
      }
  }

  // (2) Grid neighbours that are not linked.
  void grid_neighbours(bool tree_paths) {
    static constexpr int32_t kDx[4] = {-1, 1, 0, 0}, kDy[4] = {0, 0, -1, 1};
    for (int32_t j = 0; j < S; ++j)
      for (int n = 0; n < 4; ++n) {
        const int32_t i = layout.at(layout.x[j] + kDx[n], layout.y[j] + kDy[n]);
        if (i >= 0 && !holds(i, j)) grid_path(i, j, tree_paths);
      }
  }

  // (3) Distant destinations: one breadth-first search over all trees G_v,
  // started from the links, up to tmax entries per switch. Pairs (u, v) as
  // u * S + v.
  void distant(int32_t tmax) {
    std::vector<int64_t> q;
    q.reserve(static_cast<size_t>(S) * 8);
    for (int32_t i = 0; i < S; ++i)
      for (int32_t c = f.out_begin(i); c < f.out_end(i); ++c) {
        const int32_t j = f.channel(c).dst;
        if (shortest.hop(j, i) == c) q.push_back(static_cast<int64_t>(i) * S + j);
      }
    for (size_t h = 0; h < q.size(); ++h) {
      const auto u = static_cast<int32_t>(q[h] / S), v = static_cast<int32_t>(q[h] % S);
      if (!holds(u, v)) {
        if (count(u) >= tmax) continue;  // the search stops on this branch
        add(u, v, next[at(v, u)], LorenEntry::kDistant);
      }
      for (int32_t c : f.in_channels(u)) {
        const int32_t w = f.channel(c).src;
        if (next[at(v, w)] == c) q.push_back(static_cast<int64_t>(w) * S + v);
      }
    }
  }

  // The tables into out, each sorted by hops (Sect. V), keeping insertion
  // order among ties; with the counts per kind.
  void emit(LorenTables &out) {
    for (int32_t u = 0; u < S; ++u) {
      auto &t = table[u];
      std::stable_sort(t.begin(), t.end(),
                       [](const LorenEntry &a, const LorenEntry &c) { return a.hops < c.hops; });
      out.start[u + 1] = out.start[u] + static_cast<int32_t>(t.size());
    }
    out.entries.reserve(out.start[S]);
    for (int32_t u = 0; u < S; ++u)
      for (const LorenEntry &e : table[u]) {
        out.entries.push_back(e);
        (e.kind == LorenEntry::kAdjacent        ? out.adjacent
         : e.kind == LorenEntry::kGridNeighbour ? out.grid_neighbour
                                                : out.distant)++;
      }
  }
};

// build_tables()'s preconditions on the layout and the trees.
bool inputs_fit(const Fabric &f, const Layout &layout, const minimal::DestTrees &shortest,
                std::string &err) {
  const int32_t S = f.num_switches();
  if (layout.num_switches() != S) {
    err = strprintf("the layout has %d switches, the fabric %d", layout.num_switches(), S);
    return false;
  }
  if (shortest.num_switches != S || shortest.num_dests() != S) {
    err = "LOREN needs one shortest-path tree per switch";
    return false;
  }
  for (int32_t k = 0; k < S; ++k)
    if (shortest.root[k] != k) {
      err = "LOREN needs the shortest-path tree of switch k as destination k";
      return false;
    }
  return true;
}

}  // namespace

bool build_tables(const Fabric &f, const Layout &layout, const minimal::DestTrees &shortest,
                  const LorenTableOptions &opt, LorenTables &out, std::string &err) {
  const int32_t S = f.num_switches();
  out = LorenTables();
  out.num_switches = S;
  out.start.assign(S + 1, 0);
  if (!inputs_fit(f, layout, shortest, err)) return false;
  Builder b(f, layout, shortest);
  if (!b.prepare(err)) return false;
  b.adjacent();
  b.grid_neighbours(opt.tree_paths);
  for (int32_t u = 0; u < S; ++u)
    if (b.count(u) > out.required) {
      out.required = b.count(u);
      out.required_switch = u;
    }
  const int32_t tmax = opt.tmax > 0 ? opt.tmax : out.required;
  out.tmax = tmax;
  if (tmax < out.required) {
    err = strprintf(
        "t_max %d is below the %d entries that switch '%s' needs for its links and for the "
        "paths between grid neighbours (the smallest t_max for this fabric and layout)",
        tmax, out.required, f.sw(out.required_switch).name.c_str());
    return false;
  }
  if (!opt.mandatory_only) b.distant(tmax);
  b.emit(out);
  return true;
}

}  // namespace keiro::loren
