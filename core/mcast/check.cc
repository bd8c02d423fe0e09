// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/mcast/check.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_set>

#include "core/log.h"

namespace keiro::mcast {

namespace {

// One copy in flight: it entered switch sw on port in (over channel, on vl;
// channel -1 at the source's own switch).
struct Copy {
  int32_t sw;
  uint8_t in;
  int32_t channel;
  uint8_t vl;
  int hops;
};

// The copies one class of sources delivers to the ports of one kind (end
// ports or switches' port 0), per port id: count(i) copies this round
// (stamp), reached the ids with at least one, in order of arrival.
class Deliveries {
 public:
  void reset(int32_t n) {
    got_.assign(n, 0);
    count_.assign(n, 0);
  }
  void new_round() { reached.clear(); }
  void deliver(int32_t i, uint32_t stamp) {
    if (got_[i] != stamp) {
      got_[i] = stamp;
      count_[i] = 0;
      reached.push_back(i);
    }
    ++count_[i];
  }
  int64_t count(int32_t i, uint32_t stamp) const { return got_[i] == stamp ? count_[i] : 0; }
  std::vector<int32_t> reached;

 private:
  std::vector<uint32_t> got_;
  std::vector<int64_t> count_;
};

class Flooder {
 public:
  Flooder(const Fabric &f, const Routing &r, const Group &g, const Tree &t, const FloodOptions &o,
          std::vector<check::ExtraDependency> *deps)
      : f_(f), r_(r), g_(g), t_(t), o_(o), deps_(deps) {}

  GroupVerdict run() {
    v_.mlid = g_.mlid;
    v_.switches = static_cast<int64_t>(t_.masks.size());
    collect_members();
    seen_.assign(f_.num_channels(), 0);
    terms_.reset(f_.num_terminals());
    sws_.reset(f_.num_switches());
    for (int sl = 0; sl < kNumSls; ++sl)
      if (g_.sl_mask >> sl & 1) flood_sl(static_cast<uint8_t>(sl));
    v_.ok =
        !v_.loop && v_.unreached == 0 && v_.duplicates == 0 && v_.non_members == 0 && v_.drops == 0;
    return v_;
  }

 private:
  void problem(const std::string &s) {
    if (v_.problem.empty()) v_.problem = describe(g_) + ": " + s;
  }

  // Members: the group's, or (not known) what the masks show.
  void collect_members() {
    is_member_term_.assign(f_.num_terminals(), 0);
    is_member_sw_.assign(f_.num_switches(), 0);
    if (o_.members_known) {
      for (int32_t t : g_.terminals) is_member_term_[t] = 1;
      for (int32_t s : g_.switches) is_member_sw_[s] = 1;
    } else {
      for (const SwitchMask &m : t_.masks) {
        if (m.ports[0]) is_member_sw_[m.sw] = 1;
        for (int32_t t : f_.terminals_of(m.sw))
          if (m.ports[f_.terminal(t).sw_port]) is_member_term_[t] = 1;
      }
    }
    by_switch_.clear();
    member_terms_.clear();
    member_sws_.clear();
    for (int32_t t = 0; t < f_.num_terminals(); ++t)
      if (is_member_term_[t]) {
        by_switch_[f_.terminal(t).sw].push_back(f_.terminal(t).sw_port);
        member_terms_.push_back(t);
      }
    for (int32_t s = 0; s < f_.num_switches(); ++s)
      if (is_member_sw_[s]) {
        by_switch_[s].push_back(0);
        member_sws_.push_back(s);
      }
    members_ = 0;
    for (const auto &[s, ports] : by_switch_) members_ += static_cast<int64_t>(ports.size());
  }

  void flood_sl(uint8_t sl) {
    for (const auto &[s, ports] : by_switch_) {
      // Sources whose in ports map the SL alike onto every switch port of
      // the mask share the flood beyond their switch.
      std::map<std::vector<uint8_t>, std::vector<uint8_t>> classes;
      const PortMask *m = t_.mask_of(s);
      for (uint8_t in : ports) {
        std::vector<uint8_t> sig;
        if (m)
          for (int o = 1; o <= f_.sw(s).num_ports; ++o)
            if ((*m)[o] && f_.peer(s, static_cast<uint8_t>(o)).kind == PortPeer::kSwitch)
              sig.push_back(r_.vl(s, in, static_cast<uint8_t>(o), sl));
        classes[sig].push_back(in);
      }
      for (const auto &[sig, ins] : classes) flood_class(s, ins, sl);
    }
  }

