// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "plugin/install_tables.h"

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
    const uint8_t *hop_row = hops.data() + s * nsw;
    for (uint32_t lid = 1; lid <= sw->max_lid_ho; ++lid) {
      uint8_t port = OSM_NO_PATH;
      if (lid < stride) port = row[lid];
      if (port != OSM_NO_PATH && port >= sw->num_ports) port = OSM_NO_PATH;
      sw->new_lft[lid] = port;
      if (port == OSM_NO_PATH) continue;
      ++routed[w];
      const auto l16 = static_cast<uint16_t>(lid);
      uint8_t h = 0xFF;
      if (lid < stride && column[lid] >= 0) {
        h = hop_row[column[lid]];
      } else if (lid < stride && f.lid_switch(l16) == s) {
        // A CA's LID at its own switch: one hop, if the LFT delivers it.
        const PortPeer pp = f.peer(s, port);
        if (pp.kind == PortPeer::kTerminal && f.lid_owner(l16).kind == LidOwner::kTerminal &&
            f.lid_owner(l16).id == pp.id)
          h = 1;
      }
      // Counted for every entry: the tables stay only if the self-check
      // finds every LID delivered from every switch (else withdraw_tables).
      osm_switch_count_path(sw, port);
      if (h != 0xFF) osm_switch_set_hops(sw, l16, port, h);
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
