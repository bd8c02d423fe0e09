// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/auto_layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/log.h"

namespace keiro::loren {

namespace {

// Switch graph with parallel links merged (CSR).
struct Adjacency {
  std::vector<int32_t> start, nbr;
  int32_t size() const { return static_cast<int32_t>(start.size()) - 1; }
};

Adjacency adjacency(const Fabric &f) {
  const int32_t S = f.num_switches();
  Adjacency a;
  a.start.assign(S + 1, 0);
  std::vector<int32_t> mine;
  for (int32_t s = 0; s < S; ++s) {
    mine.clear();
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
      if (f.channel(c).dst != s) mine.push_back(f.channel(c).dst);
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    a.nbr.insert(a.nbr.end(), mine.begin(), mine.end());
    a.start[s + 1] = static_cast<int32_t>(a.nbr.size());
  }
  return a;
}

// Hop distances from src (-1: unreachable).
void bfs(const Adjacency &a, int32_t src, std::vector<int32_t> &dist, std::vector<int32_t> &queue) {
  dist.assign(a.size(), -1);
  queue.clear();
  dist[src] = 0;
  queue.push_back(src);
  for (size_t h = 0; h < queue.size(); ++h) {
    const int32_t u = queue[h];
    for (int32_t i = a.start[u]; i < a.start[u + 1]; ++i)
      if (dist[a.nbr[i]] < 0) {
        dist[a.nbr[i]] = dist[u] + 1;
        queue.push_back(a.nbr[i]);
      }
  }
}

// The switch with the largest key(s), ties to the larger distance sum, then
// the lower index.
template <class Key>
int32_t best(const std::vector<int64_t> &sum, Key key) {
  int32_t b = 0;
  for (int32_t s = 1; s < static_cast<int32_t>(sum.size()); ++s) {
    const auto ks = key(s), kb = key(b);
    if (ks > kb || (ks == kb && sum[s] > sum[b])) b = s;
  }
  return b;
}

// Steps 1-2: the turned landmark coordinates. False if not connected.
bool landmark_coords(const Adjacency &a, std::vector<int64_t> &px, std::vector<int64_t> &py,
                     std::vector<int64_t> &sum) {
  const int32_t S = a.size();
  std::vector<int32_t> ecc(S), dist, queue;
  sum.assign(S, 0);
  for (int32_t s = 0; s < S; ++s) {
    bfs(a, s, dist, queue);
    if (static_cast<int32_t>(queue.size()) != S) return false;
    ecc[s] = dist[queue.back()];
    sum[s] = std::accumulate(dist.begin(), dist.end(), int64_t{0});
  }
  std::vector<int32_t> dA, dB, dC, dD;
  bfs(a, best(sum, [&](int32_t s) { return ecc[s]; }), dA, queue);
  bfs(a, best(sum, [&](int32_t s) { return dA[s]; }), dB, queue);
  bfs(a, best(sum, [&](int32_t s) { return std::min(dA[s], dB[s]); }), dC, queue);
  bfs(a, best(sum, [&](int32_t s) { return dC[s]; }), dD, queue);
  px.resize(S);
  py.resize(S);
  for (int32_t s = 0; s < S; ++s) {
    const int64_t u = dA[s] - dB[s], w = dC[s] - dD[s];
    px[s] = u + w;
    py[s] = u - w;
  }
  return true;
}

// Step 3: columns by px, cells in a column by py.
void place(const std::vector<int64_t> &px, const std::vector<int64_t> &py,
           const std::vector<int64_t> &sum, Layout &out, AutoLayoutStats &st) {
  const int32_t S = static_cast<int32_t>(px.size());
  st.width = static_cast<int32_t>(std::ceil(std::sqrt(static_cast<double>(S))));
  st.height = (S + st.width - 1) / st.width;
  auto by = [&](const std::vector<int64_t> &k1, const std::vector<int64_t> &k2) {
    return [&](int32_t p, int32_t q) {
      if (k1[p] != k1[q]) return k1[p] < k1[q];
      if (k2[p] != k2[q]) return k2[p] < k2[q];
      if (sum[p] != sum[q]) return sum[p] > sum[q];
      return p < q;
    };
  };
  std::vector<int32_t> order(S);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), by(px, py));
  out.x.assign(S, 0);
  out.y.assign(S, 0);
  for (int32_t b = 0, col = 0; b < S; b += st.height, ++col) {
    const int32_t e = std::min(S, b + st.height);
    std::sort(order.begin() + b, order.begin() + e, by(py, px));
    for (int32_t i = b; i < e; ++i) {
      out.x[order[i]] = col;
      out.y[order[i]] = i - b;
    }
  }
  st.width = (S + st.height - 1) / st.height;
}

