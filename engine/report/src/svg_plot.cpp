#include "svg_plot.h"

#include <parity/plot/axis_ticks.h>
#include <parity/report/report.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace parity::report {
namespace {

constexpr const char* kPalette[] = {"#222222", "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                                    "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39",
                                    "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1"};

// Coordinates to 0.1 px: enough for a screen or A4 and about 11 bytes a point.
void coord(std::string& out, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  out += buf;
}

std::string tick_text(double v, double step) {
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e5 || a < 1e-3) return format_g(v, 3);
  // As many decimals as the step needs.
  int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
  return buf;
}

struct Extent {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void take(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  void settle() {
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (lo == hi) lo -= 0.5, hi += 0.5;
  }
};

// Where the plot sits in the picture, and its data ranges: data to pixels.
struct Frame {
  double left = 64, right = 16, top = 28, w = 0, h = 0;
  Extent xs, ys;
  double px(double x) const { return left + (x - xs.lo) / (xs.hi - xs.lo) * w; }
  double py(double y) const { return top + (ys.hi - y) / (ys.hi - ys.lo) * h; }
};

// The data ranges of every series and band (and 0 for a delta plot), y padded by 4 %.
void take_extents(const SvgPlot& p, Frame& f) {
  Extent& xs = f.xs;
  Extent& ys = f.ys;
  for (const auto& s : p.series) {
    for (double x : s.series->x) xs.take(x);
    for (double y : s.series->y) ys.take(y);
  }
  for (const auto& b : p.bands) {
    for (double x : b.band->x) xs.take(x);
    for (double y : b.band->lo) ys.take(y);
    for (double y : b.band->hi) ys.take(y);
  }
  if (p.zero_line) ys.take(0);
  xs.settle();
  ys.settle();
  const double pad = (ys.hi - ys.lo) * 0.04;
  ys.lo -= pad;
  ys.hi += pad;
}

// The legend flows under the plot: entries side by side, a new row where one would not fit.
// Each entry's x offset in the plot's width and its row.
std::vector<std::pair<double, int>> legend_layout(const SvgPlot& p, double w) {
  std::vector<std::pair<double, int>> legend_at;
  double x = 0;
  int row = 0;
  for (const auto& s : p.series) {
    const double entry = 34 + 6.2 * static_cast<double>(s.label.size());
    if (x > 0 && x + entry > w) x = 0, ++row;
    legend_at.emplace_back(x, row);
    x += entry;
  }
  return legend_at;
}

// The grid, the ticks and their numbers, the frame, the axis titles and the zero line.
void write_axes(const SvgPlot& p, const Frame& f, std::string& out) {
  const double left = f.left, top = f.top, w = f.w, h = f.h;
  const Extent &xs = f.xs, &ys = f.ys;
  auto px = [&f](double x) { return f.px(x); };
  auto py = [&f](double y) { return f.py(y); };
  // Grid and ticks.
  const double xstep = plot::niceStep(xs.hi - xs.lo, 6), ystep = plot::niceStep(ys.hi - ys.lo, 5);
  for (double t = std::ceil(xs.lo / xstep) * xstep; t <= xs.hi + xstep * 1e-9; t += xstep) {
    std::string line = "<line x1=\"";
    coord(line, px(t));
    line += "\" y1=\"" + std::to_string(static_cast<int>(top)) + "\" x2=\"";
    coord(line, px(t));
    line += "\" y2=\"";
    coord(line, top + h);
    line += "\" stroke=\"#e4e4e4\"/><text x=\"";
    coord(line, px(t));
    line += "\" y=\"";
    coord(line, top + h + 14);
    line += "\" text-anchor=\"middle\">" + tick_text(t, xstep) + "</text>\n";
    out += line;
  }
  for (double t = std::ceil(ys.lo / ystep) * ystep; t <= ys.hi + ystep * 1e-9; t += ystep) {
    std::string line = "<line x1=\"";
    coord(line, left);
    line += "\" y1=\"";
    coord(line, py(t));
    line += "\" x2=\"";
    coord(line, left + w);
    line += "\" y2=\"";
    coord(line, py(t));
    line += "\" stroke=\"#e4e4e4\"/><text x=\"";
    coord(line, left - 6);
    line += "\" y=\"";
    coord(line, py(t) + 4);
    line += "\" text-anchor=\"end\">" + tick_text(t, ystep) + "</text>\n";
    out += line;
  }
  out += "<rect x=\"" + std::to_string(static_cast<int>(left)) + "\" y=\"" +
         std::to_string(static_cast<int>(top)) + "\" width=\"" +
         std::to_string(static_cast<int>(w)) + "\" height=\"" +
         std::to_string(static_cast<int>(h)) + "\" fill=\"none\" stroke=\"#888888\"/>\n";
  out += "<text x=\"";
  coord(out, left + w / 2);
  out += "\" y=\"";
  coord(out, top + h + 30);
  out += "\" text-anchor=\"middle\">" + xml_escape(p.x_title) + "</text>\n";
  out += "<text x=\"14\" y=\"";
  coord(out, top + h / 2);
  out += "\" text-anchor=\"middle\" transform=\"rotate(-90 14 ";
  coord(out, top + h / 2);
  out += ")\">" + xml_escape(p.y_title) + "</text>\n";
  if (p.zero_line && ys.lo < 0 && ys.hi > 0) {
    out += "<line x1=\"";
    coord(out, left);
    out += "\" y1=\"";
    coord(out, py(0));
    out += "\" x2=\"";
    coord(out, left + w);
    out += "\" y2=\"";
    coord(out, py(0));
    out += "\" stroke=\"#444444\" stroke-width=\"0.8\"/>\n";
  }
}

void write_bands(const SvgPlot& p, const Frame& f, std::string& out) {
  auto px = [&f](double x) { return f.px(x); };
  auto py = [&f](double y) { return f.py(y); };
  // Bands: the envelope as one closed path (lo forward, hi back).
  for (const auto& b : p.bands) {
    const analysis::Band& band = *b.band;
    if (band.x.empty()) continue;
    out +=
        "<path class=\"band\" fill=\"" + b.color + "\" fill-opacity=\"0.18\" stroke=\"none\" d=\"M";
    for (size_t i = 0; i < band.x.size(); ++i) {
      coord(out, px(band.x[i]));
      out += ' ';
      coord(out, py(band.hi[i]));
      out += ' ';
    }
    for (size_t i = band.x.size(); i-- > 0;) {
      coord(out, px(band.x[i]));
      out += ' ';
      coord(out, py(band.lo[i]));
      out += ' ';
    }
    out += "Z\"><title>" + xml_escape(b.title) + "</title></path>\n";
  }
}

// One path per series (a non-finite point breaks it) and its hover points.
void write_series(const SvgPlot& p, const Frame& f, std::string& out) {
  auto px = [&f](double x) { return f.px(x); };
  auto py = [&f](double y) { return f.py(y); };
  // Series: one path each; a non-finite point breaks the line.
  for (const auto& s : p.series) {
    const analysis::Series& ser = *s.series;
    std::string attributes =
        "fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"1.4\" stroke-linejoin=\"bevel\"";
    if (s.dashed) attributes += " stroke-dasharray=\"5 3\"";
    const std::string title = "<title>" + xml_escape(s.label) + "</title>";
    // The first piece is the curve's path (class "curve"); with path_chunk, the rest follow as
    // pieces of their own, each starting where the last ended.
    bool first_piece = true;
    auto emit = [&](const std::string& d) {
      out += std::string(first_piece ? "<path class=\"curve\" " : "<path class=\"piece\" ") +
             attributes + " d=\"" + (d.empty() ? std::string("M0 0") : d) + "\">" + title +
             "</path>\n";
      first_piece = false;
    };
    std::string d;
    bool pen_down = false;
    size_t in_piece = 0;
    std::string last;
    for (size_t i = 0; i < ser.size(); ++i) {
      if (!std::isfinite(ser.y[i]) || !std::isfinite(ser.x[i])) {
        pen_down = false;
        continue;
      }
      std::string pt;
      coord(pt, px(ser.x[i]));
      pt += ' ';
      coord(pt, py(ser.y[i]));
      if (pen_down && pt == last) continue;  // the same tenth of a pixel: nothing to draw
      if (p.path_chunk > 0 && pen_down && in_piece >= p.path_chunk) {
        emit(d);
        d = "M" + last;
        in_piece = 1;
      }
      if (!d.empty()) d += ' ';
      if (!pen_down) d += 'M';
      d += pt;
      ++in_piece;
      last = std::move(pt);
      pen_down = true;
    }
    emit(d);
    // Hover points: evenly spaced points with their values.
    if (p.hover_points > 0 && ser.size() > 0) {
      const size_t n = ser.size(), k = std::min(n, static_cast<size_t>(p.hover_points));
      for (size_t j = 0; j < k; ++j) {
        const size_t i = k == 1 ? n - 1 : j * (n - 1) / (k - 1);
        if (!std::isfinite(ser.y[i])) continue;
        out += "<circle cx=\"";
        coord(out, px(ser.x[i]));
        out += "\" cy=\"";
        coord(out, py(ser.y[i]));
        out += "\" r=\"4\" fill=\"" + s.color + "\" fill-opacity=\"0.01\"><title>" +
               xml_escape(s.label) + ": " + xml_escape(p.x_title) + " " + format_g(ser.x[i], 6) +
               ", " + xml_escape(p.y_title) + " " + format_g(ser.y[i], 5) + "</title></circle>\n";
      }
    }
  }
}

// Where each run parts from the reference.
void write_marks(const SvgPlot& p, const Frame& f, std::string& out) {
  const Extent& ys = f.ys;
  auto px = [&f](double x) { return f.px(x); };
  auto py = [&f](double y) { return f.py(y); };
  for (const auto& m : p.marks) {
    if (!std::isfinite(m.x) || !std::isfinite(m.y)) continue;
    out += "<circle class=\"mark\" cx=\"";
    coord(out, px(m.x));
    out += "\" cy=\"";
    coord(out, py(std::clamp(m.y, ys.lo, ys.hi)));
    out += "\" r=\"5\" fill=\"#ffffff\" stroke=\"" + m.color + "\" stroke-width=\"2\"><title>" +
           xml_escape(m.title) + "</title></circle>\n";
  }
}

void write_legend(const SvgPlot& p, const Frame& f, std::string& out,
                  const std::vector<std::pair<double, int>>& legend_at) {
  const double left = f.left, top = f.top, h = f.h;
  // Legend.
  for (size_t i = 0; i < p.series.size(); ++i) {
    const double lx = left + legend_at[i].first;
    const double ly = top + h + 48 + 18.0 * legend_at[i].second;
    out += "<line x1=\"";
    coord(out, lx);
    out += "\" y1=\"";
    coord(out, ly - 4);
    out += "\" x2=\"";
    coord(out, lx + 20);
    out += "\" y2=\"";
    coord(out, ly - 4);
    out += "\" stroke=\"" + p.series[i].color + "\" stroke-width=\"2\"";
    if (p.series[i].dashed) out += " stroke-dasharray=\"5 3\"";
    out += "/><text x=\"";
    coord(out, lx + 26);
    out += "\" y=\"";
    coord(out, ly);
    out += "\">" + xml_escape(p.series[i].label) + "</text>\n";
  }
}

}  // namespace

