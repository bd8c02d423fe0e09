# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Verification of routing tables (self-check, keiro check) and metrics.
libkeirocore_la_SOURCES += core/check/verify.h core/check/verify.cc
