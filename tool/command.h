// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Subcommands of the keiro tool. Each tool/cmd_*.cc defines one and
// registers it with a static Command object:
//   static const keiro::tool::Command kRoute{"route", "route a topology offline", run_route};
#pragma once

#include <string>
#include <vector>

namespace keiro::tool {

// args excludes the tool name and the subcommand. Returns the exit code.
using CommandFn = int (*)(const std::vector<std::string> &args);

struct Command {
  Command(const char *name, const char *summary, CommandFn fn);
  const char *name;
  const char *summary;
  CommandFn fn;
};

const std::vector<const Command *> &commands();

}  // namespace keiro::tool
