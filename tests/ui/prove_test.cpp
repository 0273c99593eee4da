// Prove, as the window runs it: 2x16 with the lr unscaled differs from 1x16 by its global batch;
// its counterfactuals are queued as ordinary, linked run rows, parity-cli trains them like any
// launch, and the verdict table shows each proof: the global batch confirmed, the lr alone not.
// The combined proof (the remedy) is trained only where no cause's own counterfactual is the
// whole remedy; here the global batch's is.
// Skipped only when parity-cli is absent.
#include <gtest/gtest.h>
#include <parity/storage/database.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/window/main_window.h>

#include <QDockWidget>
#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>

#include "test_util.h"

namespace parity::ui {
namespace {

int column(const QAbstractItemModel* table, const QString& header) {
  for (int c = 0; c < table->columnCount(); ++c)
    if (table->headerData(c, Qt::Horizontal).toString() == header) return c;
  return -1;
}

QString cell(const QAbstractItemModel* table, int row, int column) {
  return table->index(row, column).data().toString();
}

TEST(Prove, TheGlobalBatchCauseIsConfirmedByACounterfactualQueuedLikeALaunch) {
  if (RunLauncher::findCli().isEmpty()) GTEST_SKIP() << "parity-cli is not built yet";
  QTemporaryDir dir;
  const QString path = dir.filePath("prove.db");
  MainWindow window({false, true});
  window.resize(1400, 900);
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }, 60000));
  const config::RunConfig one = test::smallRegression("1x16", 1, 16, 256, 2);
  window.setupsModel()->reset(one, {one, test::smallRegression("2x16 unscaled", 2, 16, 256, 2)});
  window.launch(window.setupsModel()->configs());
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(true); }, 180000));
  ASSERT_EQ(window.runsModel()->rowCount(), 2);
  const qint64 reference = window.runsModel()->runs()[0].id;
  const qint64 run = window.runsModel()->runs()[1].id;
  for (qint64 id : {reference, run}) window.runsModel()->setShown(id, true);

  ComparePanel* panel = window.comparePanel();
  window.findChild<QDockWidget*>("compareDock")->raise();  // its tab in front, as a click does
  ASSERT_TRUE(test::waitFor([&] { return panel->isEnabled(); }));
  ASSERT_TRUE(test::waitFor([&] { return panel->referenceId() == reference; }));
  int compared = 0;
  QObject::connect(panel, &ComparePanel::compared, [&] { ++compared; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return compared > 0; }));
  QTableView* view = panel->verdictTable();
  const QAbstractItemModel* table = view->model();
  ASSERT_EQ(table->rowCount(), 2);
  EXPECT_EQ(cell(table, 1, 1), "different");
  view->selectRow(0);
  EXPECT_FALSE(panel->proveButton()->isEnabled()) << "the reference has nothing to prove";
  view->selectRow(1);
  ASSERT_TRUE(panel->proveButton()->isEnabled());
  EXPECT_TRUE(panel->details()->toPlainText().contains("global batch"))
      << panel->details()->toPlainText().toStdString();

  panel->proveButton()->click();
  // The counterfactual row appears queued or running, linked to the run it explains ...
  ASSERT_TRUE(test::waitFor([&] { return window.runsModel()->rowCount() >= 3; }, 30000));
  // ... is trained by parity-cli, and the verdict table reads it again when it ends.
  ASSERT_TRUE(test::waitFor(
      [&] {
        if (!window.isSettled(true) || !panel->proofs().count(run)) return false;
        for (const auto& p : panel->proofs().at(run))
          if (!p.result) return false;
        return true;
      },
      180000))
      << cell(table, 1, column(table, "Proof")).toStdString();
  const auto& proofs = panel->proofs().at(run);
  std::string causes;
  for (const auto& p : proofs) causes += p.cause + " ";
  // The engine names two causes (the global batch, and the lr not scaled with it), so two
  // counterfactuals, each alone. The remedy (2x8 at lr 0.05) is the global batch's own
  // counterfactual, so no combined "all" is trained besides.
  ASSERT_EQ(proofs.size(), 2u) << causes << panel->details()->toPlainText().toStdString();
  EXPECT_EQ(proofs[0].cause, "global_batch");
  EXPECT_EQ(proofs[0].result->proof, analysis::Proof::kConfirmed) << proofs[0].result->text;
  EXPECT_EQ(proofs[1].cause, "effective_lr");  // scaling the lr alone does not close the gap
  EXPECT_NE(proofs[1].result->proof, analysis::Proof::kConfirmed) << proofs[1].result->text;
  const int proofColumn = column(table, "Proof");
  ASSERT_GE(proofColumn, 0);
  EXPECT_TRUE(
      cell(table, 1, proofColumn)
          .startsWith(
              QString("global_batch confirmed (#%1); effective_lr ").arg(proofs[0].counterfactual)))
      << cell(table, 1, proofColumn).toStdString();
  EXPECT_TRUE(panel->details()->toPlainText().contains("confirmed: equivalent now"))
      << panel->details()->toPlainText().toStdString();

  storage::Database db(path.toStdString());
  const auto cf = db.get_run(proofs[0].counterfactual);
  ASSERT_TRUE(cf.has_value());
  EXPECT_EQ(cf->status, storage::RunStatus::kFinished) << cf->error;
  EXPECT_EQ(cf->explains_run, run);
  EXPECT_EQ(cf->explains_reference, reference);
  EXPECT_EQ(cf->label, "cf #" + std::to_string(run) + " global_batch");
  EXPECT_EQ(config::from_json(cf->config_json).per_device_batch_size, 8) << cf->config_json;
}

}  // namespace
}  // namespace parity::ui
