# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The readers' fuzz test (tests/fuzz/fuzz_readers.cc): a bounded,
# deterministic run (400 mutated inputs per reader, seed 1) under make check;
# run-tests.sh runs it again in the AddressSanitizer + UBSan build.
check_PROGRAMS += tests/fuzz_readers
tests_fuzz_readers_SOURCES = tests/fuzz/fuzz_readers.cc
tests_fuzz_readers_LDADD = libkeirocore.la
TESTS += tests/fuzz_readers
EXTRA_DIST += tests/fuzz/seeds/ibnetdiscover-ring5.txt
