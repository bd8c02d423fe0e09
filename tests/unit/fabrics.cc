// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/fabrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>

#include "core/io/topology_file.h"
#include "core/options.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/settings.h"
#include "core/registry/registry.h"
#include "core/topo/families.h"
#include "core/topo/net_list.h"

namespace keiro::fixtures {

namespace {

bool connected(int32_t n, const Links &links) {
  std::vector<std::vector<int32_t>> adj(n);
  for (const Link &l : links) {
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  std::vector<char> seen(n, 0);
  std::vector<int32_t> stack = {0};
  seen[0] = 1;
  int32_t count = 1;
  while (!stack.empty()) {
    const int32_t v = stack.back();
    stack.pop_back();
    for (int32_t w : adj[v])
      if (!seen[w]) seen[w] = 1, ++count, stack.push_back(w);
  }
  return count == n;
}

// GUIDs of one kind (switches or HCAs) reversed: the lowest takes the highest.
uint64_t flipped(const std::vector<uint64_t> &sorted, uint64_t guid) {
  const size_t i = std::lower_bound(sorted.begin(), sorted.end(), guid) - sorted.begin();
  return sorted[sorted.size() - 1 - i];
}

}  // namespace

Fabric from_links(int32_t n, const Links &links, const Spec &spec) {
  // Ports given explicitly are reserved first; the others follow in list order.
  std::vector<std::vector<char>> taken(n, std::vector<char>(256, 0));
  for (const Link &l : links) {
    if (l.pa) taken[l.a][l.pa] = 1;
    if (l.pb) taken[l.b][l.pb] = 1;
  }
  std::vector<int> next(n, 1), top(n, 0);
  auto take = [&](int32_t s) {
    while (taken[s][next[s]]) ++next[s];
    taken[s][next[s]] = 1;
    return static_cast<uint8_t>(next[s]);
  };
  struct Phys {
    int32_t a, b;
    uint8_t pa, pb;
  };
  std::vector<Phys> phys;
  for (const Link &l : links)
    for (int c = 0; c < spec.parallel; ++c) {
      Phys p{l.a, l.b, l.pa, l.pb};
      if (!p.pa || c > 0) p.pa = take(l.a);
      if (!p.pb || c > 0) p.pb = take(l.b);
      phys.push_back(p);
    }
  // CAs on the lowest free ports.
  std::vector<std::vector<uint8_t>> ca_port(n);
  for (int32_t s = 0; s < n; ++s) {
    int p = 1;
    for (int h = 0; h < spec.hcas; ++h) {
      while (taken[s][p]) ++p;
      taken[s][p] = 1;
      ca_port[s].push_back(static_cast<uint8_t>(p));
    }
    for (int q = 1; q < 256; ++q)
      if (taken[s][q]) top[s] = q;
  }
  Fabric f;
  for (int32_t i = 0; i < n; ++i) {
    const std::string name = i < static_cast<int32_t>(spec.names.size())
                                 ? spec.names[i]
                                 : spec.prefix + std::to_string(i + spec.first);
    f.add_switch({spec.guid + static_cast<uint64_t>(i), name,
                  static_cast<uint8_t>(std::max(spec.min_ports, top[i]))});
  }
  for (const Phys &p : phys) f.add_link(p.a, p.pa, p.b, p.pb, spec.vls);
  int k = 0;
  for (int32_t i = 0; i < n; ++i)
    for (int h = 0; h < spec.hcas; ++h, ++k) {
      TerminalInfo t;
      t.node_guid = spec.hca_guid + 2 * static_cast<uint64_t>(k);
      t.port_guid = t.node_guid + 1;
      t.name = "H" + std::to_string(k + spec.first);
      t.sw = i;
      t.sw_port = ca_port[i][h];
      t.vls = spec.vls;
      f.add_terminal(t);
    }
  assign_lids(f, spec.lmc);
  f.finalize();
  return f;
}

Fabric without(const Fabric &f, int32_t drop_sw, int32_t drop_channel) {
  Fabric g;
  std::vector<int32_t> id(f.num_switches(), -1);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (s != drop_sw) id[s] = g.add_switch(f.sw(s));
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    TerminalInfo ti = f.terminal(t);
    if (ti.sw == drop_sw) continue;
    ti.sw = id[ti.sw];
    g.add_terminal(ti);
  }
  for (int32_t c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    if (c > ch.reverse || c == drop_channel || ch.reverse == drop_channel) continue;
    if (ch.src == drop_sw || ch.dst == drop_sw) continue;
    g.add_link(id[ch.src], ch.src_port, id[ch.dst], ch.dst_port, ch.vls);
  }
  g.finalize();
  return g;
}

Fabric ring(int32_t n, const Spec &spec) {
  Links links;
  const auto out = static_cast<uint8_t>(spec.hcas + 1), in = static_cast<uint8_t>(spec.hcas + 2);
  for (int32_t i = 0; i < n; ++i) links.emplace_back(i, (i + 1) % n, out, in);
  return from_links(n, links, spec);
}

Links torus_links(int x, int y, int z, double fail_fraction, uint64_t seed) {
  const int dims[3] = {x, y, z};
  auto id = [&](int i, int j, int k) { return i + x * (j + y * k); };
  std::set<std::pair<int32_t, int32_t>> seen;
  Links e;
  for (int k = 0; k < z; ++k)
    for (int j = 0; j < y; ++j)
      for (int i = 0; i < x; ++i)
        for (int dim = 0; dim < 3; ++dim) {
          if (dims[dim] < 2) continue;
          int c[3] = {i, j, k};
          c[dim] = (c[dim] + 1) % dims[dim];
          const int32_t a = id(i, j, k), b = id(c[0], c[1], c[2]);
          const auto p = std::minmax(a, b);
          if (seen.insert({p.first, p.second}).second) e.emplace_back(a, b);
        }
  const int32_t n = x * y * z;
  const auto fail = static_cast<size_t>(std::lround(fail_fraction * static_cast<double>(e.size())));
  std::mt19937_64 rng(seed);
  for (size_t removed = 0, tries = 0; removed < fail && tries < 100 * (fail + 1); ++tries) {
    std::uniform_int_distribution<size_t> pick(0, e.size() - 1);
    const size_t i = pick(rng);
    const Link victim = e[i];
    e.erase(e.begin() + static_cast<std::ptrdiff_t>(i));
    if (connected(n, e))
      ++removed;
    else
      e.insert(e.begin() + static_cast<std::ptrdiff_t>(i), victim);
  }
  return e;
}

Fabric generated_torus(const std::vector<int> &dims, int hcas) {
  const topo::GenFabric g = topo::gen_torus(dims, false, topo::TopoOptions{.hcas = hcas});
  Fabric f;
  std::string err;
  if (!io::parse_topology(topo::write_net(g), "torus", f, err))
    throw std::runtime_error("generated_torus: " + err);
  return f;
}

Links random_regular_links(int32_t n, int d, uint64_t seed) {
  topo::TopoOptions o;
  o.hcas = 0;
  o.seed = seed;
  o.radix = 255;
  const topo::GenFabric g = topo::gen_random_regular(n, d, o);
  Links links;
  for (const topo::GenLink &l : g.links) links.emplace_back(l.a, l.b);
  return links;
}

Links random_irregular_links(int32_t n, int max_links, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (;;) {
    std::vector<int32_t> stubs;
    for (int32_t i = 0; i < n; ++i)
      for (int p = 0; p < max_links; ++p) stubs.push_back(i);
    std::shuffle(stubs.begin(), stubs.end(), rng);
    std::vector<std::vector<uint8_t>> linked(n, std::vector<uint8_t>(n, 0));
    Links links;
    for (int round = 0; round < 20 && stubs.size() > 1; ++round) {
      std::vector<int32_t> left;
      for (size_t i = 0; i + 1 < stubs.size(); i += 2) {
        const int32_t a = stubs[i], b = stubs[i + 1];
        if (a == b || linked[a][b]) {
          left.push_back(a);
          left.push_back(b);
          continue;
        }
        linked[a][b] = linked[b][a] = 1;
        links.emplace_back(a, b);
      }
      if (stubs.size() % 2) left.push_back(stubs.back());
      stubs.swap(left);
      std::shuffle(stubs.begin(), stubs.end(), rng);
    }
    if (connected(n, links)) return links;
  }
}

Fabric two_switches() {
  Fabric f;
  const int a = f.add_switch({0x10, "A", 8});
  const int b = f.add_switch({0x20, "B", 8});
  f.add_link(a, 3, b, 3, 4);
  f.add_link(a, 5, b, 5, 8);
  f.add_terminal({0x100, 0x101, "ha", 1, false, 0, 0, a, 1});
  f.add_terminal({0x200, 0x201, "hb", 1, false, 0, 0, b, 1});
  return f;
}

Fabric two_switches_finalized() {
  Fabric f = two_switches();
  assign_lids(f, 0);
  f.finalize();
  return f;
}

int32_t channel_between(const Fabric &f, int32_t a, int32_t b) {
  for (int32_t c = f.out_begin(a); c < f.out_end(a); ++c)
    if (f.channel(c).dst == b) return c;
  return -1;
}

std::vector<int32_t> distances(const Fabric &f) {
  const int32_t S = f.num_switches();
  std::vector<int32_t> dist(static_cast<size_t>(S) * S, -1), queue;
  for (int32_t a = 0; a < S; ++a) {
    int32_t *d = dist.data() + static_cast<size_t>(a) * S;
    d[a] = 0;
    queue.assign(1, a);
    for (size_t i = 0; i < queue.size(); ++i)
      for (int32_t c = f.out_begin(queue[i]); c < f.out_end(queue[i]); ++c)
        if (d[f.channel(c).dst] < 0) {
          d[f.channel(c).dst] = d[queue[i]] + 1;
          queue.push_back(f.channel(c).dst);
        }
  }
  return dist;
}

uint8_t home_port(const Fabric &f, uint16_t lid) {
  const LidOwner o = f.lid_owner(lid);
  return o.kind == LidOwner::kTerminal ? f.terminal(o.id).sw_port : 0;
}

Fabric hand_wired(int32_t n, const std::vector<PortLink> &links, uint8_t lmc) {
  Fabric f;
  for (int32_t s = 0; s < n; ++s)
    f.add_switch({static_cast<uint64_t>(s + 1), "L" + std::to_string(s), 4});
  for (const PortLink &l : links) f.add_link(l.a, l.pa, l.b, l.pb);
  for (int32_t s = 0; s < n; ++s) {
    TerminalInfo t;
    t.name = "h" + std::to_string(s);
    t.sw = s;
    t.sw_port = 3;
    f.add_terminal(t);
  }
  assign_lids(f, lmc);
  f.finalize();
  return f;
}

void take_channel(const Fabric &f, Routing &r, int32_t s, uint16_t lid, int32_t best,
                  std::vector<std::vector<int32_t>> &used) {
  if (best < 0) {
    r.set_out_port(s, lid, kNoPort);
    return;
  }
  ++used[s][f.channel(best).src_port];
  r.set_out_port(s, lid, f.channel(best).src_port);
}

Routing min_hop(const Fabric &f, MinHop mode) {
  const std::vector<int32_t> dist = distances(f);
  const int32_t S = f.num_switches();
  Routing r;
  r.reset(f);
  std::vector<std::vector<int32_t>> used(S, std::vector<int32_t>(256, 0));
  for (uint16_t lid : f.lids()) {
    const int32_t d = f.lid_switch(lid);
    for (int32_t s = 0; s < S; ++s) {
      if (s == d) {
        r.set_out_port(s, lid, home_port(f, lid));
        continue;
      }
      const int32_t here = dist[static_cast<size_t>(s) * S + d];
      int32_t best = -1;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
        const Channel &ch = f.channel(c);
        if (here <= 0 || dist[static_cast<size_t>(ch.dst) * S + d] != here - 1) continue;
        if (best < 0) {
          best = c;
          if (mode == MinHop::kLowestPort) break;
        } else if (used[s][ch.src_port] < used[s][f.channel(best).src_port]) {
          best = c;
        }
      }
      take_channel(f, r, s, lid, best, used);
    }
  }
  return r;
}

