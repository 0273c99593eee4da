// The window, round four (#38, "Wrong or blocked"), on the paths a user meets: a double-click on
// Launch or Prove trains once; Prove on a proved run asks first; Prove on a run of another
// experiment is refused before anything trains; a deleted run leaves the Compare table; the
// Compare status says the comparison on screen only; and New setup from run #N shows in the
// Experiment form what it changed for every setup.
// The Prove test trains through parity-cli (skipped when it is absent).
#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/storage/database.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/widgets/elided_label.h>
#include <parity/ui/window/error_advice.h>
#include <parity/ui/window/main_window.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "test_util.h"

namespace parity::ui {
namespace {

qint64 runLabelled(MainWindow& window, const std::string& label) {
  for (const auto& r : window.runsModel()->runs())
    if (r.label == label) return r.id;
  return 0;
}

TEST(RoundFour, ANewSetupFromARunOfAnotherExperimentShowsWhatItChangedInTheForm) {
  QTemporaryDir dir;
  const QString path = dir.filePath("runs.db");
  config::RunConfig trained = test::smallRegression("deep 2x16", 2, 16);
  trained.model = config::ModelKind::kMlp;
  trained.hidden = {64, 32};
  int64_t runId = 0;
  {
    storage::Database db(path.toStdString());
    runId = test::addFinishedRun(db, "deep 2x16", 20, 32, config::to_json(trained));
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  ExperimentForm* form = window.setupsPanel()->experimentForm();
  const auto before = window.setupsModel()->experiment().hidden;
  ASSERT_NE(before, (std::vector<int64_t>{64, 32}));
  EXPECT_TRUE(form->changeNote().isEmpty());
  const int setupsBefore = window.setupsModel()->rowCount();

  QTableView* view = window.runsPanel()->view();
  view->selectionModel()->select(view->model()->index(window.runsModel()->rowOf(runId), 0),
                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  window.runsPanel()->newSetupAction()->trigger();
  ASSERT_EQ(window.setupsModel()->rowCount(), setupsBefore + 1);
  // The form shows the run's layers, not the old ones under a model that trains others ...
  EXPECT_EQ(form->config(window.setupsModel()->experiment()).hidden,
            (std::vector<int64_t>{64, 32}));
  for (int row = 0; row < window.setupsModel()->rowCount(); ++row)
    EXPECT_EQ(window.setupsModel()->config(row).hidden, (std::vector<int64_t>{64, 32}));
  // ... and says, in the form, what changed and that the other setups train it too.
  const QString note = form->changeNote();
  EXPECT_TRUE(note.contains("hidden") && note.contains("64,32") &&
              note.contains(QString("The %1 other setups train").arg(setupsBefore)))
      << note.toStdString();
  // The user's next edit is theirs: the note goes.
  emit form->edited();
  EXPECT_TRUE(form->changeNote().isEmpty());
}

TEST(RoundFour, ARunStoppedBeforeItsFirstStepIsNeitherInTheLegendNorCountedAsDrawn) {
  QTemporaryDir dir;
  const QString path = dir.filePath("runs.db");
  const config::RunConfig setup = test::smallRegression("1x16", 1, 16);
  int64_t stopped = 0;
  {
    storage::Database db(path.toStdString());
    test::addFinishedRun(db, "trained", 20, 16, config::to_json(setup));
    stopped = db.create_run("never started", config::to_json(setup));
    db.set_status(stopped, storage::RunStatus::kStopped, "stopped before it started");
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  ASSERT_TRUE(window.runsModel()->shownRuns().contains(stopped));
  const auto* status = window.chartPanel()->findChild<QLabel*>("chartStatus");
  ASSERT_TRUE(status);
  ASSERT_TRUE(test::waitFor([&] { return status->text().startsWith("1 run(s) drawn"); }))
      << status->text().toStdString();
  EXPECT_FALSE(status->text().contains("running")) << status->text().toStdString();
  for (const auto& entry : window.chartPanel()->lossChart()->legendEntries())
    EXPECT_NE(entry.runId, stopped) << "a run with no steps has a legend entry";
}

// Answers the next "Prove again" question with No, saying whether it came.
class ProveAgainAnswer {
 public:
  ProveAgainAnswer() {
    QTimer::singleShot(50, [this] { answer(); });
  }
  bool asked = false;
  QString text;

 private:
  void answer() {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box || box->objectName() != "proveAgainBox") {
      if (++tries_ < 100) QTimer::singleShot(50, [this] { answer(); });
      return;
    }
    asked = true;
    text = box->text();
    box->button(QMessageBox::No)->click();
  }
  int tries_ = 0;
};

TEST(Prove, RepeatsTrainOnceAnotherExperimentIsRefusedAndTheStatusSaysTheComparisonOnly) {
  if (RunLauncher::findCli().isEmpty()) GTEST_SKIP() << "parity-cli is not built yet";
  QTemporaryDir dir;
  MainWindow window({false, true});
  window.resize(1400, 900);
  window.show();
  window.openDatabase(dir.filePath("round4.db"));
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }, 60000));
  const config::RunConfig one = test::smallRegression("1x16", 1, 16, 256, 2);
  window.setupsModel()->reset(one, {one, test::smallRegression("2x16 unscaled", 2, 16, 256, 2)});
  // A double-click on Launch: two clicks, one launch.
  QPushButton* launch = window.setupsPanel()->launchButton();
  ASSERT_TRUE(launch->isEnabled());
  launch->click();
  launch->click();
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(true); }, 180000));
  QTest::qWait(300);
  ASSERT_EQ(window.runsModel()->rowCount(), 2) << "a double-click on Launch trained twice";
  // A run of another model (an MLP), launched apart: the Experiment is shared by the setups.
  config::RunConfig mlp = test::smallRegression("mlp 2x16", 2, 16, 256, 2);
  mlp.model = config::ModelKind::kMlp;
  mlp.hidden = {8};
  window.launcher()->launch({mlp});
  ASSERT_TRUE(test::waitFor([&] { return window.runsModel()->rowCount() == 3; }, 30000));
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(true); }, 180000));
  const qint64 reference = runLabelled(window, "1x16");
  const qint64 run = runLabelled(window, "2x16 unscaled");
  const qint64 other = runLabelled(window, "mlp 2x16");
  for (qint64 id : {reference, run, other}) window.runsModel()->setShown(id, true);

  ComparePanel* panel = window.comparePanel();
  window.findChild<QDockWidget*>("compareDock")->raise();
  ASSERT_TRUE(test::waitFor([&] { return panel->referenceId() == reference; }));
  int compared = 0;
  QObject::connect(panel, &ComparePanel::compared, [&] { ++compared; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return compared > 0; }));
  QTableView* view = panel->verdictTable();
  ASSERT_EQ(view->model()->rowCount(), 3);
  const auto status = [&] { return panel->findChild<ElidedLabel*>("compareStatus")->text(); };

  // Prove on the run of another experiment: refused before anything is queued, saying why.
  view->selectRow(panel->verdictModel()->rowOf(other));
  ASSERT_TRUE(panel->proveButton()->isEnabled()) << status().toStdString();
  panel->proveButton()->click();
  EXPECT_TRUE(status().contains("Not proved") && status().contains("another experiment"))
      << status().toStdString();
  QTest::qWait(500);
  EXPECT_EQ(window.runsModel()->rowCount(), 3) << "Prove on another experiment queued runs";

  // Prove asked twice at once (a double-click reaching the launcher) queues once.
  int queued = 0;
  int created = 0;
  QObject::connect(window.launcher(), &RunLauncher::proofQueued, [&](const QueuedProof& q) {
    ++queued;
    created += q.created.size();
  });
  view->selectRow(panel->verdictModel()->rowOf(run));
  emit panel->proveRequested(reference, run);
  emit panel->proveRequested(reference, run);
  ASSERT_TRUE(test::waitFor([&] { return queued > 0; }, 30000));
  ASSERT_TRUE(test::waitFor(
      [&] {
        if (!window.isSettled(true) || !panel->proofs().count(run)) return false;
        for (const auto& p : panel->proofs().at(run))
          if (storage::is_active(p.status)) return false;
        return true;
      },
      400000));
  EXPECT_EQ(queued, 1);
  EXPECT_EQ(window.runsModel()->rowCount(), 3 + created);
  EXPECT_EQ(status().count("Proved #"), 1) << status().toStdString();
  EXPECT_FALSE(status().contains("Proving")) << status().toStdString();

  // Prove on the proved run asks first; No queues nothing.
  setQuietDialogs(false);
  {
    ProveAgainAnswer answer;
    view->selectRow(panel->verdictModel()->rowOf(run));
    ASSERT_TRUE(panel->proveButton()->isEnabled());
    panel->proveButton()->click();
    EXPECT_TRUE(answer.asked) << "Prove on a proved run did not ask";
    EXPECT_TRUE(answer.text.contains(QString("#%1 was proved already").arg(run)))
        << answer.text.toStdString();
  }
  setQuietDialogs(true);
  QTest::qWait(500);
  EXPECT_EQ(queued, 1);
  EXPECT_EQ(window.runsModel()->rowCount(), 3 + created);

  // A deleted run leaves the Compare table (compared again without it).
  const int before = compared;
  const int rowsBefore = view->model()->rowCount();  // the counterfactuals are drawn too
  emit window.runsPanel()->deleteRequested({other});
  ASSERT_TRUE(test::waitFor([&] { return compared > before; }, 30000));
  EXPECT_LT(panel->verdictModel()->rowOf(other), 0) << "the deleted run is still compared";
  EXPECT_EQ(view->model()->rowCount(), rowsBefore - 1);

  // Compared without the proved run, the status says nothing of its Prove.
  window.runsModel()->setShown(run, false);
  const int again = compared;
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return compared > again; }, 30000));
  EXPECT_LT(panel->verdictModel()->rowOf(run), 0);
  EXPECT_FALSE(status().contains("Prov")) << status().toStdString();
}

}  // namespace
}  // namespace parity::ui
