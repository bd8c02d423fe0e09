// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The progress line of long keiro runs (check, route, simulate): on a
// terminal only (stderr), for runs longer than a second, at most five
// updates a second, overwritten in place and cleared when the object goes
// away (or clear()), so that piped or redirected output never contains it.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/timing.h"

namespace keiro::tool {

class ProgressLine {
 public:
  explicit ProgressLine(const char *command)
      : command_(command), on_(isatty(fileno(stderr)) != 0), t0_(Clock::now()) {}
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;
  ~ProgressLine() { clear(); }
  // Removes the line (before printing results).
  void clear() {
    if (shown_) std::fputs("\r\033[K", stderr);
    shown_ = false;
  }
  bool enabled() const { return on_; }
  // Shows "keiro COMMAND: text" unless the run is younger than a second or
  // the last update is less than 0.2 s old (final: always, once past 1 s).
  void show(const std::string &text, bool final = false) {
    if (!on_) return;
    const double s = seconds_since(t0_);
    if (s < 1 || (!final && s - last_ < 0.2)) return;
    last_ = s;
    shown_ = true;
    std::fprintf(stderr, "\r\033[Kkeiro %s: %s (%.0f s)", command_, text.c_str(), s);
    std::fflush(stderr);
  }

 private:
  const char *command_;
  bool on_, shown_ = false;
  Clock::time_point t0_;
  double last_ = 0;
};

}  // namespace keiro::tool
