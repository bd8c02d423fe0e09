// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro options: every key of event_plugin_options (and of `keiro route
// --opt`) with its values, default and meaning, from the declarations the
// parser itself uses (core/options.h), so the list cannot drift from what
// the plugin accepts. The man pages are generated from this output.
#include <cstdio>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/options.h"
#include "core/registry/registry.h"
#include "tool/args.h"
#include "tool/command.h"

namespace keiro::tool {
namespace {

const char *kUsage =
    "usage: keiro options [--engine NAME] [--tsv]\n"
    "  lists every key of event_plugin_options (and of keiro route --opt): the\n"
    "  general keys, then each engine's own, with the values it takes, its default\n"
    "  and what it does.\n"
    "  --engine NAME  the general keys and those of one engine (keiro engines lists them)\n"
    "  --tsv          tab-separated: scope, key, values, default, meaning\n";

std::string values_of(const OptionSpec &o) {
  switch (o.type) {
    case OptionSpec::kInt:
      return std::to_string(o.min) + ".." + std::to_string(o.max);
    case OptionSpec::kBool:
      return "true|false";
    case OptionSpec::kChoice:
      return o.choices;
    case OptionSpec::kGuidOrName:
      return "GUID or node description";
    case OptionSpec::kPath:
      return "path";
    case OptionSpec::kString:
      break;
  }
  return "text";
}

void print(const char *scope, std::span<const OptionSpec> specs, bool tsv) {
  if (!tsv) std::printf("%s:\n", scope);
  for (const OptionSpec &o : specs) {
    const std::string v = values_of(o), d = *o.def ? o.def : "-";
    if (tsv)
      std::printf("%s\t%s\t%s\t%s\t%s\n", scope, o.key, v.c_str(), d.c_str(), o.help);
    else
      std::printf("  %-18s %-26s default %-8s %s\n", o.key, v.c_str(), d.c_str(), o.help);
  }
}

int run_options(const std::vector<std::string> &args) {
  std::string engine;
  bool tsv = false;
  for (ArgWalker w("options", args); w.next();) {
    if (w.help()) return print_usage(kUsage);
    if (w.take("--engine", engine) || w.flag("--tsv", tsv)) {
      if (w.failed()) return 2;
    } else {
      return w.unknown(kUsage);
    }
  }
  const EngineDesc *only = nullptr;
  if (!engine.empty() && !(only = find_engine(engine)))
    return usage_error("options", "unknown engine '" + engine + "'", kUsage);
  print("general", general_option_specs(), tsv);
  for (const EngineDesc &e : all_engines())
    if (!only || only == &e) print(e.osm_name, e.options, tsv);
  return 0;
}

}  // namespace

const Command kOptions{"options", "list every option key of the plugin and of keiro route",
                       run_options};

}  // namespace keiro::tool
