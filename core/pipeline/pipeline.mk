# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The pipeline: the only code that calls an engine (docs/architecture.md).
libkeirocore_la_SOURCES += core/pipeline/pipeline.cc core/pipeline/pipeline.h \
	core/pipeline/stages.h core/pipeline/reroute_stage.cc \
	core/pipeline/settings.cc core/pipeline/settings.h \
	core/pipeline/report.cc core/pipeline/report.h \
	core/pipeline/fixed_sl.cc core/pipeline/fixed_sl.h core/pipeline/sl_spread.cc core/pipeline/sl_spread.h
