#include <gtest/gtest.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>

#include <QAbstractItemModelTester>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "test_util.h"

namespace parity::ui {
namespace {

storage::RunRow row(int64_t id, const std::string& label, const std::string& status,
                    int64_t done = 0, int64_t total = 100) {
  storage::RunRow r;
  r.id = id;
  r.label = label;
  r.status = storage::parse_run_status(status).value();
  r.config_json = R"({"num_processes": 2, "per_device_batch_size": 32})";
  r.steps_done = done;
  r.total_steps = total;
  return r;
}

class RunsModelTest : public ::testing::Test {
 protected:
  RunsModel model;
  QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};
};

TEST_F(RunsModelTest, UpdatesRowsInPlaceAndRemovesGoneRuns) {
  model.setRuns({row(1, "a", "running", 10), row(2, "b", "queued")});
  ASSERT_EQ(model.rowCount(), 2);
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
  QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setRuns({row(2, "b", "running", 5), row(3, "c", "queued")});
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(inserted.count(), 1);
  EXPECT_EQ(removed.count(), 1);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(model.rowOf(2), 0);
  EXPECT_EQ(model.rowOf(3), 1);
  EXPECT_EQ(model.index(0, RunsModel::kStatus).data().toString(), "running");
}

TEST_F(RunsModelTest, UnchangedPollEmitsNothing) {
  model.setRuns({row(1, "a", "running", 10)});
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setRuns({row(1, "a", "running", 10)});
  EXPECT_EQ(changed.count(), 0);
}

// A poll's changes alone (RunsPoller): rows not named stay as they are.
TEST_F(RunsModelTest, AppliesAPollsChangesLeavingTheOtherRowsAlone) {
  model.setRuns({row(1, "a", "finished"), row(2, "b", "running", 5), row(3, "c", "finished")});
  model.setShown(1, true);
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
  QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  QSignalSpy ended(&model, &RunsModel::runEnded);
  model.updateRuns({row(2, "b", "finished", 100), row(4, "d", "queued")}, {1});
  EXPECT_EQ(removed.count(), 1);
  EXPECT_EQ(inserted.count(), 1);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(ended.count(), 1);
  EXPECT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.rowOf(1), -1);
  EXPECT_FALSE(model.isShown(1));
  EXPECT_EQ(model.runById(3)->label, "c") << "a row the poll did not name";
  EXPECT_EQ(model.runById(2)->steps_done, 100);
  EXPECT_TRUE(model.isShown(4)) << "new runs are drawn";
  model.updateRuns({}, {});
  EXPECT_EQ(changed.count(), 1);
}

TEST_F(RunsModelTest, NewRunsAfterTheFirstListingAreShown) {
  model.setInitialShown(1);
  model.setRuns({row(1, "a", "finished"), row(2, "b", "finished")});
  EXPECT_EQ(model.shownRuns(), QList<qint64>({2}));
  QSignalSpy shown(&model, &RunsModel::shownRunsChanged);
  model.setRuns({row(1, "a", "finished"), row(2, "b", "finished"), row(3, "c", "queued")});
  EXPECT_EQ(shown.count(), 1);
  EXPECT_EQ(model.shownRuns(), QList<qint64>({2, 3}));
  model.setData(model.index(0, RunsModel::kLabel), Qt::Checked, Qt::CheckStateRole);
  EXPECT_TRUE(model.isShown(1));
}

TEST_F(RunsModelTest, ReportsRunsThatEnded) {
  model.setRuns({row(1, "a", "running", 10)});
  QSignalSpy ended(&model, &RunsModel::runEnded);
  auto failed = row(1, "a", "failed", 10);
  failed.error = "rank 1 exited with code 1";
  model.setRuns({failed});
  ASSERT_EQ(ended.count(), 1);
  EXPECT_EQ(ended.at(0).at(1).value<storage::RunStatus>(), storage::RunStatus::kFailed);
  EXPECT_EQ(model.index(0, RunsModel::kStatus).data(Qt::ToolTipRole).toString(),
            "rank 1 exited with code 1");
}

TEST_F(RunsModelTest, ProgressEtaAndLiveThroughput) {
  auto r = row(1, "a", "running", 25, 100);
  r.started_at = 1000;
  model.setClock([] { return 1010.0; });  // 25 steps in 10 s: 30 s left
  model.setRuns({r});
  EXPECT_DOUBLE_EQ(model.index(0, RunsModel::kProgress).data(RunsModel::kProgressRole).toDouble(),
                   0.25);
  EXPECT_EQ(model.index(0, RunsModel::kProgress).data().toString(), "25 / 100  ETA 0:30");
  // 25 steps of global batch 64 (2 x 32) in 10 s.
  EXPECT_EQ(model.index(0, RunsModel::kSpeed).data().toString(), "160");
  EXPECT_EQ(model.index(0, RunsModel::kSetup).data().toString(), "2×32 = 64 seed 42");
}

