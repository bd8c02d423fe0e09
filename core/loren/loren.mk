# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-loren: LOREN layout-oriented routing, made deadlock free by ACRO.
libkeirocore_la_SOURCES += core/loren/auto_layout.cc core/loren/auto_layout.h core/loren/engine.cc core/loren/engine.h core/loren/forward.cc core/loren/forward.h \
	core/loren/layout.cc core/loren/layout.h core/loren/loren.cc core/loren/loren.h \
	core/loren/tables.cc core/loren/tables.h
