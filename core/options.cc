// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/options.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace keiro {

namespace {

const std::vector<OptionSpec> kOptionSpecs = {
    {"config", OptionSpec::kPath, 0, 0, nullptr, "",
     "file with more options, one 'key value' per line"},
    {"max_vls", OptionSpec::kInt, 1, 15, nullptr, "8",
     "most data VLs an engine may use (also capped by VLCap and OpenSM's max_op_vls)"},
    {"max_sls", OptionSpec::kInt, 1, 16, nullptr, "16", "most SLs an engine may hand out"},
    {"sl_dump", OptionSpec::kPath, 0, 0, nullptr, "",
     "after each routing, write every path's SL to this file (keiro check reads it)"},
    {"nue_root", OptionSpec::kGuidOrName, 0, 0, nullptr, "",
     "root switch of Nue's escape paths (GUID or node description); default: most central"},
    {"nue_partition", OptionSpec::kChoice, 0, 0, "metis|random|cluster", "metis",
     "how Nue splits destinations into virtual layers"},
    {"nue_seed", OptionSpec::kInt, 0, 2147483647, nullptr, "1",
     "seed for Nue's random choices (partitioning, METIS)"},
    {"acro_seed", OptionSpec::kInt, 0, 2147483647, nullptr, "0",
     "keiro-acro: 0 = deterministic tie-breaking; other values shuffle destinations and ties"},
    {"acro_max_moves", OptionSpec::kInt, 0, 2147483647, nullptr, "0",
     "keiro-acro: most SL placements (with repair) before giving up; 0 = 40 per path"},
    {"loren_layout", OptionSpec::kPath, 0, 0, nullptr, "",
     "keiro-loren: layout file, one 'GUID-or-name X Y' line per switch (docs/loren.md)"},
    {"loren_tmax", OptionSpec::kInt, 0, 65535, nullptr, "0",
     "keiro-loren: most table entries per switch; 0 = the smallest number that works"},
    {"dl_subnets", OptionSpec::kInt, 0, 15, nullptr, "0",
     "keiro-dl: sub-networks (one VL each); 0 = every VL of the budget; more than the budget "
     "is an error"},
    {"dl_restriction", OptionSpec::kChoice, 0, 0, "ud|ud-du|ud-dudu", "ud",
     "keiro-dl: rule inside the sub-networks: ud = (UD)*, ud-du = (UD-DU)*, ud-dudu = UD-(DU)*"},
    {"dl_policy", OptionSpec::kChoice, 0, 0, "load|random|lowport", "load",
     "keiro-dl: path selection among equally short legal next hops"},
    {"dl_root", OptionSpec::kGuidOrName, 0, 0, nullptr, "",
     "keiro-dl: root of the up/down spanning tree (GUID or node description); default: the "
     "switch with the smallest total distance to all others"},
    {"dl_seed", OptionSpec::kInt, 0, 2147483647, nullptr, "1",
     "keiro-dl: seed of dl_policy=random and of the SL realization"},
    {"dl_vl_choice", OptionSpec::kChoice, 0, 0, "free|exact", "free",
     "keiro-dl: exact = every hop on the VL of its sub-network; free = any VLs that keep the "
     "DL order (fewer SLs)"},
    {"dl_choices", OptionSpec::kChoice, 0, 0, "slack|lowest", "slack",
     "keiro-dl: next hops dl_policy chooses from: lowest = only those that keep the lowest "
     "sub-network (the paper's rule); slack = every equally short one that keeps all paths legal"},
};

const OptionSpec *find_spec(const std::string &key) {
  for (const OptionSpec &s : kOptionSpecs)
    if (key == s.key) return &s;
  return nullptr;
}

std::string known_keys() {
  std::string out;
  for (const OptionSpec &s : kOptionSpecs) out += (out.empty() ? "" : ", ") + std::string(s.key);
  return out;
}

bool parse_long(const std::string &v, long &out) {
  if (v.empty()) return false;
  errno = 0;
  char *end = nullptr;
  out = std::strtol(v.c_str(), &end, 0);
  return errno == 0 && end && *end == '\0';
}

bool parse_bool(const std::string &v, bool &out) {
  if (v == "1" || v == "true" || v == "TRUE" || v == "yes" || v == "on") return out = true, true;
  if (v == "0" || v == "false" || v == "FALSE" || v == "no" || v == "off")
    return out = false, true;
  return false;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n'))
    --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

const std::vector<OptionSpec> &option_specs() { return kOptionSpecs; }

bool parse_guid(std::string_view text, uint64_t &guid) {
  std::string t(text);
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
  if (t.empty() || t.size() > 16) return false;
  for (char c : t)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  guid = std::strtoull(t.c_str(), nullptr, 16);
  return true;
}

bool Options::set(const std::string &key, const std::string &value, std::string &err) {
  const OptionSpec *spec = find_spec(key);
  if (!spec) {
    err = "unknown option '" + key + "' (known: " + known_keys() + ")";
    return false;
  }
  switch (spec->type) {
    case OptionSpec::kInt: {
      long v;
      if (!parse_long(value, v) || v < spec->min || v > spec->max) {
        err = "option " + key + "='" + value + "' is not a whole number from " +
              std::to_string(spec->min) + " to " + std::to_string(spec->max);
        return false;
      }
      break;
    }
    case OptionSpec::kBool: {
      bool b;
      if (!parse_bool(value, b)) {
        err = "option " + key + "='" + value + "' is not a boolean (true/false)";
        return false;
      }
      break;
    }
    case OptionSpec::kChoice: {
      const std::string choices = spec->choices;
      bool ok = false;
      std::stringstream ss(choices);
      for (std::string c; std::getline(ss, c, '|');) ok = ok || c == value;
      if (!ok) {
        err = "option " + key + "='" + value + "' is not one of " + choices;
        return false;
      }
      break;
    }
    case OptionSpec::kGuidOrName:
    case OptionSpec::kString:
    case OptionSpec::kPath:
      if (value.empty()) {
        err = "option " + key + " has an empty value";
        return false;
      }
      break;
  }
  values_[key] = value;
  return true;
}

bool Options::parse(std::string_view text, Options &out, std::string &err) {
  std::istringstream in{std::string(text)};
  std::string word;
  std::vector<std::string> files;
  while (in >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      err = "malformed option '" + word + "' (expected key=value)";
      return false;
    }
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (!out.set(key, value, err)) return false;
    if (key == "config") files.push_back(value);
  }
  for (const std::string &f : files)
    if (!parse_file(f, out, err)) return false;
  return true;
}

bool Options::parse_file(const std::string &path, Options &out, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read config file '" + path + "'";
    return false;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    size_t sep = line.find('=');
    if (sep == std::string::npos) sep = line.find_first_of(" \t");
    if (sep == std::string::npos || sep == 0) {
      err = path + ":" + std::to_string(n) + ": malformed line '" + line + "'";
      return false;
    }
    const std::string key = trim(line.substr(0, sep)), value = trim(line.substr(sep + 1));
    if (key == "config") {
      err = path + ":" + std::to_string(n) + ": config files cannot include others";
      return false;
    }
    std::string e;
    if (!out.set(key, value, e)) {
      err = path + ":" + std::to_string(n) + ": " + e;
      return false;
    }
  }
  return true;
}

std::string Options::get(const std::string &key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  const OptionSpec *spec = find_spec(key);
  return spec ? spec->def : "";
}

long Options::get_int(const std::string &key) const {
  long v = 0;
  parse_long(get(key), v);
  return v;
}

bool Options::get_bool(const std::string &key) const {
  bool b = false;
  parse_bool(get(key), b);
  return b;
}

std::string Options::to_string() const {
  std::string out;
  for (const auto &[k, v] : values_) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

}  // namespace keiro
