// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/path_sl_file.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "core/log.h"

namespace keiro::io {

namespace {

char digit(uint8_t sl) {
  return sl < 16 ? "0123456789abcdef"[sl] : '-';
}

int undigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c == '-') return 0xFF;
  return -1;
}

void header(std::ostream &out, const std::string &engine, uint16_t max_lid, const char *scope) {
  out << "# keiro path SLs: the SL path_sl() answers per (source, destination LID),\n"
         "# one hex digit per LID 1..max_lid ('-' = none). See core/io/path_sl_file.h.\n"
         "keiro-path-sl 1\n";
  if (!engine.empty()) out << "engine " << engine << '\n';
  out << "max_lid " << max_lid << "\nscope " << scope << '\n';
}

}  // namespace

void PathSlFile::apply(const Fabric &f, Routing &r) const {
  const size_t stride = max_lid + 1u;
  const unsigned top = std::min<unsigned>(max_lid, r.max_lid());
  for (unsigned lid = 1; lid <= top; ++lid) {
    if (scope == Scope::kDestination) {
      const uint8_t v = sl[lid];
      if (v == 0xFF) continue;
      if (r.sl_scope() == Routing::SlScope::kPerDestination)
        r.set_dest_sl(static_cast<uint16_t>(lid), v);
      else
        for (int32_t s = 0; s < f.num_switches(); ++s)
          r.set_path_sl(s, static_cast<uint16_t>(lid), v);
    } else if (scope == Scope::kSourceSwitch) {
      if (r.sl_scope() != Routing::SlScope::kPerSourceSwitch) continue;
      for (int32_t s = 0; s < f.num_switches(); ++s) {
        const uint8_t v = sl[s * stride + lid];
        if (v != 0xFF) r.set_path_sl(s, static_cast<uint16_t>(lid), v);
      }
    }
  }
}

void write_path_sl_file(std::ostream &out, const Fabric &f, const Routing &r) {
  const uint16_t max_lid = r.max_lid();
  std::string row(max_lid, '-');
  auto fill = [&](int32_t s) {
    for (unsigned lid = 1; lid <= max_lid; ++lid) {
      const bool used =
          lid <= f.max_lid() && f.lid_owner(static_cast<uint16_t>(lid)).kind != LidOwner::kNone;
      row[lid - 1] = used ? digit(r.path_sl(s, static_cast<uint16_t>(lid))) : '-';
    }
  };
  if (r.sl_scope() == Routing::SlScope::kPerDestination) {
    header(out, r.engine, max_lid, "destination");
    fill(0);
    out << "dest " << row << '\n';
    return;
  }
  header(out, r.engine, max_lid, "source-switch");
  char guid[32];
  for (int32_t s = 0; s < f.num_switches(); ++s) {
    fill(s);
    std::snprintf(guid, sizeof guid, "0x%016" PRIx64, f.sw(s).guid);
    out << "switch " << guid << ' ' << row << '\n';
  }
}

bool write_path_sl_file(const std::string &path, const Fabric &f, const Routing &r,
                        std::string &err) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  write_path_sl_file(out, f, r);
  out.close();
  if (!out) {
    err = "error writing " + path;
    return false;
  }
  return true;
}

void write_path_sl_file(std::ostream &out, const check::SourceLidSls &sls, uint16_t max_lid,
                        const std::string &engine) {
  header(out, engine, max_lid, "source-lid");
  std::string row(max_lid, '-');
  for (unsigned s = 1; s <= max_lid; ++s) {
    bool any = false;
    for (unsigned d = 1; d <= max_lid; ++d) {
      const int v = sls.get(static_cast<uint16_t>(s), static_cast<uint16_t>(d));
      row[d - 1] = v < 0 ? '-' : digit(static_cast<uint8_t>(v));
      any |= v >= 0;
    }
    if (any) out << "slid " << s << ' ' << row << '\n';
  }
}

namespace {

// read_path_sl_file()'s records after the magic line. Each returns the
// error (without "file:line: ") or null.
class PathSlReader {
 public:
  PathSlReader(const Fabric &f, PathSlFile &out) : f_(f), out_(out) {
    for (int32_t s = 0; s < f.num_switches(); ++s) guids_.emplace(f.sw(s).guid, s);
  }
  const char *record(const std::string &key, std::istringstream &ls);
  bool have_scope() const { return have_scope_; }

 private:
  // Once, before the scope: the SL rows are sized by it.
  const char *max_lid(std::istringstream &ls);
  const char *scope(std::istringstream &ls);
  const char *switch_row(std::istringstream &ls);
  const char *slid_row(std::istringstream &ls);
  // Decodes a row of digits into dst[1..max_lid].
  bool decode(const std::string &digits, uint8_t *dst) const {
    if (digits.size() != out_.max_lid) return false;
    for (unsigned i = 0; i < digits.size(); ++i) {
      const int v = undigit(digits[i]);
      if (v < 0) return false;
      dst[i + 1] = static_cast<uint8_t>(v);
    }
    return true;
  }

