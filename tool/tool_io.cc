// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The stderr logger, input reading and dump writing of the keiro tool's
// subcommands (tool/tool_io.h).
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
  else if (level == LogLevel::kWarn)
    std::fprintf(stderr, "WARN: %s\n", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

bool ToolLogger::enabled(LogLevel level) const {
  return level == LogLevel::kError || level == LogLevel::kWarn ||
         (verbose_ && level == LogLevel::kInfo);
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

bool take_dump_option(ArgWalker &w, io::LoadOptions &opt, std::string &pairs) {
  return w.take("--topology", opt.topology) || w.take("--sls", opt.sls) ||
         w.take("--lmc", 0, 7, opt.lmc) ||
         w.take_choice("--pairs", {"all", "ca-sources", "ca"}, pairs);
}

bool take_opt(ArgWalker &w, std::string &text) {
  std::string v;
  if (!w.take("--opt", v)) return false;
  if (!w.failed()) text += (text.empty() ? "" : " ") + v;
  return true;
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
