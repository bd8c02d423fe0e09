// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/registry/registry.h"

#include "core/acro/engine.h"
#include "core/dl/engine.h"
#include "core/loren/engine.h"
#include "core/nue/engine.h"

namespace keiro {

const std::vector<EngineDesc> &all_engines() {
  // The registry: one line per engine.
  static const std::vector<EngineDesc> engines = {
      nue::kEngine,
      acro::kEngine,
      loren::kEngine,
      dl::kEngine,
  };
  return engines;
}

const std::vector<OptionSpec> &option_specs() {
  static const std::vector<OptionSpec> specs = [] {
    const std::span<const OptionSpec> general = general_option_specs();
    std::vector<OptionSpec> all(general.begin(), general.end());
    for (const EngineDesc &e : all_engines())
      all.insert(all.end(), e.options.begin(), e.options.end());
    return all;
  }();
  return specs;
}

Options all_options() {
  return Options(option_specs());
}

const EngineDesc *find_engine(std::string_view name) {
  for (const EngineDesc &e : all_engines())
    if (name == e.name || name == e.osm_name) return &e;
  return nullptr;
}

}  // namespace keiro
