// Compare warns when a run trained another experiment than the reference (#24 item 11): other
// data (dataset, data file) or another model is said before any batch or lr cause, in the Why
// cell, the details pane and the status line.
#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/experiment_match.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QBrush>
#include <QColor>
#include <QTableView>
#include <QTextBrowser>

#include "test_util.h"

namespace parity::ui {
namespace {

std::string csvConfig(const std::string& path) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.task = config::Task::kRegression;
  c.target = "y";
  c.data_path = path;
  return config::to_json(c);
}

storage::RunRow run(const std::string& configJson,
                    storage::RunOrigin origin = storage::RunOrigin::kEngine) {
  storage::RunRow r;
  r.config_json = configJson;
  r.origin = origin;
  return r;
}

TEST(ExperimentMatch, NamesOtherDataAndOtherModelsOfEngineRuns) {
  const storage::RunRow fashion = run(config::to_json(config::RunConfig{}));
  EXPECT_TRUE(experimentDifference(fashion, fashion).isEmpty());
  EXPECT_EQ(experimentDifference(run(csvConfig("/d/a.csv")), fashion).toStdString(),
            "data: a.csv vs fashion-mnist");
  // One file name in two folders: the whole paths tell them apart.
  EXPECT_EQ(
      experimentDifference(run(csvConfig("/d/a.csv")), run(csvConfig("/e/a.csv"))).toStdString(),
      "data: /d/a.csv vs /e/a.csv");
  config::RunConfig small;
  small.hidden = {64};
  EXPECT_EQ(experimentDifference(run(config::to_json(small)), fashion).toStdString(),
            "model: mlp 64 vs mlp 256,128");
  // Batch, lr and seed are causes the verdict reads, not another experiment.
  config::RunConfig batch;
  batch.per_device_batch_size = 16;
  batch.lr = 0.5;
  batch.seed = 9;
  EXPECT_TRUE(experimentDifference(run(config::to_json(batch)), fashion).isEmpty());
  // An imported run's config is defaults around its facts: its data is not known from it.
  EXPECT_TRUE(experimentDifference(run(csvConfig("/d/a.csv"), storage::RunOrigin::kImported), fashion).isEmpty());
}

TEST(ExperimentMatch, CompareSaysAnotherExperimentBeforeAnyOtherCause) {
  QTemporaryDir dir;
  const QString path = dir.filePath("experiments.db");
  int64_t ref = 0, same = 0, other = 0;
  {
    storage::Database db(path.toStdString());
    ref = test::addFinishedRun(db, "ref", 200, 64, R"({"seed": 1})");
    same = test::addFinishedRun(db, "same", 200, 64, R"({"seed": 1})");
    other = test::addFinishedRun(db, "my csv", 200, 64,
                                 csvConfig(dir.filePath("a.csv").toStdString()), 1.5);
  }
  MainWindow window({false, true});
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  ComparePanel* panel = window.comparePanel();
  ASSERT_TRUE(test::waitFor([&] { return panel->referenceId() != 0; }));
  bool done = false;
  QObject::connect(panel, &ComparePanel::compared, [&] { done = true; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return done; }));
  ASSERT_EQ(panel->comparison().reference_id, ref);
  const QAbstractItemModel* table = panel->verdictTable()->model();
  const int why = table->columnCount() - 1;
  for (int row = 0; row < table->rowCount(); ++row) {
    const int64_t id = panel->comparison().rows[row].id;
    const QString text = table->index(row, why).data().toString();
    if (id == other) {
      EXPECT_TRUE(text.startsWith("Another experiment (data: a.csv vs fashion-mnist)"))
          << text.toStdString();
      // Said in red, as the verdict 'different' is.
      EXPECT_EQ(table->index(row, why).data(Qt::ForegroundRole).value<QBrush>().color(),
                QColor(0xc6, 0x28, 0x28));
      panel->verdictTable()->selectRow(row);
    } else {
      EXPECT_FALSE(text.contains("Another experiment")) << id << ": " << text.toStdString();
    }
  }
  const QString details = panel->findChild<QTextBrowser*>("verdictDetails")->toPlainText();
  const auto warned = details.indexOf("Another experiment:");
  ASSERT_GE(warned, 0) << details.toStdString();
  const auto why2 = details.indexOf("Why:");
  if (why2 >= 0) {
    EXPECT_LT(warned, why2) << details.toStdString();
  }
  EXPECT_TRUE(panel->statusText().startsWith(
      QString("#%1 trained another experiment than the reference").arg(other)))
      << panel->statusText().toStdString();
  (void)same;
}

}  // namespace
}  // namespace parity::ui
