# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unit tests: one GoogleTest binary; each area adds its *_test.cc files to
# tests_unit_tests_SOURCES in its own fragment.
tests_unit_tests_LDADD = libkeirocore.la $(GTEST_LIBS) -lgtest_main
TESTS += tests/unit_tests
