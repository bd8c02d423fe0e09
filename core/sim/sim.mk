# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro simulate's packet-level network model (credit flow control, VCT).
libkeirocore_la_SOURCES += core/sim/network.cc core/sim/network.h
