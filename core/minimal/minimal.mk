# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Balanced minimal routing: one destination tree per destination switch.
libkeirocore_la_SOURCES += core/minimal/balanced.cc core/minimal/balanced.h core/minimal/dest_trees.cc \
	core/minimal/dest_trees.h core/minimal/forwarding_index.cc \
	core/minimal/forwarding_index.h
