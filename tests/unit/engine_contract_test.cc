// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The contract every registered engine (all_engines(), core/engine/engine.h) keeps,
// checked through pipeline::route() (route + self-check) on small fabrics: a ring
// and a torus with CAs, parallel links between two switches, LMC 2, and no
// terminals at all:
//  - every LID is routed: on every switch, every CA LID (all LMC offsets)
//    and every switch LID has a switch-to-switch out port, or its home port
//    (port 0 for the switch's own LID) on its own switch;
//  - the VL and SL budgets hold: the VLs that the SL2VL tables give the SLs
//    actually used, on every hop onto a switch-to-switch link, are below
//    max_vls, and the used SLs below max_sls;
//  - the tables pass the independent walker of tests/unit/oracles.h (no
//    unreachable LID, no loop, no credit loop), besides pipeline::route's check;
// and on a disconnected fabric the engine returns false with exactly one
// ERROR line. Every engine also routes LMC 1..7 (EngineLmc). keiro-loren gets a layout file (switch
// i at (i mod w, i / w)).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/pipeline/pipeline.h"
#include "core/registry/registry.h"
#include "tests/unit/fabrics.h"
#include "tests/unit/oracles.h"

namespace keiro {
namespace {

constexpr int kMaxVls = 2;
constexpr int kMaxSls = 8;

struct NamedFabric {
  const char *name;
  Fabric (*make)();
};

const std::vector<NamedFabric> &fabrics() {
  static const std::vector<NamedFabric> all = {
      {"Ring6", [] { return fixtures::ring(6, {.hcas = 1}); }},
      {"Torus3x3",
       [] { return fixtures::from_links(9, fixtures::torus_links(3, 3), {.hcas = 1}); }},
      {"ParallelLinks",
       [] {
         return fixtures::from_links(4, {{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 0}}, {.hcas = 1});
       }},
      {"Lmc2", [] { return fixtures::random_regular(8, 3, 1, {.hcas = 2, .lmc = 2}); }},
      {"NoTerminals", [] { return fixtures::from_links(9, fixtures::torus_links(3, 3)); }},
  };
  return all;
}

// Options for engine e on f: keiro-loren gets a layout file that places
// switch i at (i mod w, i / w), w = ceil(sqrt(S)).
std::string options_for(const EngineDesc &e, const Fabric &f, const std::string &tag) {
  if (std::string(e.name) != "loren") return "";
  const int32_t S = f.num_switches();
  const auto w = static_cast<int32_t>(std::ceil(std::sqrt(static_cast<double>(S))));
  const std::string path = ::testing::TempDir() + "/contract_" + tag + ".layout";
  std::ofstream out(path);
  for (int32_t s = 0; s < S; ++s)
    out << "0x" << std::hex << f.sw(s).guid << std::dec << " " << s % w << " " << s / w << "\n";
  return "loren_layout=" + path;
}

class EngineContract : public ::testing::TestWithParam<std::tuple<size_t, size_t>> {
 protected:
  const EngineDesc &engine() const { return all_engines()[std::get<0>(GetParam())]; }
  const NamedFabric &fabric() const { return fabrics()[std::get<1>(GetParam())]; }
};

TEST_P(EngineContract, RoutesEveryLidWithinTheBudgetsAndPassesTheCheck) {
  const EngineDesc &e = engine();
  const Fabric f = fabric().make();
  const std::string tag = std::string(e.name) + "_" + fabric().name;
  const fixtures::EngineRun run = fixtures::run_captured(
      f, e.name, {.opts = options_for(e, f, tag), .max_vls = kMaxVls, .max_sls = kMaxSls});
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  const Routing &r = run.out;

  // The fixture's LIDs: one per switch, 2^lmc per CA.
  int64_t expected_lids = f.num_switches();
  for (int32_t t = 0; t < f.num_terminals(); ++t) expected_lids += int64_t{1} << f.terminal(t).lmc;
  ASSERT_EQ(static_cast<int64_t>(f.lids().size()), expected_lids);

  // (b) every LID routed.
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (const uint16_t lid : f.lids()) {
      const uint8_t port = r.out_port(s, lid);
      if (f.lid_switch(lid) == s) {
        EXPECT_EQ(port, fixtures::home_port(f, lid)) << f.sw(s).name << " LID " << lid;
      } else {
        EXPECT_EQ(f.peer(s, port).kind, PortPeer::kSwitch)
            << f.sw(s).name << " LID " << lid << " port " << int{port};
      }
    }

  // (c) the budgets: SLs used by any path, then the VLs the SL2VL tables give
  // them on every hop onto a switch-to-switch link (from port 0, a CA port or
  // another switch port).
  std::set<int> sls, vls;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (const uint16_t lid : f.lids()) sls.insert(r.path_sl(s, lid));
  for (const int sl : sls) EXPECT_LT(sl, kMaxSls) << "SL " << sl;
  EXPECT_LE(static_cast<int>(sls.size()), kMaxSls);
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    std::vector<uint8_t> in_ports = {0};
    for (const int32_t t : f.terminals_of(s)) in_ports.push_back(f.terminal(t).sw_port);
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c)
      in_ports.push_back(f.channel(c).src_port);
    for (int32_t c = f.out_begin(s); c < f.out_end(s); ++c) {
      const uint8_t out = f.channel(c).src_port;
      for (const uint8_t in : in_ports) {
        if (in == out) continue;
        for (const int sl : sls) {
          const int vl = r.vl(s, in, out, static_cast<uint8_t>(sl));
          if (vl == 15) continue;  // drop: a turn no path with this SL takes
          vls.insert(vl);
          EXPECT_LT(vl, kMaxVls) << f.sw(s).name << " " << int{in} << "->" << int{out} << " SL "
                                 << sl;
        }
      }
    }
  }
  EXPECT_LE(static_cast<int>(vls.size()), kMaxVls);

