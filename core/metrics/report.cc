// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/report.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/log.h"

namespace keiro::metrics {

namespace {

std::string mask_list(uint32_t mask) {
  std::string s;
  for (int i = 0; i < 32; ++i)
    if (mask & (1u << i)) s += (s.empty() ? "" : ",") + std::to_string(i);
  return s.empty() ? "-" : s;
}

std::string histogram(const std::vector<int64_t> &h) {
  std::string s;
  for (size_t i = 0; i < h.size(); ++i)
    if (h[i]) s += strprintf("%s%zu:%lld", s.empty() ? "" : " ", i, static_cast<long long>(h[i]));
  return s.empty() ? "-" : s;
}

std::string check_line(const check::Result &c) {
  if (c.ok) return "ok";
  if (check::holds_without_missing_sls(c))
    return strprintf("no verdict: %lld pairs have no path SL (--sls FILE or --assume-sl N)",
                     static_cast<long long>(c.pairs_without_sl));
  return "FAILED: " + c.first_problem;
}

// (name, value) rows shared by the text block and the comparison table.
std::vector<std::pair<std::string, std::string>> rows(const RoutingFigures &g, bool compact) {
  std::vector<std::pair<std::string, std::string>> r;
  const check::Result &c = g.check;
  const PathStats &p = g.paths;
  r.push_back({"engine", g.engine.empty() ? "-" : g.engine});
  r.push_back({"fabric", strprintf("%d switches, %d CA/router ports, %d links, %d LIDs", g.switches,
                                   g.terminals, g.links, g.lids)});
  r.push_back({"route time", g.route_seconds < 0 ? "-" : strprintf("%.3f s", g.route_seconds)});
  r.push_back({"check time", strprintf("%.3f s", c.seconds)});
  r.push_back({"check", compact && !c.ok
                            ? (check::holds_without_missing_sls(c) ? "no verdict" : "FAILED")
                            : check_line(c)});
  r.push_back({"pairs checked", std::to_string(c.pairs_checked)});
  r.push_back(
      {"unreachable pairs",
       strprintf("%lld (black holes %lld, wrong port %lld)", static_cast<long long>(c.unreachable),
                 static_cast<long long>(c.black_holes), static_cast<long long>(c.wrong_delivery))});
  r.push_back({"looping pairs", std::to_string(c.loops)});
  r.push_back({"credit loop", c.credit_loop ? strprintf("yes (cycle of %zu)", c.cycle.size())
                              : c.pairs_without_sl
                                  ? std::string("unknown (pairs without a path SL)")
                                  : std::string("no")});
  r.push_back({"VLs used", g.vl_budget > 0
                               ? strprintf("%d of %d (%s)", c.vls_used, g.vl_budget,
                                           mask_list(c.vl_mask).c_str())
                               : strprintf("%d (%s)", c.vls_used, mask_list(c.vl_mask).c_str())});
  r.push_back({"SLs used", strprintf("%d (%s)", c.sls_used, mask_list(c.sl_mask).c_str())});
  r.push_back(
      {"routes",
       strprintf(
           "%lld between CAs%s", static_cast<long long>(p.pairs),
           p.undelivered
               ? strprintf(", %lld undelivered", static_cast<long long>(p.undelivered)).c_str()
               : "")});
  r.push_back({"path length", strprintf("avg %.3f, max %d links (shortest avg %.3f)", p.avg_hops,
                                        p.max_hops, p.avg_shortest_hops)});
  r.push_back({"stretch", strprintf("avg %.4f, max %.3f (%lld routes non-minimal)", p.avg_stretch,
                                    p.max_stretch, static_cast<long long>(p.nonminimal))});
  r.push_back({"hop histogram", histogram(p.hop_histogram)});
  for (const auto &[k, v] : g.facts)
    if (k == "escape_fallbacks") r.push_back({"escape-path fallbacks", v});
  r.push_back({"EFI (sw-sw)", strprintf("min %.0f, avg %.1f, max %.0f (%.2fx avg), stddev %.1f",
                                        p.efi_summary.min, p.efi_summary.avg, p.efi_summary.max,
                                        efi_max_over_avg(p.efi_summary), p.efi_summary.stddev)});
  if (g.have_traffic) {
    const Traffic &t = g.traffic;
    r.push_back({"Gamma uniform", strprintf("%.4f", t.gamma_uniform)});
    r.push_back({strprintf("Gamma hotspot(%g)", g.traffic_options.hotspot_beta),
                 strprintf("%.4f", t.gamma_hotspot)});
    r.push_back({strprintf("Gamma local(%g)", g.traffic_options.local_gamma),
                 strprintf("%.4f", t.gamma_local)});
    if (t.shift_phases)
      r.push_back({"shift all-to-all",
                   strprintf("%.4f (%lld max-load sum over %d phases)", t.shift_throughput,
                             static_cast<long long>(t.shift_max_load_sum), t.shift_phases)});
  }
  if (!compact)
    for (const auto &[k, v] : g.facts) r.push_back({"engine: " + k, v});
  return r;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  return strprintf("%.6g", v);
}

}  // namespace

std::string json_quote(const std::string &s) {
  std::string o = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      o += '\\';
      o += ch;
    } else if (c < 0x20) {
      o += strprintf("\\u%04x", c);
    } else {
      o += ch;
    }
  }
  return o + "\"";
}

