// Make it equivalent, as the window runs it (offscreen) on a database the test writes: a 2x64
// run with linear lr scaling differs from its 1x64 reference; the button is on for that row
// only, a double click queues one remedy ("cf #RUN all") and adds one setup ("fix #RUN"), and
// once the remedy's run finishes on the reference's curve the Proof column says "equivalent now
// (#N)". The training itself is the test's: PARITY_CLI is /bin/true, so the launcher starts the
// queued row and leaves it queued, and the test writes its steps. An imported run trains
// nothing: the details say what to train elsewhere.
#include <gtest/gtest.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/window/main_window.h>

#include <QDockWidget>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <optional>

#include "test_util.h"

namespace parity::ui {
namespace {

constexpr const char* kReference =
    R"({"seed": 1, "num_processes": 1, "per_device_batch_size": 64})";
constexpr const char* kLinear =
    R"({"seed": 1, "num_processes": 2, "per_device_batch_size": 64, "lr_scaling": "linear"})";

// PARITY_CLI for the test's length: the launcher starts that instead of parity-cli.
class FakeCli {
 public:
  FakeCli() : saved_(qgetenv("PARITY_CLI")), had_(qEnvironmentVariableIsSet("PARITY_CLI")) {
    qputenv("PARITY_CLI", "/bin/true");
  }
  ~FakeCli() {
    if (had_) {
      qputenv("PARITY_CLI", saved_);
    } else {
      qunsetenv("PARITY_CLI");
    }
  }

