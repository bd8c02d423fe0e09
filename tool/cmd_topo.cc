// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro topo: writes generated fabrics as ibsim net files (core/topo/).
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/hdn.h"
#include "tool/args.h"
#include "tool/command.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro topo FAMILY PARAMETERS [options]\n"
    "families:\n"
    "  random N d            random d-regular graph of N switches (connected)\n"
    "  lrt N d r             layout-conscious random topology on a sqrt(N) x sqrt(N) grid,\n"
    "                        degree d, links at Manhattan distance <= r (+ layout file)\n"
    "  torus KxKx..          k-ary n-dimensional torus (size-2 dimensions: parallel links)\n"
    "  mesh KxKx..           k-ary n-dimensional mesh\n"
    "  fattree k n           k-ary n-tree, HCAs on the leaves\n"
    "  dragonfly a p h g     g groups of a routers, p HCAs and h global links per router\n"
    "  kautz d k             Kautz graph, strings of length k over d+1 symbols\n"
    "  hdn --base 2x3x5 --k K --S s1[,s2..]\n"
    "                        hierarchical dual-net; s_i a size or rings like r0+r1\n"
    "options:\n"
    "  --hcas-per-switch h   HCAs per switch (fattree: per leaf; default 1, fattree k,\n"
    "                        dragonfly p)\n"
    "  --seed s              seed of the random choices (default 1)\n"
    "  --fail-links f        remove round(f * links) switch-to-switch links, keeping the\n"
    "                        fabric connected; the removed links are listed\n"
    "  --redundancy r        r parallel links for every switch-to-switch link\n"
    "  --radix 36|48         switch port count (default 36)\n"
    "  -o FILE               write the net file there (default: standard output)\n"
    "  --layout FILE         lrt: layout file (default: FILE with .layout instead of .net)\n"
    "\n"
    "usage: keiro topo show FILE [--lmc L]\n"
    "  reads an ibsim net file, ibnetdiscover output or opensm-subnet.lst and prints\n"
    "  its switches, links and end ports with GUIDs and LIDs (missing LIDs given as\n"
    "  OpenSM would), one per line, sorted: two files of one fabric print the same.\n";

const char *kShowUsage = "usage: keiro topo show FILE [--lmc L]";

