// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// fuzz_readers: a deterministic mutation fuzzer for every reader of outside
// input (issue 16, item 5). g++ has no libFuzzer, so this is a small one of
// its own: it starts from real inputs (the bundled ibsim fabrics, OpenSM's
// dumps of tests/unit/data, an ibnetdiscover run on ibsim, files that keiro's
// own writers produce) and feeds every reader mutated copies: byte flips,
// random bytes, NULs and CRs, truncation, deleted, duplicated, swapped and
// spliced lines, numbers replaced by extremes (0, -1, 65535, 2^63, 40 digits,
// ...), tokens of the format inserted at random, very long lines, and the
// empty input.
//
// For every input it asserts the reader's contract:
//  - it returns (a crash is a failure; built with AddressSanitizer and
//    UndefinedBehaviorSanitizer, as run-tests.sh does, memory errors and
//    undefined behaviour abort the run too);
//  - it returns within --time-limit seconds (a watchdog alarm; the input is
//    saved and the run fails as a hang);
//  - it throws nothing;
//  - when it rejects the input, the error is exactly one non-empty line.
//
// Readers (targets, --list): net (core/io/net_file.h), topology (net files,
// ibnetdiscover output, its -p ports report and opensm-subnet.lst through
// core/io/topology_file.h), ports_report (core/io/ports_report.h),
// subnet_lst (core/io/subnet_lst.h), lfts and
// sl2vl (core/io/dumps.h, LFT dumps and ibroute output), lmc (lmc_from_lfts),
// path_sl (core/io/path_sl_file.h), compact, compact_crc and compact_dir
// (core/io/compact_tables.h: the binary table file, its CRCs made right
// again for the last two, compact_dir through load_dump_dir), saquery, smpquery_sl2vl, oper_vls
// (core/io/diag_output.h), layout (core/loren/layout.h), options and
// config (core/options.h: event_plugin_options strings and config files),
// and dump_dir (core/io/dump_dir.h: a whole dump directory, one file
// mutated, then check::verify on what loaded, as `keiro check DIR` does).
//
// Every input is a function of (--seed, target, iteration) only, so a
// failure reported as "target T iteration I" is replayed with
// `fuzz_readers --only T --from I --count 1`; failing inputs are written to
// --save DIR (default: the current directory) as fuzz-T-I.txt.
//
// Without arguments it runs the bounded CI run (--count 400 per target,
// --seed 1); `--seconds N` instead spends N seconds split evenly over the
// targets. The summary gives, per target, the inputs tried, how many were
// accepted and rejected, and the slowest input.
//
// Time: O(count * cost of one parse of a seed-sized input). Memory: the seeds
// (under 1 MB) plus one input (at most kMaxInput bytes).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/check/verify.h"
#include "core/engine/engine.h"
#include "core/fabric.h"
#include "core/io/compact_tables.h"
#include "core/io/diag_output.h"
#include "core/io/dump_dir.h"
#include "core/io/dumps.h"
#include "core/io/net_file.h"
#include "core/io/path_sl_file.h"
#include "core/io/ports_report.h"
#include "core/io/subnet_lst.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/loren/layout.h"
#include "core/options.h"
#include "core/registry/registry.h"
#include "core/routing.h"

// AddressSanitizer's hook, present only in sanitized builds.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace {

using keiro::Fabric;
using keiro::Routing;

constexpr size_t kMaxInput = 1 << 20;

// ---- the watchdog: what to save when an input does not return ----

char g_save_path[4096];
const char *g_input = nullptr;
size_t g_input_size = 0;

// save_input WHY: says why on stderr and writes the current input to
// g_save_path; async-signal-safe.
void save_input(const char *why) {
  static const char head[] = "fuzz_readers: ";
  static const char mid[] = "; input saved to ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, why, strlen(why));
  (void)!write(2, mid, sizeof mid - 1);
  (void)!write(2, g_save_path, strlen(g_save_path));
  (void)!write(2, "\n", 1);
  const int fd = open(g_save_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    (void)!write(fd, g_input, g_input_size);
    close(fd);
  }
}

void on_alarm(int) {
  save_input("HANG: an input did not return within the time limit");
  _exit(3);
}

void on_crash(int sig) {
  save_input("CRASH: a reader crashed");
  signal(sig, SIG_DFL);
  raise(sig);
}

void on_sanitizer_death() {
  save_input("a sanitizer stopped the run");
}

// ---- targets ----

// What a reader said about one input.
struct Verdict {
  bool accepted = false;
  std::string err;  // the error when not accepted
};

struct Seed {
  std::string text;
  int context = 0;  // which fabric the reader needs (Contexts::fabrics)
};

struct Target {
  const char *name;
  std::vector<Seed> seeds;
  std::vector<std::string> tokens;  // words of the format to insert
  std::function<Verdict(const std::string &, int context)> run;
};

// What a run saw of one target.
struct Stats {
  int64_t tried = 0, accepted = 0, rejected = 0;
  double slowest = 0;
  int64_t slowest_iteration = -1;
};

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_readers: cannot read seed %s\n", path.c_str());
    std::exit(99);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The LFT dump in ibroute's words: hex LID range, "(... )" destinations.
