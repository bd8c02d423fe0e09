// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro topo: writes generated fabrics as ibsim net files (core/topo/); show,
// layout and convert read a fabric from any file keiro reads.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/loren/auto_layout.h"
#include "core/topo/fail_links.h"
#include "core/topo/families.h"
#include "core/topo/gen_fabric.h"
#include "core/topo/hdn.h"
#include "core/topo/net_list.h"
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
    "  clos3 R P             3-level folded Clos of R-port switches: P pods of R/2 leaves\n"
    "                        and R/2 middles, P*R/4 tops (P even, dividing R; P = R is\n"
    "                        the k-ary 3-level fat tree), HCAs on the leaves\n"
    "  dragonfly a p h g     g groups of a routers, p HCAs and h global links per router\n"
    "  kautz d k             Kautz graph, strings of length k over d+1 symbols\n"
    "  director D R          D 648-port director chassis (18 spine + 36 line chips each,\n"
    "                        36-port chips) and R rack switches, HCAs on the rack switches\n"
    "  hdn --base 2x3x5 --k K --S s1[,s2..]\n"
    "                        hierarchical dual-net; s_i a size or rings like r0+r1\n"
    "options:\n"
    "  --hcas-per-switch h   HCAs per switch (fattree, clos3: per leaf; default 1, fattree\n"
    "                        k, clos3 R/2, dragonfly p, director 18 per rack switch)\n"
    "  --seed s              seed of the random choices (default 1)\n"
    "  --fail-links f        remove round(f * links) switch-to-switch links, keeping the\n"
    "                        fabric connected; the removed links are listed\n"
    "  --redundancy r        r parallel links for every switch-to-switch link\n"
    "  --radix 36|48         switch port count (default 36; director: the rack switches;\n"
    "                        not clos3, whose R is the port count)\n"
    "  --port-split hca-low|hca-high|interleaved\n"
    "                        fattree, clos3: list the leaf level first, HCAs and down\n"
    "                        ports on the low (hca-low) or high (hca-high) half of the ports,\n"
    "                        or (fattree) on the odd ports with the up-links on the even\n"
    "                        (interleaved)\n"
    "  --uplinks u           director: up-links per rack switch (default: its HCA count)\n"
    "  --relabel SEED        write the same fabric in a random labelling: switch and HCA\n"
    "                        GUIDs, node order and the ports of every switch permuted\n"
    "  -o FILE               write the net file there (default: standard output)\n"
    "  --layout FILE         lrt: layout file (default: FILE with .layout instead of .net)\n"
    "\n"
    "usage: keiro topo show FILE [--lmc L]\n"
    "  reads an ibsim net file, ibnetdiscover output or opensm-subnet.lst and prints\n"
    "  its switches, links and end ports with GUIDs and LIDs (missing LIDs given as\n"
    "  OpenSM would), one per line, sorted: two files of one fabric print the same.\n"
    "\n"
    "usage: keiro topo layout FILE [-o LAYOUT]\n"
    "  derives a grid layout for keiro-loren from the links of a topology file (what\n"
    "  loren_layout=auto uses) and writes it as a layout file to check or edit.\n"
    "\n"
    "usage: keiro topo convert FILE [-o NET]\n"
    "  writes the fabric of any file keiro reads (net file, ibnetdiscover output or\n"
    "  ports report, opensm-subnet.lst) as an ibsim net file: every switch and CA with\n"
    "  its GUIDs, port count, links and LIDs, such that keiro topo show prints the same\n"
    "  for both (default output: standard output).\n";

const char *kShowUsage = "usage: keiro topo show FILE [--lmc L]";
const char *kConvertUsage = "usage: keiro topo convert FILE [-o NET]";
const char *kLayoutUsage = "usage: keiro topo layout FILE [-o LAYOUT]";

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

// What keiro topo show prints of f: one line per switch, link and end port,
// sorted, so that two files of one fabric give the same lines.
std::vector<std::string> listing(const Fabric &f) {
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
  return lines;
}

std::string fabric_summary(const Fabric &f) {
  return std::to_string(f.num_switches()) + " switches, " + std::to_string(f.num_terminals()) +
         " end ports, " + std::to_string(f.num_channels() / 2) + " links, highest LID " +
         std::to_string(f.max_lid());
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
  for (const std::string &l : listing(f)) std::printf("%s\n", l.c_str());
  std::fprintf(stderr, "%s: %s\n", path.c_str(), fabric_summary(f).c_str());
  return 0;
}

// The arguments of `keiro topo layout|convert`: FILE [-o OUT]. -1 when
// they parse, else the exit code (usage printed).
int file_and_output(const std::vector<std::string> &args, const char *usage, std::string &path,
                    std::string &out_path) {
  for (ArgWalker w("topo", args, 1); w.next();) {
    if (w.arg() == "-o") {
      if (!w.value(out_path)) return 2;
    } else if (path.empty() && !w.is_option()) {
      path = w.arg();
    } else {
      return w.unknown(std::string(usage) + "\n");
    }
  }
  if (path.empty()) return usage_error("topo", usage);
  return -1;
}

