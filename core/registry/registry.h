// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The registry: the one list of keiro's engines (all_engines(), one line per
// engine in registry.cc) and every option key keiro accepts (option_specs():
// the general keys of core/options.h, then each engine's own). The tool's
// `keiro engines` listing, the completion script, the man page and the
// bench scripts take the engine list from here.
// Cost: the lists are built once, O(engines + keys).
#pragma once

#include <string_view>
#include <vector>

#include "core/engine/engine.h"
#include "core/options.h"

namespace keiro {

const std::vector<EngineDesc> &all_engines();
// Every key keiro accepts: the general ones, then each registered engine's.
const std::vector<OptionSpec> &option_specs();
// Options that accept every key of option_specs() (the plugin's, the tool's).
Options all_options();
// Accepts the short or the OpenSM name; null when unknown.
const EngineDesc *find_engine(std::string_view name);

}  // namespace keiro
