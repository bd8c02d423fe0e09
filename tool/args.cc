// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The keiro subcommands' argument walker (tool/args.h).
#include "tool/args.h"

#include <cstdio>
#include <cstdlib>

#include "core/log.h"

namespace keiro::tool {

bool to_int(const std::string &s, long lo, long hi, long &v) {
  char *end = nullptr;
  v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && !*end && v >= lo && v <= hi;
}

bool to_num(const std::string &s, double lo, double hi, double &v) {
  char *end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && !*end && v >= lo && v <= hi;
}

std::string int_range(long lo, long hi) {
  if (hi >= INT_MAX) return strprintf("an integer >= %ld", lo);
  return strprintf("%ld..%ld", lo, hi);
}

int usage_error(const char *command, const std::string &what, const std::string &usage) {
  std::fprintf(stderr, "keiro %s: %s\n", command, what.c_str());
  if (!usage.empty()) std::fprintf(stderr, "\n%s", usage.c_str());
  return 2;
}

int print_usage(const std::string &usage) {
  std::fputs(usage.c_str(), stdout);
  return 0;
}

bool ArgWalker::next() {
  if (next_ >= args_.size()) return false;
  cur_ = next_++;
  return true;
}

bool ArgWalker::value(std::string &dst) {
  if (next_ >= args_.size()) {
    error(arg() + " needs a value");
    return false;
  }
  dst = args_[next_++];
  return true;
}

bool ArgWalker::parse_int(long lo, long hi, long &n) {
  std::string v;
  if (!value(v)) return false;
  if (to_int(v, lo, hi, n)) return true;
  error(arg() + " needs " + int_range(lo, hi) + ", not '" + v + "'");
  return false;
}

bool ArgWalker::num_value(double lo, double hi, double &x) {
  std::string v;
  if (!value(v)) return false;
  if (to_num(v, lo, hi, x)) return true;
  const std::string range =
      hi >= 1e300 ? strprintf("a number >= %g", lo) : strprintf("a number in %g..%g", lo, hi);
  error(arg() + " needs " + range + ", not '" + v + "'");
  return false;
}

bool ArgWalker::choice_value(std::initializer_list<const char *> choices, std::string &dst) {
  std::string v;
  if (!value(v)) return false;
  for (const char *c : choices)
    if (v == c) {
      dst = v;
      return true;
    }
  std::string list;
  size_t i = 0;
  for (const char *c : choices) {
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(c);
    ++i;
  }
  error(arg() + " is " + list);
  return false;
}

int ArgWalker::unknown(const std::string &usage) const {
  return error((is_option() ? "unknown option '" : "unexpected argument '") + arg() + "'", usage);
}

}  // namespace keiro::tool