uint8_t ring_port(int n, int at, int to, bool clockwise_only) {
  if (clockwise_only) return 2;
  const int fwd = (to - at + n) % n;
  if (fwd == 1) return 2;
  if (fwd == n - 1) return 3;
  if (2 * fwd == n) return at % 2 == 0 ? 2 : 3;
  return fwd < n - fwd ? 2 : 3;
}

Routing route_ring(const Fabric &f, bool clockwise_only, Routing::SlScope scope) {
  Routing r;
  r.reset(f, scope);
  const int n = f.num_switches();
  for (int s = 0; s < n; ++s)
    for (const uint16_t lid : f.lids()) {
      const int to = f.lid_switch(lid);
      r.set_out_port(s, lid, to == s ? home_port(f, lid) : ring_port(n, s, to, clockwise_only));
    }
  return r;
}

Routing route_tree(const Fabric &f) {
  Routing r;
  r.reset(f);
  const int n = f.num_switches();
  std::vector<int32_t> parent_ch(n, -1), order;
  std::vector<bool> seen(n, false);
  seen[0] = true;
  order.push_back(0);
  for (size_t h = 0; h < order.size(); ++h)
    for (int32_t c = f.out_begin(order[h]); c < f.out_end(order[h]); ++c) {
      const int v = f.channel(c).dst;
      if (seen[v]) continue;
      seen[v] = true;
      parent_ch[v] = f.channel(c).reverse;  // v -> parent
      order.push_back(v);
    }
  // Euler-tour intervals: d is below s iff tin[s] <= tin[d] < tout[s].
  std::vector<std::vector<int32_t>> kids(n);  // channels s -> child
  for (int v = 0; v < n; ++v)
    if (parent_ch[v] >= 0)
      kids[f.channel(parent_ch[v]).dst].push_back(f.channel(parent_ch[v]).reverse);
  std::vector<int> tin(n), tout(n);
  int clock = 0;
  std::vector<std::pair<int, size_t>> st = {{0, 0}};
  tin[0] = clock++;
  while (!st.empty()) {
    auto &[u, i] = st.back();
    if (i < kids[u].size()) {
      const int v = f.channel(kids[u][i++]).dst;
      tin[v] = clock++;
      st.push_back({v, 0});
    } else {
      tout[u] = clock;
      st.pop_back();
    }
  }
  for (const uint16_t lid : f.lids()) {
    const int d = f.lid_switch(lid);
    for (int s = 0; s < n; ++s) {
      uint8_t port = kNoPort;
      if (s == d) {
        port = home_port(f, lid);
      } else if (tin[s] <= tin[d] && tin[d] < tout[s]) {
        for (const int32_t c : kids[s]) {
          const int v = f.channel(c).dst;
          if (tin[v] <= tin[d] && tin[d] < tout[v]) port = f.channel(c).src_port;
        }
      } else if (parent_ch[s] >= 0) {
        port = f.channel(parent_ch[s]).src_port;
      }
      r.set_out_port(s, lid, port);
    }
  }
  return r;
}

