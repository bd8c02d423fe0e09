// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// OpenSM's mcast_build_stree callback for keiro's engines (docs/multicast.md).
//
// OpenSM calls it for one multicast LID at a time (osm_mcast_mgr.c,
// mcast_mgr_process_mlid), on heavy sweeps after routing and on its idle
// queue after joins and leaves, under its exclusive lock, having cleared
// the MLID's entry on every switch. The callback reads the groups that
// share the MLID (their SLs, their member ports), builds the tree with
// mcast::Router (core/mcast/trees.h) over the engine's last routing, checks
// it (core/mcast/check.h: loop free, every member reached once, no other
// port; the whole dependency graph, unicast and every tree, acyclic by an
// independent DFS) and only then sets the switches' MFT bits
// (osm_mcast_tbl_set). A group without a safe tree gets no entries and one
// ERROR line (OpenSM adds its ERR 0A17): its members are not reached, and
// nothing loops. The router's state goes with the routing it was made for.
//
// Time per call: the first after a routing loads the unicast dependency
// graph (one check of the tables); then one tree (core/mcast/trees.h), one
// flood over it and one DFS over the dependency graph, O(E).
#pragma once

#include <cstdint>

struct osm_mgrp_box;

namespace keiro::plugin {

struct EngineRun;

// 0 (IB_SUCCESS) when the group's tree is installed or it needs none;
// otherwise IB_ERROR with one ERROR line logged.
int build_mcast_tree(EngineRun &run, struct osm_mgrp_box *mbox);

}  // namespace keiro::plugin