std::string as_ibroute(const std::string &lfts) {
  std::istringstream in(lfts);
  std::string line, out;
  while (std::getline(in, line)) {
    unsigned lo = 0, hi = 0;
    char rest[512];
    if (std::sscanf(line.c_str(), "Unicast lids [%u-%u] of switch %511[^\n]", &lo, &hi, rest) ==
        3) {
      std::string r = rest;
      const size_t q = r.find("('");
      if (q != std::string::npos) r = r.substr(0, q) + "(" + r.substr(q + 2);
      const size_t e = r.rfind("'):");
      if (e != std::string::npos) r = r.substr(0, e) + "):";
      char head[64];
      std::snprintf(head, sizeof head, "Unicast lids [0x%x-0x%x] of switch ", lo, hi);
      out += head + r + "\n  Lid  Out   Destination\n       Port     Info \n";
    } else if (line.rfind("0x", 0) == 0 && line.find(" # ") != std::string::npos) {
      const size_t h = line.find(" # ");
      out += line.substr(0, h) + " : (" + line.substr(h + 3) + ")\n";
    } else if (line.find("lids dumped") != std::string::npos) {
      out += line.substr(0, line.find(' ')) + " valid lids dumped \n";
    } else {
      out += line + "\n";
    }
  }
  return out;
}

struct Contexts {
  std::vector<Fabric> fabrics;  // 0: ring5 (LMC 1), 1: demo LRT of 25 switches
  std::string tmpdir;
};

// A routing of fabric f by engine name (nue, dl, ...); false if it fails.
bool route(const Fabric &f, const char *engine, Routing &r) {
  const keiro::EngineDesc *e = keiro::find_engine(engine);
  if (!e) return false;
  keiro::Options o = keiro::all_options();
  keiro::NullLogger log;
  keiro::EngineInput in{f, o, log};
  in.max_vls = 4;
  keiro::EngineReport rep;
  return e->route(in, r, rep);
}

template <class W>
std::string written(W w) {
  std::ostringstream out;
  w(out);
  return out.str();
}

// The file with every section's CRC-32 made right again where its length
// fits the file, so that a mutated input reaches the structure checks
// behind the CRC.
std::string fix_crcs(std::string s) {
  auto get = [&](size_t at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(s[at + i])) << (8 * i);
    return v;
  };
  size_t pos = 16;
  while (s.size() >= 16 && s.size() - pos >= 12) {
    const uint64_t len = get(pos + 4, 8);
    if (len > s.size() - pos - 12 || s.size() - pos - 12 - len < 4) break;
    uint32_t c = 0xFFFFFFFFu;
    for (uint64_t i = 0; i < len; ++i) {
      c ^= static_cast<uint8_t>(s[pos + 12 + i]);
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    c = ~c;
    for (int i = 0; i < 4; ++i) s[pos + 12 + len + i] = static_cast<char>(c >> (8 * i));
    pos += 12 + len + 4;
  }
  return s;
}

// The compact table file (core/io/compact_tables.h): "compact" parses the
// mutated bytes and maps what parsed onto the fabric; "compact_dir" makes
// the CRCs right first and loads a directory of opensm-subnet.lst and
// keiro-tables.bin as keiro check does, then checks the routing.
void add_compact_targets(std::vector<Target> &t, Contexts &cx, const std::vector<Seed> &seeds) {
  const std::vector<std::string> tokens = {"KEIROTBL",
                                           "HEAD",
                                           "LFTS",
                                           "SL2V",
                                           "PSLS",
                                           std::string("\x01\0\0\0", 4),
                                           std::string(8, '\xFF'),
                                           std::string(4, '\0')};
  auto parse_and_apply = [&cx](const std::string &in, int c, Verdict &v) {
    keiro::io::CompactTables tables;
    v.accepted = keiro::io::parse_compact_tables(in, "fuzz.bin", tables, v.err);
    if (!v.accepted) return;
    const Fabric &f = cx.fabrics[c];
    Routing r;
    r.reset(f, tables.source_switch_sls ? Routing::SlScope::kPerSourceSwitch
                                        : Routing::SlScope::kPerDestination);
    keiro::io::DumpReadReport rep;
    if (tables.sections & keiro::io::kCompactLfts) keiro::io::apply_compact_lfts(tables, f, r, rep);
    if (tables.sections & keiro::io::kCompactSl2vl)
      keiro::io::apply_compact_sl2vl(tables, f, r, rep);
    if (tables.sections & keiro::io::kCompactPathSls) {
      keiro::io::PathSlFile p;
      keiro::io::compact_path_sls(tables, f, p);
      p.apply(f, r);
    }
  };
  t.push_back({"compact", seeds, tokens, [parse_and_apply](const std::string &in, int c) {
                 Verdict v;
                 parse_and_apply(in, c, v);
                 return v;
               }});
  t.push_back({"compact_crc", seeds, tokens, [parse_and_apply](const std::string &in, int c) {
                 Verdict v;
                 parse_and_apply(fix_crcs(in), c, v);
                 return v;
               }});
  const std::string lst =
      written([&](std::ostream &o) { keiro::io::write_subnet_lst(o, cx.fabrics[1]); });
  t.push_back({"compact_dir", seeds, tokens, [&cx, lst](const std::string &in, int) {
                 const std::string d = cx.tmpdir + "/compact";
                 mkdir(d.c_str(), 0755);
                 std::ofstream(d + "/opensm-subnet.lst", std::ios::binary | std::ios::trunc) << lst;
                 std::ofstream(d + "/keiro-tables.bin", std::ios::binary | std::ios::trunc)
                     << fix_crcs(in);
                 keiro::io::LoadedRouting lr;
                 Verdict v;
                 v.accepted = keiro::io::load_dump_dir(d, {}, lr, v.err);
                 if (v.accepted) {
                   keiro::check::Options o;
                   o.threads = 1;
                   o.assume_sl = 0;
                   (void)keiro::check::verify(lr.fabric, lr.routing, o);
                 }
                 return v;
               }});
}