// text into out_path, or onto stdout when out_path is empty; false, with
// the reason printed, when the file cannot be written.
bool put_text(const std::string &out_path, const std::string &text) {
  if (out_path.empty()) {
    std::fputs(text.c_str(), stdout);
    return true;
  }
  std::ofstream o(out_path, std::ios::binary);
  o << text;
  if (o) return true;
  std::fprintf(stderr, "keiro topo: cannot write %s\n", out_path.c_str());
  return false;
}

// keiro topo layout: the layout loren_layout=auto derives, as a file.
int run_layout(const std::vector<std::string> &args) {
  std::string path, out_path;
  if (const int rc = file_and_output(args, kLayoutUsage, path, out_path); rc >= 0) return rc;
  Fabric f;
  std::string err;
  loren::Layout layout;
  loren::AutoLayoutStats st;
  if (!io::read_topology(path, f, err, io::TopologyReadOptions{}) ||
      !loren::derive_layout(f, layout, st, err)) {
    std::fprintf(stderr, "keiro topo: %s\n", err.c_str());
    return 1;
  }
  const std::string note = strprintf(
      "keiro topo layout %s: %dx%d grid derived from the links; links %.2f grid steps long on "
      "average, longest %d",
      path.c_str(), st.width, st.height,
      st.links > 0 ? static_cast<double>(st.total_length) / st.links : 0.0, st.longest);
  const std::string text = loren::layout_text(f, layout, note);
  if (!put_text(out_path, text)) return 1;
  std::fprintf(stderr, "%s\n", note.c_str());
  return 0;
}

struct TopoArgs {
  std::string family;
  std::vector<std::string> pos;
  topo::TopoOptions o;
  double fail = 0;
  std::string out_path, layout_path, radix, port_split;
  long relabel = -1;  // seed; -1 = as generated
  HdnArgs hdn;
};

// The options after the family name; 0, or the exit status after printing why.
int parse_topo_args(const std::vector<std::string> &args, TopoArgs &a) {
  a.family = args[0];
  for (ArgWalker w("topo", args, 1); w.next();) {
    if (w.take("--hcas-per-switch", 0, INT_MAX, a.o.hcas) ||
        w.take("--seed", 0, LONG_MAX, a.o.seed) || w.take_num("--fail-links", 0, 1, a.fail) ||
        w.take("--redundancy", 1, INT_MAX, a.o.redundancy) ||
        w.take_choice("--radix", {"36", "48"}, a.radix) ||
        w.take_choice("--port-split", {"hca-low", "hca-high", "interleaved"}, a.port_split) ||
        w.take("--uplinks", 1, INT_MAX, a.o.uplinks) ||
        w.take("--relabel", 0, LONG_MAX, a.relabel) || w.take("-o", a.out_path) ||
        w.take("--layout", a.layout_path) || a.hdn.take(w)) {
      if (w.failed()) return 2;
    } else if (w.is_option()) {
      return w.unknown(kUsage);
    } else {
      a.pos.push_back(w.arg());
    }
  }
  if (!a.radix.empty()) a.o.radix = a.radix == "36" ? 36 : 48;
  if (!a.port_split.empty())
    a.o.port_split = a.port_split == "hca-low"    ? topo::PortSplit::kHcaLow
                     : a.port_split == "hca-high" ? topo::PortSplit::kHcaHigh
                                                  : topo::PortSplit::kInterleaved;
  if (a.family != "hdn" && a.hdn.any()) return usage_error("topo", "--base/--k/--S belong to hdn");
  if (a.family != "fattree" && a.family != "clos3" && !a.port_split.empty())
    return usage_error("topo", "--port-split belongs to fattree and clos3");
  if (a.family == "clos3" && a.port_split == "interleaved")
    return usage_error("topo", "--port-split interleaved belongs to fattree");
  if (a.family == "clos3" && !a.radix.empty())
    return usage_error("topo", "clos3: R is the port count, not --radix");
  if (a.family != "director" && a.o.uplinks >= 0)
    return usage_error("topo", "--uplinks belongs to director");
  return 0;
}

// The positional parameters, as many as names, as integers; false after
// printing why.
bool int_params(const std::vector<std::string> &pos, std::initializer_list<const char *> names,
                const char *usage, std::vector<int> &n) {
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
}

