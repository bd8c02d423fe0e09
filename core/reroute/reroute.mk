# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What survives a fabric change and how it is kept (docs/rerouting.md).
libkeirocore_la_SOURCES += core/reroute/previous_sls.cc core/reroute/previous_sls.h \
	core/reroute/incremental.cc core/reroute/incremental.h
