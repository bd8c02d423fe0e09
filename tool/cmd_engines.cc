// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro engines: the registered engines (core/registry/registry.h), one per
// line. The bash completion, the man page and the bench scripts take the
// engine list from this output, so it cannot drift from what the plugin
// registers with OpenSM.
#include <cstdio>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/registry/registry.h"
#include "tool/args.h"
#include "tool/command.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro engines [--names | --osm-names]\n"
    "  lists keiro's routing engines, one per line: short name, OpenSM name (for\n"
    "  routing_engine in opensm.conf) and summary, tab separated.\n"
    "  --names        only the short names (keiro route --engine NAME)\n"
    "  --osm-names    only the OpenSM names (keiro-nue, ...)\n";

int run_engines(const std::vector<std::string> &args) {
  bool names = false, osm_names = false;
  for (ArgWalker w("engines", args); w.next();) {
    if (w.help()) return print_usage(kUsage);
    if (w.flag("--names", names) || w.flag("--osm-names", osm_names)) {
      if (w.failed()) return 2;
    } else {
      return w.unknown(kUsage);
    }
  }
  if (names && osm_names)
    return usage_error("engines", "--names and --osm-names exclude each other", kUsage);
  for (const EngineDesc &e : all_engines()) {
    if (names)
      std::printf("%s\n", e.name);
    else if (osm_names)
      std::printf("%s\n", e.osm_name);
    else
      std::printf("%s\t%s\t%s\n", e.name, e.osm_name, e.summary);
  }
  return 0;
}

}  // namespace

const Command kEngines{"engines", "list keiro's routing engines (short and OpenSM names)",
                       run_engines};

}  // namespace keiro::tool
