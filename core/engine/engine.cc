// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/engine/engine.h"

namespace keiro {

void EngineReport::set(const std::string &key, const std::string &value) {
  for (auto &[k, v] : facts)
    if (k == key) {
      v = value;
      return;
    }
  add(key, value);
}

std::string EngineReport::get(const std::string &key) const {
  for (const auto &[k, v] : facts)
    if (k == key) return v;
  return {};
}

}  // namespace keiro
