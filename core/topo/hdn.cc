// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/topo/hdn.h"

#include <cstdlib>

namespace keiro::topo {

namespace {
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  for (;;) {
    const size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) return out;
    b = e + 1;
  }
}

long to_int(const std::string &s, const std::string &what) {
  char *end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end) throw TopoError("hdn: bad " + what + " '" + s + "'");
  return v;
}
}  // namespace

HdnSpec parse_hdn(const std::string &base, int k, const std::string &S) {
  HdnSpec spec;
  for (const std::string &t : split(base, 'x')) {
    const long b = to_int(t, "ring size");
    if (b < 1 || b > 255) throw TopoError("hdn: ring sizes must be 1..255");
    spec.rings.push_back(static_cast<int>(b));
  }
  if (spec.rings.size() > 16) throw TopoError("hdn: at most 16 rings");
  if (k < 1 || k > HdnIndex::kMaxLevels)
    throw TopoError("hdn: k must be 1.." + std::to_string(HdnIndex::kMaxLevels));
  spec.k = k;
  const std::vector<std::string> entries = split(S, ',');
  if (static_cast<int>(entries.size()) != k)
    throw TopoError("hdn: --S needs one super-node size per level (" + std::to_string(k) + ")");
  const int r = static_cast<int>(spec.rings.size());
  for (const std::string &e : entries) {
    uint32_t mask = 0;
    if (!e.empty() && e[0] == 'r') {
      for (const std::string &t : split(e, '+')) {
        if (t.size() < 2 || t[0] != 'r') throw TopoError("hdn: bad ring set '" + e + "'");
        const long j = to_int(t.substr(1), "ring index");
        if (j < 0 || j >= r) throw TopoError("hdn: no ring " + t.substr(1) + " in the base");
        mask |= 1u << j;
      }
    } else {
      const long s = to_int(e, "super-node size");
      bool found = false;
      for (uint32_t m = 0; m < (1u << r) && !found; ++m) {
        long p = 1;
        for (int j = 0; j < r; ++j)
          if (m >> j & 1) p *= spec.rings[j];
        if (p == s) {
          mask = m;
          found = true;
        }
      }
      if (!found)
        throw TopoError("hdn: super-node size " + e + " is not a product of ring sizes of " + base);
    }
    uint64_t size = 1;
    for (int j = 0; j < r; ++j)
      if (mask >> j & 1) size *= static_cast<uint64_t>(spec.rings[j]);
    spec.masks.push_back(mask);
    spec.sizes.push_back(size);
  }
  return spec;
}

std::string describe(const HdnSpec &spec) {
  std::string out;
  for (int i = 1; i <= spec.k; ++i) {
    const uint32_t m = spec.masks[i - 1];
    out += "level " + std::to_string(i) + ": super-node ";
    std::string rings, prod;
    for (size_t j = 0; j < spec.rings.size(); ++j)
      if (m >> j & 1) {
        rings += (rings.empty() ? "" : ",") + std::to_string(j);
        prod += (prod.empty() ? "C" : " x C") + std::to_string(spec.rings[j]);
      }
    if (rings.empty())
      out += "of one node (no ring)";
    else
      out += prod + " (rings " + rings + ")";
    out += ", s" + std::to_string(i) + " = " + std::to_string(spec.sizes[i - 1]) + "\n";
  }
  return out;
}

uint64_t hdn_node_count(uint64_t n0, const std::vector<uint64_t> &sizes) {
  unsigned __int128 n = n0;
  for (uint64_t s : sizes) {
    if (!s || n % s) return 0;
    n = 2 * n * (n / s);
    if (n > ~uint64_t{0}) return 0;
  }
  return static_cast<uint64_t>(n);
}

int hdn_base_degree(const HdnSpec &spec) {
  int d = 0;
  for (int b : spec.rings) d += b >= 2 ? 2 : 0;
  return d;
}

HdnIndex::HdnIndex(const HdnSpec &spec, uint64_t max_nodes) : spec_(spec) {
  uint64_t n0 = 1;
  for (int b : spec.rings) n0 *= static_cast<uint64_t>(b);
  count_.push_back(n0);
  for (int i = 1; i <= spec.k; ++i) {
    const uint64_t n = hdn_node_count(n0, {spec.sizes.begin(), spec.sizes.begin() + i});
    if (!n || n > max_nodes)
      throw TopoError("HDN has " + (n ? std::to_string(n) : std::string("more than 2^64")) +
                      " nodes, more than the limit of " + std::to_string(max_nodes));
    count_.push_back(n);
  }
  const int r = static_cast<int>(spec.rings.size());
  stride_.assign(r, 1);
  for (int j = r - 2; j >= 0; --j) stride_[j] = stride_[j + 1] * spec.rings[j + 1];
}

uint64_t HdnIndex::sub(uint64_t b, uint32_t mask) const {
  uint64_t v = 0;
  for (size_t j = 0; j < stride_.size(); ++j)
    if (mask >> j & 1) v = v * spec_.rings[j] + (b / stride_[j]) % spec_.rings[j];
  return v;
}

uint64_t HdnIndex::quot(uint64_t b, uint32_t mask) const {
  uint64_t v = 0;
  for (size_t j = 0; j < stride_.size(); ++j)
    if (!(mask >> j & 1)) v = v * spec_.rings[j] + (b / stride_[j]) % spec_.rings[j];
  return v;
}

