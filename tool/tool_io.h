// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What the keiro subcommands (tool/cmd_*.cc) share beyond the argument
// walker (tool/args.h): the stderr logger, reading the inputs and writing a
// dump directory. Every message goes to
// stderr as "keiro COMMAND: ..."; 2 is the exit status for unusable input.
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/io/dump_dir.h"
#include "core/io/topology_file.h"
#include "core/log.h"
#include "core/metrics/report.h"
#include "core/options.h"
#include "core/routing.h"
#include "tool/args.h"

namespace keiro::tool {

// Engine log lines on stderr: ERROR lines ("ERROR: " prefix) always, INFO
// lines only when verbose.
class ToolLogger : public Logger {
 public:
  explicit ToolLogger(bool verbose) : verbose_(verbose) {}
  void write(LogLevel level, const std::string &line) override;
  bool enabled(LogLevel level) const override;

 private:
  bool verbose_;
};

// Prints "keiro COMMAND: what" and returns 2.
int input_error(const char *command, const std::string &what);

// Reads one command's inputs with Options::parse, io::read_topology and
// io::load_dump_dir; on failure prints the reader's error as input_error() does
// and returns false.
class InputReader {
 public:
  explicit InputReader(const char *command) : command_(command) {}
  bool options(const std::string &text, Options &out);
  bool fabric(const std::string &path, const io::TopologyReadOptions &opt, Fabric &out);
  bool dumps(const std::string &dir, const io::LoadOptions &opt, io::LoadedRouting &out);

 private:
  bool reported(bool ok);  // ok, or false after printing err_
  const char *command_;
  std::string err_;
};

// The options keiro check and keiro analyze share for reading dump
// directories: --topology FILE, --sls FILE, --lmc N (into opt) and --pairs
// WHICH (for check::parse_pairs). Matches as ArgWalker::take() does.
bool take_dump_option(ArgWalker &w, io::LoadOptions &opt, std::string &pairs);

// --opt key=value (repeatable): appended to text, blank-separated, for
// Options::parse. Matches as ArgWalker::take() does.
bool take_opt(ArgWalker &w, std::string &text);

// Creates dir and its parents; false with err "cannot create DIR: why".
bool make_dirs(const std::string &dir, std::string &err);

// make_dirs(dir) and writes opensm-subnet.lst,
// opensm-lfts.dump and opensm-sl2vl.dump of f and r there; false with err.
bool write_dumps(const std::string &dir, const Fabric &f, const Routing &r, std::string &err);

// The fabric's sizes in g: switches, terminals, links, LIDs.
void fill_fabric(metrics::RoutingFigures &g, const Fabric &f);

}  // namespace keiro::tool
