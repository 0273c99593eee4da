// The Compare panel against a real database file (offscreen): the verdict table's throughput
// marks, the config diff, the Δ plot with its allowed gap and parting marks.
#include <gtest/gtest.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QApplication>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QThread>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <cmath>
#include <map>

#include "test_util.h"

namespace parity::ui {
namespace {

// Throughput in the verdict: a run that ran beside another is marked, as in the runs table.
TEST(ComparePanelTest, ThroughputColumnsSayWhenARunSharedTheCores) {
  QTemporaryDir dir;
  const QString path = dir.filePath("shared.db");
  int64_t alone = 0, a = 0, b = 0;
  {
    storage::Database db(path.toStdString());
    alone = test::addFinishedRun(db, "alone", 200, 64);
    db.finish_run(alone, storage::RunStatus::kFinished, "", 144000.0);
    QThread::msleep(30);
    // Two runs at once: both started before either finished.
    a = db.create_run("a", "{}", storage::RunStatus::kQueued);
    b = db.create_run("b", "{}", storage::RunStatus::kQueued);
    db.set_started(a, 200);
    db.set_started(b, 200);
    db.append_steps(test::syntheticSteps(a, 200, 64));
    db.append_steps(test::syntheticSteps(b, 200, 64));
    QThread::msleep(30);
    db.finish_run(a, storage::RunStatus::kFinished, "", 16000.0);
    db.finish_run(b, storage::RunStatus::kFinished, "", 16000.0);
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  for (int64_t id : {alone, a, b}) window.runsModel()->setShown(id, true);
  ComparePanel* panel = window.comparePanel();
  ASSERT_TRUE(test::waitFor([&] { return panel->referenceId() != 0; }));
  bool done = false;
  QObject::connect(panel, &ComparePanel::compared, [&] { done = true; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return done; }));
  const QAbstractItemModel* table = panel->verdictTable()->model();
  int speedColumn = -1;
  for (int c = 0; c < table->columnCount(); ++c) {
    if (table->headerData(c, Qt::Horizontal).toString() == "Samples/s") speedColumn = c;
  }
  ASSERT_GE(speedColumn, 0) << "no throughput column in the verdict";
  std::map<int64_t, int> rowOf;
  for (int row = 0; row < table->rowCount(); ++row)
    rowOf[static_cast<int64_t>(panel->comparison().rows[row].id)] = row;
  ASSERT_EQ(rowOf.size(), 3u);
  const QModelIndex aloneCell = table->index(rowOf[alone], speedColumn);
  EXPECT_EQ(aloneCell.data().toString(), "144000");
  EXPECT_TRUE(aloneCell.data(Qt::ToolTipRole).toString().isEmpty());
  for (int64_t id : {a, b}) {
    const QModelIndex cell = table->index(rowOf[id], speedColumn);
    const QString toolTip = cell.data(Qt::ToolTipRole).toString();
    EXPECT_EQ(cell.data().toString(), "16000 *") << id;
    EXPECT_TRUE(toolTip.contains("shared the cores")) << toolTip.toStdString();
    EXPECT_EQ(toolTip, window.runsModel()->sharedCoresNote(*window.runsModel()->runById(id)));
  }
}

TEST(ComparePanelTest, VerdictTableDiffAndDeltaPlot) {
  QTemporaryDir dir;
  const QString path = dir.filePath("compare.db");
  int64_t a = 0, b = 0, c = 0;
  {
    storage::Database db(path.toStdString());
    a = test::addFinishedRun(db, "ref", 200, 64, R"({"seed": 1})");
    b = test::addFinishedRun(db, "same", 200, 64, R"({"seed": 1})");
    c = db.create_run("higher lr", R"({"seed": 1, "lr": 0.2})", storage::RunStatus::kQueued);
    db.set_started(c, 200);
    db.append_steps(test::syntheticSteps(c, 200, 64, -1, 0, 1.3));
    db.finish_run(c, storage::RunStatus::kFinished, "", 1000.0);
    const int64_t d = db.create_run("ref, seed 2", R"({"seed": 2})", storage::RunStatus::kQueued);
    db.set_started(d, 200);
    db.append_steps(test::syntheticSteps(d, 200, 64, -1, 0, 1.01));
    db.finish_run(d, storage::RunStatus::kFinished, "", 1000.0);
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  ComparePanel* panel = window.comparePanel();
  ASSERT_EQ(panel->referenceId(), a);
  bool done = false;
  QObject::connect(panel, &ComparePanel::compared, [&] { done = true; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return done; }));
  const analysis::Comparison& result = panel->comparison();
  ASSERT_EQ(result.rows.size(), 4u);
  ASSERT_EQ(result.groups.size(), 1u);  // ref and "ref, seed 2"
  EXPECT_EQ(result.rows[0].verdict, analysis::Verdict::kReference);
  EXPECT_EQ(result.rows[1].id, b);
  EXPECT_EQ(result.rows[1].verdict, analysis::Verdict::kEquivalent);
  EXPECT_EQ(result.rows[2].verdict, analysis::Verdict::kDifferent);
  const QAbstractItemModel* table = panel->verdictTable()->model();
  EXPECT_EQ(table->rowCount(), 4);
  EXPECT_EQ(table->index(2, 1).data().toString(), "different");
  bool lrListed = false;
  for (const auto& d : result.rows[2].config_diff) lrListed |= d.key == "lr";
  EXPECT_TRUE(lrListed);

  // The Δ plot: one line per compared run, the loss minus the reference's at each point.
  const auto steps = test::syntheticSteps(a, 200, 64);
  double maxLoss = 0;
  for (const auto& s : steps) maxLoss = std::max(maxLoss, s.loss);
  std::map<QString, QList<QPointF>> deltas;
  QLineSeries* parting = nullptr;
  QLineSeries* partingLabel = nullptr;
  for (QAbstractSeries* s : panel->deltaChart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(s);
    if (line && line->objectName() == "partingMark") {
      parting = line;
    } else if (line && line->objectName() == "partingLabel") {
      partingLabel = line;
    } else if (line) {
      deltas[line->name()] = line->points();
    }
  }
  // Where "higher lr" parts from the reference: a vertical line at its first point outside.
  ASSERT_NE(parting, nullptr);
  ASSERT_TRUE(result.rows[2].first_outside_x.has_value());
  ASSERT_EQ(parting->count(), 2);
  EXPECT_DOUBLE_EQ(parting->at(0).x(), *result.rows[2].first_outside_x);
  EXPECT_DOUBLE_EQ(parting->at(1).x(), *result.rows[2].first_outside_x);
  // The mark is labelled with its run on the plot, not in the legend.
  ASSERT_NE(partingLabel, nullptr);
  EXPECT_TRUE(partingLabel->pointLabelsVisible());
  EXPECT_EQ(partingLabel->pointLabelsFormat(), QString("#%1").arg(result.rows[2].id));
  ASSERT_EQ(partingLabel->count(), 1);
  // Centred on its mark, or moved right just enough to stay whole inside the plot.
  {
    QChart* plot = panel->deltaChart();
    const double half = QFontMetricsF(partingLabel->pointLabelsFont())
                                .horizontalAdvance(partingLabel->pointLabelsFormat()) /
                            2 +
                        4;
    const double mark = plot->mapToPosition(parting->at(0), parting).x();
    const double centre = plot->mapToPosition(partingLabel->at(0), partingLabel).x();
    EXPECT_NEAR(centre, std::max(mark, plot->plotArea().left() + half), 3.0);  // laid out again
  }
  panel->verdictTable()->selectRow(2);
  EXPECT_TRUE(panel->details()->toPlainText().contains("The curves part at"))
      << panel->details()->toPlainText().toStdString();
  // Round tick values on the Δ plot: every label a multiple of one round step, written as the
  // multiple (the zero tick reads "0", not Qt's accumulated -5.55112e-17).
  auto* deltaY = qobject_cast<QCategoryAxis*>(panel->deltaChart()->axes(Qt::Vertical).front());
  ASSERT_NE(deltaY, nullptr);
  const QStringList ticks = deltaY->categoriesLabels();
  ASSERT_GE(ticks.size(), 2);
  const double tickStep = deltaY->endValue(ticks[1]) - deltaY->endValue(ticks[0]);
  const double mantissa = tickStep / std::pow(10.0, std::floor(std::log10(tickStep)));
  EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
              std::abs(mantissa - 5) < 1e-9)
      << tickStep;
  EXPECT_DOUBLE_EQ(deltaY->endValue(ticks.front()), deltaY->min());
  EXPECT_DOUBLE_EQ(deltaY->endValue(ticks.back()), deltaY->max());
  for (const QString& tick : ticks) {
    const double value = deltaY->endValue(tick);
    EXPECT_NEAR(std::remainder(value, tickStep), 0.0, 1e-9 * tickStep) << value;
    EXPECT_NEAR(tick.toDouble(), value, 1e-9 * tickStep) << tick.toStdString();
    EXPECT_FALSE(tick.contains('e')) << tick.toStdString();
  }
  ASSERT_LT(deltaY->min(), 0.0) << "the seeds' band lies on both sides of 0";
  EXPECT_TRUE(ticks.contains("0")) << ticks.join(' ').toStdString();
  ASSERT_EQ(deltas.size(), 3u) << "one Δ line for each of same, higher lr and ref seed 2";
  ASSERT_FALSE(deltas["#" + QString::number(b) + " same"].isEmpty());
  for (const QPointF& p : deltas["#" + QString::number(b) + " same"])
    EXPECT_NEAR(p.y(), 0.0, 1e-12) << "at x " << p.x();
  double highest = 0;
  for (const QPointF& p : deltas["#" + QString::number(c) + " higher lr"]) {
    EXPECT_GT(p.y(), 0) << "1.3 times the reference's loss lies above it, at x " << p.x();
    highest = std::max(highest, p.y());
  }
  EXPECT_NEAR(highest, 0.3 * maxLoss, 0.02 * maxLoss);

