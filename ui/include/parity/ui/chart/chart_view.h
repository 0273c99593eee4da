#pragma once
/// A QChartView that turns mouse and keys into requests in plot coordinates, so the LossChart
/// can re-decimate for the new range instead of letting Qt Charts scale stale points:
/// left-drag = zoom to a rectangle, right- or middle-drag = pan, wheel = zoom around the cursor
/// (x only; with Shift, y only), double-click or Home = reset, arrow keys = pan. The mouse over the
/// plot is reported (hover values). The legend is a widget of its own (ChartLegend).
/// Thread affinity: UI thread.

#include <QtCharts/QChartView>

class QRubberBand;

namespace parity::ui {

class ChartView : public QChartView {
  Q_OBJECT
 public:
  explicit ChartView(QChart* chart, QWidget* parent = nullptr);

 signals:
  /// A rectangle in widget pixels, inside the plot area.
  void zoomRectRequested(const QRectF& pixels);
  /// Move the view by a pixel delta (positive x = content moves right).
  void panRequested(const QPointF& pixels);
  /// Scale around a pixel: factor < 1 zooms in.
  void zoomRequested(double factorX, double factorY, const QPointF& pixel);
  void resetRequested();
  void resized();
  /// The mouse moved over the view without a button, at this widget pixel.
  void hovered(const QPointF& pixel);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  enum class Drag { kNone, kZoom, kPan };
  Drag drag_ = Drag::kNone;
  QPoint origin_;
  QPoint last_;
  QRubberBand* band_;
};

}  // namespace parity::ui
