// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The lines of a text in memory, for the file readers: each line without its
// '\n' (a '\r' before it stays; readers decide), numbered from 1. A final
// line without '\n' counts; an empty text has no lines. No allocation.
#pragma once

#include <cstddef>
#include <string_view>

namespace keiro::io {

class TextLines {
 public:
  explicit TextLines(std::string_view text) : text_(text) {}
  // The next line; false after the last one.
  bool next(std::string_view &line) {
    if (pos_ >= text_.size()) return false;
    size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) nl = text_.size();
    line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    ++number_;
    return true;
  }
  // Number of the line next() gave last (1-based).
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

}  // namespace keiro::io