std::string figures_text(const RoutingFigures &g) {
  std::string out = g.label.empty() ? "" : g.label + ":\n";
  size_t w = 0;
  const auto rs = rows(g, false);
  for (const auto &[k, v] : rs) w = std::max(w, k.size());
  for (const auto &[k, v] : rs)
    out += strprintf("  %-*s  %s\n", static_cast<int>(w), k.c_str(), v.c_str());
  if (!g.check.ok && g.check.problems.size() > 1) {
    out += "  problems:\n";
    for (const std::string &p : g.check.problems) out += "    " + p + "\n";
  }
  if (g.check.credit_loop) {
    out += "  offending cycle and the paths behind each dependency:\n";
    for (const check::CycleDependency &d : g.check.cycle_deps) {
      out += strprintf("    %s -> %s: %lld paths\n", d.from.c_str(), d.to.c_str(),
                       static_cast<long long>(d.paths));
      for (const std::string &e : d.examples) out += "      " + e + "\n";
    }
  }
  for (const std::string &n : g.notes) out += "  note: " + n + "\n";
  return out;
}

std::string figures_json(const RoutingFigures &g) {
  const check::Result &c = g.check;
  const PathStats &p = g.paths;
  std::string o = "{";
  o += "\"label\":" + json_quote(g.label);
  o += ",\"engine\":" + json_quote(g.engine);
  o += strprintf(",\"fabric\":{\"switches\":%d,\"terminals\":%d,\"links\":%d,\"lids\":%d}",
                 g.switches, g.terminals, g.links, g.lids);
  o += ",\"route_seconds\":" + (g.route_seconds < 0 ? std::string("null") : num(g.route_seconds));
  o += ",\"check\":{";
  o += std::string("\"ok\":") + (c.ok ? "true" : "false");
  o += ",\"seconds\":" + num(c.seconds);
  o += strprintf(
      ",\"pairs_checked\":%lld,\"unreachable\":%lld,\"black_holes\":%lld,"
      "\"wrong_delivery\":%lld,\"loops\":%lld,\"vl_errors\":%lld,\"stale_drops\":%lld",
      static_cast<long long>(c.pairs_checked), static_cast<long long>(c.unreachable),
      static_cast<long long>(c.black_holes), static_cast<long long>(c.wrong_delivery),
      static_cast<long long>(c.loops), static_cast<long long>(c.vl_errors),
      static_cast<long long>(c.stale_drops));
  o += strprintf(",\"pairs_without_sl\":%lld,\"pairs_assumed_sl\":%lld,\"pairs_sl_free\":%lld",
                 static_cast<long long>(c.pairs_without_sl),
                 static_cast<long long>(c.pairs_assumed_sl),
                 static_cast<long long>(c.pairs_sl_free));
  o += std::string(",\"credit_loop\":") + (c.credit_loop ? "true" : "false");
  o += ",\"first_problem\":" + json_quote(c.first_problem);
  o += ",\"problems\":[";
  for (size_t i = 0; i < c.problems.size(); ++i) o += (i ? "," : "") + json_quote(c.problems[i]);
  o += "],\"cycle\":[";
  for (size_t i = 0; i < c.cycle_deps.size(); ++i) {
    const check::CycleDependency &d = c.cycle_deps[i];
    o += (i ? "," : "") + std::string("{\"from\":") + json_quote(d.from) +
         ",\"to\":" + json_quote(d.to) +
         strprintf(",\"paths\":%lld,\"examples\":[", static_cast<long long>(d.paths));
    for (size_t j = 0; j < d.examples.size(); ++j) o += (j ? "," : "") + json_quote(d.examples[j]);
    o += "]}";
  }
  o += strprintf("],\"dependency_nodes\":%lld,\"dependency_edges\":%lld}",
                 static_cast<long long>(c.dependency_nodes),
                 static_cast<long long>(c.dependency_edges));
  o += strprintf(",\"vls_used\":%d,\"sls_used\":%d,\"vl_budget\":%d", c.vls_used, c.sls_used,
                 g.vl_budget);
  o += strprintf(",\"vl_mask\":%u,\"sl_mask\":%u", c.vl_mask, c.sl_mask);
  o += strprintf(
      ",\"paths\":{\"routes\":%lld,\"undelivered\":%lld,\"avg_hops\":%s,\"max_hops\":%d,"
      "\"avg_shortest_hops\":%s,\"avg_stretch\":%s,\"max_stretch\":%s,\"nonminimal\":%lld,"
      "\"hop_histogram\":[",
      static_cast<long long>(p.pairs), static_cast<long long>(p.undelivered),
      num(p.avg_hops).c_str(), p.max_hops, num(p.avg_shortest_hops).c_str(),
      num(p.avg_stretch).c_str(), num(p.max_stretch).c_str(), static_cast<long long>(p.nonminimal));
  for (size_t i = 0; i < p.hop_histogram.size(); ++i)
    o += strprintf("%s%lld", i ? "," : "", static_cast<long long>(p.hop_histogram[i]));
  o += "]},\"efi\":{" +
       strprintf(
           "\"min\":%s,\"avg\":%s,\"max\":%s,\"max_over_avg\":%s,\"stddev\":%s,"
           "\"channels\":%lld",
           num(p.efi_summary.min).c_str(), num(p.efi_summary.avg).c_str(),
           num(p.efi_summary.max).c_str(), num(efi_max_over_avg(p.efi_summary)).c_str(),
           num(p.efi_summary.stddev).c_str(), static_cast<long long>(p.efi_summary.count)) +
       "}";
  if (g.have_traffic) {
    const Traffic &t = g.traffic;
    o += strprintf(
        ",\"traffic\":{\"hosts\":%d,\"patterns\":%d,\"hotspot_beta\":%s,"
        "\"local_gamma\":%s,\"gamma_uniform\":%s,\"gamma_hotspot\":%s,"
        "\"gamma_local\":%s,\"shift_throughput\":%s,\"shift_max_load_sum\":%lld,"
        "\"shift_phases\":%d,\"undelivered_flows\":%lld}",
        t.hosts, g.traffic_options.patterns, num(g.traffic_options.hotspot_beta).c_str(),
        num(g.traffic_options.local_gamma).c_str(), num(t.gamma_uniform).c_str(),
        num(t.gamma_hotspot).c_str(), num(t.gamma_local).c_str(), num(t.shift_throughput).c_str(),
        static_cast<long long>(t.shift_max_load_sum), t.shift_phases,
        static_cast<long long>(t.undelivered_flows));
  }
  o += ",\"facts\":{";
  for (size_t i = 0; i < g.facts.size(); ++i)
    o += (i ? "," : "") + json_quote(g.facts[i].first) + ":" + json_quote(g.facts[i].second);
  o += "},\"notes\":[";
  for (size_t i = 0; i < g.notes.size(); ++i) o += (i ? "," : "") + json_quote(g.notes[i]);
  o += "]}";
  return o;
}

