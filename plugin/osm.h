// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The one place where the plugin includes OpenSM's headers (libopensm-dev
// 3.3.23). Two rules make them usable from C++ with the same struct layouts
// as the opensm binary:
//  - <opensm/osm_config.h> comes first: osm_subnet.h and osm_opensm.h have
//    members under #ifdef ENABLE_OSM_PERF_MGR, and the layouts only match the
//    binary's when that macro is seen.
//  - osm_event_plugin.h has a struct member called "delete"; it is renamed
//    to delete_ while the headers are read. Standard headers are included
//    before that, so the macro never reaches them.
//  - The headers are C; in C++20, osm_stats.h's ++/-- on volatile counters
//    is deprecated. That warning is silenced for these headers only.
// Include this header after every standard/keiro header of a file. No code.
#pragma once

// clang-format off
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wvolatile"
#include <opensm/osm_config.h>
#define delete delete_
#include <opensm/osm_opensm.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_log.h>
#include <opensm/osm_version.h>
#include <iba/ib_types.h>
#include <complib/cl_qmap.h>
#undef delete
#pragma GCC diagnostic pop
// clang-format on
