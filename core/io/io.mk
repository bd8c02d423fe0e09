# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Readers and writers of OpenSM's and ibsim's file formats: topologies, LFT/SL2VL
# dumps, keiro's path-SL file, dump directories.
libkeirocore_la_SOURCES += core/io/compact_tables.cc core/io/compact_tables.h core/io/diag_output.cc core/io/diag_output.h core/io/dump_dir.cc core/io/dump_dir.h \
	core/io/dumps.cc core/io/dumps.h core/io/mcast_dump.cc core/io/mcast_dump.h core/io/net_file.cc core/io/net_file.h \
	core/io/opensm_lids.cc core/io/opensm_lids.h core/io/path_sl_file.cc \
	core/io/path_sl_file.h core/io/port_peers.h core/io/ports_report.cc core/io/ports_report.h core/io/subnet_lst.cc core/io/subnet_lst.h core/io/text_lines.h \
	core/io/topology_file.cc core/io/topology_file.h core/io/topology_options.h
