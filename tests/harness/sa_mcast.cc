// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// sa_mcast: joins ports to multicast groups and takes them out again through
// the SA (MCMemberRecord, attribute 0x0038), as proxy joins made from this
// tool's umad port for other end ports of the subnet. OpenSM 3.3.23 accepts
// a proxy join when the requesting port and the joined port share a P_Key
// (every port does in the default partition). One request is outstanding at
// a time; a request without an answer is resent with a new transaction id.
//
// Commands on stdin (or --file FILE), one per line; '#' starts a comment:
//   join  MGID PORTGUID [sl=N] [qkey=Q] [pkey=P] [tclass=T] [flow=F]
//                       [mtu=M] [rate=R] [state=S]
//   leave MGID PORTGUID [state=S]
//   query MGID
// MGID is an IPv6-style address (ff12:401b:ffff::1,
// ff12:601b:ffff:0000:0000:0001:ff00:0001); PORTGUID a port GUID in hex
// (0x optional).
// state= is the JoinState bit mask (1 full member, the default; 2 non
// member; 4 send-only non member; 8 send-only full member).
//
// join: SubnAdmGet(MCMemberRecord) by MGID first. If the group exists, a
// SubnAdmSet with MGID, PortGID, JoinState, Q_Key and P_Key of the group
// (plus SL, MTU, rate... when given: OpenSM then checks them against the
// group). If it does not, a SubnAdmSet with the component mask OpenSM 3.3.23
// requires to create a group (REQUIRED_MC_CREATE_COMP_MASK in
// osm_sa_mcmember_record.c: MGID, PortGID, JoinState, Q_Key, TClass, P_Key,
// FlowLabel, SL); MTU and rate go in only when given (selector "exactly"),
// else OpenSM takes the joined port's. For IPoIB MGIDs (signature 0x401B or
// 0x601B) other than a broadcast group, the defaults (Q_Key, SL, TClass,
// FlowLabel, MTU, rate) are the IPv4 broadcast group's of the same P_Key,
// as Linux IPoIB does: OpenSM refuses such a create when they differ from
// the broadcast group's (ERR 1B1C). Other groups default to Q_Key 0x0b1b,
// P_Key 0xffff, SL 0.
// leave: SubnAdmDelete with MGID, PortGID and JoinState.
//
// Output (stdout): one line per command,
//   0xc001 join ff12:401b:ffff::1 0x0103000000000001 sl=0 qkey=0x00000b1b
//     pkey=0xffff mtu=4 rate=3 created                       (one line)
//   0xc001 leave ff12:401b:ffff::1 0x0103000000000001
//   0xc001 query ff12:401b:ffff::1 sl=0 qkey=0x00000b1b pkey=0xffff mtu=4
//     rate=3                                                 (one line)
//   ERR join ff12:601b:ffff::1:ff00:9 0x0103000000000001 status=0x0200
//     ERR_REQ_INVALID                                        (one line)
// The first field is the MLID the SA answered (for leave: the group's MLID
// from a query just before) or ERR; "created" when the join created the
// group. mtu and rate are the IBA codes (4: 2048 bytes, 3: 10 Gb/s).
// Exit: 0 every command succeeded, 1 some were refused by the SA, 2 usage,
// I/O error or no answer from the SA after the retries.
// Runs under LD_PRELOAD=libumad2sim.so against ibsim, or on a real port.
#include <arpa/inet.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/harness/mad_bytes.h"
#include "tests/harness/sa_port.h"

