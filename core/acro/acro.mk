# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-acro: ACRO virtual layers over balanced minimal routes.
libkeirocore_la_SOURCES += core/acro/acro.cc core/acro/acro.h core/acro/acro_weights.cc core/acro/acro_weights.h \
	core/acro/engine.cc core/acro/engine.h core/acro/lash_layers.cc \
	core/acro/lash_layers.h \
	core/acro/switch_lids.cc core/acro/switch_lids.h
