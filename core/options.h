// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// keiro's options: "key=value" words separated by blanks (OpenSM's
// event_plugin_options line, or the tool's --opt arguments), and an optional
// config file named by config=PATH holding one "key value" or "key=value" per
// line ('#' starts a comment). Every key is declared once with its type and
// range: the general keys in options.cc, an engine's own keys beside its
// EngineDesc (core/<engine>/engine.cc). Anything else is an error, so a typo
// never silently changes routing.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keiro {

struct OptionSpec {
  enum Type { kInt, kBool, kString, kChoice, kGuidOrName, kPath };
  const char *key;
  Type type;
  long min = 0, max = 0;          // kInt range
  const char *choices = nullptr;  // kChoice: '|'-separated
  const char *def = "";           // default as text ("" = unset)
  const char *help = "";
};

// Short forms of the declarations (options.cc's general keys, each engine's
// kOptions): a kInt key in min..max, a kChoice key among '|'-separated
// choices, and a kPath or kGuidOrName key that is unset by default.
constexpr OptionSpec int_option(const char *key, long min, long max, const char *def,
                                const char *help) {
  return {key, OptionSpec::kInt, min, max, nullptr, def, help};
}
constexpr OptionSpec choice_option(const char *key, const char *choices, const char *def,
                                   const char *help) {
  return {key, OptionSpec::kChoice, 0, 0, choices, def, help};
}
constexpr OptionSpec path_option(const char *key, const char *help) {
  return {key, OptionSpec::kPath, 0, 0, nullptr, "", help};
}
constexpr OptionSpec guid_or_name_option(const char *key, const char *help) {
  return {key, OptionSpec::kGuidOrName, 0, 0, nullptr, "", help};
}

// config, max_vls, max_sls, sl_dump, fixed_sl, threads.
std::span<const OptionSpec> general_option_specs();

// Holds the values of the keys of one spec list: by default the general
// keys only; the registry's all_options() (core/registry/registry.h) accepts
// every registered engine's keys too, so parsing options links no engine.
class Options {
 public:
  Options();
  explicit Options(std::span<const OptionSpec> specs) : specs_(specs) {}

  // Parses text (and any config file it names). On error returns false and
  // sets err to one line naming the offending word, file and line.
  static bool parse(std::string_view text, Options &out, std::string &err);
  // Parses one config file into out.
  static bool parse_file(const std::string &path, Options &out, std::string &err);
  // Sets one key after validating it.
  bool set(const std::string &key, const std::string &value, std::string &err);

  bool has(const std::string &key) const { return values_.count(key) != 0; }
  // Value or the spec's default.
  std::string get(const std::string &key) const;
  long get_int(const std::string &key) const;
  bool get_bool(const std::string &key) const;
  const std::map<std::string, std::string> &values() const { return values_; }
  // "k=v k2=v2" of the keys that were set.
  std::string to_string() const;

 private:
  const OptionSpec *find_spec(const std::string &key) const;
  std::string known_keys() const;

  std::span<const OptionSpec> specs_;
  std::map<std::string, std::string> values_;
};

// Parses a GUID written as 0x... hex or plain hex; false when malformed.
bool parse_guid(std::string_view text, uint64_t &guid);

}  // namespace keiro
