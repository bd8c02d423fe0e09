// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// One table per enum for its words (option values, report names), read both
// ways: enum_name() gives the word of a value, parse_enum() the value of a
// word. Keeps the two directions of one mapping from drifting apart.
// Time: O(table size) per call.
#pragma once

#include <cstddef>
#include <string_view>

namespace keiro {

template <class E>
struct EnumName {
  E value;
  const char *name;
};

// The name of e in table, or "?" when the table does not list it.
template <class E, size_t N>
constexpr const char *enum_name(const EnumName<E> (&table)[N], E e) {
  for (const EnumName<E> &x : table)
    if (x.value == e) return x.name;
  return "?";
}

// Sets out to the value named text; false (out untouched) when none is.
template <class E, size_t N>
constexpr bool parse_enum(const EnumName<E> (&table)[N], std::string_view text, E &out) {
  for (const EnumName<E> &x : table)
    if (text == x.name) return out = x.value, true;
  return false;
}

}  // namespace keiro
