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
                    const std::vector<osm_switch_t *> &osm_switch, int threads) {
  const std::vector<uint8_t> hops = check::hop_counts(f, r, threads);
  const size_t stride = static_cast<size_t>(r.max_lid()) + 1;
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
    const uint8_t *hop_row = hops.data() + s * stride;
    for (uint32_t lid = 1; lid <= sw->max_lid_ho; ++lid) {
      uint8_t port = OSM_NO_PATH;
      if (lid < stride) port = row[lid];
      if (port != OSM_NO_PATH && port >= sw->num_ports) port = OSM_NO_PATH;
      sw->new_lft[lid] = port;
      if (port == OSM_NO_PATH) continue;
      ++routed[w];
      const uint8_t h = hop_row[lid];
      if (h == 0xFF) continue;
      osm_switch_set_hops(sw, static_cast<uint16_t>(lid), port, h);
      osm_switch_count_path(sw, port);
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
