# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Route quality: distances, path statistics, traffic estimates, reports and SVG charts.
libkeirocore_la_SOURCES += core/metrics/distances.cc core/metrics/distances.h core/metrics/path_stats.cc \
	core/metrics/path_stats.h core/metrics/report.cc core/metrics/report.h \
	core/metrics/svg.cc core/metrics/svg.h core/metrics/traffic.cc core/metrics/traffic.h