// The family's generator; 0, or the exit status after printing why. extra:
// lines the family adds to the notes and the summary.
int build_family(const TopoArgs &a, topo::GenFabric &g, std::string &extra) {
  const std::string &family = a.family;
  const topo::TopoOptions &o = a.o;
  std::vector<int> n;
  if (family == "random") {
    if (!int_params(a.pos, {"N", "d"}, "random N d", n)) return 2;
    g = topo::gen_random_regular(n[0], n[1], o);
  } else if (family == "lrt") {
    if (!int_params(a.pos, {"N", "d", "r"}, "lrt N d r", n)) return 2;
    g = topo::gen_lrt(n[0], n[1], n[2], o);
  } else if (family == "torus" || family == "mesh") {
    if (a.pos.size() != 1) return usage_error("topo", "usage: keiro topo torus|mesh KxKx..");
    std::vector<int> dims;
    if (!dims_of(a.pos[0], dims)) return 2;
    g = topo::gen_torus(dims, family == "mesh", o);
  } else if (family == "fattree") {
    if (!int_params(a.pos, {"k", "n"}, "fattree k n", n)) return 2;
    g = topo::gen_fat_tree(n[0], n[1], o);
  } else if (family == "clos3") {
    if (!int_params(a.pos, {"R", "P"}, "clos3 R P", n)) return 2;
    g = topo::gen_clos3(n[0], n[1], o);
  } else if (family == "dragonfly") {
    if (!int_params(a.pos, {"a", "p", "h", "g"}, "dragonfly a p h g", n)) return 2;
    g = topo::gen_dragonfly(n[0], n[1], n[2], n[3], o);
  } else if (family == "kautz") {
    if (!int_params(a.pos, {"d", "k"}, "kautz d k", n)) return 2;
    g = topo::gen_kautz(n[0], n[1], o);
  } else if (family == "director") {
    if (!int_params(a.pos, {"D", "R"}, "director D R", n)) return 2;
    g = topo::gen_director(n[0], n[1], o);
  } else if (family == "hdn") {
    if (!int_params(a.pos, {}, "hdn --base 2x3x5 --k K --S s1[,s2..]", n)) return 2;
    if (!a.hdn.complete()) return usage_error("topo", "hdn needs --base, --k and --S");
    const topo::HdnSpec spec = topo::parse_hdn(a.hdn.base, a.hdn.k, a.hdn.S);
    g = topo::gen_hdn(spec, o);
    extra = topo::describe(spec);
    extra += "rings of 2 nodes are built as two parallel links\n";
  } else {
    return usage_error("topo", "unknown family '" + family + "' (see keiro topo --help)");
  }
  return 0;
}

// The ibsim command line that fits a fabric of that many nodes, switches and
// ports (each switch's port 0 included), never below ibsim's defaults.
std::string ibsim_limits(size_t nodes, size_t switches, size_t ports) {
  return "ibsim -s -n -N " + std::to_string(std::max<size_t>(nodes, 2048)) + " -S " +
         std::to_string(std::max<size_t>(switches, 256)) + " -P " +
         std::to_string(std::max<size_t>(ports, 13312));
}

// The command line without the output file names, the family's extra lines,
// the summary and ibsim's limits, as notes at the top of the file.
void add_notes(const std::vector<std::string> &args, const std::string &extra, size_t failed,
               long relabel, topo::GenFabric &g, std::string &summary, std::string &ibsim) {
  std::string cmdline = "keiro topo";
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
  const size_t hcas = static_cast<size_t>(g.num_hcas());
  const size_t nodes = g.sw.size() + hcas;
  size_t ports = hcas;
  for (const topo::GenSwitch &s : g.sw)
    ports += static_cast<size_t>((s.ports ? s.ports : g.radix) + 1);
  summary = std::to_string(g.sw.size()) + " switches, " + std::to_string(hcas) + " HCAs, " +
            std::to_string(g.links.size()) + " switch-to-switch links" +
            (failed ? " (" + std::to_string(failed) + " failed)" : "");
  ibsim = ibsim_limits(nodes, g.sw.size(), ports);
  notes.push_back(summary);
  notes.push_back("ibsim limits: " + ibsim + " FILE");
  if (relabel >= 0)
    notes.push_back("relabelled with seed " + std::to_string(relabel) +
                    ": GUIDs, node order and switch ports permuted; node ids (S<i>, H<i>) "
                    "and ports in the failed-link notes are those before relabelling");
  g.notes.insert(g.notes.begin(), notes.begin(), notes.end());
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw topo::TopoError("cannot write " + path);
}

// The first line where two listings differ, as "-A / +B" ("(none)" past an end).
std::string first_difference(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return "-" + (i < a.size() ? a[i] : "(none)") + " / +" + (i < b.size() ? b[i] : "(none)");
}