namespace {

constexpr uint8_t kMethodGet = 0x01, kMethodSet = 0x02, kMethodDelete = 0x15;
constexpr uint16_t kAttrMcMemberRecord = 0x0038;
constexpr uint32_t kIpoibQkey = 0x00000b1b;

// MCMemberRecord component mask bits (IBA 15.2.5.17).
constexpr uint64_t kMgid = 1ull << 0, kPortGid = 1ull << 1, kQkey = 1ull << 2, kMtuSel = 1ull << 4,
                   kMtu = 1ull << 5, kTclass = 1ull << 6, kPkey = 1ull << 7, kRateSel = 1ull << 8,
                   kRate = 1ull << 9, kSl = 1ull << 12, kFlow = 1ull << 13, kJoinState = 1ull << 16;
// What OpenSM 3.3.23 needs to create a group (REQUIRED_MC_CREATE_COMP_MASK).
constexpr uint64_t kCreateMask =
    kMgid | kPortGid | kJoinState | kQkey | kTclass | kPkey | kFlow | kSl;
constexpr uint64_t kJoinMask = kMgid | kPortGid | kJoinState;

// Offsets inside the 52-byte MCMemberRecord.
constexpr int kOffMgid = 0, kOffPortGid = 16, kOffQkey = 32, kOffMlid = 36, kOffMtu = 38,
              kOffTclass = 39, kOffPkey = 40, kOffRate = 42, kOffSlFlowHop = 44,
              kOffScopeState = 48;

using namespace keiro::harness;  // put16 ... get32, SaPort

// The group parameters the SA reports (or that a create asks for).
struct Group {
  uint16_t mlid = 0;
  uint32_t qkey = kIpoibQkey;
  uint16_t pkey = 0xffff;
  uint8_t tclass = 0, sl = 0, mtu = 0, rate = 0;  // mtu/rate 0: not given
  uint32_t flow = 0;
};

struct Mgid {
  uint8_t raw[16];
  std::string text;  // as given on the command line
};

// The SA status's name: its class-specific code (bits 8-14, IBA 15.2.1.1)
// or else its MAD status code (bits 2-4).
const char *sa_status_name(uint16_t st) {
  static const char *const kSa[] = {nullptr,
                                    "ERR_NO_RESOURCES",
                                    "ERR_REQ_INVALID",
                                    "ERR_NO_RECORDS",
                                    "ERR_TOO_MANY_RECORDS",
                                    "ERR_REQ_INVALID_GID",
                                    "ERR_REQ_INSUFFICIENT_COMPONENTS",
                                    "ERR_REQ_DENIED"};
  static const char *const kMad[] = {
      "UNKNOWN", "BAD_VERSION", "METHOD_NOT_SUPPORTED", "METHOD_ATTR_NOT_SUPPORTED", "UNKNOWN",
      "UNKNOWN", "UNKNOWN",     "INVALID_FIELD"};
  const unsigned sa = (st >> 8) & 0x7f;
  if (sa < 8 && kSa[sa]) return kSa[sa];
  return kMad[(st >> 2) & 7];
}

bool parse_u(const std::string &s, uint64_t max, uint64_t &out) {
  if (s.empty()) return false;
  char *end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (errno || !end || *end || v > max) return false;
  out = v;
  return true;
}

bool is_ipoib(const uint8_t *mgid) {
  const uint16_t sig = get16(mgid + 2);
  return sig == 0x401b || sig == 0x601b;
}

// The IPv4 broadcast MGID of the partition and scope of an IPoIB MGID.
void ipoib_bcast_of(const uint8_t *mgid, uint8_t *out) {
  static const uint8_t kBcast[16] = {0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0,    0,
                                     0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff};
  std::memcpy(out, kBcast, 16);
  out[1] = static_cast<uint8_t>(0x10 | (mgid[1] & 0x0f));
  out[4] = mgid[4];
  out[5] = mgid[5];
}

class Sa {
 public:
  SaPort port;
  uint64_t prefix = 0;
  int timeout_ms = 1000, retries = 5;

  // One request, one answer: returns false when no answer came after the
  // retries (then the caller gives up: exit 2). status/rec of the answer.
  bool call(uint8_t method, uint64_t mask, const uint8_t *rec, uint16_t &status,
            std::vector<uint8_t> &answer) {
    for (int attempt = 0; attempt <= retries; ++attempt) {
      const uint32_t tid = next_tid_++;
      std::memcpy(port.request(method, kAttrMcMemberRecord, mask, tid) + kSaDataOffset, rec, 52);
      if (!port.send(timeout_ms)) {
        std::fprintf(stderr, "sa_mcast: umad_send failed\n");
        return false;
      }
      const auto t0 = std::chrono::steady_clock::now();
      for (;;) {
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - t0)
                                .count();
        if (waited >= timeout_ms) break;
        bool timed_out = false;
        const uint8_t *r = port.recv(static_cast<int>(timeout_ms - waited), timed_out);
        if (timed_out) break;
        if (!r || get32(r + 12) != tid)
          continue;  // not an SA answer, or a late one to an earlier try
        status = get16(r + 4);
        answer.assign(r + kSaDataOffset, r + kSaDataOffset + 52);
        return true;
      }
      std::fprintf(stderr, "sa_mcast: no answer from the SA (LID %d), try %d of %d\n", port.sm_lid,
                   attempt + 1, retries + 1);
    }
    return false;
  }

 private:
  uint32_t next_tid_ = 1;
};