  // The copies of one class of sources on switch s beyond s, then what
  // each source delivers at s itself.
  void flood_class(int32_t s, const std::vector<uint8_t> &ins, uint8_t sl) {
    ++stamp_;
    terms_.new_round();
    sws_.new_round();
    const uint8_t in0 = ins.front();
    if (source_drops(s, in0, sl)) return;
    std::vector<Copy> queue;
    forward(Copy{s, in0, -1, 0, 0}, sl, queue, /*beyond_only=*/true);
    for (size_t i = 0; i < queue.size(); ++i) {
      const Copy c = queue[i];  // forward() appends to the queue
      forward(c, sl, queue, false);
    }
    // Ports elsewhere: one copy each from every source of the class.
    const auto k = static_cast<int64_t>(ins.size());
    int64_t reached = 0;
    for (int32_t t : terms_.reached) {
      if (f_.terminal(t).sw == s) continue;
      reached += is_member_term_[t] != 0;
      tally(terms_.count(t, stamp_), is_member_term_[t] != 0, k,
            [&] { return "'" + f_.terminal(t).name + "'"; });
    }
    for (int32_t x : sws_.reached) {
      if (x == s) continue;
      reached += is_member_sw_[x] != 0;
      tally(sws_.count(x, stamp_), is_member_sw_[x] != 0, k,
            [&] { return "switch " + f_.describe(x); });
    }
    if (reached < members_ - own_members(s)) report_unreached(s, k);
    for (uint8_t in : ins) at_own_switch(s, in, sl);
  }

  int64_t own_members(int32_t s) const {
    auto it = by_switch_.find(s);
    return it == by_switch_.end() ? 0 : static_cast<int64_t>(it->second.size());
  }

  // Members on other switches than s that no copy reached.
  void report_unreached(int32_t s, int64_t k) {
    for (int32_t t : member_terms_)
      if (f_.terminal(t).sw != s && !terms_.count(t, stamp_))
        tally(0, true, k, [&] { return "'" + f_.terminal(t).name + "'"; });
    for (int32_t x : member_sws_)
      if (x != s && !sws_.count(x, stamp_))
        tally(0, true, k, [&] { return "switch " + f_.describe(x); });
  }

  // A CA source whose own SL2VL drops the SL sends nothing.
  bool source_drops(int32_t s, uint8_t in, uint8_t sl) {
    if (in == 0) return false;
    const PortPeer p = f_.peer(s, in);
    if (p.kind != PortPeer::kTerminal || r_.terminal_vl(p.id, sl) != kDropVl) return false;
    ++v_.drops;
    problem(strprintf("'%s' maps SL %u to VL 15: it cannot send to the group",
                      f_.terminal(p.id).name.c_str(), sl));
    return true;
  }

  template <typename Name>
  void tally(int64_t got, bool member, int64_t k, Name name) {
    if (member && got == 0) {
      v_.unreached += k;
      problem(name() + " gets no copy");
    } else if (member && got > 1) {
      v_.duplicates += k;
      problem(name() + " gets " + std::to_string(got) + " copies of one packet");
    } else if (!member && got > 0 && o_.members_known) {
      v_.non_members += k;
      problem(name() + " is not a member but gets copies");
    }
  }

  // What a source entering s on port in delivers at s itself (copies that
  // come back to s through a loop are the loop's matter).
  void at_own_switch(int32_t s, uint8_t in, uint8_t sl) {
    const PortMask *m = t_.mask_of(s);
    for (int32_t t : f_.terminals_of(s)) {
      const uint8_t p = f_.terminal(t).sw_port;
      if (p == in) continue;
      const bool sent = m && (*m)[p] && r_.vl(s, in, p, sl) != kDropVl;
      const int64_t got = (sent ? 1 : 0) + terms_.count(t, stamp_);
      tally(got, is_member_term_[t] != 0, 1, [&] { return "'" + f_.terminal(t).name + "'"; });
    }
    if (in != 0) {
      const bool sent = m && (*m)[0];
      const int64_t got = (sent ? 1 : 0) + sws_.count(s, stamp_);
      tally(got, is_member_sw_[s] != 0, 1, [&] { return "switch " + f_.describe(s); });
    }
  }

