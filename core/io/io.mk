# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Readers and writers of OpenSM's and ibsim's file formats.
libkeirocore_la_SOURCES += \
	core/io/topology_file.h core/io/topology_file.cc \
	core/io/net_file.h core/io/net_file.cc core/io/text_lines.h \
	core/io/subnet_lst.h core/io/subnet_lst.cc \
	core/io/opensm_lids.h core/io/opensm_lids.cc

tests_unit_tests_SOURCES += tests/unit/io_topology_test.cc
