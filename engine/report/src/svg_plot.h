#pragma once
// A line chart as a self-contained SVG string, hand-built: axes with round ticks, one path per
// series (its <title> the hover text), shaded bands, marked points with their own titles, a
// legend under the plot. What the HTML report inlines and the PDF renders through QSvgRenderer,
// so only SVG Tiny's elements are used (path, rect, line, circle, text, title).

#include <parity/analysis/curve_analysis.h>

#include <string>
#include <vector>

namespace parity::report {

struct SvgSeries {
  std::string label;  ///< the legend's and the hover title's name
  std::string color;  ///< "#1f77b4"
  const analysis::Series* series = nullptr;
  bool dashed = false;
};

struct SvgBand {
  std::string title;
  std::string color;
  const analysis::Band* band = nullptr;
};

struct SvgMark {
  double x = 0, y = 0;
  std::string color;
  std::string title;  ///< hover text
};

struct SvgPlot {
  int width = 760, height = 360;
  std::string title;
  std::string x_title, y_title;
  std::vector<SvgSeries> series;
  std::vector<SvgBand> bands;
  std::vector<SvgMark> marks;
  bool zero_line = false;  ///< a line at y = 0 (the delta plot)
  /// Hover points per series: this many evenly spaced points carry "x, y" titles.
  int hover_points = 24;
  /// 0: each series is one path. N: cut into paths of N points (the first has class "curve", the
  /// rest "piece"): Qt's rasteriser strokes a long noisy path in time that grows with its
  /// length times the picture's height, and short ones in a fraction of it.
  size_t path_chunk = 0;
};

std::string svg_plot(const SvgPlot& plot);

/// Text safe inside XML/HTML content and attribute values.
std::string xml_escape(const std::string& text);

/// The i-th colour of the report's palette (the reference is 0).
std::string series_color(size_t i);

}  // namespace parity::report