int32_t md(const Layout &l, int32_t s, int32_t px, int32_t py) {
  return std::abs(l.x[s] - px) + std::abs(l.y[s] - py);
}

// Change of the total link length when s moves to (px, py), other staying.
int64_t moved(const Adjacency &a, const Layout &l, int32_t s, int32_t px, int32_t py,
              int32_t other) {
  int64_t d = 0;
  for (int32_t i = a.start[s]; i < a.start[s + 1]; ++i)
    if (a.nbr[i] != other) d += md(l, a.nbr[i], px, py) - md(l, a.nbr[i], l.x[s], l.y[s]);
  return d;
}

// Step 4: one pass of swaps over the cells in grid order; returns the swaps.
int64_t improve_pass(const Adjacency &a, Layout &l, std::vector<int32_t> &cell, int32_t W,
                     int32_t H) {
  constexpr int32_t kReach = 2;
  int64_t swaps = 0;
  for (int32_t x = 0; x < W; ++x)
    for (int32_t y = 0; y < H; ++y) {
      const int32_t s = cell[x * H + y];
      if (s < 0) continue;
      for (int32_t dx = -kReach; dx <= kReach; ++dx)
        for (int32_t dy = -kReach; dy <= kReach; ++dy) {
          const int32_t qx = x + dx, qy = y + dy;
          if ((dx == 0 && dy == 0) || qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
          const int32_t t = cell[qx * H + qy];
          if (t < 0) continue;
          if (moved(a, l, s, qx, qy, t) + moved(a, l, t, x, y, s) >= 0) continue;
          std::swap(l.x[s], l.x[t]);
          std::swap(l.y[s], l.y[t]);
          std::swap(cell[x * H + y], cell[qx * H + qy]);
          ++swaps;
          dx = dy = kReach + 1;  // s moved away: on to the next cell
        }
    }
  return swaps;
}

void measure(const Adjacency &a, const Layout &l, AutoLayoutStats &st) {
  st.links = st.total_length = st.longest = 0;
  for (int32_t s = 0; s < a.size(); ++s)
    for (int32_t i = a.start[s]; i < a.start[s + 1]; ++i)
      if (a.nbr[i] > s) {
        const int32_t len = md(l, a.nbr[i], l.x[s], l.y[s]);
        ++st.links;
        st.total_length += len;
        st.longest = std::max(st.longest, len);
      }
}

}  // namespace

bool derive_layout(const Fabric &f, Layout &out, AutoLayoutStats &st, std::string &err,
                   int32_t max_passes) {
  st = AutoLayoutStats{};
  const Adjacency a = adjacency(f);
  if (a.size() == 0) {
    err = "the fabric has no switches to lay out";
    return false;
  }
  std::vector<int64_t> px, py, sum;
  if (!landmark_coords(a, px, py, sum)) {
    err = "the switches are not connected, so no layout can be derived from the links";
    return false;
  }
  out = Layout{};
  place(px, py, sum, out, st);
  std::vector<int32_t> cell(static_cast<size_t>(st.width) * st.height, -1);
  for (int32_t s = 0; s < a.size(); ++s) cell[out.x[s] * st.height + out.y[s]] = s;
  while (st.passes < max_passes) {
    ++st.passes;
    const int64_t n = improve_pass(a, out, cell, st.width, st.height);
    st.swaps += n;
    if (n == 0) break;
  }
  out.index();
  measure(a, out, st);
  return true;
}

std::string layout_text(const Fabric &f, const Layout &layout, const std::string &comment) {
  std::string t = "# " + comment + "\n# keiro layout: GUID X Y NAME\n";
  for (int32_t s = 0; s < f.num_switches(); ++s)
    t += strprintf("0x%016llx %d %d %s\n", static_cast<unsigned long long>(f.sw(s).guid),
                   layout.x[s], layout.y[s], f.sw(s).name.c_str());
  return t;
}

}  // namespace keiro::loren