  // (d) pipeline::route's self-check passed (run.ok); the independent walker of
  // tests/unit/oracles.h checks the tables again without core/check: every
  // (switch, LID) reaches its port, no loop, no credit loop over (channel, VL).
  const fixtures::RouteCheck c = fixtures::check_routes(f, r);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.paths, static_cast<int64_t>(f.num_switches()) * f.lids().size());
  EXPECT_LE(c.vls, kMaxVls);
  EXPECT_EQ(fixtures::credit_loop_problem(f, r), "");
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<size_t, size_t>> &info) {
  return std::string(all_engines()[std::get<0>(info.param)].name) + "_" +
         fabrics()[std::get<1>(info.param)].name;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineContract,
                         ::testing::Combine(::testing::Range<size_t>(0, all_engines().size()),
                                            ::testing::Range<size_t>(0, fabrics().size())),
                         case_name);

// LMC 1..7 (the docs' claim): every engine routes every LID of a small
// fabric (a 2x2 torus of 4 switches, one CA each: with LMC 7, 128 LIDs per CA
// port) through pipeline::route (route + self-check), every LID has a route to its
// port, and the independent walker finds no loop and no credit loop.
class EngineLmc : public ::testing::TestWithParam<std::tuple<size_t, int>> {};

TEST_P(EngineLmc, EveryLidRoutedAndChecked) {
  const EngineDesc &e = all_engines()[std::get<0>(GetParam())];
  const auto lmc = static_cast<uint8_t>(std::get<1>(GetParam()));
  const Fabric f =
      fixtures::from_links(4, {{0, 1}, {1, 3}, {3, 2}, {2, 0}}, {.hcas = 1, .lmc = lmc});
  ASSERT_EQ(f.lids().size(), 4u + 4u * (1u << lmc));
  const std::string tag = std::string(e.name) + "_lmc" + std::to_string(lmc);
  const fixtures::EngineRun run = fixtures::run_captured(
      f, e.name, {.opts = options_for(e, f, tag), .max_vls = kMaxVls, .max_sls = kMaxSls});
  ASSERT_TRUE(run.ok) << run.last_line();
  EXPECT_EQ(run.log.count(LogLevel::kError), 0);
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (const uint16_t lid : f.lids()) {
      const uint8_t port = run.out.out_port(s, lid);
      if (f.lid_switch(lid) == s) {
        EXPECT_EQ(port, fixtures::home_port(f, lid)) << f.sw(s).name << " LID " << lid;
      } else {
        EXPECT_EQ(f.peer(s, port).kind, PortPeer::kSwitch) << f.sw(s).name << " LID " << lid;
      }
    }
  const fixtures::RouteCheck c = fixtures::check_routes(f, run.out);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.paths, static_cast<int64_t>(f.num_switches()) * f.lids().size());
  EXPECT_LE(c.vls, kMaxVls);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineLmc,
                         ::testing::Combine(::testing::Range<size_t>(0, all_engines().size()),
                                            ::testing::Range(1, 8)),
                         [](const ::testing::TestParamInfo<std::tuple<size_t, int>> &info) {
                           return std::string(all_engines()[std::get<0>(info.param)].name) +
                                  "_lmc" + std::to_string(std::get<1>(info.param));
                         });

// (a) a disconnected fabric: false and exactly one ERROR line.
class EngineContractDisconnected : public ::testing::TestWithParam<size_t> {};

TEST_P(EngineContractDisconnected, ReturnsFalseWithOneErrorLine) {
  const EngineDesc &e = all_engines()[GetParam()];
  const Fabric f = fixtures::from_links(4, {{0, 1}, {2, 3}}, {.hcas = 1});
  const fixtures::EngineRun run =
      fixtures::run_captured(f, e.name,
                             {.opts = options_for(e, f, std::string(e.name) + "_split"),
                              .max_vls = kMaxVls,
                              .max_sls = kMaxSls});
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.log.count(LogLevel::kError), 1) << run.last_line();
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineContractDisconnected,
                         ::testing::Range<size_t>(0, all_engines().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           return std::string(all_engines()[info.param].name);
                         });

}  // namespace
}  // namespace keiro
