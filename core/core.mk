# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The core library: every algorithm, no OpenSM dependency. Linked into the
# plugin, the keiro tool and the unit tests.
libkeirocore_la_SOURCES += \
	core/fabric.cc core/fabric.h \
	core/routing.cc core/routing.h \
	core/log.cc core/log.h \
	core/options.cc core/options.h \
	core/engine.cc core/engine.h
libkeirocore_la_LIBADD = $(METIS_LIBS)

# The command-line tool. Each subcommand lives in core/tool/cmd_*.cc and
# registers itself (core/tool/command.h); tool_io holds what route, check
# and analyze share (arguments, reading inputs, writing dumps).
keiro_SOURCES += core/tool/main.cc core/tool/command.h \
	core/tool/tool_io.h core/tool/tool_io.cc
keiro_LDADD = libkeirocore.la

tests_unit_tests_SOURCES += tests/unit/fabric_test.cc tests/unit/options_test.cc \
	tests/unit/routing_test.cc tests/unit/small_fabrics.h tests/unit/engine_stage_test.cc

include core/nue/nue.mk
include core/check/check.mk
include core/io/io.mk
include core/topo/topo.mk
include core/acro/acro.mk
include core/loren/loren.mk
include core/dl/dl.mk
