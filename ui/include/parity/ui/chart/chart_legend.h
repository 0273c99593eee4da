#pragma once
/// The loss chart's legend as a widget under the plot: every entry's label whole (entries flow
/// onto more rows as the window narrows, and a label wider than the row wraps), its line drawn
/// as plotted (colour and dash pattern), a note "= #1 1x64" on a run whose curve coincides with
/// an earlier one's, and the per-rank line styles. A click on a run's entry hides or shows it.
/// Exported PNG/SVG charts include it, so their legends are whole too.
/// Thread affinity: UI thread.

#include <QWidget>
#include <vector>

namespace parity::ui {

class LossChart;
struct LegendEntry;

class ChartLegend : public QWidget {
  Q_OBJECT
 public:
  explicit ChartLegend(LossChart* chart, QWidget* parent = nullptr);

  /// The entries' widgets, in legend order (tests click them).
  std::vector<QWidget*> items() const;
  /// The text an item shows: its label, and its note if any.
  static QString itemText(const QWidget* item);

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 private:
  void rebuild();

  LossChart* chart_;
};

}  // namespace parity::ui