// The notes at the top of a converted net file: where it comes from, what it
// holds, the ibsim limits it needs and, if any, the port GUIDs ibsim ignores.
void convert_notes(const std::string &path, const Fabric &f, topo::NetList &net,
                   std::string &ibsim) {
  size_t ports = 0, cas = 0, own_guids = 0;
  for (const topo::NetListNode &x : net.nodes) {
    ports += static_cast<size_t>(x.ports) + (x.is_switch ? 1 : 0);
    cas += x.is_switch ? 0 : 1;
    for (const topo::NetPeer &p : x.peers) own_guids += p.port_guid ? 1 : 0;
  }
  const size_t slash = path.rfind('/');
  ibsim = ibsim_limits(net.nodes.size(), static_cast<size_t>(f.num_switches()), ports);
  net.notes = {"keiro topo convert " + (slash == std::string::npos ? path : path.substr(slash + 1)),
               fabric_summary(f) + ", " + std::to_string(cas) + " CA nodes",
               "ibsim limits: " + ibsim + " FILE"};
  if (own_guids) {
    net.notes.push_back(std::to_string(own_guids) +
                        " CA port GUIDs are not node GUID + port number: written as [p](guid),");
    net.notes.push_back("which keiro reads and ibsim ignores (on ibsim port p has node GUID + p)");
  }
}

// keiro topo convert: any topology file keiro reads as an ibsim net file
// that keiro reads back as the same fabric (checked before writing).
int run_convert(const std::vector<std::string> &args) {
  std::string path, out_path;
  if (const int rc = file_and_output(args, kConvertUsage, path, out_path); rc >= 0) return rc;
  Fabric f, back;
  std::string err, ibsim;
  topo::NetList net;
  if (!io::read_topology(path, f, err)) {
    std::fprintf(stderr, "keiro topo: %s\n", err.c_str());
    return 1;
  }
  if (!topo::net_list(f, net, err)) {
    std::fprintf(stderr, "keiro topo: %s: no net file can carry this fabric: %s\n", path.c_str(),
                 err.c_str());
    return 1;
  }
  convert_notes(path, f, net, ibsim);
  const std::string text = topo::write_net_list(net);
  const std::string name = out_path.empty() ? "net" : out_path;
  std::string why;
  if (!io::parse_topology(text, name, back, err))
    why = err;
  else if (const std::vector<std::string> a = listing(f), b = listing(back); a != b)
    why = first_difference(a, b);
  if (!why.empty()) {
    std::fprintf(stderr,
                 "keiro topo: %s: the net file would not read back as the same fabric: %s\n",
                 path.c_str(), why.c_str());
    return 1;
  }
  if (!put_text(out_path, text)) return 1;
  FILE *info = out_path.empty() ? stderr : stdout;
  std::fprintf(info, "%s: %s\nrun with: %s %s\n", name.c_str(), net.notes[1].c_str(), ibsim.c_str(),
               out_path.empty() ? "FILE" : out_path.c_str());
  return 0;
}

int run_topo(const std::vector<std::string> &args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "show") return run_show(args);
  if (args[0] == "layout") return run_layout(args);
  if (args[0] == "convert") return run_convert(args);
  TopoArgs a;
  topo::GenFabric g;
  std::string extra, summary, ibsim;
  if (const int rc = parse_topo_args(args, a)) return rc;
  if (const int rc = build_family(a, g, extra)) return rc;
  const std::vector<topo::GenLink> failed = topo::fail_links(g, a.fail, a.o.seed);
  add_notes(args, extra, failed.size(), a.relabel, g, summary, ibsim);
  topo::NetList net = topo::net_list(g);
  if (a.relabel >= 0) net = topo::relabel(net, static_cast<uint64_t>(a.relabel)).net;
  const std::string text = topo::write_net_list(net);
  FILE *info = a.out_path.empty() ? stderr : stdout;
  if (a.out_path.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    write_file(a.out_path, text);
  }
  if (a.family == "lrt") {
    std::string layout = a.layout_path;
    if (layout.empty() && !a.out_path.empty()) {
      layout = a.out_path;
      const size_t dot = layout.rfind(".net");
      if (dot != std::string::npos && dot + 4 == layout.size()) layout.resize(dot);
      layout += ".layout";
    }
    if (!layout.empty()) {
      write_file(layout, topo::write_layout(g, net));
      std::fprintf(info, "layout: %s\n", layout.c_str());
    }
  }
  std::fprintf(info, "%s%s: %s\n", extra.c_str(), a.out_path.empty() ? "net" : a.out_path.c_str(),
               summary.c_str());
  for (size_t i = g.notes.size() - failed.size(); i < g.notes.size(); ++i)
    std::fprintf(info, "%s\n", g.notes[i].c_str());
  std::fprintf(info, "run with: %s %s\n", ibsim.c_str(),
               a.out_path.empty() ? "FILE" : a.out_path.c_str());
  return 0;
}

const Command kTopo{"topo", "generate, show or convert fabrics (ibsim net files)", run_topo};

}  // namespace
}  // namespace keiro::tool
