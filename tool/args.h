// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// How every keiro subcommand (tool/cmd_*.cc) walks its arguments:
//   for (ArgWalker w("route", args); w.next();) {
//     if (w.help()) return print_usage(kUsage);
//     if (w.take("--topology", topology) || w.take("--lmc", 0, 7, lmc) ||
//         w.flag("--json", json)) {
//       if (w.failed()) return 2;
//     } else {
//       return w.unknown(kUsage);
//     }
//   }
// Usage errors are one line on stderr, "keiro COMMAND: what", and exit
// status 2; unknown options and missing required arguments add a blank line
// and the command's usage. Numbers are parsed whole (no trailing text):
// integers in base 10, checked against a range.
// Cost: O(1) per argument beyond the number parsing.
#pragma once

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace keiro::tool {

// The whole of s as a base-10 integer / a number, in lo..hi.
bool to_int(const std::string &s, long lo, long hi, long &v);
bool to_num(const std::string &s, double lo, double hi, double &v);

// "LO..HI", or "an integer >= LO" when hi is LONG_MAX / INT_MAX (no upper
// bound worth naming).
std::string int_range(long lo, long hi);

// Prints "keiro COMMAND: what" (then a blank line and usage, when given) on
// stderr and returns 2.
int usage_error(const char *command, const std::string &what, const std::string &usage = "");

class ArgWalker {
 public:
  // Walks args[first..].
  ArgWalker(const char *command, const std::vector<std::string> &args, size_t first = 0)
      : command_(command), args_(args), next_(first) {}
  const char *command() const { return command_; }
  bool next();  // to the next argument; false after the last
  const std::string &arg() const { return args_[cur_]; }
  // The argument starts with '-' (an option, known or not).
  bool is_option() const { return arg().size() > 1 && arg()[0] == '-'; }
  // The argument after the current one, or nullptr (for optional values).
  const std::string *peek() const { return next_ < args_.size() ? &args_[next_] : nullptr; }

  // The *_value() calls take the next argument as the current option's value;
  // when it is missing or bad they print why and return false (the caller
  // returns 2):
  //   missing:      "OPT needs a value"
  //   bad integer:  "OPT needs LO..HI, not 'V'"   (or "needs an integer >= LO")
  //   bad number:   "OPT needs a number in LO..HI, not 'V'" (or ">= LO")
  //   bad choice:   "OPT is A, B or C"
  bool value(std::string &dst);
  template <typename T>
  bool int_value(long lo, long hi, T &dst) {
    long n = 0;
    if (!parse_int(lo, hi, n)) return false;
    dst = static_cast<T>(n);
    return true;
  }
  bool num_value(double lo, double hi, double &x);
  bool choice_value(std::initializer_list<const char *> choices, std::string &dst);

  // The take*() and flag() calls match the current argument against one
  // option: false when it is another one; true when it is this one, after
  // taking its value as the *_value() calls do (failed() tells whether that
  // went wrong: the caller returns 2).
  bool help() const { return arg() == "-h" || arg() == "--help"; }
  bool take(const char *option, std::string &dst) { return is(option) && keep(value(dst)); }
  template <typename T>
  bool take(const char *option, long lo, long hi, T &dst) {
    return is(option) && keep(int_value(lo, hi, dst));
  }
  bool take_num(const char *option, double lo, double hi, double &dst) {
    return is(option) && keep(num_value(lo, hi, dst));
  }
  bool take_choice(const char *option, std::initializer_list<const char *> choices,
                   std::string &dst) {
    return is(option) && keep(choice_value(choices, dst));
  }
  bool flag(const char *option, bool &dst) { return is(option) && (dst = true); }
  bool failed() const { return failed_; }

  // The current argument is not one the command knows: "unknown option 'A'"
  // (or "unexpected argument 'A'" when it is not an option), the usage after
  // a blank line; returns 2.
  int unknown(const std::string &usage) const;
  // usage_error() for this command.
  int error(const std::string &what, const std::string &usage = "") const {
    return usage_error(command_, what, usage);
  }

 private:
  bool parse_int(long lo, long hi, long &n);
  bool is(const char *option) const { return arg() == option; }
  bool keep(bool ok) {  // records a failed value; the option matched either way
    failed_ = failed_ || !ok;
    return true;
  }
  const char *command_;
  const std::vector<std::string> &args_;
  size_t cur_ = 0, next_ = 0;
  bool failed_ = false;
};

// Prints usage on stdout (for -h / --help) and returns 0.
int print_usage(const std::string &usage);

// --base, --k and --S of a hierarchical dual-net (keiro topo hdn, keiro
// hdn-exchange); k < 0 while --k is not given.
struct HdnArgs {
  std::string base, S;
  int k = -1;
  bool complete() const { return !base.empty() && k >= 0 && !S.empty(); }
  bool any() const { return !base.empty() || k >= 0 || !S.empty(); }
  // Matches as ArgWalker::take() does.
  bool take(ArgWalker &w) {
    return w.take("--base", base) || w.take("--k", 0, INT_MAX, k) || w.take("--S", S);
  }
};

}  // namespace keiro::tool