std::vector<Target> make_targets(const std::string &src, Contexts &cx) {
  const std::string topo = src + "/ibsim-topologies/";
  const std::string ring = src + "/tests/unit/data/ring5-minhop/";
  std::string err;
  cx.fabrics.resize(2);
  keiro::io::TopologyReadOptions ro;
  ro.lmc = 1;
  if (!keiro::io::read_topology(ring + "opensm-subnet.lst", cx.fabrics[0], err, ro) ||
      !keiro::io::read_topology(topo + "demo-lrt-25sw.net", cx.fabrics[1], err)) {
    std::fprintf(stderr, "fuzz_readers: seed fabric: %s\n", err.c_str());
    std::exit(99);
  }
  const Fabric &lrt = cx.fabrics[1];

  std::vector<std::string> nets;
  for (const char *n : {"random-16sw.net", "demo-lrt-25sw.net", "dragonfly-a4p2h2g5.net",
                        "fattree-4ary-3tree.net", "torus-4x4x4-f4-h1.net", "hdn-2x3x5-k1-s15.net"})
    nets.push_back(read_file(topo + n));
  nets.push_back(read_file(ring + "ring5.net"));
  nets.push_back(read_file(src + "/tests/integration/data/dl-irregular-64.net"));
  // Directives of the format that the bundled files do not use.
  nets.push_back(
      "switchguid=0x5000\ncaguid=0x7000\nrtguid=0x9000\nmodule=\"m1/\"\n"
      "Switch 4 \"S1\" # \"one\" enhanced port 0 lid 3 lmc 0\n[1] \"H1\"[1]\n[2] \"R1\"[1]\n\n"
      "Hca 2 \"H1\" # two port\n[1](7001) \"S1\"[1] # lid 9 lmc 1\n[2] \"S1\"[3]\n\n"
      "Rt 1 \"R1\"\n[1] \"S1\"[2]\n");
  const std::string ibnd = read_file(src + "/tests/fuzz/seeds/ibnetdiscover-ring5.txt");
  // `ibnetdiscover -p -s` (the ports report, with progress lines): parallel
  // links, a dual-port HCA, a router, ports without a link, both link ends.
  const std::string ports =
      "DR path slid 0; dlid 0; 0 -> new Channel Adapter {0002c90300000100} portnum 1 lid 0-0 "
      "\"\"\n"
      "SW     2  4 0x0002c90300001010 4x QDR - RT     7  1 0x0002c90300000301 ( 'leaf1' - "
      "'gw01' )\n"
      "SW     2  3 0x0002c90300001010 4x SDR                                    'leaf1'\n"
      "SW     2  2 0x0002c90300001010 4x QDR - SW     3  2 0x0002c90300001020 ( 'leaf1' - "
      "'leaf2' )\n"
      "SW     2  1 0x0002c90300001010 4x QDR - CA     5  1 0x0002c90300000101 ( 'leaf1' - "
      "'node01 HCA-1' )\n"
      "SW     3  3 0x0002c90300001020 4x FDR10 - CA     6  2 0x0002c90300000102 ( 'leaf2' - "
      "'node01 HCA-1' )\n"
      "SW     3  2 0x0002c90300001020 4x QDR - SW     2  2 0x0002c90300001010 ( 'leaf2' - "
      "'leaf1' )\n"
      "SW     3  1 0x0002c90300001020 ?? ???                                   'leaf2'\n"
      "CA     6  2 0x0002c90300000102 4x QDR - SW     3  3 0x0002c90300001020 ( 'node01 HCA-1' - "
      "'leaf2' )\n"
      "CA     5  1 0x0002c90300000101 4x QDR - SW     2  1 0x0002c90300001010 ( 'node01 HCA-1' - "
      "'leaf1' )\n"
      "CA     0  1 0x0002c90300000201 4x SDR                                    'node02 HCA-1'\n"
      "RT     7  1 0x0002c90300000301 4x QDR - SW     2  4 0x0002c90300001010 ( 'gw01' - "
      "'leaf1' )\n";
  const std::string lst_ring = read_file(ring + "opensm-subnet.lst");
  const std::string lst_lrt =
      written([&](std::ostream &o) { keiro::io::write_subnet_lst(o, lrt); });

  Routing nue, dl;
  const bool have_nue = route(lrt, "nue", nue), have_dl = route(lrt, "dl", dl);
  std::vector<Seed> lfts{{read_file(ring + "opensm-lfts.dump"), 0}};
  std::vector<Seed> sl2vl{{read_file(ring + "opensm-sl2vl.dump"), 0}};
  std::vector<Seed> path_sl, compact;
  for (const Routing *r : {&nue, &dl}) {
    if (r == &nue ? !have_nue : !have_dl) continue;
    compact.push_back({written([&](std::ostream &o) {
                         keiro::io::write_compact_tables(o, lrt, *r, keiro::io::kCompactAll);
                       }),
                       1});
    lfts.push_back({written([&](std::ostream &o) { keiro::io::write_lfts_dump(o, lrt, *r); }), 1});
    sl2vl.push_back(
        {written([&](std::ostream &o) { keiro::io::write_sl2vl_dump(o, lrt, *r); }), 1});
    path_sl.push_back(
        {written([&](std::ostream &o) { keiro::io::write_path_sl_file(o, lrt, *r); }), 1});
  }
  lfts.push_back({as_ibroute(lfts[0].text), 0});
  if (lfts.size() > 2) lfts.push_back({as_ibroute(lfts[1].text), 1});
  path_sl.push_back(
      {"keiro-path-sl 1\nengine saquery\nmax_lid 17\nscope source-lid\n"
       "slid 1 -01230123012301230\nslid 17 01-23012301230123-\n# end\n",
       0});
  path_sl.push_back(
      {"keiro-path-sl 1\nmax_lid 17\nscope destination\ndest -01230123012301230\n", 0});

  const std::string saq =
      "PathRecord dump:\n\t\tservice_id..............0x0000000000000000\n"
      "\t\tdgid....................fe80::20:0000:0010:0001\n\t\tsgid....................fe80::20:"
      "0000:0020:0000\n"
      "\t\tdlid....................7\n\t\tslid....................5\n\t\thop_flow_raw............"
      "0x0\n"
      "\t\ttclass..................0x0\n\t\tnum_path_revers.........0x80\n\t\tpkey................."
      "...0xFFFF\n"
      "\t\tqos_class...............0x0\n\t\tsl......................0x3\n\t\tmtu..................."
      "..0x84\n"
      "\t\trate....................0x82\n\t\tpkt_life................0x92\n\t\tpreference.........."
      "....0x0\n"
      "PathRecord dump:\n\t\tdlid....................8\n\t\tslid....................5\n"
      "\t\tsl......................0xc\n";
  std::string smp_sl2vl, opervls;
  for (int s = 0; s < 5; ++s) {
    char b[128];
    std::snprintf(b, sizeof b, "# SL2VL table: Lid %u\n#                 SL: |",
                  cx.fabrics[0].sw(s).lid);
    smp_sl2vl += b;
    for (int i = 0; i < 16; ++i) smp_sl2vl += (i < 10 ? " " : "") + std::to_string(i) + "|";
    smp_sl2vl += "\n";
    for (int in = 0; in < 4; ++in)
      for (int out = 1; out < 4; ++out) {
        std::snprintf(b, sizeof b, "ports: in %2d, out %2d: ", in, out);
        smp_sl2vl += b;
        for (int i = 0; i < 16; ++i) smp_sl2vl += "| " + std::to_string((i + in) % 4);
        smp_sl2vl += "|\n";
      }
    for (int p = 1; p < 4; ++p) {
      std::snprintf(b, sizeof b,
                    "# Port info: Lid %u port %d\nOperVLs:.........................VL0-%d\n",
                    cx.fabrics[0].sw(s).lid, p, p);
      opervls += b;
    }
  }

  std::string all_opts, conf;
  for (const keiro::OptionSpec &s : keiro::option_specs()) {
    if (std::string(s.key) == "config") continue;
    if (*s.def) {
      all_opts += std::string(all_opts.empty() ? "" : " ") + s.key + "=" + s.def;
      conf += std::string(s.key) + (conf.size() % 2 ? " " : "=") + s.def + "\n";
    }
  }
  const std::string loren_layout = read_file(topo + "demo-lrt-25sw.layout");

  // Context-free tokens every format may meet.
  const std::vector<std::string> common = {"\"",
                                           "#",
                                           "0x",
                                           "-",
                                           "=",
                                           "[",
                                           "]",
                                           "(",
                                           ")",
                                           "{",
                                           "}",
                                           ":",
                                           "'",
                                           " ",
                                           "\t",
                                           "\r",
                                           std::string(1, '\0')};
  auto with = [&](std::vector<std::string> t) {
    t.insert(t.end(), common.begin(), common.end());
    return t;
  };

  std::vector<Target> t;
  std::vector<Seed> net_seeds;
  for (const std::string &n : nets) net_seeds.push_back({n, 0});
  const std::vector<std::string> net_tokens = with({"Switch",
                                                    "Hca",
                                                    "Ca",
                                                    "Rt",
                                                    "switchguid=",
                                                    "caguid=",
                                                    "hcaguids=",
                                                    "rtguid=",
                                                    "module=\"m/\"",
                                                    "include \"missing.net\"",
                                                    "lid",
                                                    "lmc",
                                                    "enhanced port 0",
                                                    "base port 0",
                                                    "do",
                                                    "@",
                                                    "[1]",
                                                    "\"S1\"[2]",
                                                    "\"H1\"",
                                                    "[0]",
                                                    "[255]",
                                                    "+0x10"});
  t.push_back({"net", net_seeds, net_tokens, [&](const std::string &in, int) {
                 std::vector<keiro::io::NetNode> nodes;
                 Verdict v;
                 v.accepted = keiro::io::parse_net_file(in, cx.tmpdir + "/fuzz.net", nodes, v.err);
                 return v;
               }});
  std::vector<Seed> topo_seeds = net_seeds;
  topo_seeds.push_back({ibnd, 0});
  topo_seeds.push_back({lst_ring, 0});
  topo_seeds.push_back({lst_lrt, 0});
  topo_seeds.push_back({ports, 0});
  const std::vector<std::string> ports_tokens =
      with({"SW", "CA", "RT", "??", "0x0002c90300001010", "0x0", "4x QDR", " - ", "( '", "' - '",
            "' )", "'", "DR path slid 0; dlid 0; 0,1 -> ", "65535", "255"});
  std::vector<std::string> topo_tokens = net_tokens;
  topo_tokens.insert(topo_tokens.end(), {"{ SW", "{ CA", "{ Rt", "-SM", "Ports:", "LID:", "PN:",
                                         "NodeGUID:", "PortGUID:", "PHY=4x", "LOG=ACT"});
  topo_tokens.insert(topo_tokens.end(), ports_tokens.begin(), ports_tokens.end());
  t.push_back({"topology", topo_seeds, topo_tokens, [&](const std::string &in, int) {
                 Fabric f;
                 Verdict v;
                 keiro::io::TopologyReadOptions o;
                 o.lmc = 1;
                 v.accepted = keiro::io::parse_topology(in, cx.tmpdir + "/fuzz.topo", f, v.err, o);
                 return v;
               }});
  t.push_back({"ports_report", {{ports, 0}}, ports_tokens, [&](const std::string &in, int) {
                 Fabric f;
                 Verdict v;
                 keiro::io::TopologyReadOptions o;
                 o.lmc = 1;
                 v.accepted = keiro::io::parse_ports_report(in, "fuzz.ibnd", f, v.err, o);
                 return v;
               }});
  t.push_back({"subnet_lst",
               {{lst_ring, 0}, {lst_lrt, 0}},
               with({"{ SW", "{ CA", "{ Rt", "-SM", "Ports:", "SystemGUID:", "NodeGUID:",
                     "PortGUID:", "VenID:", "DevID:", "Rev:", "LID:", "PN:", "PHY=4x", "LOG=ACT",
                     "SPD=2.5", "{S1}", "}"}),
               [&](const std::string &in, int) {
                 Fabric f;
                 Verdict v;
                 keiro::io::TopologyReadOptions o;
                 o.lmc = 1;
                 v.accepted = keiro::io::parse_subnet_lst(in, "fuzz.lst", f, v.err, o);
                 return v;
               }});
  const std::vector<std::string> lft_tokens =
      with({"Unicast lids", "[0-17]", "[0x0-0x11]", "of switch Lid", "guid", "portguid", "Switch",
            "Channel Adapter", "Router", "unknown node and type", "lids dumped",
            "valid lids dumped", "0x0001 001 #", "0xffff 255 #", "path #2 out of 2:"});
  // An OpenSM dump reader's target: the input read against context fabric c
  // into fresh tables.
  using DumpReader = bool (*)(std::istream &, const std::string &, const Fabric &, Routing &,
                              keiro::io::DumpReadReport &, std::string &);
  auto dump_target = [&cx](DumpReader read, const char *name) {
    return [&cx, read, name](const std::string &in, int c) {
      Routing r;
      r.reset(cx.fabrics[c]);
      keiro::io::DumpReadReport rep;
      Verdict v;
      std::istringstream s(in);
      v.accepted = read(s, name, cx.fabrics[c], r, rep, v.err);
      return v;
    };
  };
  t.push_back({"lfts", lfts, lft_tokens, dump_target(keiro::io::read_lfts_dump, "fuzz.lfts")});
  t.push_back({"lmc", lfts, lft_tokens, [&](const std::string &in, int) {
                 Verdict v;
                 v.accepted = keiro::io::lmc_from_lfts(in) >= -1;  // never an error
                 return v;
               }});
  t.push_back({"sl2vl", sl2vl,
               with({"Switch", "Channel Adapter", "Router", "base LID", "#in out : 0  1  2",
                     "#-----", "0 0 :", "255 255 :", "15", "16"}),
               dump_target(keiro::io::read_sl2vl_dump, "fuzz.sl2vl")});
  t.push_back(
      {"path_sl", path_sl,
       with({"keiro-path-sl 1", "engine", "max_lid", "scope", "destination", "source-switch",
             "source-lid", "dest", "switch 0x0202000000000000", "slid", "f", "g", "-"}),
       [&](const std::string &in, int c) {
         keiro::io::PathSlFile p;
         Verdict v;
         std::istringstream s(in);
         v.accepted = keiro::io::read_path_sl_file(s, "fuzz.sl", cx.fabrics[c], p, v.err);
         if (v.accepted && p.scope != keiro::io::PathSlFile::Scope::kSourceLid) {
           Routing r;
           r.reset(cx.fabrics[c], p.routing_scope());
           p.apply(cx.fabrics[c], r);  // what keiro check does next
         }
         return v;
       }});
  t.push_back({"saquery",
               {{saq, 0}},
               with({"PathRecord dump:", "\t\tslid....................",
                     "\t\tdlid....................", "\t\tsl......................", "0x"}),
               [&](const std::string &in, int) {
                 keiro::check::SourceLidSls sls;
                 sls.reset(17);
                 Verdict v;
                 v.accepted = keiro::io::parse_saquery_paths(in, "fuzz.sa", sls, v.err) >= 0;
                 return v;
               }});
  t.push_back({"smpquery_sl2vl",
               {{smp_sl2vl, 0}},
               with({"# SL2VL table: Lid", "ports: in", ", out", "|", "#                 SL: |"}),
               [&](const std::string &in, int c) {
                 Routing r;
                 r.reset(cx.fabrics[c]);
                 Verdict v;
                 v.accepted =
                     keiro::io::parse_smpquery_sl2vl(in, "fuzz.smp", cx.fabrics[c], r, v.err) >= 0;
                 return v;
               }});
  t.push_back({"oper_vls",
               {{opervls, 0}},
               with({"# Port info: Lid", "port", "OperVLs:", "VL0", "VL0-7", "VL0-255"}),
               [&](const std::string &in, int c) {
                 std::vector<std::vector<uint8_t>> vls;
                 Verdict v;
                 v.accepted =
                     keiro::io::parse_oper_vls(in, cx.fabrics[c], vls) >= 0;  // never an error
                 return v;
               }});
  t.push_back({"layout",
               {{loren_layout, 1},
                {"# ring\n0x0000000000200000 0 0\n\"S2\" 1 0\nS3 2 0 third\n0x200003 0 1\n0x200004 "
                 "1 1 S5\n",
                 0}},
               with({"0x0202000000000000", "\"lrt x=0 y=0\"", "S1", "65535", "65536"}),
               [&](const std::string &in, int c) {
                 keiro::loren::Layout l;
                 Verdict v;
                 v.accepted =
                     keiro::loren::parse_layout(in, "fuzz.layout", cx.fabrics[c], l, v.err);
                 return v;
               }});
  // A whole dump directory as keiro check reads it (io::load_dump_dir:
  // the readers above plus LMC detection, the SL source and their
  // agreement), then check::verify on whatever loaded. One of the four files
  // is mutated (the seed's context names it); the others are OpenSM's dumps
  // of ring5 and a destination path-SL file.
  const std::string ring_files[4] = {lst_ring, lfts[0].text, sl2vl[0].text,
                                     "keiro-path-sl 1\nengine keiro-nue\nmax_lid 17\n"
                                     "scope destination\ndest 01230123012301230\n"};
  std::vector<Seed> dir_seeds;
  for (int k = 0; k < 4; ++k) dir_seeds.push_back({ring_files[k], k});
  std::vector<std::string> dir_tokens = lft_tokens;
  dir_tokens.insert(dir_tokens.end(), {"{ SW", "{ CA", "LID:", "PN:", "base LID", "max_lid",
                                       "scope", "dest", "PathRecord dump:"});
  t.push_back({"dump_dir", dir_seeds, dir_tokens, [&, ring_files](const std::string &in, int k) {
                 static const char *const names[4] = {"opensm-subnet.lst", "opensm-lfts.dump",
                                                      "opensm-sl2vl.dump", "keiro-path-sl.dump"};
                 for (int j = 0; j < 4; ++j) {
                   std::ofstream f(cx.tmpdir + "/" + names[j], std::ios::binary | std::ios::trunc);
                   f << (j == k ? in : ring_files[j]);
                 }
                 keiro::io::LoadedRouting lr;
                 Verdict v;
                 v.accepted = keiro::io::load_dump_dir(cx.tmpdir, {}, lr, v.err);
                 if (v.accepted) {
                   keiro::check::Options o;
                   o.threads = 1;
                   o.assume_sl = 0;
                   if (lr.use_source_sls) o.source_sls = &lr.source_sls;
                   (void)keiro::check::verify(lr.fabric, lr.routing, o);
                 }
                 return v;
               }});
  std::vector<std::string> opt_tokens = with({"=", "config=", "true", "false", "yes", "no"});
  for (const keiro::OptionSpec &s : keiro::option_specs())
    if (std::string(s.key) != "config") opt_tokens.push_back(std::string(s.key) + "=");
  t.push_back({"options",
               {{all_opts, 0}, {"max_vls=4 max_sls=8", 0}, {"", 0}},
               opt_tokens,
               [&](const std::string &in, int) {
                 keiro::Options o = keiro::all_options();
                 Verdict v;
                 v.accepted = keiro::Options::parse(in, o, v.err);
                 return v;
               }});
  add_compact_targets(t, cx, compact);
  t.push_back({"config",
               {{conf, 0}, {"# keiro\nmax_vls 4\n\nmax_sls=8 # eight\n", 0}},
               opt_tokens,
               [&](const std::string &in, int) {
                 const std::string path = cx.tmpdir + "/fuzz.conf";
                 {
                   std::ofstream f(path, std::ios::binary | std::ios::trunc);
                   f << in;
                 }
                 keiro::Options o = keiro::all_options();
                 Verdict v;
                 v.accepted = keiro::Options::parse_file(path, o, v.err);
                 return v;
               }});
  return t;
}

