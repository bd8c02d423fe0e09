// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/mcast/trees.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <iterator>
#include <queue>
#include <tuple>

#include "core/graph/graph.h"
#include "core/graph/spanning_tree.h"
#include "core/log.h"

namespace keiro::mcast {

namespace {

uint64_t dep_key(int32_t c, uint8_t v, int32_t c2, uint8_t v2) {
  return static_cast<uint64_t>(check::dependency_node(c, v)) << 32 |
         static_cast<uint64_t>(check::dependency_node(c2, v2));
}
int32_t key_from(uint64_t k) {
  return static_cast<int32_t>(k >> 32);
}
int32_t key_to(uint64_t k) {
  return static_cast<int32_t>(k & 0xFFFFFFFFu);
}

// The tree while it grows: per switch its tree links (switch ports) and the
// ports its members' packets come in on (member CA ports, port 0).
struct Growth {
  const Fabric &f;
  const Routing &r;
  std::vector<uint8_t> sls;
  std::vector<char> in_tree;
  std::vector<std::vector<uint8_t>> links, own;

  Growth(const Fabric &fabric, const Routing &routing, const Group &g)
      : f(fabric),
        r(routing),
        in_tree(fabric.num_switches(), 0),
        links(fabric.num_switches()),
        own(fabric.num_switches()) {
    for (int sl = 0; sl < kNumSls; ++sl)
      if (g.sl_mask >> sl & 1) sls.push_back(static_cast<uint8_t>(sl));
    for (int32_t t : g.terminals) own[f.terminal(t).sw].push_back(f.terminal(t).sw_port);
    for (int32_t s : g.switches) own[s].push_back(0);
  }

  bool member(int32_t s) const { return !own[s].empty(); }

  // VLs the group's packets with SL sl take on channel c (from the in ports
  // of the switch it leaves).
  uint16_t channel_vls(int32_t c, uint8_t sl) const {
    const Channel &ch = f.channel(c);
    uint16_t m = 0;
    auto add = [&](uint8_t j) {
      if (j == ch.src_port) return;
      const uint8_t v = r.vl(ch.src, j, ch.src_port, sl);
      if (v != kDropVl) m |= static_cast<uint16_t>(1u << v);
    };
    for (uint8_t j : links[ch.src]) add(j);
    for (uint8_t j : own[ch.src]) add(j);
    return m;
  }

  // The dependencies of the turns at switch u.
  void switch_deps(int32_t u, std::vector<uint64_t> &out) const {
    for (uint8_t i : links[u]) {
      const int32_t cin = f.channel(f.peer(u, i).id).reverse;
      for (uint8_t o : links[u]) {
        if (o == i) continue;
        const int32_t cout = f.peer(u, o).id;
        for (uint8_t sl : sls) {
          const uint8_t v2 = r.vl(u, i, o, sl);
          if (v2 == kDropVl) continue;
          for (uint16_t m = channel_vls(cin, sl); m; m &= static_cast<uint16_t>(m - 1))
            out.push_back(dep_key(cin, static_cast<uint8_t>(std::countr_zero(m)), cout, v2));
        }
      }
    }
  }

  // Switches whose turns a link at u changes: u and its tree neighbours.
  void around(int32_t u, std::vector<int32_t> &out) const {
    out.push_back(u);
    for (uint8_t p : links[u]) out.push_back(f.channel(f.peer(u, p).id).dst);
  }

  std::vector<uint64_t> deps_of(const std::vector<int32_t> &sw) const {
    std::vector<uint64_t> d;
    for (int32_t s : sw) switch_deps(s, d);
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
    return d;
  }

  std::vector<int32_t> switches() const {
    std::vector<int32_t> all;
    for (int32_t s = 0; s < f.num_switches(); ++s)
      if (in_tree[s]) all.push_back(s);
    return all;
  }

  // The masks of switches sw: their tree links and their members' ports.
  Tree tree(uint16_t mlid, int32_t root, const std::vector<int32_t> &sw) const {
    Tree t;
    t.mlid = mlid;
    t.root = root;
    for (int32_t s : sw) {
      SwitchMask m{s, {}};
      for (uint8_t p : links[s]) m.ports.set(p);
      for (uint8_t p : own[s]) m.ports.set(p);
      t.masks.push_back(m);
    }
    return t;
  }

