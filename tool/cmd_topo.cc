// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro topo: writes generated fabrics as ibsim net files (core/topo/).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/hdn.h"
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

long to_long(const std::string &s, const char *what) {
  char *end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end) throw topo::TopoError(std::string("bad ") + what + " '" + s + "'");
  return v;
}

std::vector<int> dims_of(const std::string &s) {
  std::vector<int> d;
  size_t b = 0;
  for (;;) {
    const size_t e = s.find('x', b);
    d.push_back(static_cast<int>(to_long(s.substr(b, e - b), "dimension")));
    if (e == std::string::npos) return d;
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
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--lmc" && i + 1 < args.size()) {
      const long l = to_long(args[++i], "LMC");
      if (l < 0 || l > 7) throw topo::TopoError("LMC must be 0..7");
      opt.lmc = static_cast<uint8_t>(l);
    } else if (path.empty() && args[i][0] != '-') {
      path = args[i];
    } else {
      throw topo::TopoError("usage: keiro topo show FILE [--lmc L]");
    }
  }
  if (path.empty()) throw topo::TopoError("usage: keiro topo show FILE [--lmc L]");
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
  std::string out_path, layout_path, base, S;
  int k = -1;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&]() -> const std::string & {
      if (i + 1 >= args.size()) throw topo::TopoError(a + " needs a value");
      return args[++i];
    };
    if (a == "--hcas-per-switch") {
      o.hcas = static_cast<int>(to_long(value(), "HCA count"));
    } else if (a == "--seed") {
      const std::string &v = value();
      char *end = nullptr;
      o.seed = std::strtoull(v.c_str(), &end, 0);
      if (v.empty() || *end) throw topo::TopoError("bad seed '" + v + "'");
    } else if (a == "--fail-links") {
      const std::string &v = value();
      char *end = nullptr;
      fail = std::strtod(v.c_str(), &end);
      if (v.empty() || *end) throw topo::TopoError("bad fraction '" + v + "'");
    } else if (a == "--redundancy") {
      o.redundancy = static_cast<int>(to_long(value(), "redundancy"));
    } else if (a == "--radix") {
      o.radix = static_cast<int>(to_long(value(), "radix"));
      if (o.radix != 36 && o.radix != 48) throw topo::TopoError("--radix must be 36 or 48");
    } else if (a == "-o") {
      out_path = value();
    } else if (a == "--layout") {
      layout_path = value();
    } else if (a == "--base") {
      base = value();
    } else if (a == "--k") {
      k = static_cast<int>(to_long(value(), "level"));
    } else if (a == "--S") {
      S = value();
    } else if (!a.empty() && a[0] == '-') {
      throw topo::TopoError("unknown option '" + a + "'");
    } else {
      pos.push_back(a);
    }
  }
  auto need = [&](size_t n, const char *usage) {
    if (pos.size() != n) throw topo::TopoError(std::string("usage: keiro topo ") + usage);
  };
  auto num = [&](size_t i, const char *what) { return static_cast<int>(to_long(pos[i], what)); };
  topo::GenFabric g;
  std::string extra;
  if (family == "random") {
    need(2, "random N d");
    g = topo::gen_random_regular(num(0, "N"), num(1, "d"), o);
  } else if (family == "lrt") {
    need(3, "lrt N d r");
    g = topo::gen_lrt(num(0, "N"), num(1, "d"), num(2, "r"), o);
  } else if (family == "torus" || family == "mesh") {
    need(1, "torus|mesh KxKx..");
    g = topo::gen_torus(dims_of(pos[0]), family == "mesh", o);
  } else if (family == "fattree") {
    need(2, "fattree k n");
    g = topo::gen_fat_tree(num(0, "k"), num(1, "n"), o);
  } else if (family == "dragonfly") {
    need(4, "dragonfly a p h g");
    g = topo::gen_dragonfly(num(0, "a"), num(1, "p"), num(2, "h"), num(3, "g"), o);
  } else if (family == "kautz") {
    need(2, "kautz d k");
    g = topo::gen_kautz(num(0, "d"), num(1, "k"), o);
  } else if (family == "hdn") {
    need(0, "hdn --base 2x3x5 --k K --S s1[,s2..]");
    if (base.empty() || k < 0 || S.empty()) throw topo::TopoError("hdn needs --base, --k and --S");
    const topo::HdnSpec spec = topo::parse_hdn(base, k, S);
    g = topo::gen_hdn(spec, o);
    extra = topo::describe(spec);
    extra += "rings of 2 nodes are built as two parallel links\n";
  } else {
    throw topo::TopoError("unknown family '" + family + "' (see keiro topo --help)");
  }
  if (family != "hdn" && (!base.empty() || k >= 0 || !S.empty()))
    throw topo::TopoError("--base/--k/--S belong to hdn");

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
