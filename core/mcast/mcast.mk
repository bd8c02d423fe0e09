# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Multicast: groups and forwarding tables, keiro's own trees (acyclic with
# the unicast dependencies), and their check.
libkeirocore_la_SOURCES += core/mcast/group.cc core/mcast/group.h core/mcast/check.cc \
	core/mcast/check.h core/mcast/sl_column.cc core/mcast/sl_column.h core/mcast/trees.cc \
	core/mcast/trees.h
