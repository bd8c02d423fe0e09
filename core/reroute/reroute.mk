# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What survives a fabric change and how it is kept (docs/rerouting.md): the
# previous SLs, the typed hints for engines, the strategies, the incremental route.
libkeirocore_la_SOURCES += core/reroute/previous_sls.cc core/reroute/previous_sls.h \
	core/reroute/hints.cc core/reroute/hints.h core/reroute/steps.cc core/reroute/steps.h \
	core/reroute/incremental.cc core/reroute/incremental.h
