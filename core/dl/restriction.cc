// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/restriction.h"

#include "core/enum_names.h"

namespace keiro::dl {

namespace {
// Option words (dl_restriction) and the paper's names.
constexpr EnumName<Restriction> kWords[] = {
    {Restriction::kUD, "ud"}, {Restriction::kUDDU, "ud-du"}, {Restriction::kUDThenDU, "ud-dudu"}};
constexpr EnumName<Restriction> kNames[] = {{Restriction::kUD, "(UD)*"},
                                            {Restriction::kUDDU, "(UD-DU)*"},
                                            {Restriction::kUDThenDU, "UD-(DU)*"}};
}  // namespace

bool parse_restriction(std::string_view text, Restriction &out) {
  return parse_enum(kWords, text, out);
}

const char *restriction_name(Restriction r) {
  return enum_name(kNames, r);
}

const char *restriction_option(Restriction r) {
  return enum_name(kWords, r);
}

bool Ranks::layer_is_ud(int v) const {
  switch (restriction_) {
    case Restriction::kUD:
      return true;
    case Restriction::kUDDU:
      return v % 2 == 0;
    case Restriction::kUDThenDU:
      return v == 0;
  }
  return true;
}

Ranks::Ranks(Restriction r, int layers) : restriction_(r), layers_(layers < 1 ? 1 : layers) {
  const int R = num_ranks();
  up_.resize(R);
  for (int rank = 0; rank < R; ++rank) {
    const bool second = rank & 1;  // 2v + 1: the restricted direction of the layer
    up_[rank] = layer_is_ud(layer_of(rank)) ? second : !second;
  }
  first_.assign(2 * (R + 1), static_cast<int16_t>(R));
  for (int dir = 0; dir < 2; ++dir)
    for (int after = -1; after < R; ++after)
      for (int rank = after < 0 ? 0 : after; rank < R; ++rank)
        if (up_[rank] == dir) {
          first_[dir * (R + 1) + after + 1] = static_cast<int16_t>(rank);
          break;
        }
  last_.assign(2 * (R + 1), -1);
  for (int dir = 0; dir < 2; ++dir)
    for (int limit = -1; limit < R; ++limit)
      for (int after = -1; after < R; ++after)
        if (first_[dir * (R + 1) + after + 1] <= limit)
          last_[dir * (R + 1) + limit + 1] = static_cast<int16_t>(after);
}

}  // namespace keiro::dl
