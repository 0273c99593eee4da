// The whole window against a real database file (offscreen), with runs written the way
// parity-cli writes them. No process is launched here; gui_launch_test does that.
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <cmath>

#include "test_util.h"

namespace parity::ui {
namespace {

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    first = test::addFinishedRun(db, "1x64", 300, 64);
    second = test::addFinishedRun(db, "2x32", 300, 64);
  }

  QTemporaryDir dir;
  QString path;
  int64_t first = 0, second = 0;
};

TEST_F(MainWindowTest, ListsRunsAndDrawsTheirCurves) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  EXPECT_EQ(window.runsModel()->rowCount(), 2);
  const auto counts = window.chartPanel()->lossChart()->drawnPointCounts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts[0], 10);
  EXPECT_GT(counts[1], 10);
}

TEST_F(MainWindowTest, RunsWrittenLaterAppearAndGrow) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  // Another process (parity-cli started from a shell) adds a run and writes steps.
  storage::Database db(path.toStdString());
  const int64_t id = db.create_run("from the CLI", "{}", storage::RunStatus::kQueued);
  db.set_started(id, 100);
  auto rows = test::syntheticSteps(id, 100, 32);
  db.append_steps({rows.begin(), rows.begin() + 40});
  ASSERT_TRUE(test::waitFor([&] {
    const auto* r = window.runsModel()->runById(id);
    return r && r->steps_done == 40 && window.isSettled(false);
  }));
  EXPECT_EQ(window.chartPanel()->lossChart()->store().lastStep(id, -1), 40);
  db.append_steps({rows.begin() + 40, rows.end()});
  ASSERT_TRUE(test::waitFor([&] {
    return window.chartPanel()->lossChart()->store().lastStep(id, -1) == 100 &&
           window.isSettled(false);
  }));
}

// #24 item 12: once a finished run was missing from the chart until a legend click. Runs that
// start, write their steps and end back to back, faster than the window polls (8 runs, 3 rounds,
// each run's end landing in the middle of another's steps), must all be drawn whole once the
// window has settled, with no click.
TEST_F(MainWindowTest, RunsEndingInQuickSuccessionAreAllDrawnWhole) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  storage::Database db(path.toStdString());
  std::vector<int64_t> ids;
  for (int round = 0; round < 3; ++round) {
    std::vector<int64_t> batch;
    for (int i = 0; i < 8; ++i) {
      const int64_t id = db.create_run("quick " + std::to_string(round) + "." + std::to_string(i),
                                       "{}", storage::RunStatus::kQueued);
      db.set_started(id, 60);
      batch.push_back(id);
    }
    for (int part = 0; part < 3; ++part) {
      for (int64_t id : batch) {
        const auto rows = test::syntheticSteps(id, 60, 32);
        db.append_steps({rows.begin() + part * 20, rows.begin() + (part + 1) * 20});
        if (part == 2) db.finish_run(id, storage::RunStatus::kFinished, "", 100.0);
        QCoreApplication::processEvents();  // the window polls in between, as it would
      }
    }
    ids.insert(ids.end(), batch.begin(), batch.end());
  }
  LossChart* chart = window.chartPanel()->lossChart();
  ASSERT_TRUE(test::waitFor(
      [&] {
        if (!window.isSettled(false)) return false;
        for (int64_t id : ids)
          if (chart->store().lastStep(id, -1) != 60) return false;
        return true;
      },
      30000));
  chart->redrawNow();
  const auto counts = chart->drawnPointCounts();
  int drawn = 0;
  for (int n : counts) drawn += n > 0 ? 1 : 0;
  // The newest runs are shown as they appear; each shown one is drawn, none empty.
  EXPECT_EQ(drawn, static_cast<int>(window.runsModel()->shownRuns().size()));
  EXPECT_GE(drawn, 24);
}

