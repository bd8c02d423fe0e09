// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Argument walking, input reading and dump writing of the keiro tool's
// route/check/analyze commands (tool/tool_io.h).
#include "tool/tool_io.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/io/dumps.h"

namespace keiro::tool {

void ToolLogger::write(LogLevel level, const std::string &line) {
  if (level == LogLevel::kError)
    std::fprintf(stderr, "ERROR: %s\n", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

bool ToolLogger::enabled(LogLevel level) const {
  return level == LogLevel::kError || (verbose_ && level == LogLevel::kInfo);
}

bool to_int(const std::string &s, long lo, long hi, long &v) {
  char *end = nullptr;
  v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && !*end && v >= lo && v <= hi;
}

bool to_num(const std::string &s, double lo, double hi, double &v) {
  char *end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && !*end && v >= lo && v <= hi;
}

bool ArgWalker::next() {
  if (next_ >= args_.size()) return false;
  cur_ = next_++;
  return true;
}

bool ArgWalker::value(std::string &dst) {
  if (next_ >= args_.size()) {
    std::fprintf(stderr, "keiro %s: %s needs a value\n", command_, arg().c_str());
    return false;
  }
  dst = args_[next_++];
  return true;
}

bool ArgWalker::int_value(long lo, long hi, long &n, BadInt wording) {
  std::string v;
  if (!value(v)) return false;
  if (to_int(v, lo, hi, n)) return true;
  if (wording == BadInt::kNeedsRange)
    std::fprintf(stderr, "keiro %s: %s needs %ld..%ld, not '%s'\n", command_, arg().c_str(), lo, hi,
                 v.c_str());
  else
    std::fprintf(stderr, "keiro %s: bad %s '%s'\n", command_, arg().c_str(), v.c_str());
  return false;
}

bool ArgWalker::num_value(double lo, double hi, double &x) {
  std::string v;
  if (!value(v)) return false;
  if (to_num(v, lo, hi, x)) return true;
  std::fprintf(stderr, "keiro %s: bad value '%s' for %s\n", command_, v.c_str(), arg().c_str());
  return false;
}

int input_error(const char *command, const std::string &what) {
  std::fprintf(stderr, "keiro %s: %s\n", command, what.c_str());
  return 2;
}

bool InputReader::reported(bool ok) {
  if (!ok) input_error(command_, err_);
  return ok;
}

bool InputReader::options(const std::string &text, Options &out) {
  return reported(Options::parse(text, out, err_));
}

bool InputReader::fabric(const std::string &path, const io::TopologyReadOptions &opt, Fabric &out) {
  return reported(io::read_topology(path, out, err_, opt));
}

bool InputReader::dumps(const std::string &dir, const io::LoadOptions &opt,
                        io::LoadedRouting &out) {
  return reported(io::load_dump_dir(dir, opt, out, err_));
}

bool make_dirs(const std::string &dir, std::string &err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return true;
  err = "cannot create " + dir + ": " + ec.message();
  return false;
}

bool write_dumps(const std::string &dir, const Fabric &f, const Routing &r, std::string &err) {
  if (!make_dirs(dir, err)) return false;
  const std::string d = dir + "/";
  return io::write_subnet_lst(d + "opensm-subnet.lst", f, err) &&
         io::write_lfts_dump(d + "opensm-lfts.dump", f, r, err) &&
         io::write_sl2vl_dump(d + "opensm-sl2vl.dump", f, r, err);
}

void fill_fabric(metrics::RoutingFigures &g, const Fabric &f) {
  g.switches = f.num_switches();
  g.terminals = f.num_terminals();
  g.links = f.num_channels() / 2;
  g.lids = static_cast<int>(f.lids().size());
}

}  // namespace keiro::tool
