// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/log.h"

#include <cstdio>

namespace keiro {

namespace {
std::string vformat(const char *fmt, va_list ap) {
  char buf[512];
  va_list ap2;
  va_copy(ap2, ap);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    return {};
  }
  if (static_cast<size_t>(n) < sizeof buf) {
    va_end(ap2);
    return std::string(buf, n);
  }
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(out.data(), out.size(), fmt, ap2);
  va_end(ap2);
  out.resize(n);
  return out;
}
}  // namespace

void Logger::vlogf(LogLevel level, const char *fmt, va_list ap) {
  if (!enabled(level)) return;
  write(level, vformat(fmt, ap));
}

void Logger::logf(LogLevel level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlogf(level, fmt, ap);
  va_end(ap);
}

int CaptureLogger::count(LogLevel level) const {
  int n = 0;
  for (const Line &l : lines) n += l.level == level;
  return n;
}

bool CaptureLogger::contains(const std::string &needle) const {
  for (const Line &l : lines)
    if (l.text.find(needle) != std::string::npos) return true;
  return false;
}

std::string strprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

}  // namespace keiro
