# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-nue and the graph algorithms it uses.
libkeirocore_la_SOURCES += core/nue/nue.h core/nue/nue.cc