  // The allowed gap of the reference's seed group, around 0: the seeds' spread at each point.
  QAreaSeries* allowed = nullptr;
  for (QAbstractSeries* s : panel->deltaChart()->series())
    if (auto* area = qobject_cast<QAreaSeries*>(s)) allowed = area;
  ASSERT_NE(allowed, nullptr) << "the verdict's band is drawn in the Δ plot";
  EXPECT_TRUE(allowed->name().startsWith("allowed gap: spread of seeds #"))
      << allowed->name().toStdString();
  const QList<QPointF> top = allowed->upperSeries()->points();
  ASSERT_FALSE(top.isEmpty());
  for (int i = 0; i < top.size(); ++i) {
    EXPECT_GE(top[i].y(), 0) << i;
    EXPECT_DOUBLE_EQ(allowed->lowerSeries()->points()[i].y(), -top[i].y()) << i;
  }
  // Names stay whole in the legend under the plot (Qt's own legend cut them).
  EXPECT_FALSE(panel->deltaChart()->legend()->isVisible());
  const QString legend = panel->deltaLegend()->text();
  for (const char* name : {"same", "higher&nbsp;lr", "ref,&nbsp;seed&nbsp;2", "allowed&nbsp;gap"})
    EXPECT_TRUE(legend.contains(name)) << name << " in " << legend.toStdString();
  EXPECT_EQ(legend.count("parts&nbsp;at"), 1) << legend.toStdString();
  // Each line is named with its run's number; the parting marks are not listed one by one.
  EXPECT_TRUE(legend.contains("#" + QString::number(result.rows[2].id) + "&nbsp;higher&nbsp;lr"))
      << legend.toStdString();
  EXPECT_FALSE(legend.contains("#" + QString::number(result.rows[2].id) + "&nbsp;parts"))
      << legend.toStdString();

