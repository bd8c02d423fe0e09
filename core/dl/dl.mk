# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-dl: Descending Layers routing.
libkeirocore_la_SOURCES += core/dl/dest_search.cc core/dl/dest_search.h core/dl/dl.cc core/dl/dl.h \
	core/dl/engine.cc core/dl/engine.h core/dl/path_select.cc core/dl/path_select.h \
	core/dl/restriction.cc core/dl/restriction.h core/dl/updown.cc core/dl/updown.h