// Runs that fail are shown in the Runs table and counted in the status bar, without one dialog
// per run (four failures used to stack four message boxes).
TEST_F(MainWindowTest, FailedRunsAreCountedInTheStatusBarWithoutADialogEach) {
  MainWindow window({false, false});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  storage::Database db(path.toStdString());
  std::vector<int64_t> ids;
  for (const char* label : {"4x64", "8x32"}) {
    ids.push_back(db.create_run(label, "{}"));
    db.set_started(ids.back(), 100);
  }
  ASSERT_TRUE(test::waitFor([&] {
    const auto* r = window.runsModel()->runById(ids.back());
    return r && r->status == storage::RunStatus::kRunning;
  }));
  db.set_status(ids[0], storage::RunStatus::kFailed, "rank 1 exited with code 9");
  db.set_status(ids[1], storage::RunStatus::kFailed, "database is locked");
  auto* failed = window.findChild<QLabel*>("failedRuns");
  ASSERT_NE(failed, nullptr);
  ASSERT_TRUE(test::waitFor([&] { return failed->isVisible() && failed->text().contains("2"); }))
      << failed->text().toStdString();
  EXPECT_TRUE(failed->toolTip().contains("#" + QString::number(ids[0]) + " 4x64"))
      << failed->toolTip().toStdString();
  EXPECT_TRUE(failed->toolTip().contains("rank 1 exited with code 9"));
  EXPECT_TRUE(failed->toolTip().contains("database is busy"));
  for (QWidget* w : QApplication::topLevelWidgets()) {
    EXPECT_FALSE(qobject_cast<QMessageBox*>(w) && w->isVisible())
        << "a dialog popped up: " << w->windowTitle().toStdString();
  }
}

// Tab leaves the runs table at once instead of visiting every cell.
TEST_F(MainWindowTest, TabLeavesTheRunsTableInOnePress) {
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  window.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  auto* view = window.findChild<QTableView*>("runsView");
  ASSERT_NE(view, nullptr);
  view->setFocus();
  view->setCurrentIndex(view->model()->index(0, 1));
  ASSERT_TRUE(test::waitFor([&] { return QApplication::focusWidget() == view; }));
  QTest::keyClick(view, Qt::Key_Tab);
  EXPECT_NE(QApplication::focusWidget(), view);
  EXPECT_EQ(view->currentIndex().column(), 1) << "Tab moved to the next cell";
}

// Delete's confirmation names the runs and their steps, and defaults to keeping them.
TEST_F(MainWindowTest, DeleteAsksByNameAndDefaultsToNo) {
  MainWindow window({false, false});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  auto* view = window.findChild<QTableView*>("runsView");
  ASSERT_NE(view, nullptr);
  view->selectRow(0);
  QString text;
  bool defaultIsNo = false;
  QTimer::singleShot(200, [&] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    text = box->text();
    defaultIsNo = box->defaultButton() == box->button(QMessageBox::No);
    QTest::keyClick(box, Qt::Key_Return);  // the default: keep
  });
  window.runsPanel()->deleteAction()->trigger();
  EXPECT_TRUE(text.contains("#" + QString::number(first) + " 1x64")) << text.toStdString();
  EXPECT_TRUE(text.contains("300")) << text.toStdString();
  EXPECT_TRUE(defaultIsNo);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  EXPECT_EQ(window.runsModel()->rowCount(), 2) << "Return deleted the run";
}

