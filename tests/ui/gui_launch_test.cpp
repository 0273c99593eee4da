// End to end under a real X server (ctest runs it through xvfb-run, label "gui"): the window
// launches two small setups as parity-cli processes, waits for them, takes a screenshot and checks
// it is not blank and that the chart holds both curves. Skipped only when parity-cli is absent.
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/window/main_window.h>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QSet>

#include "test_util.h"

namespace parity::ui {
namespace {

/// Pixels close to `color` inside `rect`.
int countNear(const QImage& image, const QRect& rect, const QColor& color) {
  int n = 0;
  for (int y = rect.top(); y <= rect.bottom(); ++y) {
    for (int x = rect.left(); x <= rect.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
              std::abs(c.blue() - color.blue()) <
          40) {
        ++n;
      }
    }
  }
  return n;
}

TEST(GuiLaunch, TwoSetupsRunToTheEndAndBothCurvesAreDrawn) {
  const QString cli = RunLauncher::findCli();
  if (cli.isEmpty()) GTEST_SKIP() << "parity-cli is not built yet (set PARITY_CLI or build it)";

  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({false, true});
  window.resize(1500, 950);
  window.show();
  window.openDatabase(dir.filePath("gui.db"));
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }, 60000))
      << "the empty database was not listed and drawn within a minute";

  const config::RunConfig experiment = test::smallRegression("exp", 1, 32);
  // Two setups whose curves differ (global batch 32 vs 64), so both stay visible on the plot.
  window.setupsModel()->reset(
      experiment, {test::smallRegression("1x32", 1, 32), test::smallRegression("2x32", 2, 32)});
  ASSERT_TRUE(window.setupsModel()->allValid());
  window.launcher()->setMaxConcurrent(2);
  window.launch(window.setupsModel()->configs());

  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(true); }, 240000))
      << "runs did not finish in 4 minutes";
  RunsModel* runs = window.runsModel();
  ASSERT_EQ(runs->rowCount(), 2);
  for (const auto& r : runs->runs()) {
    EXPECT_EQ(r.status, storage::RunStatus::kFinished) << r.label << ": " << r.error;
    EXPECT_GT(r.steps_done, 0) << r.label;
  }

  LossChart* chart = window.chartPanel()->lossChart();
  const auto counts = chart->drawnPointCounts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts[0], 1);
  EXPECT_GT(counts[1], 1);

  const QImage shot = window.grab().toImage();
  const QString out = QDir(qEnvironmentVariable("PARITY_TEST_OUT", QDir::tempPath()))
                          .filePath("gui_launch_test.png");
  shot.save(out);
  std::printf("screenshot: %s\n", qPrintable(QFileInfo(out).absoluteFilePath()));

  QSet<QRgb> colors;
  for (int y = 0; y < shot.height(); y += 3) {
    for (int x = 0; x < shot.width(); x += 3) colors.insert(shot.pixel(x, y));
  }
  EXPECT_GT(colors.size(), 50) << "the screenshot looks blank";

  // Each run's colour is inside the plot area (not just in the legend below it).
  ChartView* view = window.chartPanel()->view();
  const QRectF plot = chart->chart()->plotArea();
  const QPoint topLeft = view->viewport()->mapTo(&window, view->mapFromScene(plot.topLeft()));
  const QRect chartRect(topLeft * shot.devicePixelRatio(),
                        plot.size().toSize() * shot.devicePixelRatio());
  for (const auto& r : runs->runs()) {
    EXPECT_GT(countNear(shot, chartRect.intersected(shot.rect()), LossChart::colorFor(r.id)), 20)
        << "no curve of run " << r.id << " (" << r.label << ") on the chart";
  }
}

TEST(GuiLaunch, StopSendsSigtermAndTheRunIsMarkedStopped) {
  if (RunLauncher::findCli().isEmpty()) GTEST_SKIP() << "parity-cli is not built yet";
  QTemporaryDir dir;
  MainWindow window({false, true});
  window.show();
  window.openDatabase(dir.filePath("stop.db"));
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }, 60000));
  config::RunConfig longRun = test::smallRegression("long", 1, 8);
  longRun.synthetic_samples = 400000;
  longRun.epochs = 5;
  window.setupsModel()->reset(longRun, {longRun});
  window.launch(window.setupsModel()->configs());
  RunsModel* runs = window.runsModel();
  ASSERT_TRUE(test::waitFor([&] { return runs->rowCount() == 1 && runs->runs()[0].steps_done > 0; },
                            60000));
  const qint64 id = runs->runs()[0].id;
  ASSERT_TRUE(window.launcher()->canStop(id));
  window.launcher()->stop(id);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(true); }, 30000));
  EXPECT_EQ(runs->runs()[0].status, storage::RunStatus::kStopped) << runs->runs()[0].error;
  EXPECT_LT(runs->runs()[0].steps_done, runs->runs()[0].total_steps);
}

}  // namespace
}  // namespace parity::ui