  void link(int32_t c, bool on) {
    const Channel &ch = f.channel(c);
    if (on) {
      links[ch.src].push_back(ch.src_port);
      links[ch.dst].push_back(ch.dst_port);
      in_tree[ch.dst] = 1;
    } else {
      links[ch.src].pop_back();
      links[ch.dst].pop_back();
      in_tree[ch.dst] = 0;
    }
  }
};

// Cuts branches without members: leaves that are not members go, until
// every leaf is one (the root stays). via[s]: the channel parent -> s.
void prune(Growth &gr, int32_t root, const std::vector<int32_t> &via) {
  const Fabric &f = gr.f;
  std::vector<int32_t> leaves;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (gr.in_tree[s] && s != root && gr.links[s].size() == 1 && !gr.member(s)) leaves.push_back(s);
  auto drop = [](std::vector<uint8_t> &v, uint8_t p) { v.erase(std::find(v.begin(), v.end(), p)); };
  while (!leaves.empty()) {
    const int32_t s = leaves.back();
    leaves.pop_back();
    const Channel &ch = f.channel(via[s]);
    drop(gr.links[ch.src], ch.src_port);
    drop(gr.links[s], ch.dst_port);
    gr.in_tree[s] = 0;
    const int32_t up = ch.src;
    if (up != root && gr.links[up].size() == 1 && !gr.member(up)) leaves.push_back(up);
  }
}

// Switch-to-switch channels leaving the switches of t through mask ports.
template <typename Fn>
void for_tree_channels(const Fabric &f, const Tree &t, Fn &&fn) {
  for (const SwitchMask &m : t.masks)
    for (int p = 1; p <= f.sw(m.sw).num_ports; ++p)
      if (m.ports[p]) {
        const PortPeer pp = f.peer(m.sw, static_cast<uint8_t>(p));
        if (pp.kind == PortPeer::kSwitch) fn(pp.id);
      }
}

}  // namespace

std::unique_ptr<Router> Router::create(const Fabric &f, const Routing &r, const RouterOptions &o,
                                       std::string &err) {
  std::unique_ptr<Router> rt(new Router(f, r, o));
  check::Options co;
  co.collect_dependencies = true;
  co.name_cycle_paths = false;
  co.threads = o.threads;
  co.max_problems = 1;
  if (o.fixed_sl >= 0) {
    co.fixed_sl = o.fixed_sl;
    co.fixed_sl_mixed = true;
  }
  check::Result res = check::verify(f, r, co);
  if (!res.ok) {
    err = "the unicast tables fail their check (" + res.first_problem + ")";
    return nullptr;
  }
  const int32_t n = f.num_channels() * check::kDependencyVls;
  rt->dag_.reset(n);
  for (const auto &[a, b] : res.dependencies)
    rt->dag_.add_edge_unchecked(static_cast<int32_t>(a), static_cast<int32_t>(b));
  if (!rt->dag_.build_order()) {
    err = "the unicast dependency graph has a cycle";
    return nullptr;
  }
  rt->unicast_edges_ = rt->dag_.num_edges();
  rt->load_.assign(f.num_channels(), 0);
  rt->root_count_.assign(f.num_switches(), 0);
  return rt;
}

bool Router::take(uint64_t key) {
  auto it = refs_.find(key);
  if (it != refs_.end()) {
    ++it->second;
    return true;
  }
  bool added = false;
  if (!dag_.add_edge(key_from(key), key_to(key), &added)) return false;
  if (added) refs_.emplace(key, 1);
  return true;
}

void Router::release(uint64_t key) {
  auto it = refs_.find(key);
  if (it == refs_.end()) return;  // a unicast dependency: it stays
  if (--it->second > 0) return;
  refs_.erase(it);
  dag_.remove_edge(key_from(key), key_to(key));
}

std::vector<int32_t> Router::root_order(const Group &g, int max_roots) const {
  const int32_t S = f_.num_switches();
  std::vector<int32_t> members;
  for (int32_t t : g.terminals) members.push_back(f_.terminal(t).sw);
  for (int32_t s : g.switches) members.push_back(s);
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  std::vector<int32_t> ecc(S, 0), dist(S);
  std::vector<int64_t> sum(S, 0);
  std::vector<int32_t> queue;
  for (int32_t m : members) {
    std::fill(dist.begin(), dist.end(), -1);
    queue.assign(1, m);
    dist[m] = 0;
    for (size_t i = 0; i < queue.size(); ++i)
      for (int32_t c = f_.out_begin(queue[i]); c < f_.out_end(queue[i]); ++c) {
        const int32_t y = f_.channel(c).dst;
        if (dist[y] < 0) {
          dist[y] = dist[queue[i]] + 1;
          queue.push_back(y);
        }
      }
    for (int32_t s = 0; s < S; ++s) {
      ecc[s] = dist[s] < 0 ? INT32_MAX : std::max(ecc[s], dist[s]);
      sum[s] += dist[s];
    }
  }
  auto link_load = [&](int32_t s) {
    int64_t l = 0;
    for (int32_t c = f_.out_begin(s); c < f_.out_end(s); ++c) l += load_[c];
    return l;
  };
  std::vector<std::tuple<int32_t, int64_t, int32_t, int64_t, uint64_t, int32_t>> cand;
  for (int32_t s = 0; s < S; ++s)
    if (ecc[s] != INT32_MAX)
      cand.emplace_back(ecc[s], sum[s], root_count_[s], link_load(s), f_.sw(s).guid, s);
  const size_t k = std::min(cand.size(), static_cast<size_t>(std::max(1, max_roots)));
  std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(k), cand.end());
  std::vector<int32_t> out;
  for (size_t i = 0; i < k; ++i) out.push_back(std::get<5>(cand[i]));
  return out;
}

