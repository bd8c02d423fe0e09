// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/osm_logger.h"

#include "plugin/osm.h"

namespace keiro::plugin {

namespace {
osm_log_level_t osm_level(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return OSM_LOG_ERROR;
    case LogLevel::kWarn:  // OpenSM has no warning level; INFO is on by default
    case LogLevel::kInfo:
      return OSM_LOG_INFO;
    case LogLevel::kVerbose:
      return OSM_LOG_VERBOSE;
    case LogLevel::kDebug:
      break;
  }
  return OSM_LOG_DEBUG;
}
}  // namespace

bool OsmLogger::enabled(LogLevel level) const {
  return osm_log_is_active(log_, osm_level(level)) != 0;
}

void OsmLogger::write(LogLevel level, const std::string &line) {
  if (level == LogLevel::kError) return error(code_, line);
  if (!enabled(level)) return;
  osm_log(log_, osm_level(level), "keiro: %s%s\n", level == LogLevel::kWarn ? "WARN: " : "",
          line.c_str());
}

void OsmLogger::error(const char *code, const std::string &line) {
  osm_log(log_, OSM_LOG_ERROR, "keiro: ERR %s: %s\n", code, line.c_str());
}

}  // namespace keiro::plugin
