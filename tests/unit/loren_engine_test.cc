// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro-loren through the registry and pipeline::route() (route + self-check):
// LRTs with HCAs at the paper's t_max values, and every failure as exactly
// one ERROR line.
#include <gtest/gtest.h>

#include <fstream>

#include "core/engine/engine.h"
#include "core/loren/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "tests/bench/loren_lrt.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

std::string write_file(const std::string &name, const std::string &text) {
  return fixtures::temp_file(name, text);
}

using EngineRun = fixtures::EngineRun;

void run(const Fabric &f, const std::string &opts, EngineRun &r, int max_vls = 8) {
  ASSERT_NE(find_engine("loren"), nullptr);
  r = fixtures::run_captured(f, "loren", {.opts = opts, .max_vls = max_vls});
}

TEST(LorenEngine, Registered) {
  const EngineDesc *e = find_engine("keiro-loren");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e, find_engine("loren"));
  EXPECT_EQ(e->route, loren::kEngine.route);
}

TEST(LorenEngine, RoutesLrt64WithTwoHcasAtThePapersTmax) {
  const bench::LrtFabric x = bench::make_lrt(8, 4, 2, 2, 1);
  const Fabric &f = x.f;
  const std::string lay = write_file("lrt64.layout", x.layout);
  for (int tmax : {18, 32}) {
    EngineRun r;
    run(f, "loren_layout=" + lay + " loren_tmax=" + std::to_string(tmax), r);
    ASSERT_TRUE(r.ok) << (r.log.lines.empty() ? "" : r.log.lines.back().text);
    EXPECT_EQ(r.log.count(LogLevel::kError), 0);
    EXPECT_EQ(r.rep.get("tmax"), std::to_string(tmax));
    EXPECT_LE(std::stoi(r.rep.get("table_size_max")), tmax);
    EXPECT_LE(std::stoi(r.rep.get("required_entries")), tmax);
    EXPECT_GE(std::stod(r.rep.get("avg_hops")), std::stod(r.rep.get("avg_min_hops")));
    EXPECT_LE(r.out.vls_used, 8);
    EXPECT_GE(r.out.vls_used, 1);
    EXPECT_EQ(r.out.engine, "keiro-loren");
    // Every switch's table size is reported.
    const std::string sizes = r.rep.get("table_sizes");
    EXPECT_EQ(std::count(sizes.begin(), sizes.end(), ' '), 63);
    // Every LID is routed on every switch.
    for (int32_t s = 0; s < f.num_switches(); ++s)
      for (uint16_t lid : f.lids()) EXPECT_NE(r.out.out_port(s, lid), kNoPort);
  }
}

TEST(LorenEngine, DefaultTmaxIsTheRequiredNumber) {
  const bench::LrtFabric x = bench::make_lrt(6, 4, 2, 1, 3);
  const Fabric &f = x.f;
  const std::string lay = write_file("lrt36.layout", x.layout);
  // The typed half of the engine (read_options + run, no report): numbers.
  Options o = all_options();
  std::string err;
  ASSERT_TRUE(Options::parse("loren_layout=" + lay, o, err)) << err;
  CaptureLogger log;
  EngineInput in{f, o, log};
  in.max_vls = 8;
  loren::EngineOptions eo;
  ASSERT_TRUE(loren::read_options(in, eo));
  EXPECT_EQ(eo.loren.tmax, 0);
  EXPECT_EQ(eo.layout_path, lay);
  Routing out;
  out.reset(f, Routing::SlScope::kPerSourceSwitch);  // as route_steps() does
  loren::EngineResult res;
  ASSERT_TRUE(loren::run(in, eo, out, res)) << (log.lines.empty() ? "" : log.lines.back().text);
  const loren::LorenTables &t = res.routing.tables;
  EXPECT_GT(t.required, 0);
  EXPECT_EQ(t.tmax, t.required);
  EXPECT_EQ(t.max_size(), t.tmax);
  EXPECT_EQ(out.vls_used, res.layers.vlmap.vls_used);
}

// Every failure is one ERROR line, and nothing is returned as a success.
void expect_one_error(const Fabric &f, const std::string &opts, const std::string &needle,
                      int max_vls = 8) {
  EngineRun r;
  run(f, opts, r, max_vls);
  EXPECT_FALSE(r.ok) << opts;
  EXPECT_EQ(r.log.count(LogLevel::kError), 1) << opts;
  bool found = false;
  for (const auto &l : r.log.lines)
    if (l.level == LogLevel::kError) {
      found = l.text.find(needle) != std::string::npos;
      EXPECT_EQ(l.text.rfind("keiro-loren: ", 0), 0u) << l.text;
      EXPECT_TRUE(found) << l.text << "\n  expected: " << needle;
    }
}

