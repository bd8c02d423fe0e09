// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/metrics/svg.h"

#include <algorithm>
#include <cmath>

#include "core/log.h"

namespace keiro::metrics {

namespace {

constexpr double kW = 760, kH = 420;
constexpr double kLeft = 70, kRight = 200, kTop = 40, kBottom = 80;
const char *kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                         "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string esc(const std::string &s) {
  std::string o;
  for (const char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

// A round step so that 0..top has about 5 ticks.
double nice_step(double top) {
  if (top <= 0) return 1;
  const double raw = top / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

std::string tick_label(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return strprintf("%.0f", v);
  return strprintf("%g", v);
}

struct Frame {
  double ymax = 1, step = 1;
  double plot_w() const { return kW - kLeft - kRight; }
  double plot_h() const { return kH - kTop - kBottom; }
  double y(double v) const { return kTop + plot_h() * (1 - v / ymax); }
};

std::string header(const ChartText &t, Frame &fr, double top) {
  fr.step = nice_step(top);
  fr.ymax = std::max(fr.step, std::ceil(top / fr.step) * fr.step);
  std::string o = strprintf(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%.0f\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
      kW, kH, kW, kH, kLeft + fr.plot_w() / 2, esc(t.title).c_str());
  for (double v = 0; v <= fr.ymax + 1e-9; v += fr.step) {
    const double y = fr.y(v);
    o += strprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                   kLeft, y, kLeft + fr.plot_w(), y);
    o += strprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", kLeft - 6, y + 4,
                   tick_label(v).c_str());
  }
  o += strprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                 kLeft, kTop, kLeft, kTop + fr.plot_h());
  o += strprintf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                 kLeft, kTop + fr.plot_h(), kLeft + fr.plot_w(), kTop + fr.plot_h());
  o += strprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                 kLeft + fr.plot_w() / 2, kH - 12, esc(t.xlabel).c_str());
  o += strprintf(
      "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s"
      "</text>\n",
      kTop + fr.plot_h() / 2, kTop + fr.plot_h() / 2, esc(t.ylabel).c_str());
  return o;
}

// Long names keep their end (the informative part of a path).
std::string short_name(const std::string &s) {
  constexpr size_t kMax = 26;
  return s.size() <= kMax ? s : "..." + s.substr(s.size() - (kMax - 3));
}

template <typename S>
std::string legend(const std::vector<S> &series) {
  std::string o;
  for (size_t i = 0; i < series.size(); ++i) {
    const double y = kTop + 10 + 20 * static_cast<double>(i);
    o += strprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
                   kW - kRight + 16, y - 10, kColors[i % 8]);
    o += strprintf("<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", kW - kRight + 34, y,
                   esc(short_name(series[i].name)).c_str());
  }
  return o;
}

}  // namespace

std::string svg_bar_chart(const ChartText &t, const std::vector<std::string> &categories,
                          const std::vector<ChartSeries> &series) {
  double top = 0;
  for (const ChartSeries &s : series)
    for (const double v : s.values) top = std::max(top, v);
  Frame fr;
  std::string o = header(t, fr, top);
  const size_t nc = std::max<size_t>(1, categories.size());
  const double group = fr.plot_w() / static_cast<double>(nc);
  const double bar = group * 0.8 / static_cast<double>(std::max<size_t>(1, series.size()));
  for (size_t c = 0; c < categories.size(); ++c) {
    const double gx = kLeft + group * static_cast<double>(c) + group * 0.1;
    for (size_t s = 0; s < series.size(); ++s) {
      const double v = c < series[s].values.size() ? series[s].values[c] : 0;
      const double y = fr.y(v);
      o += strprintf(
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
          "<title>%s: %g</title></rect>\n",
          gx + bar * static_cast<double>(s), y, std::max(0.5, bar - 1), kTop + fr.plot_h() - y,
          kColors[s % 8], esc(series[s].name).c_str(), v);
    }
    const double lx = gx + group * 0.4, ly = kTop + fr.plot_h() + 16;
    if (categories.size() > 6)  // slanted, so that long labels do not overlap
      o += strprintf(
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
          "transform=\"rotate(-30 %.1f %.1f)\">%s</text>\n",
          lx, ly, lx, ly, esc(categories[c]).c_str());
    else
      o += strprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", lx, ly,
                     esc(categories[c]).c_str());
  }
  return o + legend(series) + "</svg>\n";
}

std::string svg_line_chart(const ChartText &t, const std::vector<ChartSeries> &series,
                           bool index_axis) {
  double top = 0;
  size_t longest = 1;
  for (const ChartSeries &s : series) {
    for (const double v : s.values) top = std::max(top, v);
    longest = std::max(longest, s.values.size());
  }
  Frame fr;
  std::string o = header(t, fr, top);
  const double xmax = index_axis ? static_cast<double>(longest - 1) : 1.0;
  for (int k = 0; k <= 4; ++k) {
    const double v = xmax * k / 4;
    o += strprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                   kLeft + fr.plot_w() * k / 4, kTop + fr.plot_h() + 16,
                   index_axis ? tick_label(std::round(v)).c_str() : strprintf("%g", v).c_str());
  }
  for (size_t s = 0; s < series.size(); ++s) {
    const std::vector<double> &vals = series[s].values;
    if (vals.empty()) continue;
    std::string pts;
    const double n = static_cast<double>(std::max<size_t>(1, vals.size() - 1));
    for (size_t k = 0; k < vals.size(); ++k) {
      const double xv = index_axis ? static_cast<double>(k) : static_cast<double>(k) / n;
      const double x = kLeft + fr.plot_w() * (xmax > 0 ? xv / xmax : 0);
      pts += strprintf("%.1f,%.1f ", x, fr.y(vals[k]));
    }
    o += strprintf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n",
                   kColors[s % 8], pts.c_str());
  }
  return o + legend(series) + "</svg>\n";
}

std::string svg_xy_chart(const ChartText &t, const std::vector<XySeries> &series, double xmax) {
  double top = 0;
  for (const XySeries &s : series) {
    for (const double v : s.y) top = std::max(top, v);
    if (xmax <= 0)
      for (const double x : s.x) xmax = std::max(xmax, x);
  }
  if (xmax <= 0) xmax = 1;
  Frame fr;
  std::string o = header(t, fr, top);
  const double xstep = nice_step(xmax);
  for (double v = 0; v <= xmax + 1e-9; v += xstep)
    o += strprintf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                   kLeft + fr.plot_w() * v / xmax, kTop + fr.plot_h() + 16,
                   tick_label(std::round(v * 1e6) / 1e6).c_str());
  for (size_t s = 0; s < series.size(); ++s) {
    const XySeries &cs = series[s];
    const size_t n = std::min(cs.y.size(), cs.x.size());
    if (n == 0) continue;
    std::string pts, dots;
    for (size_t k = 0; k < n; ++k) {
      const double x = kLeft + fr.plot_w() * cs.x[k] / xmax, y = fr.y(cs.y[k]);
      pts += strprintf("%.1f,%.1f ", x, y);
      dots += strprintf(
          "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s: %g at %g</title>"
          "</circle>\n",
          x, y, kColors[s % 8], esc(cs.name).c_str(), cs.y[k], cs.x[k]);
    }
    o += strprintf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n",
                   kColors[s % 8], pts.c_str());
    o += dots;
  }
  return o + legend(series) + "</svg>\n";
}

}  // namespace keiro::metrics