// Grows g's tree from root (steps 2 and 3 of trees.h). On success out holds
// the tree and deps the dependencies it took (reference-counted); on
// failure nothing stays taken.
bool Router::grow(const Group &g, int32_t root, Tree &out, std::vector<uint64_t> &deps,
                  std::string &why, int max_refused) {
  Growth gr(f_, r_, g);
  int32_t missing = 0;
  for (int32_t s = 0; s < f_.num_switches(); ++s) missing += gr.member(s) && s != root;
  gr.in_tree[root] = 1;
  std::vector<int32_t> depth(f_.num_switches(), 0), via(f_.num_switches(), -1);
  // (depth, trees on the link, GUID of the far switch, channel)
  using Cand = std::tuple<int32_t, int32_t, uint64_t, int32_t>;
  std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
  auto push_links = [&](int32_t u) {
    for (int32_t c = f_.out_begin(u); c < f_.out_end(u); ++c) {
      const int32_t w = f_.channel(c).dst;
      if (!gr.in_tree[w]) heap.emplace(depth[u] + 1, load_[c], f_.sw(w).guid, c);
    }
  };
  push_links(root);
  std::vector<uint64_t> taken;
  std::vector<int32_t> sw;
  int refused = 0;
  while (missing > 0 && !heap.empty() && refused <= max_refused) {
    const int32_t c = std::get<3>(heap.top());
    heap.pop();
    const int32_t u = f_.channel(c).src, w = f_.channel(c).dst;
    if (gr.in_tree[w]) continue;
    sw.clear();
    gr.around(u, sw);
    const std::vector<uint64_t> before = gr.deps_of(sw);
    gr.link(c, true);
    sw.push_back(w);
    const std::vector<uint64_t> after = gr.deps_of(sw);
    std::vector<uint64_t> fresh;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                        std::back_inserter(fresh));
    size_t ok = 0;
    while (ok < fresh.size() && take(fresh[ok])) ++ok;
    if (ok < fresh.size()) {  // this link would close a cycle: undo it
      for (size_t i = 0; i < ok; ++i) release(fresh[i]);
      gr.link(c, false);
      ++refused;
      continue;
    }
    taken.insert(taken.end(), fresh.begin(), fresh.end());
    depth[w] = depth[u] + 1;
    via[w] = c;
    missing -= gr.member(w);
    push_links(w);
  }
  if (missing > 0) {
    for (uint64_t k : taken) release(k);
    why = strprintf(
        "from root %s %d member switches stay out of reach (%d links refused: they "
        "would close a credit loop)",
        f_.describe(root).c_str(), missing, refused);
    return false;
  }
  prune(gr, root, via);
  // The final tree's dependencies are a subset of those taken.
  const std::vector<int32_t> all = gr.switches();
  const std::vector<uint64_t> keep = gr.deps_of(all);
  deps.clear();
  for (uint64_t k : taken)
    if (std::binary_search(keep.begin(), keep.end(), k))
      deps.push_back(k);
    else
      release(k);
  out = gr.tree(g.mlid, root, all);
  return true;
}

