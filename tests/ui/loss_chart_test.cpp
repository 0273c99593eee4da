// The chart controller with data put straight into its store (no database).
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_export.h>
#include <parity/ui/chart/chart_legend.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>

#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QTest>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "test_util.h"

namespace parity::ui {
namespace {

class LossChartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    panel.resize(1000, 600);
    panel.show();
    chart = panel.lossChart();
    chart->store().append(1, -1, test::syntheticSteps(1, 100000, 64));
    chart->store().setRanks(1, {-1});
    chart->store().append(2, -1, test::syntheticSteps(2, 50000, 128, -1, 30000, 1.1));
    chart->store().setRanks(2, {-1});
    chart->setRuns({{1, "1x64", storage::RunStatus::kFinished, 100000},
                    {2, "2x64", storage::RunStatus::kDiverged, 50000}});
    QCoreApplication::processEvents();
    chart->redrawNow();
  }

  ChartPanel panel;
  LossChart* chart = nullptr;
};

TEST_F(LossChartTest, DrawsADecimationNotEveryPoint) {
  const auto counts = chart->drawnPointCounts();
  ASSERT_EQ(counts.size(), 2u);
  const int width = static_cast<int>(chart->chart()->plotArea().width());
  for (int n : counts) {
    EXPECT_GT(n, 100);
    EXPECT_LE(n, 4 * width + 2);
  }
  EXPECT_TRUE(chart->isSettled());
}

/// The labels of the legend's run entries, as the legend widget shows them.
QStringList legendTexts(ChartPanel& panel) {
  QStringList texts;
  for (QWidget* item : panel.legend()->items()) texts << ChartLegend::itemText(item);
  return texts;
}

TEST_F(LossChartTest, LegendShowsOneEntryPerRunByLabel) {
  QStringList names;
  for (const LegendEntry& e : chart->legendEntries()) names << e.label;
  EXPECT_EQ(names, QStringList({"1x64", "2x64"}));
  EXPECT_EQ(legendTexts(panel), QStringList({"1x64", "2x64"}));
}

/// The x axis's range and the number of ticks it lays out over it.
struct AxisState {
  double min = 0, max = 0;
  double ticks = 0;
};

AxisState xAxisState(LossChart* chart) {
  const auto axes = chart->chart()->axes(Qt::Horizontal);
  EXPECT_EQ(axes.size(), 1);
  auto* axis = qobject_cast<QValueAxis*>(axes.value(0));
  if (axis == nullptr) return {};
  return {axis->min(), axis->max(), (axis->max() - axis->min()) / axis->tickInterval()};
}

// Every x-axis change, in every order, lays out a handful of round ticks over the new data's range
// (an epoch interval of 0.2 over 0-6.4 million samples once froze the window for minutes; a
// regression hangs this test until ctest's timeout).
TEST_F(LossChartTest, EveryXAxisChangeInEveryOrderKeepsAFewTicks) {
  const std::vector<analysis::Axis> kinds = {analysis::Axis::kStep, analysis::Axis::kSamples,
                                             analysis::Axis::kEpoch, analysis::Axis::kWallTime};
  // The data's extent on each axis: run 1 has 100,000 steps of 64, run 2 50,000 of 128.
  const std::map<analysis::Axis, double> extent = {{analysis::Axis::kStep, 100000},
                                                   {analysis::Axis::kSamples, 6.4e6},
                                                   {analysis::Axis::kEpoch, 1.0},
                                                   {analysis::Axis::kWallTime, 1000.0}};
  for (analysis::Axis from : kinds) {
    for (analysis::Axis to : kinds) {
      if (from == to) continue;
      chart->setXAxis(from);
      chart->redrawNow();
      chart->setXAxis(to);
      chart->redrawNow();
      const AxisState a = xAxisState(chart);
      const std::string change =
          std::to_string(static_cast<int>(from)) + " -> " + std::to_string(static_cast<int>(to));
      EXPECT_GE(a.ticks, 2) << change;
      EXPECT_LE(a.ticks, 20) << change;
      EXPECT_LE(a.min, 0.05 * extent.at(to)) << change;
      EXPECT_GE(a.max, extent.at(to)) << change;
      EXPECT_LE(a.max, 1.2 * extent.at(to)) << change;
    }
  }
}

