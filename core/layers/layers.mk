# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Virtual layers and their realization: ACRO's layer assignment (and LASH's
# for comparison), layers -> SLs + SL2VL, and the re-route pins; used by
# keiro-acro, -dl, -loren and the pipeline's fixed-SL stage.
libkeirocore_la_SOURCES += core/layers/acro.cc core/layers/acro.h \
	core/layers/acro_weights.cc core/layers/acro_weights.h \
	core/layers/lash_layers.cc core/layers/lash_layers.h \
	core/layers/pins.cc core/layers/pins.h \
	core/layers/realize.cc core/layers/realize.h
