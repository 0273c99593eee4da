#pragma once
/// The loss chart with its controls: x-axis choice, EMA smoothing, log y, per-rank curves,
/// reset zoom. Owns the LossChart controller, the view and the legend under it.
/// Thread affinity: UI thread.

#include <parity/plot/curve_store.h>

#include <QList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QScrollArea;
class QToolButton;

namespace parity::ui {

class ChartLegend;
class ChartView;
class LossChart;

class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPanel(QWidget* parent = nullptr);

  LossChart* lossChart() const { return chart_; }
  ChartView* view() const { return view_; }
  ChartLegend* legend() const { return legend_; }
  /// What PNG/SVG export draws, one under another: the plot, then its legend whole (on screen
  /// the legend takes at most 30 % of the plot's height and scrolls beyond).
  QList<QWidget*> exportStack() const;

  void setXAxis(analysis::Axis kind);
  void setSmoothing(double beta);
  void setLogY(bool on);
  void setShowRanks(bool on);
  /// A line under the controls (e.g. "3 runs drawn, 120k points").
  /// The line beside the chart's actions (runs drawn, hidden, running); `toolTip` says more.
  void setStatusText(const QString& text, const QString& toolTip = {});

  /// The export button's menu is filled by the window.
  QToolButton* exportButton() const { return export_; }

 signals:
  /// A control changed; the window stores the choice in QSettings.
  void optionsChanged();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void setUpControls();
  void connectControls();
  void connectView();
  void layOut();
  void fitLegend();

  LossChart* chart_;
  ChartView* view_;
  QWidget* plot_;  ///< view_ above legend_
  ChartLegend* legend_;
  QScrollArea* legendScroll_;  ///< holds legend_: every entry reachable when rows do not fit
  QComboBox* xAxis_;
  QDoubleSpinBox* smoothing_;
  QCheckBox* logY_;
  QCheckBox* ranks_;
  QToolButton* reset_;
  QToolButton* export_;
  QLabel* status_;
  QGridLayout* controls_ = nullptr;
  QWidget* viewControls_ = nullptr;    ///< x axis, smoothing, log y, per-rank
  QWidget* actionControls_ = nullptr;  ///< status, reset zoom, export: a second row when narrow
};

}  // namespace parity::ui
