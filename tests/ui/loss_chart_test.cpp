// The chart controller with data put straight into its store (no database).
#include <gtest/gtest.h>
#include <parity/ui/chart_panel.h>
#include <parity/ui/chart_view.h>
#include <parity/ui/loss_chart.h>

#include <QComboBox>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
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

TEST_F(LossChartTest, LegendShowsOneEntryPerRunByLabel) {
  QStringList names;
  for (QLegendMarker* m : chart->chart()->legend()->markers()) {
    if (m->isVisible()) names << m->label();
  }
  EXPECT_EQ(names, QStringList({"1x64", "2x64"}));
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
  const std::vector<engine::Axis> kinds = {engine::Axis::kStep, engine::Axis::kSamples,
                                           engine::Axis::kEpoch, engine::Axis::kWallTime};
  // The data's extent on each axis: run 1 has 100,000 steps of 64, run 2 50,000 of 128.
  const std::map<engine::Axis, double> extent = {{engine::Axis::kStep, 100000},
                                                 {engine::Axis::kSamples, 6.4e6},
                                                 {engine::Axis::kEpoch, 1.0},
                                                 {engine::Axis::kWallTime, 1000.0}};
  for (engine::Axis from : kinds) {
    for (engine::Axis to : kinds) {
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
TEST_F(LossChartTest, SmoothingOffAndOnKeepsOneLegendEntryPerRun) {
  auto visibleNames = [&] {
    QStringList names;
    for (QLegendMarker* m : chart->chart()->legend()->markers()) {
      if (m->isVisible()) names << m->label();
    }
    return names;
  };
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
  QLegendMarker* first = nullptr;
  for (QLegendMarker* m : chart->chart()->legend()->markers()) {
    if (m->isVisible() && m->label() == "1x64") first = m;
  }
  ASSERT_NE(first, nullptr);
  emit first->clicked();
  chart->redrawNow();
  EXPECT_TRUE(chart->isRunHidden(1));
  EXPECT_FALSE(chart->isRunHidden(2));
  const auto counts = chart->drawnPointCounts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0], 0) << "the hidden run is still drawn";
  EXPECT_GT(counts[1], 100);
  EXPECT_TRUE(first->isVisible()) << "its legend entry went away, so it cannot be clicked back";
  EXPECT_TRUE(chart->describeAt(chart->chart()->plotArea().center()).contains("2x64"));
  EXPECT_FALSE(chart->describeAt(chart->chart()->plotArea().center()).contains("1x64:"));
  emit first->clicked();
  chart->redrawNow();
  EXPECT_FALSE(chart->isRunHidden(1));
  EXPECT_GT(chart->drawnPointCounts()[0], 100);
}

// Hovering the plot names every run's step, samples, loss and lr at that x.
TEST_F(LossChartTest, HoverShowsEachRunsValuesAtTheCursor) {
  chart->setXAxis(engine::Axis::kStep);
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
  chart->setXAxis(engine::Axis::kStep);
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

TEST_F(LossChartTest, AxisChoiceChangesTheRange) {
  chart->setXAxis(engine::Axis::kSamples);
  chart->redrawNow();
  EXPECT_NEAR(chart->xRange().second, 50000.0 * 128, 1);
  chart->setXAxis(engine::Axis::kEpoch);
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
    hasLog |= qobject_cast<QLogValueAxis*>(a) != nullptr;
  EXPECT_TRUE(hasLog);
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

}  // namespace
}  // namespace parity::ui
