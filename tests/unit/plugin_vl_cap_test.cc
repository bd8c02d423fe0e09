// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "plugin/vl_cap.h"

namespace keiro::plugin {
namespace {

TEST(VlCap, DecodesPortInfoCodes) {
  EXPECT_EQ(data_vls_of_code(0), 1);  // non-compliant: OpenSM forces 1
  EXPECT_EQ(data_vls_of_code(1), 1);
  EXPECT_EQ(data_vls_of_code(2), 2);
  EXPECT_EQ(data_vls_of_code(3), 4);
  EXPECT_EQ(data_vls_of_code(4), 8);
  EXPECT_EQ(data_vls_of_code(5), 15);
}

TEST(VlCap, LinkUsesSmallerEndAndMaxOpVls) {
  EXPECT_EQ(link_data_vls(4, 4, 5), 8);  // ibsim: VLCap 4 on both ends, default max_op_vls
  EXPECT_EQ(link_data_vls(5, 3, 5), 4);  // the weaker end wins
  EXPECT_EQ(link_data_vls(5, 5, 2), 2);  // max_op_vls 2 caps at 2 data VLs
  EXPECT_EQ(link_data_vls(4, 4, 1), 1);
  EXPECT_EQ(link_data_vls(5, 5, 5), 15);
}

}  // namespace
}  // namespace keiro::plugin