  void forward(const Copy &c, uint8_t sl, std::vector<Copy> &queue, bool beyond_only) {
    const PortMask *m = t_.mask_of(c.sw);
    if (!m) {  // the switch has no entry for the MLID and drops the packet
      ++v_.drops;
      problem("switch " + f_.describe(c.sw) +
              (c.channel < 0 ? " has no entry for the MLID: its members' packets go nowhere"
                             : " has no entry for the MLID but gets copies"));
      return;
    }
    v_.depth = std::max(v_.depth, c.hops);
    for (int o = 0; o <= f_.sw(c.sw).num_ports; ++o) {
      if (!(*m)[o] || o == c.in) continue;
      const auto op = static_cast<uint8_t>(o);
      if (o == 0) {
        if (!beyond_only) sws_.deliver(c.sw, stamp_);
        continue;
      }
      const PortPeer p = f_.peer(c.sw, op);
      if (p.kind == PortPeer::kTerminal && beyond_only) continue;
      const uint8_t vl = r_.vl(c.sw, c.in, op, sl);
      if (p.kind == PortPeer::kNone || vl == kDropVl) {
        ++v_.drops;
        problem(strprintf("switch %s port %d %s", f_.describe(c.sw).c_str(), o,
                          p.kind == PortPeer::kNone
                              ? "has nothing behind it"
                              : strprintf("maps SL %u to VL 15", sl).c_str()));
        continue;
      }
      if (p.kind == PortPeer::kTerminal) {
        if (vl >= f_.terminal(p.id).vls) drop_vl(c.sw, o, vl);
        terms_.deliver(p.id, stamp_);
        continue;
      }
      const Channel &ch = f_.channel(p.id);
      if (vl >= ch.vls) drop_vl(c.sw, o, vl);
      if (c.channel >= 0) add_dep(c.channel, c.vl, p.id, vl);
      if (seen_[p.id] == stamp_) {
        if (!v_.loop)
          problem(strprintf("forwarding loop: copies come back to switch %s port %d",
                            f_.describe(c.sw).c_str(), o));
        v_.loop = true;
        continue;
      }
      seen_[p.id] = stamp_;
      queue.push_back(Copy{ch.dst, ch.dst_port, p.id, vl, c.hops + 1});
    }
  }

  void drop_vl(int32_t s, int port, uint8_t vl) {
    ++v_.drops;
    problem(strprintf("switch %s port %d sends on VL %u, beyond the link's VLs",
                      f_.describe(s).c_str(), port, vl));
  }

  void add_dep(int32_t c, uint8_t v, int32_t c2, uint8_t v2) {
    if (!deps_) return;
    const uint64_t key = static_cast<uint64_t>(check::dependency_node(c, v)) << 32 |
                         static_cast<uint64_t>(check::dependency_node(c2, v2));
    if (dep_keys_.insert(key).second)
      deps_->push_back(check::ExtraDependency{c, c2, v, v2, o_.label});
  }

