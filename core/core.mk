# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The core library: every algorithm, no OpenSM dependency. Linked into the
# plugin, the keiro tool and the unit tests. Each directory of core/ has its
# own fragment listing its files.
libkeirocore_la_SOURCES += core/enum_names.h core/fabric.cc core/fabric.h core/log.cc core/log.h \
	core/options.cc core/options.h core/routing.cc core/routing.h core/timing.h core/parallel.h
libkeirocore_la_LIBADD = $(METIS_LIBS)

include core/graph/graph.mk
include core/io/io.mk
include core/check/check.mk
include core/mcast/mcast.mk
include core/metrics/metrics.mk
include core/minimal/minimal.mk
include core/vlmap/vlmap.mk
include core/topo/topo.mk
include core/nue/nue.mk
include core/acro/acro.mk
include core/loren/loren.mk
include core/dl/dl.mk
include core/sim/sim.mk
include core/layers/layers.mk
include core/engine/engine.mk
include core/registry/registry.mk
include core/reroute/reroute.mk
include core/pipeline/pipeline.mk
