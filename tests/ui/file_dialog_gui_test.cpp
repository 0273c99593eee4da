// The window keeps its SQLite locks when a file dialog lists the database's own folder. Qt's
// dialog used to type files by reading them: closing those descriptors dropped the process's POSIX
// locks on r.db, r.db-wal and r.db-shm, the next parity-cli to close the database deleted the WAL,
// and the window went on writing into a deleted file (issue 12). Runs under xvfb-run with the
// other GUI tests: a real dialog, a real parity-cli, a real launch.
#include <gtest/gtest.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/widgets/file_dialogs.h>
#include <parity/ui/window/main_window.h>
#include <unistd.h>

#include <QDir>
#include <QFileSystemModel>
#include <QLineEdit>
#include <QProcess>
#include <QTest>
#include <memory>

#include "test_util.h"

namespace parity::ui {
namespace {

/// The descriptors of this process that point at deleted files inside `folder`.
QStringList deletedDescriptorsIn(const QString& folder) {
  QStringList found;
  const QDir fds("/proc/self/fd");
  for (const QString& fd : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
    char target[4096];
    const ssize_t n = ::readlink(qPrintable(fds.filePath(fd)), target, sizeof target - 1);
    if (n <= 0) continue;
    const QString path = QString::fromLocal8Bit(target, static_cast<int>(n));
    if (path.startsWith(folder) && path.endsWith(" (deleted)")) found << fd + " -> " + path;
  }
  return found;
}

/// parity-cli's standard output for `args`, after it exited 0.
QString runCli(const QString& cli, const QStringList& args) {
  QProcess p;
  p.start(cli, args);
  if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    ADD_FAILURE() << "parity-cli " << args.join(' ').toStdString()
                  << " failed: " << p.readAllStandardError().toStdString();
  }
  return QString::fromUtf8(p.readAllStandardOutput());
}

TEST(FileDialogGui, ListingTheDatabaseFolderKeepsTheWindowsWrites) {
  const QString cli = RunLauncher::findCli();
  if (cli.isEmpty()) GTEST_SKIP() << "parity-cli is not built yet (set PARITY_CLI or build it)";
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString folder = QDir(dir.path()).canonicalPath();
  const QString db = folder + "/r.db";
  int64_t runId = 0;
  {
    storage::Database seed(db.toStdString());
    runId = test::addFinishedRun(seed, "1x64", 50);
  }

  MainWindow window({false, true});
  window.resize(1200, 800);
  window.show();
  window.openDatabase(db);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }, 60000));
  ASSERT_TRUE(QFileInfo::exists(db + "-wal")) << "the window's connection has no WAL open";

  // As a person would: open a dialog, type the database's folder, let it list and type every
  // file there (the WAL and the shared-memory file included), cancel.
  std::unique_ptr<QFileDialog> dialog(newFileDialog(&window, FileDialogKind::kSaveFile,
                                                    "Save chart", folder + "/parity-chart.png"));
  dialog->show();
  auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
  ASSERT_NE(name, nullptr);
  name->clear();
  QTest::keyClicks(name, folder + "/");
  auto* model = dialog->findChild<QFileSystemModel*>();
  ASSERT_NE(model, nullptr);
  const QStringList files = {"r.db", "r.db-wal", "r.db-shm"};
  const bool typed = test::waitFor(
      [&] {
        for (const QString& f : files) {
          const QModelIndex i = model->index(folder + "/" + f, 2);  // the Type column
          if (!i.isValid() || i.data().toString().isEmpty()) return false;
        }
        return true;
      },
      20000);
  ASSERT_TRUE(typed) << "the dialog did not list and type the database's files";
  dialog->grab().save(
      QDir(qEnvironmentVariable("PARITY_TEST_OUT", QDir::tempPath())).filePath("file_dialog.png"));
  dialog->reject();
  dialog.reset();

  // Another process opens and closes the database: it must not believe itself the last one.
  runCli(cli, {"list", "--db", db});
  EXPECT_TRUE(QFileInfo::exists(db + "-wal")) << "parity-cli deleted the window's WAL";
  EXPECT_TRUE(deletedDescriptorsIn(folder).isEmpty())
      << deletedDescriptorsIn(folder).join('\n').toStdString();

  // A note typed in the window reaches the file (read back by another process).
  RunsModel* runs = window.runsModel();
  ASSERT_GE(runs->rowOf(runId), 0);
  runs->setData(runs->index(runs->rowOf(runId), RunsModel::kNotes), "typed after the dialog");
  const bool onDisk = test::waitFor(
      [&] {
        return runCli(cli, {"show", QString::number(runId), "--db", db})
            .contains("notes: typed after the dialog");
      },
      15000);
  EXPECT_TRUE(onDisk) << "the window's note never reached the database file";

  // A launch finds the row the window created for it.
  config::RunConfig c;
  c.label = "after the dialog";
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.synthetic_samples = 256;
  c.epochs = 1;
  c.per_device_batch_size = 32;
  window.setupsModel()->reset(c, {c});
  window.launch(window.setupsModel()->configs());
  ASSERT_TRUE(
      test::waitFor([&] { return runs->rowCount() == 2 && window.isSettled(true); }, 120000));
  for (const auto& r : runs->runs())
    EXPECT_EQ(r.status, storage::RunStatus::kFinished) << r.label << ": " << r.error;
  EXPECT_TRUE(deletedDescriptorsIn(folder).isEmpty())
      << deletedDescriptorsIn(folder).join('\n').toStdString();
}

}  // namespace
}  // namespace parity::ui