std::string series_color(size_t i) { return kPalette[i % (sizeof kPalette / sizeof *kPalette)]; }

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // Control characters (a label holding an escape sequence) would make the XML invalid.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += "?";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string svg_plot(const SvgPlot& p) {
  Frame f;
  take_extents(p, f);
  f.w = p.width - f.left - f.right;
  const auto legend_at = legend_layout(p, f.w);
  const int legend_rows = legend_at.empty() ? 0 : legend_at.back().second + 1;
  const double bottom = 44 + 18.0 * legend_rows;
  // Extra legend rows make the picture taller, not the plot smaller.
  const int height = p.height + 18 * std::max(0, legend_rows - 1);
  f.h = height - f.top - bottom;

  std::string out;
  out.reserve(64 * 1024);
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         std::to_string(p.width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
         std::to_string(p.width) + " " + std::to_string(height) +
         "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out += "<title>" + xml_escape(p.title) + "</title>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(p.width) + "\" height=\"" +
         std::to_string(height) + "\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"" + std::to_string(p.width / 2) +
         "\" y=\"16\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" +
         xml_escape(p.title) + "</text>\n";
  write_axes(p, f, out);
  write_bands(p, f, out);
  write_series(p, f, out);
  write_marks(p, f, out);
  write_legend(p, f, out, legend_at);
  out += "</svg>\n";
  return out;
}

}  // namespace parity::report
