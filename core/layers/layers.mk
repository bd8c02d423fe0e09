# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Layers -> SLs + SL2VL: the realization shared by keiro-acro, -dl, -loren
# and the fixed-SL stage.
libkeirocore_la_SOURCES += core/layers/realize.cc core/layers/realize.h