// Smoothing off and on again used to add a "(raw)" legend entry per run each time.
/// The x axis's labels as the chart paints them (Qt Charts' text items under the plot), as numbers.
std::vector<double> xAxisLabels(LossChart* chart) {
  const QRectF plot = chart->chart()->plotArea();
  std::vector<double> values;
  for (QGraphicsItem* item : chart->chart()->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (text == nullptr || !text->isVisible()) continue;
    const QRectF r = text->sceneBoundingRect();
    if (r.top() < plot.bottom() || r.top() > plot.bottom() + 2 * r.height()) continue;
    bool ok = false;
    const double v = text->toPlainText().toDouble(&ok);
    if (ok) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  return values;
}

// A live run's x axis grows as its rows come; its labels stay at round multiples of the tick
// interval at every frame, one interval apart (the window once showed "16, 5516, 11016" while a
// run of batch 16 trained: Qt's fixed-tick labels, counted from the range's start).
TEST_F(LossChartTest, LiveXAxisLabelsStayRoundAsTheRunGrows) {
  const std::vector<storage::StepRow> all = test::syntheticSteps(3, 1400, 16);
  chart->setRuns({{3, "live", storage::RunStatus::kRunning, 0}});
  chart->setXAxis(analysis::Axis::kSamples);
  std::size_t given = 0;
  for (std::size_t upTo = 17; upTo <= all.size(); upTo += 37) {
    chart->store().append(3, -1, {all.begin() + static_cast<long>(given),
                                  all.begin() + static_cast<long>(upTo)});
    chart->store().setRanks(3, {-1});
    given = upTo;
    chart->redrawNow();
    QCoreApplication::processEvents();
    const std::vector<double> labels = xAxisLabels(chart);
    auto* axis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    ASSERT_NE(axis, nullptr);
    const double step = axis->tickInterval();
    ASSERT_GE(labels.size(), 2u) << upTo << " rows";
    for (double v : labels) {
      EXPECT_NEAR(std::remainder(v, step), 0.0, 1e-6 * step)
          << upTo << " rows: label " << v << " is not a multiple of the interval " << step;
    }
    EXPECT_NEAR(labels[1] - labels[0], step, 1e-6 * step) << upTo << " rows";
  }
}

TEST_F(LossChartTest, SmoothingOffAndOnKeepsOneLegendEntryPerRun) {
  auto visibleNames = [&] { return legendTexts(panel); };
  for (int i = 0; i < 2; ++i) {
    chart->setSmoothing(0);
    chart->redrawNow();
    chart->setSmoothing(0.6);
    chart->redrawNow();
  }
  EXPECT_EQ(visibleNames(), QStringList({"1x64", "2x64"}));
}

// A click on a legend entry hides the run's lines (the entry stays, greyed); another shows them.
TEST_F(LossChartTest, ClickingALegendEntryHidesAndShowsItsRun) {
  auto entry = [&] { return panel.legend()->findChild<QWidget*>("legendRun1"); };
  ASSERT_NE(entry(), nullptr);
  QTest::mouseClick(entry(), Qt::LeftButton);
  chart->redrawNow();
  EXPECT_TRUE(chart->isRunHidden(1));
  EXPECT_FALSE(chart->isRunHidden(2));
  const auto counts = chart->drawnPointCounts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0], 0) << "the hidden run is still drawn";
  EXPECT_GT(counts[1], 100);
  ASSERT_NE(entry(), nullptr) << "its legend entry went away, so it cannot be clicked back";
  EXPECT_TRUE(entry()->isVisible());
  EXPECT_TRUE(chart->legendEntries()[0].hidden);
  EXPECT_TRUE(chart->describeAt(chart->chart()->plotArea().center()).contains("2x64"));
  EXPECT_FALSE(chart->describeAt(chart->chart()->plotArea().center()).contains("1x64:"));
  QTest::mouseClick(entry(), Qt::LeftButton);
  chart->redrawNow();
  EXPECT_FALSE(chart->isRunHidden(1));
  EXPECT_GT(chart->drawnPointCounts()[0], 100);
}

