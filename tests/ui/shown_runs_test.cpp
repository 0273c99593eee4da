// Which runs the chart draws, kept with the database (#24 item 8): a reopened database draws the
// runs the user chose and the newest of the rest, and the chart's status says how many are not
// drawn, naming them in its tooltip, instead of unchecking older runs without notice.
#include <gtest/gtest.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QLabel>
#include <QSignalSpy>
#include <map>

#include "test_util.h"

namespace parity::ui {
namespace {

storage::RunRow row(int64_t id) {
  storage::RunRow r;
  r.id = id;
  r.label = "run " + std::to_string(id);
  r.status = storage::RunStatus::kFinished;
  return r;
}

TEST(ShownRuns, TheFirstListingFollowsTheKeptChoicesThenTheNewestRuns) {
  RunsModel model;
  model.setInitialShown(2);
  model.setShownChoices({{1, true}, {4, false}});
  model.setRuns({row(1), row(2), row(3), row(4)});
  EXPECT_EQ(model.shownRuns(), (QList<qint64>{1, 3}));  // 4 hidden by choice, 2 too old
  EXPECT_EQ(model.hiddenRuns(), (QList<qint64>{2, 4}));

  QSignalSpy chosen(&model, &RunsModel::shownChosen);
  model.setShown(QList<qint64>{2, 3, 99}, true);  // 99 is no run: not chosen
  ASSERT_EQ(chosen.count(), 1);
  EXPECT_EQ(chosen[0][0].value<QList<qint64>>(), (QList<qint64>{2, 3}));
  EXPECT_TRUE(chosen[0][1].toBool());
  model.setData(model.index(model.rowOf(1), RunsModel::kLabel), Qt::Unchecked, Qt::CheckStateRole);
  ASSERT_EQ(chosen.count(), 2);
  EXPECT_EQ(chosen[1][0].value<QList<qint64>>(), (QList<qint64>{1}));
  EXPECT_FALSE(chosen[1][1].toBool());
  // Runs that appear later are drawn, and are nobody's choice.
  model.updateRuns({row(5)}, {});
  EXPECT_TRUE(model.isShown(5));
  EXPECT_EQ(chosen.count(), 2);
}

class ShownRunsWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    for (int i = 1; i <= 10; ++i)
      ids.push_back(test::addFinishedRun(db, "r" + std::to_string(i), 20));
  }
  QLabel* status(MainWindow& w) { return w.chartPanel()->findChild<QLabel*>("chartStatus"); }
  std::map<int64_t, bool> kept() {
    return storage::Database(path.toStdString(), storage::OpenMode::kReadOnly).shown_choices();
  }

  QTemporaryDir dir;
  QString path;
  std::vector<int64_t> ids;
};

TEST_F(ShownRunsWindow, AReopenedDatabaseDrawsWhatTheUserLeftAndSaysWhatIsHidden) {
  {
    MainWindow window({false, true});
    window.show();
    window.openDatabase(path);
    ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
    EXPECT_EQ(window.runsModel()->shownRuns().size(), 8);
    EXPECT_TRUE(status(window)->text().startsWith("8 run(s) drawn, 2 hidden"))
        << status(window)->text().toStdString();
    const QString tip = status(window)->toolTip();
    EXPECT_TRUE(tip.contains("#1 r1") && tip.contains("#2 r2")) << tip.toStdString();
    // The user draws the oldest run (the reference, say) and hides the newest.
    window.runsModel()->setShown(ids[0], true);
    window.runsModel()->setShown(ids[9], false);
    ASSERT_TRUE(test::waitFor([&] { return kept().size() == 2; }));
    EXPECT_EQ(kept(), (std::map<int64_t, bool>{{ids[0], true}, {ids[9], false}}));
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  RunsModel* runs = window.runsModel();
  EXPECT_TRUE(runs->isShown(ids[0]));
  EXPECT_FALSE(runs->isShown(ids[9]));
  EXPECT_EQ(runs->hiddenRuns(), (QList<qint64>{ids[1], ids[9]}));
  EXPECT_TRUE(status(window)->text().startsWith("8 run(s) drawn, 2 hidden"))
      << status(window)->text().toStdString();
  EXPECT_TRUE(status(window)->toolTip().contains("#10 r10"));
  EXPECT_EQ(window.chartPanel()->lossChart()->drawnPointCounts().size(), 8u);
}

}  // namespace
}  // namespace parity::ui
