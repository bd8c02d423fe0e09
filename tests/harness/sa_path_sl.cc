// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// sa_path_sl: asks the SA for one PathRecord per (SLID, DLID) pair and prints
// the SL it hands out. saquery needs one process per pair (and shows only the
// first records of a multi-record answer under umad2sim, which has no RMPP),
// so the harness uses this instead: one umad port, a window of outstanding
// SubnAdmGet(PathRecord) requests with SLID and DLID set, answers matched by
// transaction id, resends after a timeout.
//
// Input (stdin or --pairs FILE): "slid dlid" per line, decimal or 0x hex.
// Output (stdout): keiro's path-SL file (core/io/path_sl_file.h) in
// source-lid scope, engine "sa", which `keiro check` reads; pairs without a
// record stay '-'. With --raw: "slid dlid sl" per pair in input order, sl "-"
// when the SA gave no record.
// Exit: 0 all pairs answered, 1 some pairs got no record, 2 usage or I/O
// error (SA unreachable after the retries).
// Runs under LD_PRELOAD=libumad2sim.so against ibsim, or on a real port.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/check/verify.h"
#include "core/io/path_sl_file.h"
#include "core/timing.h"
#include "tests/harness/mad_bytes.h"
#include "tests/harness/sa_port.h"

namespace {

constexpr uint8_t kMethodGet = 0x01, kMethodGetResp = 0x81;
constexpr uint16_t kAttrPathRecord = 0x0035;
constexpr uint64_t kCompDlid = 1ull << 4, kCompSlid = 1ull << 5;

using namespace keiro::harness;  // put16 ... get32, SaPort

struct Pair {
  uint16_t slid, dlid;
  int sl = -2;  // -2 pending, -1 no record, else SL
  int tries = 0;
};

void usage() {
  std::fprintf(
      stderr,
      "usage: sa_path_sl [--pairs FILE] [--raw] [--window N] [--timeout MS] [--retries N]\n"
      "                  [--ca NAME] [--port N]\n"
      "  reads 'slid dlid' lines, prints keiro's path-SL file (source-lid scope)\n"
      "  or, with --raw, 'slid dlid sl' lines ('-' = no record)\n");
}

bool parse_lid(const std::string &s, uint16_t &out) {
  char *end = nullptr;
  const unsigned long v = std::strtoul(s.c_str(), &end, 0);
  if (!end || *end || v == 0 || v > 0xFFFF) return false;
  out = static_cast<uint16_t>(v);
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::string pairs_file;
  SaOptions so;
  int window = 32;
  bool raw = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    const char *v = nullptr;
    if (a == "--raw")
      raw = true;
    else if (a == "--pairs" && (v = next()))
      pairs_file = v;
    else if (a == "--window" && (v = next()))
      window = std::atoi(v);
    else if (!so.take(argc, argv, i)) {
      usage();
      return 2;
    }
  }
  if (window < 1 || !so.valid()) {
    usage();
    return 2;
  }

  std::vector<Pair> pairs;
  {
    std::ifstream file;
    std::istream *input = open_input("sa_path_sl", pairs_file, file);
    if (!input) return 2;
    std::istream &in = *input;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::istringstream ls(line);
      std::string a, b;
      if (!(ls >> a) || a[0] == '#') continue;
      Pair p{};
      if (!(ls >> b) || !parse_lid(a, p.slid) || !parse_lid(b, p.dlid)) {
        std::fprintf(stderr, "sa_path_sl: line %d: expected 'slid dlid'\n", n);
        return 2;
      }
      p.sl = -2;
      pairs.push_back(p);
    }
  }

  SaPort sa;
  if (!sa.open("sa_path_sl", so.ca, so.port)) return 2;
  std::unordered_map<uint32_t, size_t> outstanding;  // TID -> pair index
  uint32_t next_tid = 1;
  size_t next_pair = 0, done = 0;
  std::vector<size_t> resend;

  auto send = [&](size_t idx) -> bool {
    const uint32_t tid = next_tid++;
    uint8_t *mad = sa.request(kMethodGet, kAttrPathRecord, kCompDlid | kCompSlid, tid);
    put16(mad + kSaDataOffset + 40, pairs[idx].dlid);
    put16(mad + kSaDataOffset + 42, pairs[idx].slid);
    if (!sa.send(so.timeout_ms)) return false;
    outstanding[tid] = idx;
    ++pairs[idx].tries;
    return true;
  };

  keiro::Clock::time_point last_progress = keiro::Clock::now();
  while (done < pairs.size()) {
    while (outstanding.size() < static_cast<size_t>(window) &&
           (!resend.empty() || next_pair < pairs.size())) {
      size_t idx;
      if (!resend.empty()) {
        idx = resend.back();
        resend.pop_back();
      } else {
        idx = next_pair++;
      }
      if (!send(idx)) {
        std::fprintf(stderr, "sa_path_sl: umad_send failed\n");
        return 2;
      }
    }
    bool timed_out = false;
    const uint8_t *mad = sa.recv(100, timed_out);
    if (timed_out) {
      if (keiro::seconds_since(last_progress) * 1000 < so.timeout_ms) continue;
      // Nothing came back in time: resend what is outstanding.
      for (const auto &[tid, idx] : outstanding) {
        if (pairs[idx].tries > so.retries) {
          std::fprintf(stderr, "sa_path_sl: no answer from the SA (LID %d) for %u -> %u\n",
                       sa.sm_lid, pairs[idx].slid, pairs[idx].dlid);
          return 2;
        }
        resend.push_back(idx);
      }
      outstanding.clear();
      last_progress = keiro::Clock::now();
      continue;
    }
    if (!mad || mad[3] != kMethodGetResp) continue;  // a timed-out send coming back, or not ours
    const auto it = outstanding.find(get32(mad + 12));
    if (it == outstanding.end()) continue;  // a late answer to a resent request
    Pair &p = pairs[it->second];
    outstanding.erase(it);
    const uint16_t status = get16(mad + 4);
    p.sl = status == 0 ? (get16(mad + kSaDataOffset + 52) & 0xF) : -1;
    ++done;
    last_progress = keiro::Clock::now();
  }
  sa.close();

  int missing = 0;
  uint16_t max_lid = 0;
  for (const Pair &p : pairs) {
    missing += p.sl < 0;
    max_lid = std::max({max_lid, p.slid, p.dlid});
  }
  if (raw) {
    for (const Pair &p : pairs) {
      if (p.sl < 0)
        std::printf("%u %u -\n", p.slid, p.dlid);
      else
        std::printf("%u %u %d\n", p.slid, p.dlid, p.sl);
    }
  } else {
    keiro::check::SourceLidSls sls;
    sls.reset(max_lid);
    for (const Pair &p : pairs)
      if (p.sl >= 0) sls.set(p.slid, p.dlid, static_cast<uint8_t>(p.sl));
    keiro::io::write_path_sl_file(std::cout, sls, max_lid, "sa");
    std::cout.flush();
  }
  if (missing)
    std::fprintf(stderr, "sa_path_sl: %d of %zu pairs got no record\n", missing, pairs.size());
  return missing ? 1 : 0;
}