// ---- mutations ----

const char *const kNumbers[] = {"0",
                                "-1",
                                "1",
                                "-0",
                                "255",
                                "256",
                                "65535",
                                "65536",
                                "49151",
                                "49152",
                                "2147483647",
                                "2147483648",
                                "-2147483649",
                                "4294967295",
                                "4294967296",
                                "9223372036854775807",
                                "9223372036854775808",
                                "18446744073709551615",
                                "18446744073709551616",
                                "0xffffffffffffffff",
                                "0x10000000000000000",
                                "0x",
                                "0x-1",
                                "1e9",
                                "99999999999999999999999999999999999999999",
                                "007",
                                "0x0",
                                "+5"};

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  size_t below(size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng_) : 0; }

  // Lines of s with their '\n'.
  static std::vector<std::string> lines(const std::string &s) {
    std::vector<std::string> out;
    size_t p = 0;
    while (p < s.size()) {
      size_t nl = s.find('\n', p);
      nl = nl == std::string::npos ? s.size() : nl + 1;
      out.push_back(s.substr(p, nl - p));
      p = nl;
    }
    return out;
  }
  static std::string join(const std::vector<std::string> &l) {
    std::string s;
    for (const std::string &x : l) s += x;
    return s;
  }

  void mutate(std::string &s, const std::vector<std::string> &tokens, const std::string &other) {
    switch (below(14)) {
      case 0:  // flip bits of a few bytes
        for (size_t k = 1 + below(4); k-- && !s.empty();)
          s[below(s.size())] ^= static_cast<char>(1u << below(8));
        break;
      case 1:  // a random byte
        if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
        break;
      case 2:  // truncate
        s.resize(below(s.size() + 1));
        break;
      case 3:
      case 4: {  // a number replaced by an extreme
        std::vector<size_t> starts;
        for (size_t i = 0; i < s.size(); ++i)
          if (std::isdigit(static_cast<unsigned char>(s[i])) &&
              (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]))))
            starts.push_back(i);
        if (starts.empty()) break;
        const size_t a = starts[below(starts.size())];
        size_t b = a;
        while (b < s.size() && (std::isxdigit(static_cast<unsigned char>(s[b])) || s[b] == 'x'))
          ++b;
        s.replace(a, b - a, kNumbers[below(std::size(kNumbers))]);
        break;
      }
      case 5:
      case 6: {  // a token of the format inserted
        const std::string &tok = tokens[below(tokens.size())];
        s.insert(below(s.size() + 1), below(2) ? tok : " " + tok + " ");
        break;
      }
      case 7: {  // delete lines
        std::vector<std::string> l = lines(s);
        if (l.empty()) break;
        const size_t a = below(l.size()), n = 1 + below(std::min<size_t>(l.size() - a, 8));
        l.erase(l.begin() + a, l.begin() + a + n);
        s = join(l);
        break;
      }
      case 8: {  // duplicate a line, or a block
        std::vector<std::string> l = lines(s);
        if (l.empty()) break;
        const size_t a = below(l.size()), n = 1 + below(std::min<size_t>(l.size() - a, 4));
        std::vector<std::string> block(l.begin() + a, l.begin() + a + n);
        l.insert(l.begin() + below(l.size() + 1), block.begin(), block.end());
        s = join(l);
        break;
      }
      case 9: {  // swap two lines
        std::vector<std::string> l = lines(s);
        if (l.size() < 2) break;
        std::swap(l[below(l.size())], l[below(l.size())]);
        s = join(l);
        break;
      }
      case 10: {  // a line from another seed
        std::vector<std::string> l = lines(s), o = lines(other);
        if (o.empty()) break;
        l.insert(l.begin() + below(l.size() + 1), o[below(o.size())]);
        s = join(l);
        break;
      }
      case 11: {  // a very long line or word
        const size_t n = below(2) ? 300 : 70000;
        const char c = "a9 \"#[x-"[below(8)];
        s.insert(below(s.size() + 1), std::string(n, c));
        break;
      }
      case 12:  // a byte removed or a NUL / CR / newline added
        if (!s.empty() && below(2)) {
          s.erase(below(s.size()), 1);
        } else {
          s.insert(below(s.size() + 1), 1, "\0\r\n\n"[below(4)]);
        }
        break;
      default:  // a random word of printable garbage
      {
        std::string w;
        for (size_t n = 1 + below(12); n--;) w += static_cast<char>(33 + below(94));
        s.insert(below(s.size() + 1), w);
      } break;
    }
  }

 private:
  std::mt19937_64 rng_;
};