// "KxKx.." as dimension sizes; false after printing why.
bool dims_of(const std::string &s, std::vector<int> &d) {
  size_t b = 0;
  for (;;) {
    const size_t e = s.find('x', b);
    long v = 0;
    if (!to_int(s.substr(b, e - b), INT_MIN, INT_MAX, v)) {
      usage_error("topo", "KxKx.. needs integer sizes, not '" + s + "'");
      return false;
    }
    d.push_back(static_cast<int>(v));
    if (e == std::string::npos) return true;
    b = e + 1;
  }
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// keiro topo show: a canonical listing of a topology file.
int run_show(const std::vector<std::string> &args) {
  std::string path;
  io::TopologyReadOptions opt;
  for (ArgWalker w("topo", args, 1); w.next();) {
    if (w.arg() == "--lmc") {
      if (!w.int_value(0, 7, opt.lmc)) return 2;
    } else if (path.empty() && !w.is_option()) {
      path = w.arg();
    } else {
      return w.unknown(std::string(kShowUsage) + "\n");
    }
  }
  if (path.empty()) return usage_error("topo", kShowUsage);
  Fabric f;
  std::string err;
  if (!io::read_topology(path, f, err, opt)) {
    std::fprintf(stderr, "keiro topo: %s\n", err.c_str());
    return 1;
  }
  std::vector<std::string> lines;
  for (int s = 0; s < f.num_switches(); ++s)
    lines.push_back("switch " + hex(f.sw(s).guid) + " lid " + std::to_string(f.sw(s).lid) +
                    " ports " + std::to_string(f.sw(s).num_ports) + " \"" + f.sw(s).name + "\"");
  for (int c = 0; c < f.num_channels(); ++c) {
    const Channel &ch = f.channel(c);
    const uint64_t a = f.sw(ch.src).guid, b = f.sw(ch.dst).guid;
    if (a > b || (a == b && ch.src_port > ch.dst_port)) continue;
    lines.push_back("link " + hex(a) + "[" + std::to_string(ch.src_port) + "] " + hex(b) + "[" +
                    std::to_string(ch.dst_port) + "]");
  }
  for (int t = 0; t < f.num_terminals(); ++t) {
    const TerminalInfo &ti = f.terminal(t);
    lines.push_back(std::string(ti.router ? "router " : "ca ") + hex(ti.port_guid) + " node " +
                    hex(ti.node_guid) + " port " + std::to_string(ti.port_num) + " lid " +
                    std::to_string(ti.lid) + " at " + hex(f.sw(ti.sw).guid) + "[" +
                    std::to_string(ti.sw_port) + "] \"" + ti.name + "\"");
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string &l : lines) std::printf("%s\n", l.c_str());
  std::fprintf(stderr, "%s: %d switches, %d end ports, %d links, highest LID %u\n", path.c_str(),
               f.num_switches(), f.num_terminals(), f.num_channels() / 2, f.max_lid());
  return 0;
}

int run_topo(const std::vector<std::string> &args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "show") return run_show(args);
  const std::string family = args[0];
  std::vector<std::string> pos;
  topo::TopoOptions o;
  double fail = 0;
  std::string out_path, layout_path, radix;
  HdnArgs hdn;
  for (ArgWalker w("topo", args, 1); w.next();) {
    if (w.take("--hcas-per-switch", 0, INT_MAX, o.hcas) || w.take("--seed", 0, LONG_MAX, o.seed) ||
        w.take_num("--fail-links", 0, 1, fail) ||
        w.take("--redundancy", 1, INT_MAX, o.redundancy) ||
        w.take_choice("--radix", {"36", "48"}, radix) || w.take("-o", out_path) ||
        w.take("--layout", layout_path) || hdn.take(w)) {
      if (w.failed()) return 2;
    } else if (w.is_option()) {
      return w.unknown(kUsage);
    } else {
      pos.push_back(w.arg());
    }
  }
  if (!radix.empty()) o.radix = radix == "36" ? 36 : 48;
  // The positional parameters, as many as names, as integers; false after
  // printing why.
  std::vector<int> n;
  auto params = [&](std::initializer_list<const char *> names, const char *usage) {
    if (pos.size() != names.size()) {
      usage_error("topo", std::string("usage: keiro topo ") + usage);
      return false;
    }
    size_t i = 0;
    for (const char *name : names) {
      long v = 0;
      if (!to_int(pos[i], INT_MIN, INT_MAX, v)) {
        usage_error("topo", std::string(name) + " needs an integer, not '" + pos[i] + "'");
        return false;
      }
      n.push_back(static_cast<int>(v));
      ++i;
    }
    return true;
  };
  topo::GenFabric g;
  std::string extra;
  if (family == "random") {
    if (!params({"N", "d"}, "random N d")) return 2;
    g = topo::gen_random_regular(n[0], n[1], o);
  } else if (family == "lrt") {
    if (!params({"N", "d", "r"}, "lrt N d r")) return 2;
    g = topo::gen_lrt(n[0], n[1], n[2], o);
  } else if (family == "torus" || family == "mesh") {
    if (pos.size() != 1) return usage_error("topo", "usage: keiro topo torus|mesh KxKx..");
    std::vector<int> dims;
    if (!dims_of(pos[0], dims)) return 2;
    g = topo::gen_torus(dims, family == "mesh", o);
  } else if (family == "fattree") {
    if (!params({"k", "n"}, "fattree k n")) return 2;
    g = topo::gen_fat_tree(n[0], n[1], o);
  } else if (family == "dragonfly") {
    if (!params({"a", "p", "h", "g"}, "dragonfly a p h g")) return 2;
    g = topo::gen_dragonfly(n[0], n[1], n[2], n[3], o);
  } else if (family == "kautz") {
    if (!params({"d", "k"}, "kautz d k")) return 2;
    g = topo::gen_kautz(n[0], n[1], o);
  } else if (family == "hdn") {
    if (!params({}, "hdn --base 2x3x5 --k K --S s1[,s2..]")) return 2;
    if (!hdn.complete()) return usage_error("topo", "hdn needs --base, --k and --S");
    const topo::HdnSpec spec = topo::parse_hdn(hdn.base, hdn.k, hdn.S);
    g = topo::gen_hdn(spec, o);
    extra = topo::describe(spec);
    extra += "rings of 2 nodes are built as two parallel links\n";
  } else {
    return usage_error("topo", "unknown family '" + family + "' (see keiro topo --help)");
  }
  if (family != "hdn" && hdn.any()) return usage_error("topo", "--base/--k/--S belong to hdn");

  std::string cmdline = "keiro topo";  // without the output file names
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" || args[i] == "--layout") {
      ++i;
      continue;
    }
    cmdline += " " + args[i];
  }
  std::vector<std::string> notes = {cmdline};
  size_t pos_extra = 0;
  while (pos_extra < extra.size()) {
    const size_t e = extra.find('\n', pos_extra);
    notes.push_back(extra.substr(pos_extra, e - pos_extra));
    pos_extra = e + 1;
  }
  const std::vector<topo::GenLink> failed = topo::fail_links(g, fail, o.seed);
  const size_t hcas = static_cast<size_t>(g.num_hcas());
  const size_t nodes = g.sw.size() + hcas;
  const size_t ports = g.sw.size() * static_cast<size_t>(g.radix + 1) + hcas;
  const std::string summary =
      std::to_string(g.sw.size()) + " switches, " + std::to_string(hcas) + " HCAs, " +
      std::to_string(g.links.size()) + " switch-to-switch links" +
      (failed.empty() ? "" : " (" + std::to_string(failed.size()) + " failed)");
  const std::string ibsim = "ibsim -s -n -N " + std::to_string(std::max<size_t>(nodes, 2048)) +
                            " -S " + std::to_string(std::max<size_t>(g.sw.size(), 256)) + " -P " +
                            std::to_string(std::max<size_t>(ports, 13312));
  notes.push_back(summary);
  notes.push_back("ibsim limits: " + ibsim + " FILE");
  g.notes.insert(g.notes.begin(), notes.begin(), notes.end());

  const std::string text = topo::write_net(g);
  FILE *info = out_path.empty() ? stderr : stdout;
  if (out_path.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::ofstream f(out_path);
    f << text;
    if (!f) throw topo::TopoError("cannot write " + out_path);
  }
  if (family == "lrt") {
    if (layout_path.empty() && !out_path.empty()) {
      layout_path = out_path;
      const size_t dot = layout_path.rfind(".net");
      if (dot != std::string::npos && dot + 4 == layout_path.size()) layout_path.resize(dot);
      layout_path += ".layout";
    }
    if (!layout_path.empty()) {
      std::ofstream f(layout_path);
      f << topo::write_layout(g);
      if (!f) throw topo::TopoError("cannot write " + layout_path);
      std::fprintf(info, "layout: %s\n", layout_path.c_str());
    }
  }
  std::fprintf(info, "%s%s: %s\n", extra.c_str(), out_path.empty() ? "net" : out_path.c_str(),
               summary.c_str());
  for (size_t i = g.notes.size() - failed.size(); i < g.notes.size(); ++i)
    std::fprintf(info, "%s\n", g.notes[i].c_str());
  std::fprintf(
      info, "%s\n",
      ("run with: " + ibsim + " " + (out_path.empty() ? std::string("FILE") : out_path)).c_str());
  return 0;
}

const Command kTopo{"topo", "generate a fabric as an ibsim net file", run_topo};

}  // namespace
}  // namespace keiro::tool
