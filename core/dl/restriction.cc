// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/dl/restriction.h"

namespace keiro::dl {

bool parse_restriction(std::string_view text, Restriction &out) {
  if (text == "ud") return out = Restriction::kUD, true;
  if (text == "ud-du") return out = Restriction::kUDDU, true;
  if (text == "ud-dudu") return out = Restriction::kUDThenDU, true;
  return false;
}

const char *restriction_name(Restriction r) {
  switch (r) {
    case Restriction::kUD:
      return "(UD)*";
    case Restriction::kUDDU:
      return "(UD-DU)*";
    case Restriction::kUDThenDU:
      return "UD-(DU)*";
  }
  return "?";
}

const char *restriction_option(Restriction r) {
  switch (r) {
    case Restriction::kUD:
      return "ud";
    case Restriction::kUDDU:
      return "ud-du";
    case Restriction::kUDThenDU:
      return "ud-dudu";
  }
  return "?";
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