Group group_of(const std::vector<uint8_t> &r) {
  Group g;
  g.mlid = get16(r.data() + kOffMlid);
  g.qkey = get32(r.data() + kOffQkey);
  g.pkey = get16(r.data() + kOffPkey);
  g.tclass = r[kOffTclass];
  g.mtu = r[kOffMtu] & 0x3f;
  g.rate = r[kOffRate] & 0x3f;
  const uint32_t sfh = get32(r.data() + kOffSlFlowHop);
  g.sl = static_cast<uint8_t>(sfh >> 28);
  g.flow = (sfh >> 8) & 0xfffff;
  return g;
}

std::string describe(const Group &g) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "sl=%u qkey=0x%08x pkey=0x%04x mtu=%u rate=%u", g.sl, g.qkey,
                g.pkey, g.mtu, g.rate);
  return buf;
}

void usage() {
  std::fprintf(
      stderr,
      "usage: sa_mcast [--file FILE] [--timeout MS] [--retries N] [--ca NAME] [--port N]\n"
      "  commands (stdin): join MGID PORTGUID [sl=N qkey=Q pkey=P tclass=T flow=F mtu=M\n"
      "                    rate=R state=S] | leave MGID PORTGUID [state=S] | query MGID\n");
}

}  // namespace

int main(int argc, char **argv) {
  std::string file;
  SaOptions so;
  Sa sa;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    const char *v = nullptr;
    if (a == "--file" && (v = next()))
      file = v;
    else if (!so.take(argc, argv, i)) {
      usage();
      return 2;
    }
  }
  sa.timeout_ms = so.timeout_ms;
  sa.retries = so.retries;
  if (!so.valid()) {
    usage();
    return 2;
  }
  std::ifstream in_file;
  std::istream *input = open_input("sa_mcast", file, in_file);
  if (!input) return 2;
  std::istream &in = *input;

  if (!sa.port.open("sa_mcast", so.ca, so.port)) return 2;
  sa.prefix = sa.port.gid_prefix ? sa.port.gid_prefix : 0xfe80000000000000ull;

  int refused = 0;
  bool lost = false;
  std::string line;

  // query: the group's record by MGID. nullopt + status when there is none.
  auto query = [&](const uint8_t *mgid, uint16_t &status) -> std::optional<Group> {
    uint8_t rec[52] = {};
    std::memcpy(rec + kOffMgid, mgid, 16);
    std::vector<uint8_t> ans;
    if (!sa.call(kMethodGet, kMgid, rec, status, ans)) {
      lost = true;
      return std::nullopt;
    }
    if (status != 0) return std::nullopt;
    return group_of(ans);
  };

  for (int n = 1; !lost && std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream ls(line);
    std::string cmd, mgid_s, guid_s, word;
    if (!(ls >> cmd)) continue;
    auto bad = [&](const char *why) {
      std::fprintf(stderr, "sa_mcast: line %d: %s\n", n, why);
      std::exit(2);
    };
    if (cmd != "join" && cmd != "leave" && cmd != "query") bad("expected join, leave or query");
    if (!(ls >> mgid_s)) bad("no MGID");
    Mgid mgid;
    mgid.text = mgid_s;
    if (inet_pton(AF_INET6, mgid_s.c_str(), mgid.raw) != 1 || mgid.raw[0] != 0xff)
      bad("MGID is no multicast GID (ff..:...)");
    uint64_t guid = 0;
    if (cmd != "query") {
      // Port GUIDs are hex with or without 0x (opensm-subnet.lst has none).
      if (!(ls >> guid_s)) bad("expected a port GUID (0x...)");
      if (guid_s.rfind("0x", 0) != 0 && guid_s.rfind("0X", 0) != 0) guid_s = "0x" + guid_s;
      if (!parse_u(guid_s, UINT64_MAX, guid) || !guid) bad("expected a port GUID (0x...)");
    }
    std::optional<uint64_t> o_sl, o_qkey, o_pkey, o_tclass, o_flow, o_mtu, o_rate;
    uint64_t state = 1;
    while (ls >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos) bad("options are key=value");
      const std::string k = word.substr(0, eq), v = word.substr(eq + 1);
      uint64_t x = 0;
      auto num = [&](uint64_t max) {
        if (!parse_u(v, max, x)) bad("option value out of range");
        return x;
      };
      if (k == "sl")
        o_sl = num(15);
      else if (k == "qkey")
        o_qkey = num(UINT32_MAX);
      else if (k == "pkey")
        o_pkey = num(0xffff);
      else if (k == "tclass")
        o_tclass = num(255);
      else if (k == "flow")
        o_flow = num(0xfffff);
      else if (k == "mtu")
        o_mtu = num(5);
      else if (k == "rate")
        o_rate = num(63);
      else if (k == "state")
        state = num(15);
      else
        bad("unknown option");
    }
    if (!state) bad("state=0 joins nothing");
    char guid_txt[24] = "";
    if (cmd != "query")
      std::snprintf(guid_txt, sizeof guid_txt, " 0x%016llx", static_cast<unsigned long long>(guid));
    const std::string what = cmd + " " + mgid.text + guid_txt;
    auto refuse = [&](uint16_t status) {
      std::printf("ERR %s status=0x%04x %s\n", what.c_str(), status, sa_status_name(status));
      ++refused;
    };

    uint16_t status = 0;
    const auto existing = query(mgid.raw, status);
    if (lost) break;
    const bool absent = !existing && ((status >> 8) & 0x7f) == 3;  // ERR_NO_RECORDS
    if (!existing && !absent) {
      refuse(status);
      std::fflush(stdout);
      continue;
    }

    if (cmd == "query") {
      if (existing)
        std::printf("0x%04x %s %s\n", existing->mlid, what.c_str(), describe(*existing).c_str());
      else
        refuse(status);
      std::fflush(stdout);
      continue;
    }

    uint8_t rec[52] = {};
    std::memcpy(rec + kOffMgid, mgid.raw, 16);
    put64(rec + kOffPortGid, sa.prefix);
    put64(rec + kOffPortGid + 8, guid);
    rec[kOffScopeState] = static_cast<uint8_t>(state);

    if (cmd == "leave") {
      if (!existing) {
        refuse(status);
        std::fflush(stdout);
        continue;
      }
      std::vector<uint8_t> ans;
      if (!sa.call(kMethodDelete, kJoinMask, rec, status, ans)) {
        lost = true;
        break;
      }
      if (status)
        refuse(status);
      else
        std::printf("0x%04x %s\n", existing->mlid, what.c_str());
      std::fflush(stdout);
      continue;
    }

    // join: the group's own values, the broadcast group's for a new IPoIB
    // group, or the defaults; options override them.
    Group want;
    uint64_t mask = 0;
    bool create = !existing;
    if (existing) {
      want = *existing;
      mask = kJoinMask | kQkey | kPkey;
    } else {
      if (is_ipoib(mgid.raw)) {
        uint8_t bc[16];
        ipoib_bcast_of(mgid.raw, bc);
        if (std::memcmp(bc, mgid.raw, 16) != 0) {
          uint16_t bst = 0;
          const auto b = query(bc, bst);
          if (lost) break;
          if (b) want = *b;  // else OpenSM refuses the create (ERR 1B1B)
        }
      }
      want.mlid = 0;
      mask = kCreateMask;
      if (want.mtu) mask |= kMtu | kMtuSel;
      if (want.rate) mask |= kRate | kRateSel;
    }
    if (o_sl) want.sl = static_cast<uint8_t>(*o_sl), mask |= kSl;
    if (o_qkey) want.qkey = static_cast<uint32_t>(*o_qkey), mask |= kQkey;
    if (o_pkey) want.pkey = static_cast<uint16_t>(*o_pkey), mask |= kPkey;
    if (o_tclass) want.tclass = static_cast<uint8_t>(*o_tclass), mask |= kTclass;
    if (o_flow) want.flow = static_cast<uint32_t>(*o_flow), mask |= kFlow;
    if (o_mtu) want.mtu = static_cast<uint8_t>(*o_mtu), mask |= kMtu | kMtuSel;
    if (o_rate) want.rate = static_cast<uint8_t>(*o_rate), mask |= kRate | kRateSel;

    put32(rec + kOffQkey, want.qkey);
    rec[kOffTclass] = want.tclass;
    put16(rec + kOffPkey, want.pkey);
    if (mask & kMtu) rec[kOffMtu] = static_cast<uint8_t>(2 << 6 | want.mtu);     // exactly
    if (mask & kRate) rec[kOffRate] = static_cast<uint8_t>(2 << 6 | want.rate);  // exactly
    put32(rec + kOffSlFlowHop, uint32_t{want.sl} << 28 | want.flow << 8);
    std::vector<uint8_t> ans;
    if (!sa.call(kMethodSet, mask, rec, status, ans)) {
      lost = true;
      break;
    }
    if (status) {
      refuse(status);
    } else {
      const Group got = group_of(ans);
      std::printf("0x%04x %s %s%s\n", got.mlid, what.c_str(), describe(got).c_str(),
                  create ? " created" : "");
    }
    std::fflush(stdout);
  }
  sa.port.close();
  if (lost) return 2;
  return refused ? 1 : 0;
}
