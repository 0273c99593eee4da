// The window's import of runs trained elsewhere: the progress lines it reads, the dialog's
// listing before anything is written, the Runs table's Data / source and setup of imported runs,
// and the facts dialog's flags. Real parity-cli processes where the window uses them.
#include <gtest/gtest.h>
#include <parity/config/run_facts.h>
#include <parity/ui/import/facts_dialog.h>
#include <parity/ui/import/import_dialog.h>
#include <parity/ui/import/run_importer.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include "test_util.h"

namespace parity::ui {
namespace {

void writeFile(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
}

TEST(RunImporter, ReadsParityCliProgressLinesAndNothingElse) {
  int done = 0, total = 0;
  QString name;
  EXPECT_TRUE(RunImporter::parseProgress("importing run 3 of 8: runs/2x16", &done, &total, &name));
  EXPECT_EQ(done, 3);
  EXPECT_EQ(total, 8);
  EXPECT_EQ(name, "runs/2x16");
  EXPECT_FALSE(RunImporter::parseProgress("run 3  2x16: imported 400 steps", &done, &total, &name));
  EXPECT_FALSE(RunImporter::parseProgress("importing run x of 8: a", &done, &total, &name));
}

// The dialog lists what a path holds (a dry run: nothing is written) and enables Import only
// when runs were found; a path that does not exist says so.
TEST(ImportDialog, ListsTheRunsFoundBeforeAnythingIsWritten) {
  ASSERT_FALSE(RunLauncher::findCli().isEmpty()) << "parity-cli is built beside the tests";
  QTemporaryDir dir;
  writeFile(dir.filePath("steps.csv"), "step,loss\n1,2.0\n2,1.5\n3,1.25\n");
  ImportDialog dialog;
  QSignalSpy listed(&dialog, &ImportDialog::listed);
  dialog.setPaths({dir.filePath("steps.csv")});
  ASSERT_TRUE(test::waitFor([&] { return listed.count() > 0; }, 30000));
  EXPECT_EQ(dialog.runsFound(), 1);
  EXPECT_TRUE(dialog.importButton()->isEnabled());
  EXPECT_TRUE(dialog.listing()->toPlainText().contains("3 steps of loss"))
      << dialog.listing()->toPlainText().toStdString();
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).size(), 1) << "a dry run writes nothing";

  listed.clear();
  dialog.setPaths({dir.filePath("nothing-here")});
  ASSERT_TRUE(test::waitFor([&] { return listed.count() > 0; }, 10000));
  EXPECT_EQ(dialog.runsFound(), 0);
  EXPECT_FALSE(dialog.importButton()->isEnabled());

  // A folder without runs: Import stays off, with parity-cli's reason.
  listed.clear();
  QDir(dir.path()).mkdir("empty");
  dialog.setPaths({dir.filePath("empty")});
  ASSERT_TRUE(test::waitFor([&] { return dialog.runsFound() == 0 && listed.count() > 0; }, 30000));
  EXPECT_FALSE(dialog.importButton()->isEnabled());
}

// start() imports through parity-cli with its progress; the runs land in the database.
TEST(RunImporter, ImportsWithProgressIntoTheDatabase) {
  QTemporaryDir dir;
  writeFile(dir.filePath("a.csv"), "step,loss\n1,2.0\n2,1.5\n");
  writeFile(dir.filePath("b.csv"), "step,loss\n1,3.0\n2,2.5\n3,2.0\n");
  const QString db = dir.filePath("r.db");
  RunImporter importer;
  QSignalSpy progress(&importer, &RunImporter::progress);
  QSignalSpy finished(&importer, &RunImporter::finished);
  ASSERT_TRUE(importer.start(db, {dir.filePath("a.csv"), dir.filePath("b.csv")}, false));
  EXPECT_FALSE(importer.start(db, {dir.filePath("a.csv")}, false)) << "one import at a time";
  ASSERT_TRUE(test::waitFor([&] { return finished.count() > 0; }, 30000));
  EXPECT_EQ(finished.first().at(0).toInt(), 0) << finished.first().at(2).toString().toStdString();
  ASSERT_EQ(progress.count(), 2);
  EXPECT_EQ(progress.at(1).at(0).toInt(), 2);
  EXPECT_EQ(progress.at(1).at(1).toInt(), 2);
  storage::Database d(db.toStdString());
  const auto runs = d.list_runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].origin, storage::RunOrigin::kImported);
  EXPECT_EQ(runs[1].steps_done, 3);
}

storage::RunRow importedRow(int64_t id, const config::RunFacts& facts) {
  storage::RunRow r;
  r.id = id;
  r.label = "imported";
  r.status = storage::RunStatus::kFinished;
  r.origin = storage::RunOrigin::kImported;
  r.source_path = "/logs/runs/2x16/";
  r.facts_json = config::to_json(facts);
  r.config_json = R"({"num_processes": 1, "per_device_batch_size": 64})";  // engine defaults
  return r;
}

