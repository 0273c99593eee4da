// The chart's legend when its rows do not fit: at 900x600 with 11 runs its last row was cut
// and two entries could not be reached. It now takes at most 30 % of the plot and scrolls;
// an export draws it whole under the plot.
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_export.h>
#include <parity/ui/chart/chart_legend.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>

#include "test_util.h"

namespace parity::ui {
namespace {

TEST(ChartLegend, ElevenRunsAtASmallPlotScrollAndExportWhole) {
  ChartPanel panel;
  panel.resize(600, 330);
  panel.show();
  LossChart* chart = panel.lossChart();
  std::vector<ChartRun> runs;
  QStringList labels;
  for (int i = 0; i < 11; ++i) {
    const qint64 id = 1 + i;
    labels << QString("run %1: per-device batch %2, a long label").arg(id).arg(8 + i);
    chart->store().append(id, -1, test::syntheticSteps(id, 200, 64, -1, 0, 1.0 + 0.05 * i));
    chart->store().setRanks(id, {-1});
    runs.push_back({id, labels.back(), storage::RunStatus::kFinished, 200});
  }
  chart->setRuns(runs);
  chart->redrawNow();
  QCoreApplication::processEvents();

  auto* scroll = panel.findChild<QScrollArea*>("chartLegendScroll");
  ASSERT_NE(scroll, nullptr);
  ChartLegend* legend = panel.legend();
  ASSERT_EQ(legend->items().size(), 11u);
  const int whole = legend->heightForWidth(legend->width());
  const int plot = panel.view()->height() + scroll->height();
  EXPECT_GT(whole, scroll->height()) << "the test needs more rows than fit";
  EXPECT_LE(scroll->height(), plot * 3 / 10 + 1) << "the legend crowds out the plot";
  // Every entry is inside the legend widget, which the scroll area can bring into sight.
  EXPECT_GE(legend->height(), whole);
  for (QWidget* item : legend->items())
    EXPECT_TRUE(legend->rect().contains(item->geometry()))
        << ChartLegend::itemText(item).toStdString();
  EXPECT_TRUE(scroll->verticalScrollBar()->isVisible());
  // The last entry can be scrolled to.
  scroll->ensureWidgetVisible(legend->items().back());
  QCoreApplication::processEvents();
  const QRect last = legend->items().back()->geometry().translated(
      -scroll->horizontalScrollBar()->value(), -scroll->verticalScrollBar()->value());
  EXPECT_TRUE(scroll->viewport()->rect().contains(last));

  // The export: the plot, then the legend at its whole height.
  const QList<QWidget*> stack = panel.exportStack();
  ASSERT_EQ(stack.size(), 2);
  EXPECT_EQ(stack[0], panel.view());
  EXPECT_EQ(stack[1]->height(), whole);
  QTemporaryDir dir;
  const QString path = dir.filePath("chart.svg");
  ASSERT_TRUE(saveStackSvg(stack, path, "test").isEmpty());
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString svg = QString::fromUtf8(file.readAll());
  // Its height is the plot's and the whole legend's (within the generator's rounding).
  const auto box = QRegularExpression("viewBox=\"0 0 \\d+ (\\d+)\"").match(svg);
  ASSERT_TRUE(box.hasMatch()) << svg.left(200).toStdString();
  EXPECT_NEAR(box.captured(1).toInt(), stack[0]->height() + whole, 1);
  for (const QString& label : labels)
    EXPECT_TRUE(svg.contains(label.toHtmlEscaped())) << label.toStdString();
}

}  // namespace
}  // namespace parity::ui
