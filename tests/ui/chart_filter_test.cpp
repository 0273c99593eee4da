// The chart follows the Runs filter, Runs > Compare selected compares the selected runs, and runs
// of other experiments on one chart are said (#38 item 10): a 1000-epoch CSV run flattened the
// Fashion-MNIST curves, and the filter filtered only the table.
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/window/main_window.h>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "test_util.h"

namespace parity::ui {
namespace {

class ChartFilterWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    config::RunConfig images = test::smallRegression("fm", 1, 64);
    images.dataset = config::DatasetKind::kFashionMnist;
    images.task = config::Task::kClassification;
    images.model = config::ModelKind::kMlp;
    config::RunConfig table = test::smallRegression("csv", 1, 64);
    table.dataset = config::DatasetKind::kCsv;
    table.data_path = "/data/prices.csv";
    fm1 = test::addFinishedRun(db, "fm 1x64", 40, 64, config::to_json(images));
    fm2 = test::addFinishedRun(db, "fm 2x32", 40, 64, config::to_json(images));
    csv = test::addFinishedRun(db, "prices 1000 epochs", 4000, 8, config::to_json(table), 50.0);
    fm3 = test::addFinishedRun(db, "fm 1x128", 20, 128, config::to_json(images));
  }
  QLabel* status(MainWindow& w) { return w.chartPanel()->findChild<QLabel*>("chartStatus"); }
  std::string statusText(MainWindow& w) { return status(w)->text().toStdString(); }

  QTemporaryDir dir;
  QString path;
  int64_t fm1 = 0, fm2 = 0, csv = 0, fm3 = 0;
};

TEST_F(ChartFilterWindow, TheChartDrawsWhatTheFilterLetsThroughAndSaysExperimentsAreMixed) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  LossChart* chart = window.chartPanel()->lossChart();
  ASSERT_EQ(chart->drawnPointCounts().size(), 4u);
  EXPECT_NE(status(window)->text().indexOf("2 experiments"), -1) << statusText(window);
  EXPECT_TRUE(status(window)->toolTip().contains("prices 1000 epochs"));

  auto* filter = window.runsPanel()->findChild<QLineEdit*>();
  ASSERT_NE(filter, nullptr);
  QTest::keyClicks(filter, "fm ");
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  EXPECT_EQ(chart->drawnPointCounts().size(), 3u) << "the CSV run is still drawn";
  EXPECT_TRUE(status(window)->text().startsWith("3 run(s) drawn, 1 filtered out"))
      << statusText(window);
  EXPECT_EQ(status(window)->text().indexOf("experiments"), -1) << statusText(window);
  // Compare compares what is drawn: the CSV run is neither a reference nor compared.
  EXPECT_EQ(window.comparePanel()->comparedRuns(), (QList<qint64>{fm1, fm2, fm3}));

  filter->clear();
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  EXPECT_EQ(chart->drawnPointCounts().size(), 4u);
  EXPECT_TRUE(status(window)->text().startsWith("4 run(s) drawn")) << statusText(window);
}

TEST_F(ChartFilterWindow, CompareSelectedComparesTheSelectedRunsAndDrawsThem) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  window.runsModel()->setShown(fm3, false);  // a selected run the user had not drawn
  QAction* compareSelected = window.runsPanel()->compareAction();
  EXPECT_FALSE(compareSelected->isEnabled()) << "nothing is selected";

  // The user selects runs 2 and 4 (Ctrl+click) and chooses Runs > Compare selected.
  QTableView* view = window.runsPanel()->view();
  view->selectionModel()->clearSelection();
  for (int64_t id : {fm2, fm3}) {
    const int row = window.runsModel()->rowOf(id);
    const QModelIndex at = window.runsPanel()->proxy()->mapFromSource(
        window.runsModel()->index(row, RunsModel::kLabel));
    view->selectionModel()->select(at, QItemSelectionModel::Select | QItemSelectionModel::Rows);
  }
  ASSERT_TRUE(compareSelected->isEnabled());
  compareSelected->trigger();
  ComparePanel* compare = window.comparePanel();
  ASSERT_TRUE(test::waitFor([&] { return compare->comparison().rows.size() == 2; }))
      << compare->comparison().rows.size() << " rows";
  EXPECT_EQ(compare->referenceId(), fm2) << "the first selected";
  EXPECT_EQ(compare->comparison().rows[1].id, fm3);
  EXPECT_TRUE(window.runsModel()->isShown(fm3)) << "a compared run is drawn";
  // Compare (the button) compares the drawn runs again.
  for (QPushButton* b : compare->findChildren<QPushButton*>())
    if (b->text() == "Compare") b->click();
  ASSERT_TRUE(test::waitFor([&] { return compare->comparison().rows.size() == 4; }))
      << compare->comparison().rows.size() << " rows";
}

}  // namespace
}  // namespace parity::ui
