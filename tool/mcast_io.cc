// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tool/mcast_io.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>

#include "core/io/mcast_dump.h"
#include "core/log.h"
#include "core/mcast/trees.h"
#include "core/pipeline/settings.h"

namespace keiro::tool {

namespace {

bool exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

void groups_from_masks(const Fabric &f, const std::vector<mcast::Tree> &trees, int sl,
                       std::vector<mcast::Group> &groups) {
  groups.clear();
  for (const mcast::Tree &t : trees) {
    groups.push_back(mcast::group_of_masks(f, t));
    groups.back().sl_mask = static_cast<uint16_t>(1u << sl);
  }
}

bool load_mcast_dir(const std::string &dir, const Fabric &f, int sl, McastInput &out,
                    std::string &err) {
  const std::string fdbs = dir + "/" + io::kMcfdbsFileName;
  const std::string sa = dir + "/" + io::kSaDumpFileName;
  if (!exists(fdbs)) return true;
  out.present = true;
  io::McastReadReport rep;
  std::ifstream in(fdbs);
  if (!in || !io::read_mcfdbs(in, fdbs, f, out.trees, rep, err)) {
    if (err.empty()) err = "cannot read " + fdbs;
    return false;
  }
  if (rep.unknown_switches)
    out.notes.push_back(strprintf("%s: %d switches the fabric does not have were skipped",
                                  fdbs.c_str(), rep.unknown_switches));
  if (exists(sa)) {
    std::ifstream s(sa);
    io::McastReadReport srep;
    if (!s || !io::read_sa_groups(s, sa, f, out.groups, srep, err)) {
      if (err.empty()) err = "cannot read " + sa;
      return false;
    }
    out.members_known = true;
    if (srep.unknown_ports)
      out.notes.push_back(strprintf("%s: %d member ports the fabric does not have were skipped",
                                    sa.c_str(), srep.unknown_ports));
    return true;
  }
  groups_from_masks(f, out.trees, sl, out.groups);
  out.notes.push_back(strprintf(
      "no %s: the members of each MLID are the ports its masks show, on SL %d (--mcast-sl); "
      "non-members cannot be told (OpenSM writes the file with sa_db_dump TRUE)",
      io::kSaDumpFileName, sl));
  return true;
}

bool read_mcast_groups(const std::string &spec, const Fabric &f, int sl,
                       std::vector<mcast::Group> &out, std::string &err) {
  out.clear();
  unsigned extra = 0, seed = 1;
  if (spec == "broadcast" || std::sscanf(spec.c_str(), "broadcast+%u:%u", &extra, &seed) >= 1) {
    mcast::Group g;
    g.mlid = mcast::kFirstMlid;
    g.sl_mask = static_cast<uint16_t>(1u << sl);
    g.name = "every CA port";
    for (int32_t t = 0; t < f.num_terminals(); ++t) g.terminals.push_back(t);
    out.push_back(g);
    std::mt19937_64 rng(seed);
    for (unsigned i = 0; i < extra && i < 1000; ++i) {
      std::vector<int32_t> all = out[0].terminals;
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(std::min<size_t>(all.size(), 8 + rng() % 9));
      std::sort(all.begin(), all.end());
      g.mlid = static_cast<uint16_t>(mcast::kFirstMlid + 1 + i);
      g.name = strprintf("group %u of 8-16 CA ports, seed %u", i + 1, seed);
      g.terminals = std::move(all);
      out.push_back(g);
    }
    return true;
  }
  std::ifstream in(spec);
  io::McastReadReport rep;
  if (!in) {
    err = "cannot read " + spec;
    return false;
  }
  return io::read_sa_groups(in, spec, f, out, rep, err);
}

int route_mcast(const Fabric &f, const Routing &r, const Options &opt, const std::string &spec,
                const std::vector<int32_t> &hint_roots, McastInput &out, mcast::Result &res,
                std::string &err) {
  const pipeline::Settings settings = pipeline::read_settings(opt);
  const int sl = settings.mcast_sl;
  if (!read_mcast_groups(spec, f, sl, out.groups, err)) return 2;
  out.present = out.members_known = true;
  const mcast::RouterOptions ro = pipeline::router_options(settings, hint_roots);
  auto router = mcast::Router::create(f, r, ro, err);
  if (!router) return 1;
  std::string failed;
  for (const mcast::Group &g : out.groups) {
    mcast::Tree t;
    std::string why;
    if (!router->build(g, t, why)) failed += (failed.empty() ? "" : "; ") + why;
    out.trees.push_back(std::move(t));
  }
  mcast::Options mo;
  mo.unicast.threads = ro.threads;
  if (ro.fixed_sl >= 0) {
    mo.unicast.fixed_sl = ro.fixed_sl;
    mo.unicast.fixed_sl_mixed = true;
  }
  res = mcast::verify(f, r, out.groups, out.trees, mo);
  if (router->master_fallbacks())
    out.notes.push_back(strprintf("%lld groups took the pruned master tree",
                                  static_cast<long long>(router->master_fallbacks())));
  if (!failed.empty()) {
    err = "multicast: " + failed;
    return 1;
  }
  if (!res.ok) {
    err = "multicast check failed: " +
          (res.problems.empty() ? res.combined.first_problem : res.problems.front());
    return 1;
  }
  return 0;
}

bool write_mcast_dir(const std::string &dir, const Fabric &f, const McastInput &in,
                     std::string &err) {
  const std::string fdbs = dir + "/" + io::kMcfdbsFileName, sa = dir + "/" + io::kSaDumpFileName;
  std::ofstream a(fdbs);
  io::write_mcfdbs(a, f, in.trees);
  if (!a) {
    err = "cannot write " + fdbs;
    return false;
  }
  if (!in.members_known) return true;  // no SA records to write
  std::ofstream b(sa);
  io::write_sa_groups(b, f, in.groups);
  if (!b) {
    err = "cannot write " + sa;
    return false;
  }
  return true;
}

std::string mcast_text(const Fabric &f, const McastInput &in, const mcast::Result &r) {
  const mcast::TreeStats st = mcast::tree_stats(f, in.trees, r.verdicts);
  std::string o;
  auto row = [&](const char *k, const std::string &v) {
    o += strprintf("  %-15s %s\n", k, v.c_str());
  };
  row("multicast",
      strprintf("%lld groups (%s), %lld loop free and reaching every member once",
                static_cast<long long>(r.groups),
                in.members_known ? "members from the SA's records" : "members from the masks",
                static_cast<long long>(r.groups_ok)));
  row("mcast trees",
      strprintf("%lld trees on %lld (tree, switch) entries, %lld roots, depth up to %d, %lld "
                "links used, busiest link in %lld trees",
                static_cast<long long>(st.trees), static_cast<long long>(st.switches),
                static_cast<long long>(st.roots), st.max_depth,
                static_cast<long long>(st.links_used),
                static_cast<long long>(st.max_trees_per_link)));
  row("mcast faults",
      strprintf("%lld forwarding loops, %lld unreached, %lld duplicates, %lld non-members, "
                "%lld drops",
                static_cast<long long>(r.loops), static_cast<long long>(r.unreached),
                static_cast<long long>(r.duplicates), static_cast<long long>(r.non_members),
                static_cast<long long>(r.drops)));
  row("mcast deps", strprintf("%lld multicast dependencies checked with the unicast ones%s",
                              static_cast<long long>(r.dependencies),
                              r.combined.cycle_uses_extra ? " (the credit loop needs them)" : ""));
  if (!r.problems.empty()) {
    o += "multicast problems:\n";
    for (const std::string &p : r.problems) o += "  " + p + "\n";
  }
  return o;
}

}  // namespace keiro::tool
