// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro: the offline tool. Dispatches to the registered subcommands.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (AC_INIT)"
#endif

#include "tool/command.h"

namespace keiro::tool {

namespace {
std::vector<const Command *> &registry() {
  static std::vector<const Command *> r;
  return r;
}
}  // namespace

Command::Command(const char *n, const char *s, CommandFn f) : name(n), summary(s), fn(f) {
  registry().push_back(this);
}

const std::vector<const Command *> &commands() {
  return registry();
}

}  // namespace keiro::tool

namespace {
void usage(FILE *out) {
  std::fprintf(out,
               "usage: keiro COMMAND [options]   ('keiro COMMAND --help' for details)\n"
               "       keiro --version\n\n");
  std::vector<const keiro::tool::Command *> cmds = keiro::tool::commands();
  std::sort(cmds.begin(), cmds.end(),
            [](auto *a, auto *b) { return std::strcmp(a->name, b->name) < 0; });
  for (const auto *c : cmds) std::fprintf(out, "  %-14s %s\n", c->name, c->summary);
}
}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "-V"))) {
    std::printf("keiro %s\n", PACKAGE_VERSION);
    return 0;
  }
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const auto *c : keiro::tool::commands()) {
    if (std::strcmp(c->name, argv[1]) != 0) continue;
    try {
      return c->fn(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const std::exception &e) {
      std::fprintf(stderr, "keiro %s: %s\n", c->name, e.what());
      return 2;
    }
  }
  std::fprintf(stderr, "keiro: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}