minimal::DestTrees trees_from_next_switch(const Fabric &f, const std::vector<int32_t> &roots,
                                          const std::vector<std::vector<int32_t>> &next_sw) {
  minimal::DestTrees t;
  t.reset(f.num_switches(), static_cast<int32_t>(roots.size()));
  std::vector<uint16_t> own;
  for (size_t k = 0; k < roots.size(); ++k) {
    t.root[k] = roots[k];
    minimal::switch_lids(f, roots[k], own);
    t.lids.insert(t.lids.end(), own.begin(), own.end());
    t.lid_start[k + 1] = static_cast<int32_t>(t.lids.size());
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (next_sw[k][s] >= 0)
        t.next[k * static_cast<size_t>(f.num_switches()) + s] =
            channel_between(f, s, next_sw[k][s]);
  }
  return t;
}

minimal::DestTrees min_hop_trees(const Fabric &f) {
  const int32_t S = f.num_switches();
  const std::vector<int32_t> dist = distances(f);
  std::vector<std::vector<int32_t>> next(S, std::vector<int32_t>(S, -1));
  std::vector<int32_t> roots(S);
  for (int32_t k = 0; k < S; ++k) {
    roots[k] = k;
    for (int32_t s = 0; s < S; ++s) {
      if (s == k) continue;
      for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
        if (dist[static_cast<size_t>(f.channel(c).dst) * S + k] ==
            dist[static_cast<size_t>(s) * S + k] - 1) {
          next[k][s] = f.channel(c).dst;
          break;
        }
    }
  }
  return trees_from_next_switch(f, roots, next);
}

