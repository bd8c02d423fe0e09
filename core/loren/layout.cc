// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/loren/layout.h"

#include <algorithm>
#include <cassert>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/io/text_lines.h"
#include "core/log.h"
#include "core/options.h"

namespace keiro::loren {

namespace {

constexpr int32_t kMaxCoord = 65535;

uint64_t pos_key(int32_t x, int32_t y) {
  return (static_cast<uint64_t>(x) << 40) | (static_cast<uint64_t>(y) << 20);
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Next token of line from i: a double-quoted string (quotes removed) or a
// run of non-blank characters. Sets quoted. False at the end of the line or
// on an unterminated quote (then bad_quote is set).
bool next_token(std::string_view line, size_t &i, std::string &tok, bool &quoted, bool &bad_quote) {
  while (i < line.size() && is_blank(line[i])) ++i;
  if (i >= line.size()) return false;
  quoted = line[i] == '"';
  if (quoted) {
    const size_t end = line.find('"', i + 1);
    if (end == std::string_view::npos) {
      bad_quote = true;
      return false;
    }
    tok.assign(line.substr(i + 1, end - i - 1));
    i = end + 1;
    return true;
  }
  const size_t b = i;
  while (i < line.size() && !is_blank(line[i])) ++i;
  tok.assign(line.substr(b, i - b));
  return true;
}

bool parse_coord(const std::string &tok, int32_t &v) {
  if (tok.empty() || tok.size() > 5) return false;
  v = 0;
  for (char c : tok) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  return v <= kMaxCoord;
}

}  // namespace

int32_t Layout::at(int32_t px, int32_t py) const {
  assert(by_pos_.size() == x.size() && "Layout::at: index() must run after the positions are set");
  if (px < 0 || py < 0 || px > kMaxCoord || py > kMaxCoord) return -1;
  const uint64_t key = pos_key(px, py);
  auto it = std::lower_bound(by_pos_.begin(), by_pos_.end(), key);
  if (it == by_pos_.end() || (*it & ~uint64_t{0xFFFFF}) != key) return -1;
  return static_cast<int32_t>(*it & 0xFFFFF);
}

int32_t Layout::index() {
  by_pos_.clear();
  width = height = 0;
  for (int32_t s = 0; s < num_switches(); ++s) {
    by_pos_.push_back(pos_key(x[s], y[s]) | static_cast<uint64_t>(s));
    width = std::max(width, x[s] + 1);
    height = std::max(height, y[s] + 1);
  }
  std::sort(by_pos_.begin(), by_pos_.end());
  for (size_t i = 1; i < by_pos_.size(); ++i)
    if ((by_pos_[i] >> 20) == (by_pos_[i - 1] >> 20))
      return static_cast<int32_t>(by_pos_[i] & 0xFFFFF);
  return -1;
}

bool make_layout(const Fabric &f, const std::vector<int32_t> &x, const std::vector<int32_t> &y,
                 Layout &out, std::string &err) {
  const int32_t S = f.num_switches();
  if (S >= (1 << 20)) {
    err = "layout: too many switches";
    return false;
  }
  if (static_cast<int32_t>(x.size()) != S || static_cast<int32_t>(y.size()) != S) {
    err = strprintf("layout: %zu positions for %d switches", x.size(), S);
    return false;
  }
  for (int32_t s = 0; s < S; ++s)
    if (x[s] < 0 || y[s] < 0 || x[s] > kMaxCoord || y[s] > kMaxCoord) {
      err = strprintf("layout: switch %s has position (%d,%d) outside 0..%d", f.describe(s).c_str(),
                      x[s], y[s], kMaxCoord);
      return false;
    }
  out.x = x;
  out.y = y;
  const int32_t dup = out.index();
  if (dup >= 0) {
    err = strprintf("layout: two switches share position (%d,%d), one is %s", x[dup], y[dup],
                    f.describe(dup).c_str());
    return false;
  }
  return true;
}

namespace {

// The switch a layout line names (key; quoted: written in quotes) into s;
// s < 0 and absent when no switch has that name: a switch that is not in
// the fabric (failed, or removed) is skipped, admins keep one layout file
// across faults. False (why) on a malformed GUID or an ambiguous name.
bool layout_switch(const Fabric &f, const std::string &key, bool quoted, int32_t &s, bool &absent,
                   std::string &why) {
  // An unquoted 0x word must be a well-formed GUID; then the GUID or the
  // node description names one switch (Fabric::find_switch rejects a
  // description that several switches share).
  uint64_t guid = 0;
  if (!quoted && key.size() > 2 && key[0] == '0' && (key[1] == 'x' || key[1] == 'X') &&
      !parse_guid(key, guid)) {
    why = "malformed GUID '" + key + "'";
    return false;
  }
  s = f.find_switch(key, why);
  absent = s < 0 && [&] {
    for (int32_t t = 0; t < f.num_switches(); ++t)
      if (f.sw(t).name == key) return false;
    return true;
  }();
  return s >= 0 || absent;
}

// False (err) when a switch got no line (line_of[s] == 0).
bool all_placed(const Fabric &f, const std::string &name, const std::vector<int32_t> &line_of,
                std::string &err) {
  int32_t missing = 0, first = -1;
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (!line_of[s]) {
      if (first < 0) first = s;
      ++missing;
    }
  if (missing) {
    err = strprintf("%s: switch %s has no position%s", name.c_str(), f.describe(first).c_str(),
                    missing > 1 ? strprintf(" (%d switches are missing)", missing).c_str() : "");
    return false;
  }
  return true;
}

}  // namespace

bool parse_layout(std::string_view text, const std::string &name, const Fabric &f, Layout &out,
                  std::string &err) {
  const int32_t S = f.num_switches();
  if (S >= (1 << 20)) {
    err = name + ": too many switches for a layout";
    return false;
  }
  std::vector<int32_t> line_of(S, 0);
  // (x, y) -> line that placed a switch there.
  std::unordered_map<uint64_t, int32_t> pos_line;
  out.x.assign(S, -1);
  out.y.assign(S, -1);
  out.absent = 0;
  out.first_absent.clear();

  auto fail = [&](int32_t line, const std::string &what) {
    err = strprintf("%s:%d: %s", name.c_str(), line, what.c_str());
    return false;
  };

  std::string key, tx, ty;
  io::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const int32_t ln = lines.number();
    size_t i = 0;
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size() || line[i] == '#') continue;
    bool quoted = false, bad_quote = false, q2 = false;
    if (!next_token(line, i, key, quoted, bad_quote))
      return fail(ln, "unterminated '\"' in the switch name");
    if (!next_token(line, i, tx, q2, bad_quote) || !next_token(line, i, ty, q2, bad_quote))
      return fail(ln, "expected 'SWITCH X Y' (SWITCH: 0x GUID or node description)");
    int32_t s = -1;
    bool absent = false;
    std::string why;
    if (!layout_switch(f, key, quoted, s, absent, why)) return fail(ln, why);
    int32_t px = 0, py = 0;
    if (!parse_coord(tx, px))
      return fail(ln, strprintf("X '%s' is not a whole number 0..%d", tx.c_str(), kMaxCoord));
    if (!parse_coord(ty, py))
      return fail(ln, strprintf("Y '%s' is not a whole number 0..%d", ty.c_str(), kMaxCoord));
    if (absent) {
      if (out.absent++ == 0) out.first_absent = key;
      continue;
    }
    if (line_of[s])
      return fail(ln, strprintf("switch %s is already placed on line %d", f.describe(s).c_str(),
                                line_of[s]));
    auto [it, fresh] = pos_line.emplace(pos_key(px, py), ln);
    if (!fresh)
      return fail(ln,
                  strprintf("position (%d,%d) is already taken on line %d", px, py, it->second));
    line_of[s] = ln;
    out.x[s] = px;
    out.y[s] = py;
  }
  if (!all_placed(f, name, line_of, err)) return false;
  out.index();
  return true;
}

bool read_layout(const std::string &path, const Fabric &f, Layout &out, std::string &err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot read layout file '" + path + "'";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_layout(ss.str(), path, f, out, err);
}

}  // namespace keiro::loren
