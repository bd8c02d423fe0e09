# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-acro: balanced minimal routes made deadlock free by ACRO's layers
# (the layer assignment and its realization are core/layers/).
libkeirocore_la_SOURCES += core/acro/engine.cc core/acro/engine.h \
	core/acro/switch_lids.cc core/acro/switch_lids.h \
	core/acro/one_vl.cc core/acro/one_vl.h
