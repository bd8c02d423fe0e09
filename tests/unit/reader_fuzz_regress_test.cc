// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Regression tests for the reader bugs that tests/fuzz/fuzz_readers.cc found
// (issue 16, item 5): each input below is the smallest form of a fuzz input
// that crashed a reader or broke its contract (one clear error line).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/io/path_sl_file.h"
#include "tests/unit/fabrics.h"

namespace keiro {
namespace {

// A path-SL file whose max_lid changes after the scope line sized the rows:
// the rows were decoded with the new max_lid into the old buffers (heap
// buffer overflow). max_lid and scope are now accepted once each.
TEST(ReaderFuzzRegress, PathSlMaxLidAfterScope) {
  const Fabric f = fixtures::ca_ring(4);
  for (const char *text : {"keiro-path-sl 1\nmax_lid 0\nscope destination\nmax_lid 100\n"
                           "dest 0123012301230123012301230123012301230123012301230123012301230123"
                           "012301230123012301230123012301230123\n",
                           "keiro-path-sl 1\nmax_lid 2\nscope source-switch\nmax_lid 90\n"
                           "switch 0x1000 012\n"}) {
    std::istringstream in(text);
    io::PathSlFile p;
    std::string err;
    EXPECT_FALSE(io::read_path_sl_file(in, "p", f, p, err));
    EXPECT_EQ(err, "p:4: max_lid given twice");
  }
  std::istringstream in("keiro-path-sl 1\nmax_lid 3\nscope destination\nscope source-lid\n");
  io::PathSlFile p;
  std::string err;
  EXPECT_FALSE(io::read_path_sl_file(in, "p", f, p, err));
  EXPECT_EQ(err, "p:4: scope given twice");
}

}  // namespace
}  // namespace keiro