// The input of (seed, target, iteration): a seed with 1..8 mutations, or
// (rarely) the empty input or the seed itself. The target enters by its name,
// so adding a target changes no other target's inputs.
std::string make_input(uint64_t seed, int64_t iteration, const Target &t, int &context) {
  uint64_t name = 0xcbf29ce484222325ull;  // FNV-1a
  for (const char *c = t.name; *c; ++c)
    name = (name ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
  Mutator m(seed * 0x9E3779B97F4A7C15ull ^ name * 0xBF58476D1CE4E5B9ull ^
            static_cast<uint64_t>(iteration) * 0x94D049BB133111EBull);
  const Seed &s = t.seeds[m.below(t.seeds.size())];
  context = s.context;
  if (iteration % 97 == 0) return "";
  std::string in = s.text;
  if (iteration % 89 == 1) return in;
  const std::string &other = t.seeds[m.below(t.seeds.size())].text;
  for (size_t n = 1 + m.below(8); n--;) {
    m.mutate(in, t.tokens, other);
    if (in.size() > kMaxInput) in.resize(kMaxInput);
  }
  return in;
}

void save(const std::string &path, const std::string &in) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << in;
}

int usage() {
  std::fprintf(stderr,
               "usage: fuzz_readers [--seed N] [--count N | --seconds S] [--from I]\n"
               "                    [--only TARGET[,TARGET...]] [--time-limit S] [--save DIR]\n"
               "                    [--srcdir DIR] [--list] [--verbose]\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int64_t count = 400, from = 0;
  double seconds = 0;
  unsigned time_limit = 10;
  std::string only, save_dir = ".", src;
  bool list = false, verbose = false;
  if (const char *s = std::getenv("srcdir")) src = s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seed")
      seed = std::strtoull(val().c_str(), nullptr, 0);
    else if (a == "--count")
      count = std::strtoll(val().c_str(), nullptr, 0);
    else if (a == "--from")
      from = std::strtoll(val().c_str(), nullptr, 0);
    else if (a == "--seconds")
      seconds = std::strtod(val().c_str(), nullptr);
    else if (a == "--time-limit")
      time_limit = static_cast<unsigned>(std::strtoul(val().c_str(), nullptr, 0));
    else if (a == "--only")
      only = "," + val() + ",";
    else if (a == "--save")
      save_dir = val();
    else if (a == "--srcdir")
      src = val();
    else if (a == "--list")
      list = true;
    else if (a == "--verbose")
      verbose = true;
    else
      return usage();
  }
  if (src.empty()) src = ".";
  if (count < 0 || from < 0 || time_limit == 0) return usage();

  Contexts cx;
  char tmpl[] = "/tmp/keiro-fuzz-XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::perror("fuzz_readers: mkdtemp");
    return 99;
  }
  cx.tmpdir = tmpl;
  std::vector<Target> targets = make_targets(src, cx);
  if (list) {
    for (const Target &t : targets) std::printf("%s (%zu seeds)\n", t.name, t.seeds.size());
    return 0;
  }
  std::vector<size_t> chosen;
  for (size_t k = 0; k < targets.size(); ++k)
    if (only.empty() || only.find("," + std::string(targets[k].name) + ",") != std::string::npos)
      chosen.push_back(k);
  if (chosen.empty()) return usage();
  signal(SIGALRM, on_alarm);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, on_crash);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_sanitizer_death);

  using clock = std::chrono::steady_clock;
  int failures = 0;
  const auto t_all = clock::now();
  std::vector<Stats> stats(targets.size());
  for (size_t k : chosen) {
    const Target &t = targets[k];
    Stats &st = stats[k];
    const auto t0 = clock::now();
    for (int64_t it = from;; ++it) {
      if (seconds > 0) {
        if (std::chrono::duration<double>(clock::now() - t0).count() >= seconds / chosen.size())
          break;
      } else if (it >= from + count) {
        break;
      }
      int context = 0;
      const std::string in = make_input(seed, it, t, context);
      const std::string path = save_dir + "/fuzz-" + t.name + "-" + std::to_string(it) + ".txt";
      std::snprintf(g_save_path, sizeof g_save_path, "%s", path.c_str());
      g_input = in.data();
      g_input_size = in.size();
      std::string problem;
      Verdict v;
      const auto s0 = clock::now();
      alarm(time_limit);
      try {
        v = t.run(in, context);
      } catch (const std::exception &e) {
        problem = std::string("threw ") + e.what();
      } catch (...) {
        problem = "threw a non-standard exception";
      }
      alarm(0);
      const double dt = std::chrono::duration<double>(clock::now() - s0).count();
      ++st.tried;
      if (dt > st.slowest) st.slowest = dt, st.slowest_iteration = it;
      if (verbose)
        std::printf("%s %" PRId64 ": %zu bytes, %s%s\n", t.name, it, in.size(),
                    v.accepted ? "accepted" : "rejected: ", v.accepted ? "" : v.err.c_str());
      if (problem.empty()) {
        if (v.accepted) {
          ++st.accepted;
        } else {
          ++st.rejected;
          if (v.err.empty())
            problem = "rejected the input without an error message";
          else if (v.err.find('\n') != std::string::npos)
            problem = "error of more than one line: " + v.err;
        }
      }
      if (!problem.empty()) {
        ++failures;
        save(path, in);
        std::printf("FAIL %s iteration %" PRId64 ": %s (input in %s)\n", t.name, it,
                    problem.c_str(), path.c_str());
      }
    }
    std::printf("%-15s %8" PRId64 " inputs, %7" PRId64 " accepted, %7" PRId64
                " rejected, slowest %.3f s (iteration %" PRId64 ")\n",
                t.name, st.tried, st.accepted, st.rejected, st.slowest, st.slowest_iteration);
    std::fflush(stdout);
  }
  int64_t total = 0;
  for (size_t k : chosen) total += stats[k].tried;
  std::printf("fuzz_readers: seed %" PRIu64 ", %" PRId64
              " inputs over %zu readers in %.1f s, %d failure(s)\n",
              seed, total, chosen.size(),
              std::chrono::duration<double>(clock::now() - t_all).count(), failures);
  for (const char *f : {"fuzz.conf", "opensm-subnet.lst", "opensm-lfts.dump", "opensm-sl2vl.dump",
                        "keiro-path-sl.dump"})
    std::remove((cx.tmpdir + "/" + f).c_str());
  for (const char *f : {"opensm-subnet.lst", "keiro-tables.bin"})
    std::remove((cx.tmpdir + "/compact/" + f).c_str());
  rmdir((cx.tmpdir + "/compact").c_str());
  rmdir(cx.tmpdir.c_str());
  return failures ? 1 : 0;
}
