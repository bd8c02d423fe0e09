# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What an engine is: input, typed re-route hints, report, description, the
# shared adapter shape (EngineSteps, define_engine).
libkeirocore_la_SOURCES += core/engine/engine.cc core/engine/engine.h core/engine/hints.h
