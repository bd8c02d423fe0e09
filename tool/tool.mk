# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The keiro command-line tool: one file per subcommand (cmd_*.cc registers a
# keiro::tool::Command, tool/command.h) over the core library.
keiro_SOURCES += tool/progress.h tool/cmd_acro.cc tool/cmd_analyze.cc tool/cmd_check.cc tool/cmd_engines.cc tool/cmd_hdn.cc tool/cmd_options.cc tool/cmd_route.cc tool/cmd_simulate.cc \
	tool/cmd_topo.cc tool/command.h tool/main.cc tool/tool_io.cc tool/tool_io.h \
	tool/args.cc tool/args.h tool/live_fabric.cc tool/live_fabric.h \
	tool/mcast_io.cc tool/mcast_io.h
keiro_LDADD = libkeirocore.la
tests_unit_tests_SOURCES += tests/unit/tool_args_test.cc tool/args.cc tool/args.h