TEST_F(RunsModelTest, RenameAndNotesAreAskedFor) {
  model.setRuns({row(7, "a", "finished")});
  QSignalSpy renamed(&model, &RunsModel::renameRequested);
  QSignalSpy notes(&model, &RunsModel::notesEdited);
  EXPECT_TRUE(model.setData(model.index(0, RunsModel::kLabel), "baseline"));
  EXPECT_TRUE(model.setData(model.index(0, RunsModel::kNotes), "lr too high?"));
  EXPECT_FALSE(model.setData(model.index(0, RunsModel::kLabel), "  "));
  ASSERT_EQ(renamed.count(), 1);
  EXPECT_EQ(renamed.at(0).at(0).toLongLong(), 7);
  EXPECT_EQ(renamed.at(0).at(1).toString(), "baseline");
  EXPECT_EQ(notes.count(), 1);
}

TEST_F(RunsModelTest, SortsByValueAndFiltersThroughAProxy) {
  auto a = row(1, "slow", "finished");
  a.samples_per_s = 900;
  a.final_loss = 0.5;
  auto b = row(2, "fast", "finished");
  b.samples_per_s = 12000;
  b.final_loss = 0.25;
  model.setRuns({a, b});
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(RunsModel::kSortRole);
  QAbstractItemModelTester proxyTester(&proxy);
  proxy.sort(RunsModel::kSpeed, Qt::DescendingOrder);
  EXPECT_EQ(proxy.index(0, RunsModel::kLabel).data().toString(), "fast");
  proxy.sort(RunsModel::kFinalLoss, Qt::AscendingOrder);
  EXPECT_EQ(proxy.index(0, RunsModel::kLabel).data().toString(), "fast");
  proxy.setFilterKeyColumn(-1);
  proxy.setFilterFixedString("slow");
  EXPECT_EQ(proxy.rowCount(), 1);
}

TEST(RunsModelFormat, Durations) {
  EXPECT_EQ(RunsModel::formatDuration(5), "0:05");
  EXPECT_EQ(RunsModel::formatDuration(65), "1:05");
  EXPECT_EQ(RunsModel::formatDuration(3725), "1:02:05");
  EXPECT_EQ(RunsModel::formatDuration(-1), "");
}

// Runs that ran at the same time shared the cores: their samples/s says so.
TEST_F(RunsModelTest, SamplesPerSecondOfRunsThatSharedTheCoresIsMarked) {
  auto timed = [](int64_t id, double start, double end) {
    storage::RunRow r = row(id, "r", "finished", 100, 100);
    r.started_at = start;
    r.finished_at = end;
    r.samples_per_s = 16000;
    return r;
  };
  model.setRuns({timed(1, 1000, 1100), timed(2, 1050, 1200), timed(3, 1300, 1400)});
  auto speed = [&](int row) { return model.index(row, RunsModel::kSpeed).data().toString(); };
  auto tip = [&](int row) {
    return model.index(row, RunsModel::kSpeed).data(Qt::ToolTipRole).toString();
  };
  EXPECT_EQ(speed(0), "16000 *");
  EXPECT_EQ(speed(1), "16000 *");
  EXPECT_EQ(speed(2), "16000");
  EXPECT_TRUE(tip(0).contains("as 1 other run:")) << tip(0).toStdString();
  EXPECT_TRUE(tip(0).contains("shared the cores"));
  EXPECT_FALSE(tip(2).contains("shared"));
}

// A run that appears is scrolled into view, wherever the table's sort puts it.
TEST(RunsPanel, ANewRunIsScrolledIntoView) {
  RunsModel model;
  RunsPanel panel(&model);
  panel.resize(700, 180);  // a few rows high
  panel.show();
  std::vector<storage::RunRow> rows;
  for (int64_t id = 1; id <= 60; ++id) rows.push_back(row(id, "run", "finished"));
  model.setRuns(rows);
  auto* view = panel.findChild<QTableView*>("runsView");
  ASSERT_NE(view, nullptr);
  view->scrollToTop();
  QCoreApplication::processEvents();
  rows.push_back(row(61, "new", "queued"));
  model.setRuns(rows);
  QCoreApplication::processEvents();
  const QModelIndex added = panel.proxy()->mapFromSource(model.index(model.rowOf(61), 1));
  ASSERT_TRUE(added.isValid());
  EXPECT_TRUE(test::waitFor(
      [&] { return view->viewport()->rect().contains(view->visualRect(added)); }, 2000))
      << "the new run is below the fold: row " << added.row() << " rect y "
      << view->visualRect(added).y() << " h " << view->visualRect(added).height() << " viewport "
      << view->viewport()->height() << " scroll " << view->verticalScrollBar()->value() << "/"
      << view->verticalScrollBar()->maximum();
}

}  // namespace
}  // namespace parity::ui