bool Router::build(const Group &g, Tree &out, std::string &err) {
  remove(g.mlid);
  out = Tree{};
  out.mlid = g.mlid;
  Growth probe(f_, r_, g);
  std::vector<int32_t> member_sw;
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    if (probe.member(s)) member_sw.push_back(s);
  if (member_sw.size() <= 1) {  // no switch-to-switch hop: nothing to depend on
    if (!member_sw.empty()) {
      SwitchMask m{member_sw[0], {}};
      for (uint8_t p : probe.own[member_sw[0]]) m.ports.set(p);
      out.root = member_sw[0];
      out.masks.push_back(m);
      ++root_count_[out.root];
    }
    trees_[g.mlid] = out;
    tree_deps_[g.mlid] = {};
    return true;
  }
  std::string master_why;
  const Tree *master = reserve_master(g.sl_mask, master_why);
  std::string why;
  std::vector<uint64_t> deps;
  bool ok = false;
  // With a master to fall back on, an own tree gets a budget of refused
  // links (each refusal costs a dynamic-DAG search): a group whose turns
  // conflict that much takes the master instead, at once.
  const int budget = master ? o_.max_refused : INT32_MAX;
  for (int32_t root : root_order(g, o_.max_roots))
    if ((ok = grow(g, root, out, deps, why, budget))) break;
  last_from_master_ = false;
  if (!ok && master && prune_master(g, *master, out, deps)) {
    ok = last_from_master_ = true;
    ++master_fallbacks_;
  }
  if (!ok) {
    err = describe(g) + ": no tree keeps the dependency graph acyclic with the unicast routes (" +
          why + (master ? "" : "; no master tree either: " + master_why) + ")";
    out.masks.clear();
    return false;
  }
  for_tree_channels(f_, out, [&](int32_t c) { ++load_[c]; });
  ++root_count_[out.root];
  trees_[g.mlid] = out;
  tree_deps_[g.mlid] = std::move(deps);
  return true;
}

const Tree *Router::master(uint16_t sl_mask) const {
  auto it = masters_.find(sl_mask);
  return it == masters_.end() || it->second.masks.empty() ? nullptr : &it->second;
}

// Whether every dependency of the min-depth spanning tree from root (the
// one Nue's escape paths use: core/graph/spanning_tree.h) fits; then it is
// the master, out and deps hold it (taken).
bool Router::take_bfs_tree(const Group &all, int32_t root, Tree &out, std::vector<uint64_t> &deps) {
  std::vector<int32_t> parent(f_.num_switches(), -1);
  if (graph::min_depth_spanning_tree(graph::switch_graph(f_), root, {}, parent) !=
      f_.num_switches())
    return false;
  Growth gr(f_, r_, all);
  gr.in_tree[root] = 1;
  for (int32_t s = 0; s < f_.num_switches(); ++s)
    if (parent[s] >= 0) gr.link(parent[s], true);
  std::vector<int32_t> sw(f_.num_switches());
  for (int32_t s = 0; s < f_.num_switches(); ++s) sw[s] = s;
  deps = gr.deps_of(sw);
  for (size_t i = 0; i < deps.size(); ++i)
    if (!take(deps[i])) {
      for (size_t j = 0; j < i; ++j) release(deps[j]);
      return false;
    }
  out = gr.tree(0, root, sw);
  return true;
}

// The master tree of an SL set (step 4 of trees.h), made once; its
// dependencies stay taken. First the min-depth spanning trees from the best
// roots as they are (they match an engine's escape tree when the roots
// agree), then the DAG-guided growth.
const Tree *Router::reserve_master(uint16_t sl_mask, std::string &why) {
  auto it = masters_.find(sl_mask);
  if (it == masters_.end()) {
    Group all;
    all.sl_mask = sl_mask;
    all.terminals.resize(f_.num_terminals());
    for (int32_t t = 0; t < f_.num_terminals(); ++t) all.terminals[t] = t;
    for (int32_t s = 0; s < f_.num_switches(); ++s) all.switches.push_back(s);
    Tree t;
    std::vector<uint64_t> deps;
    bool ok = false;
    std::string w;
    std::vector<int32_t> roots = o_.hint_roots;
    for (int32_t r : root_order(all, o_.max_master_roots))
      if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
    for (int32_t root : roots)
      if ((ok = take_bfs_tree(all, root, t, deps))) break;
    for (size_t i = 0; i < roots.size() && !ok; ++i)
      ok = grow(all, roots[i], t, deps, w, INT32_MAX);
    if (!ok) t.masks.clear();  // its dependencies were released
    it = masters_.emplace(sl_mask, std::move(t)).first;
    master_why_[sl_mask] = ok ? "" : w;
  }
  why = master_why_[sl_mask];
  return master(sl_mask);
}

