// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The umad side the harness's SA clients (sa_path_sl.cc, sa_mcast.cc) share:
// opening a umad port with an SA agent, building the header of an SA
// request and sending it to the SM, and accepting an answer.
//   SaPort sa;
//   if (!sa.open("sa_mcast", ca, port)) return 2;   // one stderr line said why
//   uint8_t *mad = sa.request(kMethodGet, attr, mask, tid);  // zeroed, header set
//   ... fill mad + kSaDataOffset ...
//   if (!sa.send(timeout_ms)) ...;
//   const uint8_t *r = sa.recv(wait_ms, timed_out);  // an SA answer, or nullptr
// Header only; O(1) per call besides the MAD copy.
#pragma once

#include <endian.h>
#include <infiniband/umad.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tests/harness/mad_bytes.h"

namespace keiro::harness {

constexpr int kMadSize = 256;
constexpr uint8_t kClassSa = 0x03, kSaClassVersion = 2;
constexpr int kSaDataOffset = 56;  // MAD header 24 + RMPP 12 + SA header 20
constexpr uint32_t kSaQkey = 0x80010000;

// The options every SA client takes: --timeout MS (per request), --retries
// N, --ca NAME, --port N.
struct SaOptions {
  std::string ca;
  int port = 0, timeout_ms = 1000, retries = 5;

  // When argv[i] is one of these options with its value: takes both (i moves
  // to the value) and returns true; else false.
  bool take(int argc, char **argv, int &i) {
    const std::string a = argv[i];
    if (i + 1 >= argc || (a != "--timeout" && a != "--retries" && a != "--ca" && a != "--port"))
      return false;
    const char *v = argv[++i];
    if (a == "--ca")
      ca = v;
    else
      (a == "--port" ? port : a == "--timeout" ? timeout_ms : retries) = std::atoi(v);
    return true;
  }
  bool valid() const { return timeout_ms >= 1 && retries >= 0; }
};

// The client's input: the file at path, or stdin when path is empty; null
// (after one stderr line "<tool>: cannot read PATH") when it cannot be read.
inline std::istream *open_input(const char *tool, const std::string &path, std::ifstream &file) {
  if (path.empty()) return &std::cin;
  file.open(path);
  if (file) return &file;
  std::fprintf(stderr, "%s: cannot read %s\n", tool, path.c_str());
  return nullptr;
}

class SaPort {
 public:
  int sm_lid = 0;
  uint64_t gid_prefix = 0;  // the port's subnet prefix (host order; 0 when unknown)

  SaPort() = default;
  SaPort(const SaPort &) = delete;
  SaPort &operator=(const SaPort &) = delete;
  ~SaPort() { close(); }

  // umad port portnum of CA ca (empty: umad's default) with an SA agent. On
  // failure prints "<tool>: why" on stderr and returns false.
  bool open(const char *tool, const std::string &ca, int portnum) {
    if (umad_init() < 0) return fail(tool, "umad_init failed");
    const char *ca_name = ca.empty() ? nullptr : ca.c_str();
    umad_port_t port;
    if (umad_get_port(ca_name, portnum, &port) < 0) return fail(tool, "no umad port");
    sm_lid = static_cast<int>(port.sm_lid);
    gid_prefix = be64toh(port.gid_prefix);
    umad_release_port(&port);
    if (!sm_lid) return fail(tool, "the port knows no SM LID (is the subnet up?)");
    if ((fd_ = umad_open_port(ca_name, portnum)) < 0)
      return fail(tool, "cannot open the umad port");
    agent_ = umad_register(fd_, kClassSa, kSaClassVersion, 0, nullptr);
    if (agent_ < 0) return fail(tool, "cannot register an SA agent");
    sbuf_.assign(umad_size() + kMadSize, 0);
    rbuf_.assign(umad_size() + kMadSize, 0);
    return true;
  }

  void close() {
    if (agent_ >= 0) umad_unregister(fd_, agent_);
    if (fd_ >= 0) umad_close_port(fd_);
    agent_ = fd_ = -1;
  }

  // The send buffer's MAD, zeroed, with the SA request header: method,
  // transaction id, attribute and component mask.
  uint8_t *request(uint8_t method, uint16_t attr, uint64_t mask, uint32_t tid) {
    std::memset(sbuf_.data(), 0, sbuf_.size());
    auto *mad = static_cast<uint8_t *>(umad_get_mad(sbuf_.data()));
    mad[0] = 1;
    mad[1] = kClassSa;
    mad[2] = kSaClassVersion;
    mad[3] = method;
    put64(mad + 8, tid);
    put16(mad + 16, attr);
    put64(mad + 48, mask);
    return mad;
  }

  // Sends the request to the SM's LID; false when umad_send fails.
  bool send(int timeout_ms) {
    umad_set_addr(sbuf_.data(), sm_lid, 1, 0, static_cast<int>(kSaQkey));
    return umad_send(fd_, agent_, sbuf_.data(), kMadSize, timeout_ms, 0) >= 0;
  }

  // Receives one MAD within wait_ms. Returns it when it is an SA answer (a
  // response method) without a umad error status; nullptr when nothing came
  // (timed_out) or the MAD was something else (a send that timed out coming
  // back, another class): the caller loops.
  const uint8_t *recv(int wait_ms, bool &timed_out) {
    int len = kMadSize;
    timed_out = umad_recv(fd_, rbuf_.data(), &len, wait_ms) < 0;
    if (timed_out) return nullptr;
    const auto *r = static_cast<const uint8_t *>(umad_get_mad(rbuf_.data()));
    if (umad_status(rbuf_.data()) != 0 || r[1] != kClassSa || !(r[3] & 0x80)) return nullptr;
    return r;
  }

 private:
  static bool fail(const char *tool, const char *why) {
    std::fprintf(stderr, "%s: %s\n", tool, why);
    return false;
  }
  int fd_ = -1, agent_ = -1;
  std::vector<uint8_t> sbuf_, rbuf_;
};

}  // namespace keiro::harness