std::string comparison_table(const std::vector<RoutingFigures> &figs) {
  if (figs.empty()) return "";
  std::vector<std::vector<std::pair<std::string, std::string>>> cols;
  for (const RoutingFigures &g : figs) cols.push_back(rows(g, true));
  // Row names in first-seen order across the columns.
  std::vector<std::string> names;
  for (const auto &c : cols)
    for (const auto &[k, v] : c)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  auto value = [&](size_t col, const std::string &k) -> std::string {
    for (const auto &[kk, v] : cols[col])
      if (kk == k) return v;
    return "-";
  };
  // The long "fabric" row goes above the table when all inputs share it.
  std::string out;
  size_t w0 = 0;
  for (const std::string &n : names) w0 = std::max(w0, n.size());
  std::vector<size_t> w(figs.size());
  for (size_t c = 0; c < figs.size(); ++c) {
    w[c] = figs[c].label.size();
    for (const std::string &n : names) w[c] = std::max(w[c], value(c, n).size());
  }
  out += strprintf("%-*s", static_cast<int>(w0), "");
  for (size_t c = 0; c < figs.size(); ++c)
    out += strprintf("  %-*s", static_cast<int>(w[c]), figs[c].label.c_str());
  out += "\n";
  for (const std::string &n : names) {
    out += strprintf("%-*s", static_cast<int>(w0), n.c_str());
    for (size_t c = 0; c < figs.size(); ++c)
      out += strprintf("  %-*s", static_cast<int>(w[c]), value(c, n).c_str());
    out += "\n";
  }
  return out;
}

std::string comparison_json(const std::vector<RoutingFigures> &figs) {
  std::string o = "[";
  for (size_t i = 0; i < figs.size(); ++i) o += (i ? ",\n" : "") + figures_json(figs[i]);
  return o + "]\n";
}

}  // namespace keiro::metrics