// g's tree as the master tree pruned to g's members: only the master's
// switch links and g's own ports; its dependencies are the master's (taken
// again, for the reference counts).
bool Router::prune_master(const Group &g, const Tree &master, Tree &out,
                          std::vector<uint64_t> &deps) {
  Growth gr(f_, r_, g);
  std::vector<int32_t> via(f_.num_switches(), -1);
  // Walk the master from its root to know each switch's parent link.
  std::vector<int32_t> order{master.root};
  gr.in_tree[master.root] = 1;
  for (size_t i = 0; i < order.size(); ++i) {
    const int32_t u = order[i];
    const PortMask *m = master.mask_of(u);
    for (int p = 1; m && p <= f_.sw(u).num_ports; ++p) {
      if (!(*m)[p]) continue;
      const PortPeer pp = f_.peer(u, static_cast<uint8_t>(p));
      if (pp.kind != PortPeer::kSwitch || gr.in_tree[f_.channel(pp.id).dst]) continue;
      gr.link(pp.id, true);
      via[f_.channel(pp.id).dst] = pp.id;
      order.push_back(f_.channel(pp.id).dst);
    }
  }
  prune(gr, master.root, via);
  // A root that is no member and has one link left goes too.
  int32_t root = master.root;
  while (!gr.member(root) && gr.links[root].size() == 1) {
    const int32_t c = f_.peer(root, gr.links[root][0]).id;
    const int32_t next = f_.channel(c).dst;
    gr.links[root].clear();
    gr.links[next].erase(
        std::find(gr.links[next].begin(), gr.links[next].end(), f_.channel(c).dst_port));
    gr.in_tree[root] = 0;
    root = next;
  }
  const std::vector<int32_t> all = gr.switches();
  deps = gr.deps_of(all);
  for (size_t i = 0; i < deps.size(); ++i)
    if (!take(deps[i])) {  // cannot happen: a subset of the master's
      for (size_t j = 0; j < i; ++j) release(deps[j]);
      return false;
    }
  out = gr.tree(g.mlid, root, all);
  return true;
}

void Router::remove(uint16_t mlid) {
  auto it = trees_.find(mlid);
  if (it == trees_.end()) return;
  for_tree_channels(f_, it->second, [&](int32_t c) { --load_[c]; });
  if (it->second.root >= 0) --root_count_[it->second.root];
  for (uint64_t k : tree_deps_[mlid]) release(k);
  tree_deps_.erase(mlid);
  trees_.erase(it);
}

std::vector<uint16_t> Router::mlids() const {
  std::vector<uint16_t> v;
  for (const auto &[m, t] : trees_) v.push_back(m);
  return v;
}

const Tree *Router::tree(uint16_t mlid) const {
  auto it = trees_.find(mlid);
  return it == trees_.end() ? nullptr : &it->second;
}

bool Router::acyclic() const {
  const int32_t n = dag_.num_nodes();
  std::vector<uint8_t> color(n, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<int32_t, size_t>> stack;
  for (int32_t s = 0; s < n; ++s) {
    if (color[s] || dag_.successors(s).empty()) continue;
    stack.emplace_back(s, 0);
    color[s] = 1;
    while (!stack.empty()) {
      auto &[x, i] = stack.back();
      const std::vector<int32_t> &succ = dag_.successors(x);
      if (i == succ.size()) {
        color[x] = 2;
        stack.pop_back();
        continue;
      }
      const int32_t y = succ[i++];
      if (color[y] == 1) return false;
      if (color[y] == 0) {
        color[y] = 1;
        stack.emplace_back(y, 0);
      }
    }
  }
  return true;
}

std::vector<uint64_t> tree_dependency_keys(const Fabric &f, const Routing &r, const Tree &t,
                                           const Group &g) {
  Growth gr(f, r, g);
  std::vector<int32_t> all;
  for (const SwitchMask &m : t.masks) {
    all.push_back(m.sw);
    gr.in_tree[m.sw] = 1;
    for (int p = 1; p <= f.sw(m.sw).num_ports; ++p)
      if (m.ports[p] && f.peer(m.sw, static_cast<uint8_t>(p)).kind == PortPeer::kSwitch)
        gr.links[m.sw].push_back(static_cast<uint8_t>(p));
  }
  return gr.deps_of(all);
}

}  // namespace keiro::mcast