// Hovering the plot names every run's step, samples, loss and lr at that x.
TEST_F(LossChartTest, HoverShowsEachRunsValuesAtTheCursor) {
  chart->setXAxis(analysis::Axis::kStep);
  chart->redrawNow();
  const QRectF plot = chart->chart()->plotArea();
  const QString text = chart->describeAt(plot.center());
  EXPECT_TRUE(text.startsWith("optimizer step")) << text.toStdString();
  EXPECT_TRUE(text.contains("1x64: step ")) << text.toStdString();
  EXPECT_TRUE(text.contains("2x64: step ")) << text.toStdString();
  EXPECT_TRUE(text.contains("loss ")) << text.toStdString();
  EXPECT_TRUE(text.contains("lr 0.05")) << text.toStdString();
  // At the middle of 0..100,000 steps: run 1 is near step 50,000, with 64 samples a step.
  const QString line = text.split('\n').filter("1x64:").value(0);
  const qint64 step = line.section("step ", 1).section(' ', 0, 0).toLongLong();
  EXPECT_NEAR(step, 50000, 5000) << line.toStdString();
  EXPECT_TRUE(line.contains(QString("%1 samples").arg(step * 64))) << line.toStdString();
  EXPECT_TRUE(chart->describeAt(plot.topLeft() - QPointF(5, 5)).isEmpty());
  // Before run 2's last step (50,000 of the axis' 100,000) no run has ended. (The centre itself
  // can fall a step past it.)
  const QString early =
      chart->describeAt(QPointF(plot.left() + plot.width() * 0.4, plot.center().y()));
  EXPECT_FALSE(early.contains("(ended)")) << early.toStdString();
  // Past run 2's last step (50,000) it shows that point, and says the run ended there.
  const QString late =
      chart->describeAt(QPointF(plot.left() + plot.width() * 0.9, plot.center().y()));
  const QString run2 = late.split('\n').filter("2x64:").value(0);
  EXPECT_TRUE(run2.contains("step 50000") && run2.endsWith(" (ended)")) << late.toStdString();
  EXPECT_FALSE(late.split('\n').filter("1x64:").value(0).contains("(ended)")) << late.toStdString();
}

// An imported run whose setup is unknown has no samples seen (0 at every step): on the samples
// axis it is left off the plot and named by runsOffAxis() (it was a vertical line at 0 that set
// the x range); on the step axis it is drawn like any run.
TEST_F(LossChartTest, ARunWithoutSamplesIsOffTheSamplesAxisAndOnTheStepAxis) {
  std::vector<storage::StepRow> rows = test::syntheticSteps(3, 2000, 0);
  for (auto& r : rows) r.samples = 0;
  chart->store().append(3, -1, rows);
  chart->store().setRanks(3, {-1});
  chart->setRuns({{1, "1x64", storage::RunStatus::kFinished, 100000},
                  {2, "2x64", storage::RunStatus::kDiverged, 50000},
                  {3, "imported", storage::RunStatus::kFinished, 2000}});
  chart->setXAxis(analysis::Axis::kSamples);
  chart->redrawNow();
  EXPECT_EQ(chart->drawnPointCounts().at(2), 0);
  EXPECT_EQ(chart->runsOffAxis(), QStringList{"imported"});
  EXPECT_GT(xAxisState(chart).max, 1e6) << "the x range is the other runs' samples";
  EXPECT_FALSE(chart->describeAt(chart->chart()->plotArea().center()).contains("imported"));
  chart->setXAxis(analysis::Axis::kStep);
  chart->redrawNow();
  EXPECT_GT(chart->drawnPointCounts().at(2), 10);  // 2,000 of the axis' 100,000 steps
  EXPECT_TRUE(chart->runsOffAxis().isEmpty());
}