loren::Layout layout(const Fabric &f, const std::vector<std::pair<int32_t, int32_t>> &pos) {
  std::vector<int32_t> x, y;
  for (auto [a, b] : pos) x.push_back(a), y.push_back(b);
  loren::Layout l;
  std::string err;
  if (!loren::make_layout(f, x, y, l, err)) throw std::runtime_error(err);
  return l;
}

std::string dump_table(const Fabric &f, const loren::LorenTables &t, int32_t u) {
  std::string out;
  for (const loren::LorenEntry &e : t.table(u))
    out += (out.empty() ? "" : " ") + std::to_string(e.dst) + ">" +
           std::to_string(f.channel(e.channel).dst) + "@" + std::to_string(e.hops);
  return out;
}

bool write_ibsim_net(const Fabric &f, const std::string &path) {
  std::ofstream out(path);
  if (!out) return false;
  for (int32_t t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    out << "Hca 1 \"" << ti.name << "\"\n[" << int{ti.port_num} << "] \"" << f.sw(ti.sw).name
        << "\"[" << int{ti.sw_port} << "]\n\n";
  }
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    out << "Switch " << int{f.sw(s).num_ports} << " \"" << f.sw(s).name << "\"\n";
    for (int p = 1; p <= f.sw(s).num_ports; ++p) {
      const PortPeer peer = f.peer(s, static_cast<uint8_t>(p));
      if (peer.kind == PortPeer::kSwitch) {
        const Channel &c = f.channel(peer.id);
        out << "[" << p << "] \"" << f.sw(c.dst).name << "\"[" << int{c.dst_port} << "]\n";
      } else if (peer.kind == PortPeer::kTerminal) {
        const TerminalInfo &ti = f.terminal(peer.id);
        out << "[" << p << "] \"" << ti.name << "\"[" << int{ti.port_num} << "]\n";
      }
    }
    out << "\n";
  }
  return static_cast<bool>(out);
}

