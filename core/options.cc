// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/options.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace keiro {

namespace {

// The keys every engine and the plugin share. Each engine declares its own
// keys beside its EngineDesc (core/<engine>/engine.cc).
const OptionSpec kGeneralOptions[] = {
    path_option("config", "file with more options, one 'key value' per line"),
    int_option("max_vls", 1, 15, "8",
               "most data VLs an engine may use (also capped by VLCap and OpenSM's max_op_vls)"),
    int_option("max_sls", 1, 16, "16", "most SLs an engine may hand out"),
    path_option("sl_dump",
                "after each routing, write every path's SL to this file (keiro check reads it)"),
    int_option("fixed_sl", 0, 15, "",
               "make the tables deadlock free also when all traffic uses this SL (MPI through "
               "UCX_IB_SL / NCCL_IB_SL never asks the SA), alone and mixed with the SA's SLs: "
               "SL N gets VLs of its own and path_sl never answers it (docs/fixed-sl.md); "
               "unset: only the SA's SLs are safe"),
    int_option("keep_sls", 0, 1, "1",
               "re-routing after a fabric change: 1 keeps the path SLs handed out before for "
               "every pair still connected where the new tables allow (docs/rerouting.md); 0 "
               "routes afresh (one WARN line counts the SLs that changed)"),
    int_option("incremental", 0, 1, "1",
               "re-routing of keiro-acro, -dl and -loren when the fresh routing would change "
               "SLs: 1 keeps the previous routes the fault left intact and re-routes only the "
               "broken ones, so that every SL is kept (docs/rerouting.md); 0 uses the fresh "
               "routes with the previous SLs pinned where they fit"),
    int_option("spread_sls", 0, 1, "1",
               "keiro-acro, -dl and -loren with keep_sls=1: 1 spreads a first routing's paths "
               "over every SL up to max_sls (copies of the same VLs), so that a re-route after "
               "a fault finds free SL2VL entries and keeps every SL (docs/rerouting.md); 0 "
               "hands out the fewest SLs"),
    int_option("drop_stale_sls", 0, 1, "1",
               "keiro-acro, -dl and -loren, when a re-route must give a path the fault broke "
               "another SL: 1 makes the switches drop (VL 15) the traffic still sent on its "
               "previous SL where it would otherwise close a credit loop (docs/rerouting.md); 0 "
               "leaves it to the new tables"),
    int_option("mcast_trees", 0, 1, "1",
               "1: keiro builds every multicast group's spanning tree: never a forwarding loop, "
               "and no credit loop with the unicast routes and the other groups' trees, or the "
               "group gets none and one ERROR line says why (docs/multicast.md); 0: OpenSM's "
               "own builder, which follows the hop rows and can install forwarding loops "
               "(storms) on keiro's tables -- for comparison only"),
    int_option("mcast_sl", 0, 15, "0",
               "the SL of the multicast groups (OpenSM's IPoIB broadcast group has SL 0 unless "
               "partitions.conf sets sl=N): its SL2VL entries that no unicast path with that "
               "SL takes map to a VL no unicast hop uses, when the VL budget leaves one, so "
               "that trees fit beside the unicast routes (docs/multicast.md)"),
    int_option("mcast_vl", 0, 1, "0",
               "1: the engines route with one VL less than the budget and the multicast SL "
               "(mcast_sl) gets the top VL at every turn no unicast path with it takes; with an "
               "SL no unicast path uses (mcast_sl >= max_sls, partitions.conf sl=N for IPoIB) "
               "multicast then has a VL of its own and every group gets a tree "
               "(docs/multicast.md)"),
    int_option("threads", 0, 256, "0",
               "worker threads for the self-check, the VL realization and Nue's independent "
               "steps (0 = the machine's "
               "cores, at most 8); the result is the same for every value"),
};

bool parse_long(const std::string &v, long &out) {
  if (v.empty()) return false;
  errno = 0;
  char *end = nullptr;
  out = std::strtol(v.c_str(), &end, 0);
  return errno == 0 && end && *end == '\0';
}

bool parse_bool(const std::string &v, bool &out) {
  if (v == "1" || v == "true" || v == "TRUE" || v == "yes" || v == "on") return out = true, true;
  if (v == "0" || v == "false" || v == "FALSE" || v == "no" || v == "off") return out = false, true;
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

std::span<const OptionSpec> general_option_specs() {
  return kGeneralOptions;
}

Options::Options() : specs_(kGeneralOptions) {}

const OptionSpec *Options::find_spec(const std::string &key) const {
  for (const OptionSpec &s : specs_)
    if (key == s.key) return &s;
  return nullptr;
}

std::string Options::known_keys() const {
  std::string out;
  for (const OptionSpec &s : specs_) out += (out.empty() ? "" : ", ") + std::string(s.key);
  return out;
}

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
