// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/io/compact_tables.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "core/log.h"

namespace keiro::io {

namespace {

constexpr char kMagic[8] = {'K', 'E', 'I', 'R', 'O', 'T', 'B', 'L'};
// Section tags in file order; index k is CompactSection bit k - 1 (HEAD: none).
constexpr const char *kTags[4] = {"HEAD", "LFTS", "SL2V", "PSLS"};

uint32_t crc32(const char *p, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ static_cast<uint8_t>(p[i])) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

// Little-endian appends.
void put(std::string &s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t get(const char *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

void section(std::ostream &out, const char *tag, const std::string &payload) {
  std::string h(tag, 4);
  put(h, payload.size(), 8);
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
  std::string c;
  put(c, crc32(payload.data(), payload.size()), 4);
  out.write(c.data(), 4);
}

// LIDs 1..L the fabric uses (the text files write '-' for the others).
std::vector<uint16_t> used_lids(const Fabric &f, const Routing &r) {
  std::vector<uint16_t> u;
  const unsigned top = std::min<unsigned>(r.max_lid(), f.max_lid());
  for (unsigned lid = 1; lid <= top; ++lid)
    if (f.lid_owner(static_cast<uint16_t>(lid)).kind != LidOwner::kNone)
      u.push_back(static_cast<uint16_t>(lid));
  return u;
}

uint8_t lmc_of(const Fabric &f) {
  uint8_t lmc = 0;
  for (int32_t t = 0; t < f.num_terminals(); ++t) lmc = std::max(lmc, f.terminal(t).lmc);
  return lmc;
}

std::string head_payload(const Fabric &f, const Routing &r) {
  std::string s;
  put(s, r.max_lid(), 2);
  put(s, lmc_of(f), 1);
  const std::string e = r.engine.substr(0, 255);
  put(s, e.size(), 1);
  s += e;
  put(s, static_cast<uint32_t>(f.num_switches()), 4);
  for (int32_t i = 0; i < f.num_switches(); ++i) put(s, f.sw(i).guid, 8);
  put(s, static_cast<uint32_t>(f.num_terminals()), 4);
  for (int32_t t = 0; t < f.num_terminals(); ++t) put(s, f.terminal(t).port_guid, 8);
  return s;
}

std::string lfts_payload(const Fabric &f, const Routing &r) {
  const size_t stride = r.max_lid() + 1u;
  std::string s(static_cast<size_t>(f.num_switches()) * stride, '\xFF');
  for (int32_t i = 0; i < f.num_switches(); ++i) {
    const uint8_t *row = r.lft_row(i);
    char *dst = s.data() + i * stride;
    const uint8_t np = f.sw(i).num_ports;
    for (size_t lid = 0; lid < stride; ++lid)
      if (row[lid] <= np) dst[lid] = static_cast<char>(row[lid]);  // as OpenSM's dump omits others
  }
  return s;
}

// The ports of switch s with an SL2VL row and column: 0, every connected
// port and the highest unconnected one (the Routing shares one row among
// them; OpenSM's dump lists them in order, so the highest one's row wins).
std::vector<uint8_t> sl2vl_ports(const Fabric &f, int32_t s) {
  std::vector<uint8_t> ports{0};
  int last_free = -1;
  for (unsigned p = 1; p <= f.sw(s).num_ports; ++p) {
    if (f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone)
      ports.push_back(static_cast<uint8_t>(p));
    else
      last_free = static_cast<int>(p);
  }
  if (last_free > 0) {
    ports.push_back(static_cast<uint8_t>(last_free));
    std::sort(ports.begin(), ports.end());
  }
  return ports;
}

// SL2V: the palette of distinct SL->VL maps and every table's index.
class Sl2vlWriter {
 public:
  std::string payload(const Fabric &f, const Routing &r) {
    std::string body;
    uint8_t vls[kNumSls];
    for (int32_t s = 0; s < f.num_switches(); ++s) {
      const std::vector<uint8_t> ports = sl2vl_ports(f, s);
      put(body, ports.size(), 2);
      for (const uint8_t p : ports) put(body, p, 1);
      for (const uint8_t in : ports)
        for (const uint8_t o : ports) {
          for (int sl = 0; sl < kNumSls; ++sl) vls[sl] = r.vl(s, in, o, static_cast<uint8_t>(sl));
          indices_.push_back(index(vls));
          marks_.push_back(body.size());
        }
    }
    for (int32_t t = 0; t < f.num_terminals(); ++t) {
      for (int sl = 0; sl < kNumSls; ++sl) vls[sl] = r.terminal_vl(t, static_cast<uint8_t>(sl));
      indices_.push_back(index(vls));
      marks_.push_back(body.size());
    }
    const int w = palette_.size() <= 256 ? 1 : palette_.size() <= 65536 ? 2 : 4;
    std::string s;
    put(s, palette_.size(), 4);
    put(s, static_cast<uint64_t>(w), 1);
    put(s, 0, 3);
    for (const uint64_t m : palette_) put(s, m, 8);
    // Splice the indices in at their marks (after each table's port list).
    size_t from = 0;
    for (size_t k = 0; k < indices_.size(); ++k) {
      s.append(body, from, marks_[k] - from);
      from = marks_[k];
      put(s, indices_[k], w);
    }
    s.append(body, from, std::string::npos);
    return s;
  }

 private:
  uint32_t index(const uint8_t *vls) {
    uint64_t key = 0;
    for (int sl = 0; sl < kNumSls; ++sl) key |= static_cast<uint64_t>(vls[sl] & 0xF) << (4 * sl);
    const auto it = seen_.emplace(key, static_cast<uint32_t>(palette_.size()));
    if (it.second) palette_.push_back(key);
    return it.first->second;
  }
  std::unordered_map<uint64_t, uint32_t> seen_;
  std::vector<uint64_t> palette_;
  std::vector<uint32_t> indices_;
  std::vector<size_t> marks_;
};

std::string path_sls_payload(const Fabric &f, const Routing &r) {
  const bool per_switch = r.sl_scope() == Routing::SlScope::kPerSourceSwitch;
  const std::vector<uint16_t> used = used_lids(f, r);
  const uint32_t rows = per_switch ? static_cast<uint32_t>(f.num_switches()) : 1;
  std::string s;
  put(s, per_switch ? 1 : 0, 1);
  put(s, 0, 3);
  put(s, rows, 4);
  std::string mask((r.max_lid() + 8u) / 8, '\0');
  for (const uint16_t lid : used) mask[lid / 8] = static_cast<char>(mask[lid / 8] | 1 << (lid % 8));
  s += mask;
  std::vector<uint8_t> v(used.size());
  for (uint32_t row = 0; row < rows; ++row) {
    bool bytes = false;
    for (size_t k = 0; k < used.size(); ++k) {
      const uint8_t sl = r.path_sl(static_cast<int32_t>(row), used[k]);
      v[k] = sl < kNumSls ? sl : 0xFF;
      bytes |= v[k] == 0xFF;
    }
    put(s, bytes ? 1 : 0, 1);
    if (bytes) {
      s.append(reinterpret_cast<const char *>(v.data()), v.size());
      continue;
    }
    for (size_t k = 0; k < v.size(); k += 2)
      s.push_back(static_cast<char>(v[k] | (k + 1 < v.size() ? v[k + 1] << 4 : 0)));
  }
  return s;
}

}  // namespace

void write_compact_tables(std::ostream &out, const Fabric &f, const Routing &r, unsigned sections) {
  sections &= kCompactAll;
  std::string h(kMagic, 8);
  put(h, kCompactVersion, 4);
  put(h, 1 + __builtin_popcount(sections), 4);
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  section(out, kTags[0], head_payload(f, r));
  if (sections & kCompactLfts) section(out, kTags[1], lfts_payload(f, r));
  if (sections & kCompactSl2vl) section(out, kTags[2], Sl2vlWriter().payload(f, r));
  if (sections & kCompactPathSls) section(out, kTags[3], path_sls_payload(f, r));
}

bool write_compact_tables(const std::string &path, const Fabric &f, const Routing &r,
                          unsigned sections, std::string &err) {
  std::ofstream out(path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!out) {
    err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  write_compact_tables(out, f, r, sections);
  out.close();
  if (!out) {
    err = "error writing " + path;
    return false;
  }
  return true;
}

uint64_t compact_tables_size(const Fabric &f, const Routing &r, unsigned sections) {
  constexpr uint64_t kFrame = 16;  // tag, length, CRC
  uint64_t n = 16 + kFrame + head_payload(f, r).size();
  if (sections & kCompactLfts)
    n += kFrame + static_cast<uint64_t>(f.num_switches()) * (r.max_lid() + 1u);
  if (sections & kCompactSl2vl) n += kFrame + Sl2vlWriter().payload(f, r).size();
  if (sections & kCompactPathSls) {
    const std::vector<uint16_t> used = used_lids(f, r);
    const bool per_switch = r.sl_scope() == Routing::SlScope::kPerSourceSwitch;
    const int32_t rows = per_switch ? f.num_switches() : 1;
    n += kFrame + 8 + (r.max_lid() + 8u) / 8;
    for (int32_t row = 0; row < rows; ++row) {
      bool bytes = false;
      for (const uint16_t lid : used) bytes |= r.path_sl(row, lid) >= kNumSls;
      n += 1 + (bytes ? used.size() : (used.size() + 1) / 2);
    }
  }
  return n;
}

// ---------------------------------------------------------------- reading

namespace {

// parse_compact_tables()'s cursor over one section's payload; every read
// checks the bounds and names what was missing.
class Cursor {
 public:
  Cursor(const std::string &d, size_t begin, size_t end) : d_(d), pos_(begin), end_(end) {}
  bool take(int bytes, uint64_t &v) {
    if (end_ - pos_ < static_cast<size_t>(bytes)) return false;
    v = get(d_.data() + pos_, bytes);
    pos_ += static_cast<size_t>(bytes);
    return true;
  }
  bool skip(uint64_t n) {
    if (end_ - pos_ < n) return false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  size_t pos() const { return pos_; }
  size_t left() const { return end_ - pos_; }
  uint8_t byte(size_t at) const { return static_cast<uint8_t>(d_[at]); }

 private:
  const std::string &d_;
  size_t pos_, end_;
};

const char *parse_head(Cursor &c, CompactTables &t) {
  uint64_t lid = 0, lmc = 0, elen = 0, n = 0;
  if (!c.take(2, lid) || !c.take(1, lmc) || !c.take(1, elen)) return "HEAD section too short";
  if (lid > 0xBFFF) return "HEAD: max_lid beyond 0xBFFF";
  if (lmc > 7) return "HEAD: LMC beyond 7";
  t.max_lid = static_cast<uint16_t>(lid);
  t.lmc = static_cast<uint8_t>(lmc);
  const size_t e = c.pos();
  if (!c.skip(elen)) return "HEAD section too short for the engine name";
  for (size_t i = 0; i < elen; ++i)
    if (!std::isgraph(c.byte(e + i))) return "HEAD: engine name is not printable";
  t.engine.assign(t.data, e, elen);
  for (std::vector<uint64_t> *list : {&t.switch_guids, &t.terminal_guids}) {
    if (!c.take(4, n) || n > c.left() / 8) return "HEAD section too short for its GUID lists";
    list->resize(n);
    for (uint64_t &g : *list) c.take(8, g);
  }
  return c.left() ? "HEAD section longer than its contents" : nullptr;
}

const char *parse_lfts(Cursor &c, CompactTables &t) {
  t.lfts = c.pos();
  if (c.left() != static_cast<uint64_t>(t.switch_guids.size()) * (t.max_lid + 1u))
    return "LFTS section size is not switches x (max_lid + 1)";
  return nullptr;
}

// One palette index at p: false when beyond the palette.
bool index_ok(const CompactTables &t, size_t p) {
  return get(t.data.data() + p, t.index_width) < t.palette_size;
}

const char *parse_sl2vl(Cursor &c, CompactTables &t) {
  uint64_t n = 0, w = 0, pad = 0;
  if (!c.take(4, n) || !c.take(1, w) || !c.take(3, pad)) return "SL2V section too short";
  if (w != 1 && w != 2 && w != 4) return "SL2V: palette index width not 1, 2 or 4";
  t.palette_size = static_cast<uint32_t>(n);
  t.index_width = static_cast<uint8_t>(w);
  t.palette = c.pos();
  if (n > c.left() / 8 || !c.skip(n * 8)) return "SL2V section too short for its palette";
  t.sl2vl_switch.clear();
  for (size_t i = 0; i < t.switch_guids.size(); ++i) {
    t.sl2vl_switch.push_back(c.pos());
    uint64_t np = 0, p = 0, last = 0;
    if (!c.take(2, np) || np == 0 || np > 256) return "SL2V: bad switch port count";
    for (uint64_t k = 0; k < np; ++k) {
      if (!c.take(1, p)) return "SL2V section too short for a port list";
      if (k > 0 && p <= last) return "SL2V: port list not ascending";
      last = p;
    }
    const size_t m = c.pos();
    if (!c.skip(np * np * w)) return "SL2V section too short for a switch's table";
    for (uint64_t k = 0; k < np * np; ++k)
      if (!index_ok(t, m + k * w)) return "SL2V: palette index beyond the palette";
  }
  t.sl2vl_terminals = c.pos();
  if (!c.skip(t.terminal_guids.size() * w)) return "SL2V section too short for the terminals";
  for (size_t k = 0; k < t.terminal_guids.size(); ++k)
    if (!index_ok(t, t.sl2vl_terminals + k * w)) return "SL2V: palette index beyond the palette";
  return c.left() ? "SL2V section longer than its contents" : nullptr;
}

size_t used_in_mask(const CompactTables &t) {
  size_t u = 0;
  for (unsigned lid = 1; lid <= t.max_lid; ++lid)
    u += (static_cast<uint8_t>(t.data[t.lid_mask + lid / 8]) >> (lid % 8)) & 1;
  return u;
}

const char *parse_path_sls(Cursor &c, CompactTables &t) {
  uint64_t scope = 0, pad = 0, rows = 0, enc = 0;
  if (!c.take(1, scope) || !c.take(3, pad) || !c.take(4, rows)) return "PSLS section too short";
  if (scope > 1) return "PSLS: unknown scope (0 destination, 1 source switch)";
  t.source_switch_sls = scope == 1;
  if (rows != (scope == 1 ? t.switch_guids.size() : 1))
    return "PSLS: row count is not 1 (destination) or the switch count (source switch)";
  t.lid_mask = c.pos();
  if (!c.skip((t.max_lid + 8u) / 8)) return "PSLS section too short for its LID bitmap";
  const size_t used = used_in_mask(t);
  t.sl_rows.clear();
  for (uint64_t row = 0; row < rows; ++row) {
    t.sl_rows.push_back(c.pos());
    if (!c.take(1, enc) || enc > 1) return "PSLS: bad row encoding (0 nibbles, 1 bytes)";
    const size_t at = c.pos();
    if (!c.skip(enc ? used : (used + 1) / 2)) return "PSLS section too short for its rows";
    if (enc)
      for (size_t k = 0; k < used; ++k)
        if (c.byte(at + k) >= kNumSls && c.byte(at + k) != 0xFF)
          return "PSLS: SL beyond 15 in a byte row";
  }
  return c.left() ? "PSLS section longer than its contents" : nullptr;
}

std::string printable_tag(const char *p) {
  std::string s;
  for (int i = 0; i < 4; ++i)
    s += std::isprint(static_cast<uint8_t>(p[i]))
             ? std::string(1, p[i])
             : strprintf("\\x%02x", static_cast<uint8_t>(p[i]));
  return s;
}

}  // namespace

bool is_compact_tables(const std::string &bytes) {
  return bytes.size() >= 8 && std::memcmp(bytes.data(), kMagic, 8) == 0;
}

bool parse_compact_tables(std::string bytes, const std::string &name, CompactTables &out,
                          std::string &err) {
  out = CompactTables{};
  out.data = std::move(bytes);
  const std::string &d = out.data;
  auto fail = [&](const std::string &what) {
    err = name + ": " + what;
    return false;
  };
  if (!is_compact_tables(d)) return fail("not a keiro compact table file (no KEIROTBL magic)");
  if (d.size() < 16) return fail("truncated in the file header");
  const uint64_t version = get(d.data() + 8, 4), count = get(d.data() + 12, 4);
  if (version != kCompactVersion)
    return fail(strprintf("compact table file version %llu; this keiro reads version %u",
                          static_cast<unsigned long long>(version), kCompactVersion));
  size_t pos = 16;
  int last = -1;
  for (uint64_t k = 0; k < count; ++k) {
    if (d.size() - pos < 12)
      return fail(strprintf("truncated: section %llu of %llu is missing",
                            static_cast<unsigned long long>(k + 1),
                            static_cast<unsigned long long>(count)));
    const std::string tag = printable_tag(d.data() + pos);
    const uint64_t len = get(d.data() + pos + 4, 8);
    int kind = 0;
    while (kind < 4 && std::memcmp(d.data() + pos, kTags[kind], 4) != 0) ++kind;
    if (kind == 4) return fail("unknown section '" + tag + "'");
    if (kind <= last) return fail("section " + tag + " out of order or repeated");
    if (last < 0 && kind != 0) return fail("first section is " + tag + ", not HEAD");
    last = kind;
    pos += 12;
    if (len > d.size() - pos || d.size() - pos - len < 4)
      return fail(strprintf("truncated: section %s needs %llu bytes, %zu left", tag.c_str(),
                            static_cast<unsigned long long>(len + 4), d.size() - pos));
    if (crc32(d.data() + pos, len) != get(d.data() + pos + len, 4))
      return fail("section " + tag + " fails its CRC-32 check (file corrupted)");
    Cursor c(d, pos, pos + len);
    const char *why = kind == 0   ? parse_head(c, out)
                      : kind == 1 ? parse_lfts(c, out)
                      : kind == 2 ? parse_sl2vl(c, out)
                                  : parse_path_sls(c, out);
    if (why) return fail(why);
    if (kind > 0) out.sections |= 1u << (kind - 1);
    pos += len + 4;
  }
  if (last < 0) return fail("no HEAD section");
  if (pos != d.size()) return fail(strprintf("%zu bytes after the last section", d.size() - pos));
  return true;
}

bool read_compact_tables(const std::string &path, CompactTables &out, std::string &err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_compact_tables(std::move(ss).str(), path, out, err);
}

// ---------------------------------------------------------------- applying

namespace {

std::unordered_map<uint64_t, int32_t> switch_map(const Fabric &f) {
  std::unordered_map<uint64_t, int32_t> m;
  for (int32_t s = 0; s < f.num_switches(); ++s) m.emplace(f.sw(s).guid, s);
  return m;
}

void palette_map(const CompactTables &t, size_t at, uint8_t *vls) {
  const uint64_t key =
      get(t.data.data() + t.palette + get(t.data.data() + at, t.index_width) * 8, 8);
  for (int sl = 0; sl < kNumSls; ++sl) vls[sl] = (key >> (4 * sl)) & 0xF;
}

}  // namespace

void apply_compact_lfts(const CompactTables &t, const Fabric &f, Routing &r, DumpReadReport &rep) {
  const auto guids = switch_map(f);
  std::vector<bool> seen(f.num_switches(), false);
  const size_t stride = t.max_lid + 1u;
  const size_t top = std::min<size_t>(t.max_lid, r.max_lid());
  for (size_t i = 0; i < t.switch_guids.size(); ++i) {
    ++rep.tables;
    const auto it = guids.find(t.switch_guids[i]);
    if (it == guids.end()) {
      ++rep.unknown_guids;
      continue;
    }
    seen[it->second] = true;
    const auto *src = reinterpret_cast<const uint8_t *>(t.data.data() + t.lfts + i * stride);
    uint8_t *row = r.lft_row_mut(it->second);
    std::fill(row, row + r.max_lid() + 1, kNoPort);
    std::copy(src, src + top + 1, row);
    for (size_t lid = 0; lid < stride; ++lid)
      if (src[lid] != kNoPort) ++(lid <= top ? rep.entries : rep.ignored_entries);
  }
  for (int32_t s = 0; s < f.num_switches(); ++s)
    if (!seen[s]) rep.missing.push_back(s);
}

void apply_compact_sl2vl(const CompactTables &t, const Fabric &f, Routing &r, DumpReadReport &rep) {
  const auto guids = switch_map(f);
  std::vector<std::vector<bool>> out_seen(f.num_switches());
  uint8_t vls[kNumSls];
  for (size_t i = 0; i < t.switch_guids.size(); ++i) {
    ++rep.tables;
    const auto it = guids.find(t.switch_guids[i]);
    if (it == guids.end()) {
      ++rep.unknown_guids;
      continue;
    }
    const int32_t s = it->second;
    const unsigned np = f.sw(s).num_ports;
    out_seen[s].assign(np + 1, false);
    const size_t at = t.sl2vl_switch[i];
    const size_t n = get(t.data.data() + at, 2);
    const auto *ports = reinterpret_cast<const uint8_t *>(t.data.data() + at + 2);
    size_t k = at + 2 + n;
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b, k += t.index_width) {
        if (ports[a] > np || ports[b] > np) {
          ++rep.ignored_entries;
          continue;
        }
        palette_map(t, k, vls);
        for (int sl = 0; sl < kNumSls; ++sl)
          r.set_vl(s, ports[a], ports[b], static_cast<uint8_t>(sl), vls[sl]);
        out_seen[s][ports[b]] = true;
        ++rep.entries;
      }
  }
  for (int32_t s = 0; s < f.num_switches(); ++s)
    for (unsigned p = 1; p <= f.sw(s).num_ports; ++p)
      if (f.peer(s, static_cast<uint8_t>(p)).kind != PortPeer::kNone &&
          (out_seen[s].empty() || !out_seen[s][p]))
        rep.ports_without_sl2vl.emplace_back(s, static_cast<uint8_t>(p));
  std::unordered_map<uint64_t, int32_t> terms;
  for (int32_t x = 0; x < f.num_terminals(); ++x) terms.emplace(f.terminal(x).port_guid, x);
  std::vector<bool> term_seen(f.num_terminals(), false);
  for (size_t k = 0; k < t.terminal_guids.size(); ++k) {
    const auto it = terms.find(t.terminal_guids[k]);
    if (it == terms.end()) continue;
    palette_map(t, t.sl2vl_terminals + k * t.index_width, vls);
    for (int sl = 0; sl < kNumSls; ++sl)
      r.set_terminal_vl(it->second, static_cast<uint8_t>(sl), vls[sl]);
    term_seen[it->second] = true;
  }
  for (int32_t x = 0; x < f.num_terminals(); ++x)
    if (!term_seen[x]) rep.terminals_without_sl2vl.push_back(x);
}

void compact_path_sls(const CompactTables &t, const Fabric &f, PathSlFile &out) {
  out = PathSlFile{};
  out.engine = t.engine;
  out.max_lid = t.max_lid;
  out.scope =
      t.source_switch_sls ? PathSlFile::Scope::kSourceSwitch : PathSlFile::Scope::kDestination;
  const size_t stride = t.max_lid + 1u;
  std::vector<uint16_t> used;
  for (unsigned lid = 1; lid <= t.max_lid; ++lid)
    if ((static_cast<uint8_t>(t.data[t.lid_mask + lid / 8]) >> (lid % 8)) & 1)
      used.push_back(static_cast<uint16_t>(lid));
  out.sl.assign((t.source_switch_sls ? f.num_switches() : 1) * stride, 0xFF);
  const auto guids = switch_map(f);
  for (size_t row = 0; row < t.sl_rows.size(); ++row) {
    size_t dst = 0;
    if (t.source_switch_sls) {
      const auto it = guids.find(t.switch_guids[row]);
      if (it == guids.end()) {
        ++out.unknown_switches;
        continue;
      }
      dst = static_cast<size_t>(it->second) * stride;
    }
    const char *p = t.data.data() + t.sl_rows[row];
    const bool bytes = p[0] == 1;
    ++p;
    for (size_t k = 0; k < used.size(); ++k) {
      const uint8_t b = static_cast<uint8_t>(bytes ? p[k] : p[k / 2]);
      out.sl[dst + used[k]] = bytes ? b : (k % 2 ? b >> 4 : b & 0xF);
    }
  }
}

}  // namespace keiro::io
