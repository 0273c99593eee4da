// MainWindow: runs trained elsewhere — File > Import runs…, a folder or file dropped on the
// window, the import's progress in the status bar, following a live run, and an imported run's
// facts (Runs > Edit facts…). The reading is parity-cli's (RunImporter), never the window's.
#include <parity/config/run_facts.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/import/facts_dialog.h>
#include <parity/ui/import/import_dialog.h>
#include <parity/ui/import/run_importer.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/error_advice.h>
#include <parity/ui/window/main_window.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <QUrl>
#include <cstdio>

namespace parity::ui {

namespace {

// The local files and folders a drag carries; empty when it carries anything else.
QStringList localPaths(const QMimeData* mime) {
  QStringList paths;
  if (!mime || !mime->hasUrls()) return paths;
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) return {};
    paths << url.toLocalFile();
  }
  return paths;
}

}  // namespace

void MainWindow::createImport() {
  importer_ = new RunImporter(this);
  importBox_ = new QWidget(this);
  importBox_->setObjectName("importProgress");
  auto* row = new QHBoxLayout(importBox_);
  row->setContentsMargins(0, 0, 0, 0);
  importLabel_ = new QLabel(importBox_);
  importLabel_->setObjectName("importLabel");
  importBar_ = new QProgressBar(importBox_);
  importBar_->setMaximumWidth(160);
  importBar_->setTextVisible(false);
  auto* stop = new QToolButton(importBox_);
  stop->setText(tr("Stop"));
  stop->setToolTip(
      tr("Stop importing (a run being written is written whole or not at all) or "
         "stop following"));
  row->addWidget(importLabel_);
  row->addWidget(importBar_);
  row->addWidget(stop);
  importBox_->hide();
  statusBar()->addWidget(importBox_);
  setAcceptDrops(true);

  connect(stop, &QToolButton::clicked, importer_, &RunImporter::stop);
  connect(importer_, &RunImporter::progress, this,
          [this](int done, int total, const QString& name) {
            importBar_->setRange(0, total);
            importBar_->setValue(done - 1);
            importLabel_->setText(tr("Importing run %1 of %2: %3").arg(done).arg(total).arg(name));
          });
  connect(importer_, &RunImporter::following, this, [this](int runs) {
    importBar_->setRange(0, 0);  // busy: it goes on until stopped
    importLabel_->setText(tr("Following %n run(s) as they are written", "", runs));
    db_->post(&DatabaseWorker::listRuns);
  });
  connect(importer_, &RunImporter::failed, this, [this](const QString& problem) {
    importBox_->hide();
    showProblem(this, tr("Import"), {problem, {}});
  });
  connect(importer_, &RunImporter::finished, this, &MainWindow::onImportFinished);
}

void MainWindow::importRuns(const QStringList& paths) {
  if (importer_->busy()) {
    showProblem(this, tr("Import"),
                {tr("An import is still going (%1)").arg(importer_->paths().join(", ")),
                 tr("Stop it in the status bar first, or wait for it to end")});
    return;
  }
  auto* dialog = new ImportDialog(this);
  dialog->setObjectName("importDialog");
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this,
          [this, dialog] { startImport(dialog->paths(), dialog->follow()); });
  if (!paths.isEmpty()) dialog->setPaths(paths);
  dialog->open();
}

void MainWindow::startImport(const QStringList& paths, bool follow) {
  const QString db = databasePath();
  if (db.isEmpty() || paths.isEmpty()) return;
  importBar_->setRange(0, 0);
  importLabel_->setText(tr("Reading %1…").arg(paths.join(", ")));
  importBox_->show();
  importer_->start(db, paths, follow);
}

void MainWindow::onImportFinished(int exitCode, const QString& summary, const QString& problems) {
  importBox_->hide();
  db_->post(&DatabaseWorker::listRuns);
  int imported = 0;
  for (const QString& line : summary.split('\n'))
    if (line.startsWith(QStringLiteral("run "))) ++imported;
  if (options_.quiet) std::fprintf(stderr, "import: %s\n", qUtf8Printable(summary));
  if (importer_->wasStopped()) {
    statusBar()->showMessage(tr("Import stopped; %n run(s) written", "", imported), 8000);
    return;
  }
  if (exitCode == 0 && problems.isEmpty()) {
    statusBar()->showMessage(tr("Imported %n run(s)", "", imported), 8000);
    return;
  }
  const QString what = imported > 0 ? tr("%n run(s) imported; some could not be read", "", imported)
                                    : tr("Nothing was imported");
  showProblem(this, tr("Import"), {what, tr("The details say which file and why")},
              problems.isEmpty() ? summary : problems);
}

void MainWindow::editFacts(qint64 runId) {
  const storage::RunRow* row = runs_->runById(runId);
  if (!row || row->origin == storage::RunOrigin::kEngine) return;
  config::RunFacts facts;
  try {
    facts = config::run_facts_from_json(row->facts_json);
  } catch (const std::exception& e) {
    showProblem(this, tr("Facts"),
                {tr("Run %1's facts cannot be read: %2").arg(runId).arg(e.what()), {}});
    return;
  }
  FactsDialog dialog(runId, QString::fromStdString(row->label), facts, this);
  dialog.setObjectName("factsDialog");
  if (dialog.exec() != QDialog::Accepted) return;
  const QStringList flags = dialog.changedFlags();
  if (flags.isEmpty()) return;
  QProcess set;
  set.start(RunLauncher::findCli(),
            QStringList{"set", "--db", databasePath(), QString::number(runId)} + flags);
  const bool done = set.waitForFinished(30000);
  if (!done || set.exitStatus() != QProcess::NormalExit || set.exitCode() != 0) {
    showProblem(this, tr("Facts"), {tr("Run %1's facts were not changed").arg(runId), {}},
                QString::fromUtf8(set.readAllStandardError()).trimmed());
    return;
  }
  db_->post(&DatabaseWorker::listRuns);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!localPaths(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QStringList paths = localPaths(event->mimeData());
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  importRuns(paths);
}

}  // namespace parity::ui