// Shrunk to 900x600 the window stays usable: the docks give way (at most 40 % each) and the
// setup form shows several fields, not two.
TEST_F(MainWindowTest, At900x600TheDocksGiveWayAndTheSetupFormShowsSeveralFields) {
  MainWindow window({false, true});
  window.resize(1500, 950);
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  window.resize(900, 600);
  QCoreApplication::processEvents();
  ASSERT_TRUE(test::waitFor([&] { return window.height() == 600; }));
  auto* runsDock = window.findChild<QDockWidget*>("runsDock");
  auto* setupsDock = window.findChild<QDockWidget*>("setupsDock");
  ASSERT_NE(runsDock, nullptr);
  ASSERT_NE(setupsDock, nullptr);
  EXPECT_TRUE(test::waitFor([&] { return runsDock->height() <= 600 * 2 / 5 + 4; }))
      << runsDock->height();
  EXPECT_LE(setupsDock->width(), 900 * 2 / 5 + 4);
  QScrollArea* form = nullptr;
  for (auto* area : window.setupsPanel()->findChildren<QScrollArea*>()) {
    if (area->isVisible()) form = area;
  }
  ASSERT_NE(form, nullptr);
  EXPECT_GE(form->viewport()->height(), 4 * form->fontMetrics().height() * 3 / 2)
      << "the setup form shows fewer than four fields";
  // The chart's controls keep their text: no menu narrower than its content.
  QCoreApplication::processEvents();
  for (auto* combo : window.chartPanel()->findChildren<QComboBox*>()) {
    EXPECT_GE(combo->width(), combo->sizeHint().width())
        << combo->currentText().toStdString() << " squeezed";
  }
}

TEST_F(MainWindowTest, PerRankCurvesAreLoadedWhenAskedFor) {
  {
    storage::Database db(path.toStdString());
    db.append_steps(test::syntheticSteps(first, 300, 64, 0));
    db.append_steps(test::syntheticSteps(first, 300, 64, 1, 0, 1.05));
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  LossChart* chart = window.chartPanel()->lossChart();
  EXPECT_EQ(chart->store().lastStep(first, 0), 0);  // not fetched until asked
  window.chartPanel()->setShowRanks(true);
  ASSERT_TRUE(test::waitFor(
      [&] { return chart->store().lastStep(first, 1) == 300 && window.isSettled(false); }));
  EXPECT_EQ(chart->store().ranks(first), std::vector<int>({-1, 0, 1}));
  EXPECT_EQ(chart->store().lastStep(first, 0), 300);
}

TEST_F(MainWindowTest, RenameGoesToTheDatabase) {
  MainWindow window({false, true});
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.runsModel()->rowCount() == 2; }));
  RunsModel* model = window.runsModel();
  model->setData(model->index(model->rowOf(first), RunsModel::kLabel), "baseline");
  ASSERT_TRUE(test::waitFor([&] {
    storage::Database db(path.toStdString());
    return db.get_run(first)->label == "baseline";
  }));
}

TEST_F(MainWindowTest, ExportsCurvesCsvOffTheUiThread) {
  DatabaseThread database;
  bool opened = false, exported = false;
  QObject::connect(database.worker(), &DatabaseWorker::databaseOpened, &database,
                   [&] { opened = true; });
  QObject::connect(database.worker(), &DatabaseWorker::exportFinished, &database,
                   [&] { exported = true; });
  database.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return opened; }));
  const QString csv = dir.filePath("curves.csv");
  database.post(&DatabaseWorker::exportCurves, csv, QList<qint64>{first}, true);
  ASSERT_TRUE(test::waitFor([&] { return exported; }));
  QFile file(csv);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray header = file.readLine();
  EXPECT_TRUE(header.startsWith("run_id,label,step")) << header.toStdString();
  int lines = 1;
  while (!file.readLine().isEmpty()) ++lines;
  EXPECT_EQ(lines, 301);
}

TEST_F(MainWindowTest, UnwritableDatabaseIsReportedNotFatal) {
  bool failed = false;
  // A path under a regular file cannot be created.
  QFile blocker(dir.filePath("file"));
  ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
  blocker.close();
  DatabaseThread database;
  QObject::connect(database.worker(), &DatabaseWorker::databaseFailed, &database,
                   [&] { failed = true; });
  database.openDatabase(dir.filePath("file/sub/runs.db"));
  EXPECT_TRUE(test::waitFor([&] { return failed; }));
}

}  // namespace
}  // namespace parity::ui