// An imported run's setup is what its facts say, never the defaults its stored config was
// filled with; a change of facts (parity-cli set) shows at the next poll. Its Data / source
// column says where it came from.
TEST(RunsModelImported, SetupFromFactsAndSourceFromItsPath) {
  RunsModel model;
  config::RunFacts facts;
  facts.per_device_batch_size = config::Fact<int64_t>::known(16, "hparams");
  storage::RunRow engine;
  engine.id = 1;
  engine.label = "engine";
  engine.config_json = R"({"num_processes": 2, "per_device_batch_size": 32, "dataset": "csv",
                           "data_path": "/d/train.csv", "target": "y"})";
  model.setRuns({engine, importedRow(2, facts)});
  auto cell = [&](int row, int column) { return model.index(row, column).data().toString(); };
  EXPECT_EQ(cell(1, RunsModel::kSetup), "?×16 acc ? = ? seed ?");
  EXPECT_EQ(cell(1, RunsModel::kSource), "imported: 2x16");
  EXPECT_TRUE(model.index(1, RunsModel::kSource)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains("/logs/runs/2x16/"));
  EXPECT_EQ(cell(0, RunsModel::kSource), "train.csv");
  EXPECT_TRUE(cell(0, RunsModel::kSetup).startsWith("2×32 = 64"));

  facts.num_processes = config::Fact<int64_t>::known(2, "given");
  facts.gradient_accumulation_steps = config::Fact<int64_t>::known(1, "given");
  model.updateRuns({importedRow(2, facts)}, {});
  EXPECT_EQ(cell(1, RunsModel::kSetup), "2×16 = 32 seed ?");
}

// The facts dialog shows each fact with its provenance and hands parity-cli set only what the
// user changed; making a fact unknown again, or a batch of 0, is refused in words.
TEST(FactsDialog, GivesOnlyTheChangedFactsAsFlags) {
  config::RunFacts facts;
  facts.per_device_batch_size = config::Fact<int64_t>::known(16, "TensorBoard hparams");
  facts.mixed_precision = config::Fact<std::string>::known("bf16", "TensorBoard hparams");
  FactsDialog dialog(7, "2x16", facts);
  auto* batch = qobject_cast<QLineEdit*>(dialog.editor("--per-device-batch-size"));
  auto* processes = qobject_cast<QLineEdit*>(dialog.editor("--num-processes"));
  auto* precision = qobject_cast<QComboBox*>(dialog.editor("--mixed-precision"));
  ASSERT_TRUE(batch && processes && precision);
  EXPECT_EQ(batch->text(), "16");
  EXPECT_TRUE(batch->toolTip().contains("known: TensorBoard hparams"));
  EXPECT_EQ(processes->text(), "");
  EXPECT_EQ(precision->currentText(), "bf16");
  EXPECT_TRUE(dialog.changedFlags().isEmpty());

  processes->setText("2");
  precision->setCurrentText("no");
  EXPECT_EQ(dialog.changedFlags(),
            (QStringList{"--num-processes", "2", "--mixed-precision", "no"}));

  batch->setText("0");
  QPushButton* ok = nullptr;
  for (auto* b : dialog.findChildren<QPushButton*>())
    if (b->text().contains("OK")) ok = b;
  ASSERT_NE(ok, nullptr);
  ok->click();
  EXPECT_NE(dialog.result(), QDialog::Accepted) << "a batch of 0 is refused";
  batch->setText("");
  ok->click();
  EXPECT_NE(dialog.result(), QDialog::Accepted) << "a known fact cannot be made unknown";
  batch->setText("32");
  ok->click();
  EXPECT_EQ(dialog.result(), QDialog::Accepted);
}

// #35 §4: the dialog's rows are the facts' field table: every fact has one, by its flag, a fact of
// a few words as a choice of them (and unknown), any other as a line.
TEST(FactsDialog, HasARowForEveryFactOfTheFieldTable) {
  FactsDialog dialog(7, "2x16", config::RunFacts{});
  for (const config::FactField& field : config::fact_fields()) {
    QWidget* editor = dialog.editor(QString::fromStdString(std::string(field.flag)));
    ASSERT_NE(editor, nullptr) << field.key;
    const std::vector<std::string> choices = config::fact_choices(field);
    if (choices.empty()) {
      EXPECT_NE(qobject_cast<QLineEdit*>(editor), nullptr) << field.key;
      continue;
    }
    auto* combo = qobject_cast<QComboBox*>(editor);
    ASSERT_NE(combo, nullptr) << field.key;
    ASSERT_EQ(combo->count(), static_cast<int>(choices.size()) + 1) << field.key;
    for (size_t i = 0; i < choices.size(); ++i)
      EXPECT_EQ(combo->itemData(static_cast<int>(i) + 1).toString().toStdString(), choices[i]);
  }
}

// A folder or file dropped on the window opens the import dialog on it (nothing is imported
// before the user presses Import); a drag of anything but local files is not accepted.
TEST(MainWindowImport, ADroppedFolderOpensTheImportDialogOnIt) {
  QTemporaryDir dir;
  writeFile(dir.filePath("steps.csv"), "step,loss\n1,2.0\n2,1.5\n");
  MainWindow window(MainWindowOptions{false, true});
  window.show();
  window.openDatabase(dir.filePath("r.db"));
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  QMimeData web;
  web.setUrls({QUrl("https://example.com/runs")});
  QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &web, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &refused);
  EXPECT_FALSE(refused.isAccepted());

  QMimeData local;
  local.setUrls({QUrl::fromLocalFile(dir.filePath("steps.csv"))});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &local, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &local, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &drop);
  auto* dialog = window.findChild<ImportDialog*>("importDialog");
  ASSERT_NE(dialog, nullptr);
  EXPECT_EQ(dialog->paths(), QStringList{dir.filePath("steps.csv")});
  ASSERT_TRUE(test::waitFor([&] { return dialog->runsFound() == 1; }, 30000));
  storage::Database db(dir.filePath("r.db").toStdString());
  EXPECT_TRUE(db.list_runs().empty()) << "nothing is imported before Import is pressed";
  dialog->importButton()->click();
  ASSERT_TRUE(test::waitFor([&] { return window.runsModel()->rowCount() == 1; }, 30000));
  EXPECT_EQ(window.runsModel()->index(0, RunsModel::kSource).data().toString(),
            "imported: steps.csv");
}

}  // namespace
}  // namespace parity::ui
