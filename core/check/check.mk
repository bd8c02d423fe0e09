# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The self-check: reachability, loops, black holes and credit loops of routing tables.
libkeirocore_la_SOURCES += core/check/paths.cc core/check/paths.h core/check/verify.cc core/check/verify.h
