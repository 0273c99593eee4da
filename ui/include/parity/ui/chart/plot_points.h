#pragma once
/// Turning a decimated series (decimate_min_max, parity/plot/decimation.h) into the fewest QPointF
/// that draw the same pixels: a faint raw curve needs only each column's min and max; a smooth
/// curve (the EMA) needs only the points that bend it by more than a fraction of a pixel.
/// Plain functions; callable from any thread.

#include <parity/analysis/curve_analysis.h>

#include <QList>
#include <QPointF>

namespace parity::ui {

/// Maps plot values to pixels for the reductions below.
struct PixelScale {
  double x0 = 0, xPerPixel = 1;  ///< x value at the left edge, x units per pixel
  double y0 = 0, yPerPixel = 1;  ///< y (or log10 y) at the bottom edge, units per pixel
  bool logY = false;

  bool operator==(const PixelScale& o) const {
    return x0 == o.x0 && xPerPixel == o.xPerPixel && y0 == o.y0 && yPerPixel == o.yPerPixel &&
           logY == o.logY;
  }
};

/// Appends the decimated points to `out`, dropping y <= 0 when `positiveOnly` (a log axis).
void appendPoints(const analysis::Series& decimated, bool positiveOnly, QList<QPointF>& out);

/// Keeps each pixel column's min and max (in x order): the pixels a 1-px line zigzagging
/// through first/min/max/last covers, with half the points.
void collapseToMinMax(const analysis::Series& decimated, double x0, double columnWidth,
                      bool positiveOnly, QList<QPointF>& out);

/// Douglas–Peucker in pixel space: removes points closer than `tolerancePx` to the line
/// through their kept neighbours. For smooth curves this keeps a few hundred of thousands.
void simplifyInPixels(QList<QPointF>& points, const PixelScale& scale, double tolerancePx);

}  // namespace parity::ui
