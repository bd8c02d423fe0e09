// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/install_tables.h"

#include <algorithm>
#include <cstring>

#include "core/check/paths.h"
#include "core/parallel.h"
// clang-format off
#include "plugin/osm.h"
// clang-format on

namespace keiro::plugin {

long install_tables(const Fabric &f, const Routing &r,
                    const std::vector<osm_switch_t *> &osm_switch, int threads, bool all_hops) {
  const size_t stride = static_cast<size_t>(r.max_lid()) + 1;
  // Hop rows: the switch LIDs everywhere and a CA's or router's LIDs at its
  // own switch, or (all_hops) every LID everywhere.
  std::vector<uint16_t> row_lids;
  std::vector<int32_t> column(stride, -1);  // by LID: its column in hops
  for (const uint16_t lid : f.lids())
    if (lid < stride && (all_hops || f.lid_owner(lid).kind == LidOwner::kSwitch)) {
      column[lid] = static_cast<int32_t>(row_lids.size());
      row_lids.push_back(lid);
    }
  const size_t nsw = row_lids.size();
  const std::vector<uint8_t> hops = check::hop_counts_to(f, r, row_lids, threads);
  const int32_t S = f.num_switches();
  const int workers = worker_count(threads, S, 16);
  std::vector<long> routed(workers, 0);
  // Every switch is its own OpenSM object (its LFT, hop rows and port
  // counters): the workers write disjoint state. malloc/free in
  // osm_switch_set_hops/clear_hops are thread safe.
  parallel_for(workers, S, 8, [&](int w, int32_t s) {
    osm_switch_t *sw = osm_switch[s];
    // Hops of a previous engine of the routing_engine chain (one that failed
    // after setting them) must not survive next to keiro's LFT.
    osm_switch_clear_hops(sw);
    const uint8_t *row = r.lft_row(s);
    // The LFT and the paths per port in one pass over the LIDs; a port the
    // switch does not have becomes OSM_NO_PATH. Counted for every entry: the
    // tables stay only if the self-check finds every LID delivered from
    // every switch (else withdraw_tables).
    const uint32_t top = sw->max_lid_ho;
    const uint32_t known = std::min<uint32_t>(top, static_cast<uint32_t>(stride - 1));
    const unsigned nports = sw->num_ports;
    uint32_t per_port[256] = {};
    uint8_t *lft = sw->new_lft;
    for (uint32_t lid = 1; lid <= known; ++lid) {
      const uint8_t port = row[lid] < nports ? row[lid] : OSM_NO_PATH;
      lft[lid] = port;
      ++per_port[port];
    }
    for (uint32_t lid = known + 1; lid <= top; ++lid) lft[lid] = OSM_NO_PATH;
    for (unsigned p = 0; p < nports; ++p) {
      sw->p_prof[p].num_paths += per_port[p];
      routed[w] += per_port[p];
    }
    // Hop rows: the listed LIDs (switch LIDs, or every LID) on the port the
    // LFT uses, then (rows for switch LIDs only) the LIDs of the CAs and
    // routers on this switch: one hop where the LFT delivers them.
    const uint8_t *hop_row = hops.data() + s * nsw;
    for (size_t i = 0; i < nsw; ++i) {
      const uint16_t lid = row_lids[i];
      if (lid > known || lft[lid] == OSM_NO_PATH || hop_row[i] == 0xFF) continue;
      osm_switch_set_hops(sw, lid, lft[lid], hop_row[i]);
    }
    if (all_hops) return;
    for (const int32_t t : f.terminals_of(s)) {
      const TerminalInfo &ti = f.terminal(t);
      if (!ti.lid) continue;
      for (uint32_t lid = ti.lid; lid < ti.lid + (1u << ti.lmc) && lid <= known; ++lid) {
        const uint8_t port = lft[lid];
        if (port == OSM_NO_PATH || column[lid] >= 0) continue;
        const PortPeer pp = f.peer(s, port);
        if (pp.kind == PortPeer::kTerminal && pp.id == t)
          osm_switch_set_hops(sw, static_cast<uint16_t>(lid), port, 1);
      }
    }
  });
  long total = 0;
  for (const long n : routed) total += n;
  return total;
}

void withdraw_tables(const std::vector<osm_switch_t *> &osm_switch) {
  for (osm_switch_t *sw : osm_switch) {
    if (sw->new_lft) std::memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
    osm_switch_clear_hops(sw);
    for (unsigned p = 0; p < sw->num_ports; ++p) osm_port_prof_construct(&sw->p_prof[p]);
  }
}

}  // namespace keiro::plugin