  const Fabric &f_;
  const Routing &r_;
  const Group &g_;
  const Tree &t_;
  const FloodOptions &o_;
  std::vector<check::ExtraDependency> *deps_;
  GroupVerdict v_;
  std::vector<uint8_t> is_member_term_, is_member_sw_;
  std::map<int32_t, std::vector<uint8_t>> by_switch_;  // member switch -> in ports of its sources
  int64_t members_ = 0;
  uint32_t stamp_ = 0;
  std::vector<uint32_t> seen_;
  Deliveries terms_, sws_;
  std::vector<int32_t> member_terms_, member_sws_;
  std::unordered_set<uint64_t> dep_keys_;
};

}  // namespace

GroupVerdict flood(const Fabric &f, const Routing &r, const Group &g, const Tree &t,
                   const FloodOptions &o, std::vector<check::ExtraDependency> *deps) {
  return Flooder(f, r, g, t, o, deps).run();
}

Group group_of_masks(const Fabric &f, const Tree &t) {
  Group g;
  g.mlid = t.mlid;
  for (const SwitchMask &m : t.masks) {
    if (m.ports[0]) g.switches.push_back(m.sw);
    for (int32_t x : f.terminals_of(m.sw))
      if (m.ports[f.terminal(x).sw_port]) g.terminals.push_back(x);
  }
  std::sort(g.terminals.begin(), g.terminals.end());
  return g;
}

namespace {

void add_verdict(Result &res, const GroupVerdict &v, int max_problems) {
  ++res.groups;
  res.groups_ok += v.ok;
  res.loops += v.loop;
  res.unreached += v.unreached;
  res.duplicates += v.duplicates;
  res.non_members += v.non_members;
  res.drops += v.drops;
  if (!v.problem.empty() && static_cast<int>(res.problems.size()) < max_problems)
    res.problems.push_back(v.problem);
  res.verdicts.push_back(v);
}

}  // namespace

Result verify(const Fabric &f, const Routing &r, const std::vector<Group> &groups,
              const std::vector<Tree> &trees, const Options &o) {
  Result res;
  std::vector<check::ExtraDependency> deps;
  std::vector<std::string> labels;
  std::map<uint16_t, const Tree *> tree_of;
  for (const Tree &t : trees) tree_of[t.mlid] = &t;
  std::map<uint16_t, bool> has_group;
  const Tree empty;
  for (const Group &g : groups) {
    has_group[g.mlid] = true;
    auto it = tree_of.find(g.mlid);
    Tree none = empty;
    none.mlid = g.mlid;
    const Tree &t = it != tree_of.end() ? *it->second : none;
    std::string sls;
    for (int sl = 0; sl < kNumSls; ++sl)
      if (g.sl_mask >> sl & 1) sls += (sls.empty() ? "" : ",") + std::to_string(sl);
    labels.push_back("multicast " + describe(g) + " SL " + sls);
    FloodOptions fo{o.members_known, static_cast<int32_t>(labels.size() - 1)};
    add_verdict(res, flood(f, r, g, t, fo, &deps), o.max_problems);
  }
  for (const Tree &t : trees) {
    if (has_group.count(t.mlid)) continue;
    const Group g = group_of_masks(f, t);
    labels.push_back("multicast " + describe(g) + " SL 0 (no group record: SL 0 assumed)");
    FloodOptions fo{false, static_cast<int32_t>(labels.size() - 1)};
    add_verdict(res, flood(f, r, g, t, fo, &deps), o.max_problems);
  }
  res.dependencies = static_cast<int64_t>(deps.size());
  check::Options u = o.unicast;
  u.extra_deps = &deps;
  u.extra_labels = &labels;
  res.combined = check::verify(f, r, u);
  res.ok = res.combined.ok && res.groups_ok == res.groups;
  return res;
}

TreeStats tree_stats(const Fabric &f, const std::vector<Tree> &trees,
                     const std::vector<GroupVerdict> &verdicts) {
  TreeStats st;
  std::vector<int64_t> per_link(f.num_channels(), 0);
  std::vector<char> root_seen(f.num_switches(), 0);
  for (const Tree &t : trees) {
    if (t.masks.empty()) continue;
    ++st.trees;
    st.switches += static_cast<int64_t>(t.masks.size());
    if (t.root >= 0 && !root_seen[t.root]) {
      root_seen[t.root] = 1;
      ++st.roots;
    }
    for (const SwitchMask &m : t.masks)
      for (int p = 1; p <= f.sw(m.sw).num_ports; ++p) {
        if (!m.ports[p]) continue;
        const PortPeer pp = f.peer(m.sw, static_cast<uint8_t>(p));
        if (pp.kind != PortPeer::kSwitch) continue;
        const int32_t c = std::min(pp.id, f.channel(pp.id).reverse);  // one count per link
        if (pp.id == c) ++per_link[c];
      }
  }
  for (int64_t n : per_link) {
    st.links_used += n > 0;
    st.max_trees_per_link = std::max(st.max_trees_per_link, n);
  }
  for (const GroupVerdict &v : verdicts) st.max_depth = std::max(st.max_depth, v.depth);
  return st;
}

std::string json_string(const TreeStats &s, const Result &r) {
  std::string per;
  for (const GroupVerdict &v : r.verdicts) {
    std::string prob;
    for (char ch : v.problem) {
      if (ch == '"' || ch == '\\') prob += '\\';
      prob += ch;
    }
    per += strprintf(
        "%s{\"mlid\": \"0x%04X\", \"ok\": %s, \"loop\": %s, \"depth\": %d, "
        "\"problem\": \"%s\"}",
        per.empty() ? "" : ", ", v.mlid, v.ok ? "true" : "false", v.loop ? "true" : "false",
        v.depth, prob.c_str());
  }
  return strprintf(
      "{\"groups\": %lld, \"groups_ok\": %lld, \"loops\": %lld, \"unreached\": %lld, "
      "\"duplicates\": %lld, \"non_members\": %lld, \"drops\": %lld, \"dependencies\": %lld, "
      "\"credit_loop\": %s, \"cycle_uses_multicast\": %s, \"ok\": %s, \"trees\": %lld, "
      "\"max_depth\": %d, \"links_used\": %lld, \"max_trees_per_link\": %lld, \"roots\": %lld, "
      "\"group_verdicts\": [%s]}",
      static_cast<long long>(r.groups), static_cast<long long>(r.groups_ok),
      static_cast<long long>(r.loops), static_cast<long long>(r.unreached),
      static_cast<long long>(r.duplicates), static_cast<long long>(r.non_members),
      static_cast<long long>(r.drops), static_cast<long long>(r.dependencies),
      r.combined.credit_loop ? "true" : "false", r.combined.cycle_uses_extra ? "true" : "false",
      r.ok ? "true" : "false", static_cast<long long>(s.trees), s.max_depth,
      static_cast<long long>(s.links_used), static_cast<long long>(s.max_trees_per_link),
      static_cast<long long>(s.roots), per.c_str());
}

}  // namespace keiro::mcast
