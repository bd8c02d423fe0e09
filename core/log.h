// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Logging interface of the core. The plugin forwards to OSM_LOG, the tool to
// stderr, the tests capture the lines.
#pragma once

#include <cstdarg>
#include <string>
#include <vector>

namespace keiro {

// kWarn: something the admin must act on that is not a failure (e.g. path
// SLs that changed in a re-route, docs/rerouting.md).
enum class LogLevel { kError, kWarn, kInfo, kVerbose, kDebug };

class Logger {
 public:
  virtual ~Logger() = default;
  virtual void write(LogLevel level, const std::string &line) = 0;
  // Whether lines of this level are wanted (lets callers skip formatting).
  virtual bool enabled(LogLevel level) const { return level <= LogLevel::kInfo; }
  void logf(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
  void vlogf(LogLevel level, const char *fmt, va_list ap);
};

// Drops everything.
class NullLogger : public Logger {
 public:
  void write(LogLevel, const std::string &) override {}
  bool enabled(LogLevel) const override { return false; }
};

// Keeps every line (for tests and for the tool's summaries).
class CaptureLogger : public Logger {
 public:
  struct Line {
    LogLevel level;
    std::string text;
  };
  void write(LogLevel level, const std::string &line) override { lines.push_back({level, line}); }
  bool enabled(LogLevel) const override { return true; }
  int count(LogLevel level) const;
  bool contains(const std::string &needle) const;
  std::vector<Line> lines;
};

// printf-style formatting into a std::string.
std::string strprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace keiro
