// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The figures `keiro route` and `keiro analyze` print about one routing, as a
// human-readable block, as JSON, and side by side for several routings.
// Formatting only: O(size of the figures).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/check/verify.h"
#include "core/metrics/path_stats.h"
#include "core/metrics/traffic.h"

namespace keiro::metrics {

struct RoutingFigures {
  std::string label;   // the input (file or directory)
  std::string engine;  // engine that produced the tables, if known
  int switches = 0, terminals = 0, links = 0, lids = 0;
  double route_seconds = -1;  // < 0: not known (tables read from dumps)
  int vl_budget = 0;          // 0: not known
  check::Result check;
  PathStats paths;
  bool have_traffic = false;
  TrafficOptions traffic_options;
  Traffic traffic;
  std::vector<std::pair<std::string, std::string>> facts;  // engine facts
  std::vector<std::string> notes;                          // assumptions made reading the input
};

std::string figures_text(const RoutingFigures &fig);
std::string figures_json(const RoutingFigures &fig);
// One column per routing.
std::string comparison_table(const std::vector<RoutingFigures> &figs);
std::string comparison_json(const std::vector<RoutingFigures> &figs);

// JSON string literal with escapes.
std::string json_quote(const std::string &s);

}  // namespace keiro::metrics
