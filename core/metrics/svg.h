// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Minimal self-contained SVG charts for `keiro analyze --plot`: grouped bar
// charts and line charts, one colour per series, axes with round ticks and a
// legend. Output is a complete SVG document. O(points) time and size.
#pragma once

#include <string>
#include <vector>

namespace keiro::metrics {

struct ChartSeries {
  std::string name;
  std::vector<double> values;
};

struct XySeries {  // for svg_xy_chart: y[k] at x[k]
  std::string name;
  std::vector<double> x, y;
};

struct ChartText {
  std::string title, xlabel, ylabel;
};

// Bars: categories along x, in each category one bar per series (values[i]
// belongs to categories[i]; missing values count as 0).
std::string svg_bar_chart(const ChartText &t, const std::vector<std::string> &categories,
                          const std::vector<ChartSeries> &series);

// Lines: series i's values[k] at x = k / (n_i - 1) on a 0..1 axis (so series
// of different lengths compare as distributions), or at x = k when
// index_axis is true.
std::string svg_line_chart(const ChartText &t, const std::vector<ChartSeries> &series,
                           bool index_axis = false);

// Lines over a numeric x axis from 0 to xmax (or the largest x when xmax <=
// 0): series i's y[k] at x[k]; one polyline per non-empty series, with a
// dot per point (keiro simulate --plot: latency and throughput against the
// offered load).
std::string svg_xy_chart(const ChartText &t, const std::vector<XySeries> &series, double xmax = 0);

}  // namespace keiro::metrics
