// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The osm_routing_engine callbacks of a keiro engine:
//  - build_lid_matrices: returns 0 and touches nothing; the hop matrix is
//    written together with the LFTs once a routing has passed the check, so
//    a failed run leaves OpenSM's state untouched for the next engine.
//  - ucast_build_fwd_tables: reads the subnet into a Fabric, runs the engine
//    and the self-check (run_engine), installs new_lft + hops; -1 on any
//    failure (one ERROR line), so OpenSM tries the next engine. The memory
//    the run freed is handed back to the system later (trim_heap), once
//    OpenSM reports the routing done, or at the next run.
//  - path_sl: O(1) lookup in the last successful routing, reentrant.
//  - update_sl2vl: pure lookup by (switch, in port, out port) or CA port.
//  - mcast_build_stree: keiro's own trees (plugin/mcast_trees.h); NULL with
//    option mcast_trees=0 (OpenSM's builder on the hop rows, for comparison).
//  - destroy: frees the EngineRun.
// Cost per routing run: read_subnet O(S * P + T + C log C), the engine, the
// self-check, install O(S * L); memory: one Fabric and Routing kept for
// path_sl (RoutedState) plus one being built. path_sl and update_sl2vl are
// O(1) and allocation-free.
#pragma once

struct osm_routing_engine;
struct osm_opensm;

namespace keiro::plugin {

// The setup function registered with osm_register_external_routing_engine.
// re->context holds the RegisteredEngine on entry and the EngineRun after.
int setup_engine(struct osm_routing_engine *re, struct osm_opensm *osm);

struct PluginState;
// When some engine's run has trim_pending (plugin_state.h): malloc_trim(0),
// and every run's trim_pending cleared.
void trim_heap(PluginState &p);

}  // namespace keiro::plugin