  const Fabric &f_;
  PathSlFile &out_;
  std::unordered_map<uint64_t, int32_t> guids_;
  std::vector<uint8_t> tmp_;
  bool have_max_ = false, have_scope_ = false;
};

const char *PathSlReader::record(const std::string &key, std::istringstream &ls) {
  if (key == "engine") {
    ls >> out_.engine;
    return nullptr;
  }
  if (key == "max_lid") return max_lid(ls);
  if (key == "scope") return scope(ls);
  if (key != "dest" && key != "switch" && key != "slid") return "unknown record";
  if (!have_scope_) return "SL row before the scope line";
  if (key == "switch") return switch_row(ls);
  if (key == "slid") return slid_row(ls);
  if (out_.scope != PathSlFile::Scope::kDestination) return "'dest' row in another scope";
  std::string digits;
  ls >> digits;
  if (!decode(digits, out_.sl.data())) return "row needs one SL digit per LID";
  return nullptr;
}

const char *PathSlReader::max_lid(std::istringstream &ls) {
  if (have_max_) return "max_lid given twice";
  long v = -1;
  if (!(ls >> v) || v < 0 || v > 0xBFFF) return "bad max_lid";
  out_.max_lid = static_cast<uint16_t>(v);
  have_max_ = true;
  return nullptr;
}

const char *PathSlReader::scope(std::istringstream &ls) {
  std::string s;
  ls >> s;
  if (!have_max_) return "scope before max_lid";
  if (have_scope_) return "scope given twice";
  if (s == "destination") {
    out_.scope = PathSlFile::Scope::kDestination;
    out_.sl.assign(out_.max_lid + 1u, 0xFF);
  } else if (s == "source-switch") {
    out_.scope = PathSlFile::Scope::kSourceSwitch;
    out_.sl.assign(static_cast<size_t>(f_.num_switches()) * (out_.max_lid + 1u), 0xFF);
  } else if (s == "source-lid") {
    out_.scope = PathSlFile::Scope::kSourceLid;
    out_.by_lid.reset(out_.max_lid);
  } else {
    return "unknown scope (destination, source-switch or source-lid)";
  }
  tmp_.assign(out_.max_lid + 1u, 0xFF);
  have_scope_ = true;
  return nullptr;
}

const char *PathSlReader::switch_row(std::istringstream &ls) {
  if (out_.scope != PathSlFile::Scope::kSourceSwitch) return "'switch' row in another scope";
  std::string id, digits;
  ls >> id >> digits;
  char *end = nullptr;
  const uint64_t guid = std::strtoull(id.c_str(), &end, 16);
  if (id.empty() || *end) return "bad switch GUID";
  if (!decode(digits, tmp_.data())) return "row needs one SL digit per LID";
  const auto it = guids_.find(guid);
  if (it == guids_.end()) {
    ++out_.unknown_switches;
    return nullptr;
  }
  std::copy(tmp_.begin(), tmp_.end(),
            out_.sl.begin() + static_cast<size_t>(it->second) * (out_.max_lid + 1u));
  return nullptr;
}

const char *PathSlReader::slid_row(std::istringstream &ls) {
  if (out_.scope != PathSlFile::Scope::kSourceLid) return "'slid' row in another scope";
  long slid = -1;
  if (!(ls >> slid) || slid <= 0 || slid > out_.max_lid) return "bad source LID";
  std::string digits;
  ls >> digits;
  if (!decode(digits, tmp_.data())) return "row needs one SL digit per LID";
  for (unsigned d = 1; d <= out_.max_lid; ++d)
    if (tmp_[d] != 0xFF)
      out_.by_lid.set(static_cast<uint16_t>(slid), static_cast<uint16_t>(d), tmp_[d]);
  return nullptr;
}

}  // namespace

bool read_path_sl_file(std::istream &in, const std::string &name, const Fabric &f, PathSlFile &out,
                       std::string &err) {
  out = PathSlFile{};
  PathSlReader reader(f, out);
  std::string line;
  int lineno = 0;
  bool magic = false;
  auto fail = [&](const char *what) {
    err = strprintf("%s:%d: %s", name.c_str(), lineno, what);
    return false;
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (!magic) {
      int version = 0;
      if (key != "keiro-path-sl" || !(ls >> version)) return fail("not a keiro path-SL file");
      if (version != 1) return fail("unsupported keiro path-SL file version");
      magic = true;
      continue;
    }
    if (const char *why = reader.record(key, ls)) return fail(why);
  }
  if (!magic) {
    err = name + ": empty, not a keiro path-SL file";
    return false;
  }
  if (!reader.have_scope()) {
    err = name + ": no scope line";
    return false;
  }
  return true;
}

bool read_path_sl_file(const std::string &path, const Fabric &f, PathSlFile &out,
                       std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  return read_path_sl_file(in, path, f, out, err);
}

}  // namespace keiro::io