  // The seed groups: one band from the lower to the upper of the two seeds, their mean inside.
  panel->plotKindBox()->setCurrentIndex(1);
  QAreaSeries* band = nullptr;
  QLineSeries* mean = nullptr;
  for (QAbstractSeries* s : panel->deltaChart()->series()) {
    if (auto* area = qobject_cast<QAreaSeries*>(s)) band = area;
    if (auto* line = qobject_cast<QLineSeries*>(s)) mean = line;
  }
  ASSERT_NE(band, nullptr);
  ASSERT_NE(mean, nullptr);
  EXPECT_TRUE(band->name().contains("2 seeds")) << band->name().toStdString();
  const QList<QPointF> upper = band->upperSeries()->points();
  const QList<QPointF> lower = band->lowerSeries()->points();
  const QList<QPointF> middle = mean->points();
  ASSERT_EQ(upper.size(), lower.size());
  ASSERT_EQ(upper.size(), middle.size());
  ASSERT_GT(upper.size(), 10);
  double widest = 0;
  for (int i = 0; i < upper.size(); ++i) {
    EXPECT_LE(lower[i].y(), middle[i].y()) << i;
    EXPECT_LE(middle[i].y(), upper[i].y()) << i;
    widest = std::max(widest, upper[i].y() - lower[i].y());
  }
  // Seed 2's curve is 1.01 times the reference's: the band is about 1 % of the loss wide.
  EXPECT_NEAR(widest, 0.01 * maxLoss, 0.002 * maxLoss);
}

}  // namespace
}  // namespace parity::ui