EngineRun run_captured(const Fabric &f, const std::string &engine, const RunArgs &a) {
  const EngineDesc *e = find_engine(engine);
  if (!e) throw std::invalid_argument("no engine '" + engine + "'");
  Options o = all_options();
  std::string err;
  if (!Options::parse(a.opts, o, err)) throw std::invalid_argument(err);
  EngineRun run;
  EngineInput in{f, o, run.log, a.max_vls, a.max_sls, a.qos};
  // Alone: the engine with the input the pipeline would give it.
  pipeline::RouteExtras x;
  x.stages = &run.stages;
  run.ok = a.self_check
               ? pipeline::route(*e, in, run.out, run.rep, x)
               : e->route(pipeline::engine_input(in, pipeline::read_settings(o)), run.out, run.rep);
  return run;
}

std::set<int> path_sls(const Fabric &f, const Routing &r) {
  std::set<int> sls;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (const uint16_t lid : f.lids()) sls.insert(r.path_sl(s, lid));
  return sls;
}

int count_containing(const CaptureLogger &log, LogLevel level, const std::string &needle) {
  int n = 0;
  for (const CaptureLogger::Line &l : log.lines)
    n += l.level == level && l.text.find(needle) != std::string::npos;
  return n;
}

topo::NetList flip(const topo::NetList &in, Flip what) {
  const int32_t n = static_cast<int32_t>(in.nodes.size());
  std::vector<uint64_t> sw, ca;
  for (const topo::NetListNode &node : in.nodes) (node.is_switch ? sw : ca).push_back(node.guid);
  std::sort(sw.begin(), sw.end());
  std::sort(ca.begin(), ca.end());
  auto port = [&](int32_t node, int p) {
    return what.ports && in.nodes[node].is_switch ? in.nodes[node].ports + 1 - p : p;
  };
  auto at = [&](int32_t k) { return what.order ? n - 1 - k : k; };
  topo::NetList out{in.notes, {}};
  for (int32_t i = 0; i < n; ++i) {
    const int32_t k = at(i);
    topo::NetListNode node = in.nodes[k];
    if (what.guids) node.guid = flipped(node.is_switch ? sw : ca, node.guid);
    for (topo::NetPeer &p : node.peers) {
      p.peer_port = port(p.node, p.peer_port);
      p.port = port(k, p.port);
      p.node = at(p.node);
    }
    std::sort(node.peers.begin(), node.peers.end(),
              [](const topo::NetPeer &a, const topo::NetPeer &b) { return a.port < b.port; });
    out.nodes.push_back(std::move(node));
  }
  return out;
}

}  // namespace keiro::fixtures