TEST(LossChartPalette, TwentyRunsGetTwentyColoursThatStayApart) {
  // "redmean" colour distance: Tableau 10's own closest pair is about 100 apart.
  auto distance = [](const QColor& a, const QColor& b) {
    const double rm = (a.red() + b.red()) / 2.0;
    const double dr = a.red() - b.red(), dg = a.green() - b.green(), db = a.blue() - b.blue();
    return std::sqrt((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db);
  };
  for (int a = 1; a <= LossChart::kPaletteSize; ++a) {
    for (int b = a + 1; b <= LossChart::kPaletteSize; ++b) {
      EXPECT_GT(distance(LossChart::colorFor(a), LossChart::colorFor(b)), 100)
          << "runs " << a << " and " << b;
    }
  }
  EXPECT_EQ(LossChart::colorFor(1), LossChart::colorFor(1 + LossChart::kPaletteSize));
}

TEST_F(LossChartTest, MarksNonFiniteLosses) { EXPECT_EQ(chart->badMarkerCount(), 1); }

TEST_F(LossChartTest, ZoomRedecimatesTheVisibleRange) {
  chart->setXAxis(analysis::Axis::kStep);
  chart->redrawNow();
  const QRectF plot = chart->chart()->plotArea();
  // A box over the first tenth of the x range.
  chart->zoomToPixels(QRectF(plot.left(), plot.top(), plot.width() / 10, plot.height()));
  EXPECT_TRUE(chart->isZoomed());
  const auto [x0, x1] = chart->xRange();
  EXPECT_NEAR(x0, 1, 1);
  EXPECT_NEAR(x1, 1 + (100000 - 1) / 10.0, 200);
  // Still about a pixel's worth of points, now over 10k steps: finer than before.
  EXPECT_GT(chart->drawnPointCounts()[0], 100);
  chart->panPixels(QPointF(-plot.width() / 2, 0));
  EXPECT_GT(chart->xRange().first, x0);
  chart->resetZoom();
  EXPECT_FALSE(chart->isZoomed());
  EXPECT_NEAR(chart->xRange().second, 100000, 1);
}

// A zoom or pan step paints a draft without antialiasing (about 2 ms a frame less at 20 runs x
// 100k steps, bench/results.md); the full detail that follows when the gesture pauses is
// antialiased again.
TEST_F(LossChartTest, ZoomAndPanDraftsAreNotAntialiasedTheFullDetailIs) {
  const auto antialiased = [&] {
    return panel.view()->renderHints().testFlag(QPainter::Antialiasing);
  };
  chart->setXAxis(analysis::Axis::kStep);
  chart->redrawNow();
  ASSERT_LT(chart->drawnPoints(), 12000);
  EXPECT_FALSE(chart->drawnAsDraft());
  EXPECT_TRUE(antialiased());
  const QRectF plot = chart->chart()->plotArea();
  chart->zoomAt(0.5, 1, plot.center());
  EXPECT_TRUE(chart->drawnAsDraft());
  EXPECT_FALSE(antialiased());
  chart->panPixels(QPointF(-plot.width() / 4, 0));
  EXPECT_TRUE(chart->drawnAsDraft());
  EXPECT_FALSE(antialiased());
  for (int i = 0; i < 100 && chart->drawnAsDraft(); ++i) QTest::qWait(20);
  EXPECT_FALSE(chart->drawnAsDraft()) << "no full-detail redraw 2 s after the gesture";
  EXPECT_TRUE(antialiased());
  EXPECT_TRUE(chart->isZoomed());
}

// Zooming out with the wheel or panning stops at the data: no negative samples seen, nothing past
// the last point; zoomed out to the whole data is no zoom.
TEST_F(LossChartTest, WheelZoomAndPanStayOnTheData) {
  chart->setXAxis(analysis::Axis::kSamples);
  chart->redrawNow();
  const QRectF plot = chart->chart()->plotArea();
  chart->zoomAt(0.25, 1, plot.center());  // in
  ASSERT_TRUE(chart->isZoomed());
  chart->panPixels(QPointF(plot.width() * 4, 0));  // far to the left of the first point
  EXPECT_GE(chart->xRange().first, 64 - 1e-6);     // the first step's samples
  chart->zoomAt(1.25, 1, QPointF(plot.left() + 2, plot.center().y()));  // out at the left edge
  EXPECT_GE(chart->xRange().first, 64 - 1e-6);
  chart->panPixels(QPointF(-plot.width() * 8, 0));
  EXPECT_LE(chart->xRange().second, 100000.0 * 64 + 1e-6);  // both runs end at 6.4 M
  for (int i = 0; i < 10; ++i) chart->zoomAt(1.25, 1, plot.center());
  EXPECT_FALSE(chart->isZoomed());
  EXPECT_GE(chart->xRange().first, 0);
}

TEST_F(LossChartTest, AxisChoiceChangesTheRange) {
  chart->setXAxis(analysis::Axis::kSamples);
  chart->redrawNow();
  EXPECT_NEAR(chart->xRange().second, 50000.0 * 128, 1);
  chart->setXAxis(analysis::Axis::kEpoch);
  chart->redrawNow();
  EXPECT_NEAR(chart->xRange().second, 1.0, 1e-9);
}

TEST_F(LossChartTest, AxisMenuAndTitleComeFromTheAxisTable) {
  auto* menu = panel.findChild<QComboBox*>();
  ASSERT_NE(menu, nullptr);
  const QStringList labels{"Optimizer step", "Samples seen", "Epoch", "Wall time"};
  const QStringList titles{"optimizer step", "samples seen", "epoch", "wall time (s)"};
  ASSERT_EQ(menu->count(), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(menu->itemText(i), labels[i]);
    EXPECT_EQ(menu->itemData(i).toInt(), i);  // the int QSettings keeps
    menu->setCurrentIndex(i);
    EXPECT_EQ(static_cast<int>(chart->xAxis()), i);
    QStringList shown;
    for (QAbstractAxis* a : chart->chart()->axes(Qt::Horizontal)) shown << a->titleText();
    EXPECT_EQ(shown, QStringList{titles[i]});
  }
}

TEST_F(LossChartTest, LogAxisAndSmoothingOff) {
  chart->setLogY(true);
  chart->setSmoothing(0);
  chart->redrawNow();
  EXPECT_TRUE(chart->logY());
  bool hasLog = false;
  for (QAbstractAxis* a : chart->chart()->axes(Qt::Vertical))
    hasLog |= qobject_cast<QCategoryAxis*>(a) != nullptr;
  EXPECT_TRUE(hasLog) << "a log axis is drawn in log10 units with labels at round losses";
  EXPECT_GT(chart->yRange().first, 0);
  EXPECT_GT(chart->drawnPointCounts()[0], 100);
}

TEST_F(LossChartTest, RedrawsAreBatched) {
  const int before = chart->redrawCount();
  for (int i = 0; i < 20; ++i) chart->scheduleRedraw();
  EXPECT_EQ(chart->redrawCount(), before);
  EXPECT_TRUE(test::waitFor([&] { return chart->redrawCount() > before; }, 2000));
  EXPECT_EQ(chart->redrawCount(), before + 1);
}

TEST_F(LossChartTest, HidingARunRemovesItsSeries) {
  chart->setRuns({{2, "2x64", storage::RunStatus::kDiverged, 50000}});
  chart->redrawNow();
  EXPECT_EQ(chart->drawnPointCounts().size(), 1u);
}

// 1x64 and 2x32 draw the very same curve: the later run is dashed over the earlier one, so both
// show, and its legend entry says which run it equals.
TEST_F(LossChartTest, IdenticalCurvesAreDashedAndNamedInTheLegend) {
  chart->store().append(3, -1, test::syntheticSteps(3, 100000, 64));
  chart->store().setRanks(3, {-1});
  chart->setRuns({{1, "1x64", storage::RunStatus::kFinished, 100000},
                  {2, "2x64", storage::RunStatus::kDiverged, 50000},
                  {3, "2x32", storage::RunStatus::kFinished, 100000}});
  chart->redrawNow();
  EXPECT_EQ(chart->identicalRuns(), (std::map<qint64, qint64>{{3, 1}}));
  const std::vector<LegendEntry>& legend = chart->legendEntries();
  ASSERT_EQ(legend.size(), 3u);
  EXPECT_EQ(legend[0].pen.style(), Qt::SolidLine);
  EXPECT_EQ(legend[1].pen.style(), Qt::SolidLine);
  EXPECT_EQ(legend[2].pen.style(), Qt::CustomDashLine);
  EXPECT_EQ(legend[2].note, "= #1 1x64");
  EXPECT_TRUE(legend[2].toolTip.contains("Identical to run #1")) << legend[2].toolTip.toStdString();
  EXPECT_TRUE(legend[0].note.isEmpty());
  EXPECT_EQ(legendTexts(panel).value(2), "2x32  = #1 1x64");
  // The line on the chart is the dashed one, drawn over run 1's.
  QLineSeries* dashed = nullptr;
  for (QAbstractSeries* series : chart->chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(series);
    if (line && line->name() == "2x32" && line->count() > 0) dashed = line;
  }
  ASSERT_NE(dashed, nullptr);
  EXPECT_EQ(dashed->pen().style(), Qt::CustomDashLine);

  // A third identical run gets another pattern; once run 3's curve parts from run 1's, solid.
  chart->store().append(4, -1, test::syntheticSteps(4, 100000, 64));
  chart->store().setRanks(4, {-1});
  chart->setRuns({{1, "1x64", storage::RunStatus::kFinished, 100000},
                  {3, "2x32", storage::RunStatus::kFinished, 100000},
                  {4, "4x16", storage::RunStatus::kFinished, 100000}});
  chart->redrawNow();
  EXPECT_EQ(chart->identicalRuns(), (std::map<qint64, qint64>{{3, 1}, {4, 1}}));
  EXPECT_NE(chart->legendEntries()[1].pen.dashPattern(),
            chart->legendEntries()[2].pen.dashPattern());
  chart->forgetRun(3);
  chart->store().append(3, -1, test::syntheticSteps(3, 100000, 64, -1, 0, 1.05));
  chart->store().setRanks(3, {-1});
  chart->setRuns({{1, "1x64", storage::RunStatus::kFinished, 100000},
                  {3, "2x32", storage::RunStatus::kFinished, 100000}});
  chart->redrawNow();
  EXPECT_TRUE(chart->identicalRuns().empty());
  EXPECT_EQ(chart->legendEntries()[1].pen.style(), Qt::SolidLine);
  EXPECT_TRUE(chart->legendEntries()[1].note.isEmpty());
}

// At 900 px wide, six long labels stay whole (QLegend cut them to "2x64 u…" and then dropped all
// text); so does the exported SVG's legend.
TEST_F(LossChartTest, LongLabelsStayWholeAt900PxAndInTheExport) {
  const QStringList labels = {"1x64 reference",        "2x32 same global batch",
                              "2x64 unscaled lr",      "2x64 linear lr scaling",
                              "4x16 acc2 bf16 seed 7", "8x8 sqrt lr even_batches=false"};
  std::vector<ChartRun> runs;
  for (int i = 0; i < labels.size(); ++i) {
    const qint64 id = 10 + i;
    chart->store().append(id, -1, test::syntheticSteps(id, 2000, 64, -1, 0, 1.0 + 0.1 * i));
    chart->store().setRanks(id, {-1});
    runs.push_back({id, labels[i], storage::RunStatus::kFinished, 2000});
  }
  chart->setRuns(runs);
  panel.resize(900, 600);
  chart->redrawNow();
  QCoreApplication::processEvents();
  EXPECT_EQ(legendTexts(panel), labels);
  const QRect legendArea = panel.legend()->rect();
  for (QWidget* item : panel.legend()->items()) {
    EXPECT_TRUE(item->isVisible());
    EXPECT_GE(item->width(), item->sizeHint().width()) << ChartLegend::itemText(item).toStdString();
    EXPECT_TRUE(legendArea.contains(item->geometry()))
        << ChartLegend::itemText(item).toStdString() << " lies outside the legend";
  }
  EXPECT_GT(panel.view()->height(), 300) << "the legend crowds out the plot";

  QTemporaryDir dir;
  const QString path = dir.filePath("chart.svg");
  ASSERT_TRUE(saveStackSvg(panel.exportStack(), path, "test").isEmpty());
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString svg = QString::fromUtf8(file.readAll());
  for (const QString& label : labels)
    EXPECT_TRUE(svg.contains(label.toHtmlEscaped())) << label.toStdString() << " is not whole";
}

// Log y over 0.35-2.3 labels round losses (it showed a lone "1"), each at its log10 height.
TEST_F(LossChartTest, LogAxisLabelsRoundLosses) {
  chart->setLogY(true);
  chart->setSmoothing(0);
  chart->redrawNow();
  QCategoryAxis* axis = nullptr;
  for (QAbstractAxis* a : chart->chart()->axes(Qt::Vertical))
    axis = qobject_cast<QCategoryAxis*>(a);
  ASSERT_NE(axis, nullptr);
  const QStringList labels = axis->categoriesLabels();
  EXPECT_GE(labels.size(), 4) << labels.join(" ").toStdString();
  for (const char* round : {"0.5", "1", "2"}) {
    EXPECT_TRUE(labels.contains(round))
        << round << " missing from " << labels.join(" ").toStdString();
  }
  for (const QString& label : labels) {
    EXPECT_NEAR(axis->endValue(label), std::log10(label.toDouble()), 1e-9);
    EXPECT_GE(axis->endValue(label), axis->min());
    EXPECT_LE(axis->endValue(label), axis->max());
  }
  // Losses, not log10 units, for callers; a zoom keeps round labels inside the new range.
  EXPECT_LT(chart->yRange().first, 0.5);
  EXPECT_GT(chart->yRange().second, 2.0);
  const QRectF plot = chart->chart()->plotArea();
  chart->zoomToPixels(
      QRectF(plot.left(), plot.top() + plot.height() / 2, plot.width(), plot.height() / 2));
  chart->redrawNow();
  EXPECT_GE(axis->categoriesLabels().size(), 2);
}

// Per-rank lines: one dash pattern per rank, the same in every run, named in the legend.
TEST_F(LossChartTest, PerRankLinesHaveARankLegend) {
  chart->store().append(1, 0, test::syntheticSteps(1, 100000, 32, 0, 0, 1.02));
  chart->store().append(1, 1, test::syntheticSteps(1, 100000, 32, 1, 0, 0.98));
  chart->store().setRanks(1, {-1, 0, 1});
  chart->setShowRanks(true);
  chart->redrawNow();
  std::map<int, LegendEntry> rankEntries;
  for (const LegendEntry& e : chart->legendEntries()) {
    if (e.rank >= 0) rankEntries[e.rank] = e;
  }
  ASSERT_EQ(rankEntries.size(), 2u);
  EXPECT_EQ(rankEntries[0].label, "rank 0");
  EXPECT_EQ(rankEntries[1].label, "rank 1");
  EXPECT_NE(rankEntries[0].pen.dashPattern(), rankEntries[1].pen.dashPattern());
  EXPECT_TRUE(legendTexts(panel).contains("ranks 0 1"))
      << legendTexts(panel).join("|").toStdString();
  for (QAbstractSeries* series : chart->chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(series);
    if (!line || !line->name().contains(" · rank ")) continue;
    const int rank = line->name().section(" · rank ", 1).toInt();
    EXPECT_EQ(line->pen().dashPattern(), rankEntries[rank].pen.dashPattern()) << rank;
    EXPECT_GT(line->count(), 100);
  }
  chart->setShowRanks(false);
  chart->redrawNow();
  for (const LegendEntry& e : chart->legendEntries()) EXPECT_LT(e.rank, 0);
}

}  // namespace
}  // namespace parity::ui