TEST(LorenEngine, BadLayoutsFailWithOneErrorLine) {
  const bench::LrtFabric x = bench::make_lrt(4, 4, 2, 1, 2);
  const Fabric &f = x.f;
  const std::string good = x.layout;
  expect_one_error(f, "", "option loren_layout is not set");
  expect_one_error(f, "loren_layout=/nonexistent/x.layout",
                   "cannot read layout file '/nonexistent/x.layout'");
  // Missing switch: drop the last line.
  std::string missing = good.substr(0, good.rfind('\n', good.size() - 2) + 1);
  expect_one_error(f, "loren_layout=" + write_file("missing.layout", missing), "has no position");
  // Duplicate position: switch 1 at switch 0's place (line 3 of the file).
  std::string dup = good;
  const size_t l3 = dup.find("0x0202000001000000 1 0");
  ASSERT_NE(l3, std::string::npos);
  dup.replace(l3, 22, "0x0202000001000000 0 0");
  expect_one_error(f, "loren_layout=" + write_file("dup.layout", dup),
                   "dup.layout:3: position (0,0) is already taken on line 2");
  expect_one_error(f, "loren_layout=" + write_file("nan.layout", "0x0202000000000000 a 0\n"),
                   "nan.layout:1: X 'a' is not a whole number");
}

TEST(LorenEngine, LayoutLinesOfSwitchesNotInTheFabricAreSkippedWithOneInfoLine) {
  // The admin's file still names a switch that failed: routed, one INFO line.
  const bench::LrtFabric x = bench::make_lrt(4, 4, 2, 1, 2);
  EngineRun r;
  run(x.f, "loren_layout=" + write_file("extra.layout", x.layout + "\n0x77 9 9\n\"gone\" 9 8\n"),
      r);
  ASSERT_TRUE(r.ok) << (r.log.lines.empty() ? "" : r.log.lines.back().text);
  EXPECT_EQ(r.log.count(LogLevel::kError), 0);
  int found = 0;
  for (const auto &l : r.log.lines)
    found +=
        l.level == LogLevel::kInfo && l.text.find("keiro-loren: layout ") == 0 &&
        l.text.find(": 2 switches not in the fabric skipped (first: 0x77)") != std::string::npos;
  EXPECT_EQ(found, 1) << r.log.lines.size() << " " << r.log.lines.front().text;
}

TEST(LorenEngine, TmaxTooSmallLivelockAndVlBudgetFailCleanly) {
  const bench::LrtFabric x = bench::make_lrt(8, 4, 2, 1, 1);
  const Fabric &f = x.f;
  const std::string lay = write_file("lrt64b.layout", x.layout);
  expect_one_error(f, "loren_layout=" + lay + " loren_tmax=3", "t_max 3 is below the");
  // One VL cannot hold LOREN's routes on this fabric.
  expect_one_error(f, "loren_layout=" + lay, "VLs for LOREN's routes", 1);
  // The ring with holes of loren_forward_test livelocks.
  const Fabric ring = fixtures::from_links(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}},
                                           {.hcas = 1, .prefix = "L", .guid = 0x300});
  const std::string holes = write_file("holes.layout", "L0 9 2\nL1 0 5\nL2 10 0\nL3 0 0\nL4 8 0\n");
  expect_one_error(ring, "loren_layout=" + holes, "livelock");
}

TEST(LorenEngine, AutoLayoutRoutesFabricsThatHaveNoLayoutFile) {
  // loren_layout=auto: a torus and a random fabric, which come without any
  // layout, are routed (and self-checked) with one INFO line naming the
  // derived grid; on an LRT the derived grid needs about the file's table
  // entries.
  for (const Fabric &f :
       {fixtures::generated_torus({4, 4}, 2), fixtures::random_regular(36, 4, 3, {.hcas = 1})}) {
    EngineRun r;
    run(f, "loren_layout=auto", r);
    ASSERT_TRUE(r.ok) << (r.log.lines.empty() ? "" : r.log.lines.back().text);
    EXPECT_EQ(r.log.count(LogLevel::kError), 0);
    int info = 0;
    for (const auto &l : r.log.lines)
      info += l.level == LogLevel::kInfo &&
              l.text.find("loren_layout=auto: no layout file, positions derived from the links") !=
                  std::string::npos;
    EXPECT_EQ(info, 1);
  }
  const bench::LrtFabric x = bench::make_lrt(8, 4, 2, 2, 1);
  EngineRun file, derived;
  run(x.f, "loren_layout=" + write_file("lrt64a.layout", x.layout), file);
  run(x.f, "loren_layout=auto", derived);
  ASSERT_TRUE(file.ok && derived.ok);
  EXPECT_LE(std::stoi(derived.rep.get("required_entries")),
            std::stoi(file.rep.get("required_entries")) + 2);
  EXPECT_LE(std::stod(derived.rep.get("avg_hops")), 1.10 * std::stod(file.rep.get("avg_hops")));
}

}  // namespace
}  // namespace keiro