uint64_t HdnIndex::compose(uint32_t mask, uint64_t s, uint64_t q) const {
  uint64_t b = 0;
  for (size_t jj = stride_.size(); jj-- > 0;) {
    uint64_t &src = (mask >> jj & 1) ? s : q;
    b += (src % spec_.rings[jj]) * stride_[jj];
    src /= spec_.rings[jj];
  }
  return b;
}

uint64_t HdnIndex::upper(const Canon &x, int below_level) const {
  uint64_t up = 0;
  for (int j = 1; j <= below_level; ++j) {
    const uint64_t m = count_[j - 1] / spec_.sizes[j - 1];
    up = (x.c[j] * m + x.u[j]) * (count_[j - 1] / count_[0]) + up;
  }
  return up;
}

void HdnIndex::set_local(Canon &x, int level, uint64_t sn, uint64_t n) const {
  const uint64_t q_range = count_[0] / spec_.sizes[level - 1];
  uint64_t up = sn / q_range;
  x.b = compose(spec_.masks[level - 1], n, sn % q_range);
  for (int j = level - 1; j >= 1; --j) {
    const uint64_t below = count_[j - 1] / count_[0];
    const uint64_t t = up / below;
    up %= below;
    const uint64_t m = count_[j - 1] / spec_.sizes[j - 1];
    x.c[j] = t / m;
    x.u[j] = t % m;
  }
}

HdnIndex::Canon HdnIndex::decode(uint64_t v) const {
  const int k = spec_.k;
  const uint64_t nk1 = count_[k - 1], sk = spec_.sizes[k - 1], m = nk1 / sk;
  Canon x;
  x.c[k] = v / (m * nk1);
  const uint64_t r = v % (m * nk1);
  x.u[k] = r / nk1;
  const uint64_t local = r % nk1;
  set_local(x, k, local / sk, local % sk);
  return x;
}

uint64_t HdnIndex::encode(const Canon &x) const {
  const int k = spec_.k;
  const uint64_t nk1 = count_[k - 1], sk = spec_.sizes[k - 1], m = nk1 / sk;
  const uint32_t mask = spec_.masks[k - 1];
  const uint64_t sn = upper(x, k - 1) * (count_[0] / sk) + quot(x.b, mask);
  return x.c[k] * m * nk1 + x.u[k] * nk1 + sn * sk + sub(x.b, mask);
}

HdnIndex::Coord HdnIndex::coord(uint64_t v, int level) const {
  const Canon x = decode(v);
  const uint32_t mask = spec_.masks[level - 1];
  const uint64_t sn = upper(x, level - 1) * (count_[0] / spec_.sizes[level - 1]) + quot(x.b, mask);
  return {x.c[level], x.u[level], sn, sub(x.b, mask)};
}

uint64_t HdnIndex::partner(uint64_t v, int level) const {
  const Coord c = coord(v, level);
  return with_coord(v, level, {1 - c.c, c.sn, c.u, c.n});
}

uint64_t HdnIndex::with_coord(uint64_t v, int level, const Coord &c) const {
  Canon x = decode(v);
  x.c[level] = c.c;
  x.u[level] = c.u;
  set_local(x, level, c.sn, c.n);
  return encode(x);
}

int HdnIndex::base_coord(uint64_t v, int dim) const {
  const Canon x = decode(v);
  return static_cast<int>((x.b / stride_[dim]) % spec_.rings[dim]);
}

uint64_t HdnIndex::ring_next(uint64_t v, int dim) const {
  Canon x = decode(v);
  const uint64_t c = (x.b / stride_[dim]) % spec_.rings[dim];
  if (c + 1 < static_cast<uint64_t>(spec_.rings[dim]))
    x.b += stride_[dim];
  else
    x.b -= c * stride_[dim];
  return encode(x);
}

GenFabric gen_hdn(const HdnSpec &spec, const TopoOptions &o) {
  const HdnIndex idx(spec, 1000000);
  const int r = static_cast<int>(spec.rings.size());
  const int k = spec.k;
  GenFabric g;
  g.family = Family::kHdn;
  g.radix = o.radix;
  const uint64_t n = idx.size();
  for (uint64_t v = 0; v < n; ++v) {
    const HdnIndex::Coord c = idx.coord(v, k);
    const int32_t s = g.add_switch("hdn c" + std::to_string(c.c) + " u" + std::to_string(c.u) +
                                       " s" + std::to_string(c.sn) + " n" + std::to_string(c.n),
                                   v);
    g.sw[s].hca_port = 2 * r + k + 1;
  }
  for (uint64_t v = 0; v < n; ++v) {
    for (int j = 0; j < r; ++j)
      if (spec.rings[j] >= 2)
        g.link(static_cast<int32_t>(v), 2 * j + 1, static_cast<int32_t>(idx.ring_next(v, j)),
               2 * j + 2);
    for (int i = 1; i <= k; ++i)
      if (idx.coord(v, i).c == 0)
        g.link(static_cast<int32_t>(v), 2 * r + i, static_cast<int32_t>(idx.partner(v, i)),
               2 * r + i);
  }
  apply_redundancy(g, o.redundancy);
  std::string what = "hdn";
  for (int j = 0; j < r; ++j) what += (j ? "x" : " ") + std::to_string(spec.rings[j]);
  g.place_hcas(o.hcas < 0 ? 1 : o.hcas, what + " k=" + std::to_string(k));
  return g;
}

}  // namespace keiro::topo
