// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro::Logger that writes into OpenSM's log (osm_log). Error lines get an
// "ERR KEnn:" code, the convention of OpenSM's own error messages, so that
// admins can grep for them. O(line length) per line.
#pragma once

#include <string>

#include "core/log.h"

struct osm_log;

namespace keiro::plugin {

// Error codes of the plugin's own ERROR lines.
inline constexpr const char *kErrOptions = "KE01";   // bad event_plugin_options
inline constexpr const char *kErrFabric = "KE02";    // subnet could not be read
inline constexpr const char *kErrRouting = "KE03";   // engine or self-check failed
inline constexpr const char *kErrInternal = "KE04";  // exception, out of memory
inline constexpr const char *kErrRegister = "KE05";  // engine registration refused
inline constexpr const char *kErrDump = "KE06";      // path-SL file not written

class OsmLogger : public Logger {
 public:
  // error_code: used for kError lines written through the Logger interface.
  OsmLogger(struct osm_log *log, const char *error_code) : log_(log), code_(error_code) {}
  void write(LogLevel level, const std::string &line) override;
  bool enabled(LogLevel level) const override;
  // One ERROR line with an explicit code.
  void error(const char *code, const std::string &line);

 private:
  struct osm_log *log_;
  const char *code_;
};

}  // namespace keiro::plugin