 private:
  QByteArray saved_;
  bool had_;
};

// A 2x64 run (its curve 1.3 times the reference's, 128 samples a step) beside its reference.
int64_t addLinearRun(storage::Database& db, const char* label) {
  const int64_t id = db.create_run(label, kLinear, storage::RunStatus::kQueued);
  db.set_started(id, 100);
  db.append_steps(test::syntheticSteps(id, 100, 128, -1, 0, 1.3));
  db.finish_run(id, storage::RunStatus::kFinished, "", 1000.0);
  return id;
}

struct Window {
  explicit Window(const QString& path) : window({false, true}) {
    window.resize(1400, 900);
    window.show();
    window.openDatabase(path);
  }
  // Draws every run and compares them with the first.
  bool compared(const QList<qint64>& ids) {
    if (!test::waitFor([&] { return window.isSettled(false); })) return false;
    for (qint64 id : ids) window.runsModel()->setShown(id, true);
    window.findChild<QDockWidget*>("compareDock")->raise();
    ComparePanel* p = panel();
    if (!test::waitFor([&] { return p->isEnabled() && p->referenceId() == ids.front(); }))
      return false;
    int done = 0;
    QObject::connect(p, &ComparePanel::compared, [&] { ++done; });
    p->compare();
    return test::waitFor([&] { return done > 0; });
  }
  ComparePanel* panel() const { return window.comparePanel(); }
  QString cell(qint64 run, int column) const {
    const auto* model = panel()->verdictModel();
    return model->index(model->rowOf(run), column).data().toString();
  }
  void select(qint64 run) const {
    panel()->verdictTable()->selectRow(panel()->verdictModel()->rowOf(run));
  }
  // Whether the remedy of `run` has been read (the button's state follows it).
  bool remedyRead(qint64 run) const { return panel()->remedy(run) != nullptr; }
  MainWindow window;
};

TEST(MakeItEquivalent, OnlyADifferentRowOffersItAndItsRemedyIsJudgedInTheProofColumn) {
  const FakeCli fake;
  QTemporaryDir dir;
  const QString path = dir.filePath("fix.db");
  int64_t reference = 0, same = 0, run = 0;
  {
    storage::Database db(path.toStdString());
    reference = test::addFinishedRun(db, "1x64", 100, 64, kReference);
    same = test::addFinishedRun(db, "1x64 again", 100, 64, kReference);
    run = addLinearRun(db, "2x64 linear");
  }
  Window w(path);
  ASSERT_TRUE(w.compared({reference, same, run}));
  ComparePanel* panel = w.panel();
  QPushButton* fix = panel->fixButton();
  EXPECT_EQ(fix->text(), "Make it equivalent");
  EXPECT_EQ(w.cell(run, VerdictTableModel::kVerdictColumn), "different");

  w.select(reference);
  EXPECT_FALSE(fix->isEnabled()) << "the reference has nothing to fix";
  w.select(same);
  EXPECT_EQ(w.cell(same, VerdictTableModel::kVerdictColumn), "equivalent");
  EXPECT_FALSE(fix->isEnabled()) << "an equivalent run has nothing to fix";
  EXPECT_TRUE(fix->toolTip().contains("Select a different run")) << fix->toolTip().toStdString();
  w.select(run);
  ASSERT_TRUE(test::waitFor([&] { return w.remedyRead(run); }));
  ASSERT_TRUE(fix->isEnabled()) << fix->toolTip().toStdString();
  EXPECT_TRUE(fix->toolTip().contains("parity-cli fix")) << fix->toolTip().toStdString();
  // The remedy in full before anything is trained: the whole setup and what it changes.
  const QString before = panel->details()->toPlainText();
  EXPECT_TRUE(before.contains("the remedy is 2 processes x 32 per device")) << before.toStdString();
  EXPECT_TRUE(before.contains("Changes: per-device batch 64 -> 32")) << before.toStdString();

  const int setups = w.window.setupsModel()->rowCount();
  // A double click: the first queues, the button is off before the second.
  QTest::mouseClick(fix, Qt::LeftButton);
  EXPECT_FALSE(fix->isEnabled());
  QTest::mouseClick(fix, Qt::LeftButton);
  ASSERT_TRUE(test::waitFor([&] { return w.window.setupsModel()->rowCount() > setups; }));
  ASSERT_TRUE(
      test::waitFor([&] { return !w.cell(run, VerdictTableModel::kProofColumn).isEmpty(); }));
  ASSERT_TRUE(test::waitFor([&] { return w.window.launcher()->outstanding() == 0; }));
  test::waitFor([] { return false; }, 500);  // a second queue, if any, would be written by now

  std::optional<storage::RunRow> remedyRow;
  {
    storage::Database db(path.toStdString());
    int remedies = 0;
    for (const storage::RunRow& row : db.counterfactuals_of(run)) {
      ++remedies;
      remedyRow = row;
    }
    ASSERT_EQ(remedies, 1) << "one remedy row (no band: nothing is noise here)";
  }
  ASSERT_TRUE(remedyRow);
  EXPECT_EQ(remedyRow->label, "cf #" + std::to_string(run) + " all");
  EXPECT_EQ(remedyRow->explains_cause, "all");
  EXPECT_EQ(config::from_json(remedyRow->config_json).per_device_batch_size, 32);
  const qint64 remedy = remedyRow->id;
  EXPECT_EQ(w.window.setupsModel()->rowCount(), setups + 1) << "one setup added";
  const config::RunConfig added = w.window.setupsModel()->config(setups);
  EXPECT_EQ(added.label, "fix #" + std::to_string(run));
  EXPECT_EQ(added.num_processes, 2);
  EXPECT_EQ(added.per_device_batch_size, 32);
  EXPECT_FALSE(fix->isEnabled()) << "its remedy is queued: a third click would queue it again";
  EXPECT_EQ(w.cell(run, VerdictTableModel::kProofColumn), QString("fix queued (#%1)").arg(remedy));

  // The remedy trains (the test writes what parity-cli would: the reference's curve at 64
  // samples a step) and ends: the table reads it again.
  {
    storage::Database db(path.toStdString());
    db.set_started(remedy, 100);
    db.append_steps(test::syntheticSteps(remedy, 100, 64));
    db.finish_run(remedy, storage::RunStatus::kFinished, "", 1000.0);
  }
  const QString equivalent = QString("equivalent now (#%1)").arg(remedy);
  ASSERT_TRUE(test::waitFor(
      [&] { return w.cell(run, VerdictTableModel::kProofColumn) == equivalent; }, 20000))
      << w.cell(run, VerdictTableModel::kProofColumn).toStdString();
  const QString after = panel->details()->toPlainText();
  EXPECT_TRUE(after.contains(QString("Remedy run #%1 (all): equivalent now").arg(remedy)))
      << after.toStdString();
  EXPECT_TRUE(after.contains(QString("the setup \"fix #%1\"").arg(run))) << after.toStdString();
  EXPECT_TRUE(panel->statusText().contains(QString("Remedy of #%1: %2").arg(run).arg(equivalent)))
      << panel->statusText().toStdString();
}

// The remedy's lr is an Experiment key: the shared Experiment stays as it was, and the note
// says that the setup's Launch trains the Experiment's lr while the remedy run trains its own.
TEST(MakeItEquivalent, TheSharedExperimentIsNotChangedAndTheNoteSaysWhatDiffers) {
  const FakeCli fake;
  QTemporaryDir dir;
  const QString path = dir.filePath("fix.db");
  int64_t reference = 0, run = 0;
  {
    storage::Database db(path.toStdString());
    reference = test::addFinishedRun(db, "1x64", 100, 64, kReference);
    run = addLinearRun(db, "2x64 linear");
  }
  Window w(path);
  const std::string experiment = config::to_json(w.window.setupsModel()->experiment());
  ASSERT_TRUE(w.compared({reference, run}));
  w.select(run);
  ASSERT_TRUE(test::waitFor([&] { return w.panel()->fixButton()->isEnabled(); }))
      << w.panel()->fixButton()->toolTip().toStdString();
  w.panel()->fixButton()->click();
  ASSERT_TRUE(test::waitFor([&] { return w.panel()->details()->toPlainText().contains("fix #"); }));
  EXPECT_EQ(config::to_json(w.window.setupsModel()->experiment()), experiment);
  const QString note = w.window.statusBar()->currentMessage();
  EXPECT_TRUE(
      note.contains("The shared Experiment is left as it is: the remedy's lr 0.025 is "
                    "0.05 there"))
      << note.toStdString();
  EXPECT_TRUE(w.panel()->details()->toPlainText().contains(note)) << note.toStdString();
}

// A run imported from a log: nothing is trained and no setup added; the details say what to
// train elsewhere, `fix`'s settings in the window's words (#38 §7: "processes 1", not
// "--num-processes 1").
TEST(MakeItEquivalent, AnImportedRunGetsTheFlagsToTrainElsewhere) {
  const FakeCli fake;
  QTemporaryDir dir;
  const QString path = dir.filePath("fix.db");
  int64_t reference = 0, run = 0;
  {
    storage::Database db(path.toStdString());
    reference = test::addFinishedRun(db, "1x64", 100, 64, kReference);
    run = addLinearRun(db, "imported 2x64");
    db.set_origin(run, storage::RunOrigin::kImported, "/logs/2x64");
  }
  Window w(path);
  ASSERT_TRUE(w.compared({reference, run}));
  ASSERT_EQ(w.cell(run, VerdictTableModel::kVerdictColumn), "different");
  w.select(run);
  ASSERT_TRUE(test::waitFor([&] { return w.remedyRead(run); }));
  QPushButton* fix = w.panel()->fixButton();
  ASSERT_TRUE(fix->isEnabled()) << fix->toolTip().toStdString();
  EXPECT_TRUE(fix->toolTip().contains("nothing is trained here")) << fix->toolTip().toStdString();
  const int setups = w.window.setupsModel()->rowCount();
  fix->click();
  test::waitFor([] { return false; }, 300);
  const QString details = w.panel()->details()->toPlainText();
  EXPECT_TRUE(details.contains("This run was trained elsewhere: train it again with "))
      << details.toStdString();
  EXPECT_FALSE(details.contains("--")) << details.toStdString();
  EXPECT_TRUE(details.contains("Nothing is trained here: this run was imported from a log"))
      << details.toStdString();
  EXPECT_TRUE(w.panel()->statusText().contains("Nothing trained for #"))
      << w.panel()->statusText().toStdString();
  EXPECT_EQ(w.window.setupsModel()->rowCount(), setups);
  storage::Database db(path.toStdString());
  EXPECT_TRUE(db.counterfactuals_of(run).empty());
}

}  // namespace
}  // namespace parity::ui
