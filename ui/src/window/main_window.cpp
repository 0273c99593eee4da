#include <parity/storage/database.h>
#include <parity/storage/run_status.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/experiment_match.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/equivalent_batch_panel.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/widgets/wheel_guard.h>
#include <parity/ui/window/error_advice.h>
#include <parity/ui/window/main_window.h>

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <cstdio>

namespace parity::ui {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      db_(new DatabaseThread(this)),
      launcher_(new RunLauncher(db_, this)),
      setups_(new SetupsModel(this)),
      runs_(new RunsModel(this)),
      setupsPanel_(new SetupsPanel(setups_)),
      runsPanel_(new RunsPanel(runs_)),
      chartPanel_(new ChartPanel),
      equivalentPanel_(new EquivalentBatchPanel(setups_)),
      comparePanel_(new ComparePanel(runs_, db_)) {
  setQuietDialogs(options_.quiet);
  WheelGuard::install();  // before the panels are polished: their boxes' focus policy
  setWindowTitle(tr("Parity"));
  setWindowIcon(QIcon(":/parity/parity.svg"));
  setCentralWidget(chartPanel_);
  createDocks();
  createImport();
  createActions();
  createMenus();
  connectPlumbing();

  failedLabel_ = new QLabel(this);
  failedLabel_->setObjectName("failedRuns");
  failedLabel_->setStyleSheet("color: #c62828");
  failedLabel_->hide();
  statusBar()->addPermanentWidget(failedLabel_);
  dbLabel_ = new QLabel(this);
  statusBar()->addPermanentWidget(dbLabel_);
  resize(1500, 950);
  defaultLayout_ = saveState();
  if (options_.useSettings) restoreSettings();
  if (setups_->rowCount() == 0) {
    for (const auto& p : presets()) setups_->addSetup(p.setup);
    setupsPanel_->setCurrentRow(0);
  }
  createSetupsKeeping();  // after the restored or preset setups, which are no change to save
}

MainWindow::~MainWindow() = default;

// The same path parity-cli uses (storage's XDG rule), so both open one database by default.
QString MainWindow::defaultDatabasePath() {
  return QString::fromStdString(storage::default_database_path());
}

void MainWindow::connectPlumbing() {
  connect(db_->worker(), &DatabaseWorker::databaseOpened, this, [this](const QString& path) {
    setWindowTitle(tr("Parity — %1").arg(QDir::toNativeSeparators(path)));
    dbLabel_->setText(QDir::toNativeSeparators(path));
    if (options_.useSettings) settings().setValue("database/last", path);
    emit databaseReady(path);
    if (demoPending_) {
      demoPending_ = false;
      launch(setups_->configs());
    }
  });
  connect(db_->worker(), &DatabaseWorker::databaseFailed, this,
          [this](const QString& path, const QString& message) {
            demoPending_ = false;
            Advice advice = adviseOn(message);
            advice.problem = tr("The database %1 could not be opened: %2").arg(path, message);
            showProblem(this, tr("Database"), advice);
          });
  connect(db_->worker(), &DatabaseWorker::shownChoicesRead, runs_, &RunsModel::setShownChoices);
  connect(runs_, &RunsModel::shownChosen, db_->worker(), &DatabaseWorker::setShownChoices);
  connect(db_->worker(), &DatabaseWorker::runsListed, this, &MainWindow::onRunsListed);
  connect(db_->worker(), &DatabaseWorker::runsChanged, this,
          [this](const RunRows& changed, const QList<qint64>& removed) {
            runs_->updateRuns(changed, removed);
            updateChartRuns();
          });
  connect(db_->worker(), &DatabaseWorker::pollFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Reading runs failed (retrying): %1").arg(message), 3000);
  });
  connect(db_->worker(), &DatabaseWorker::operationFailed, this,
          [this](const QString& what, const QString& message) {
            showProblem(this, what, adviseOnOperation(message), message);
          });
  connect(db_->worker(), &DatabaseWorker::exportFinished, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
  });

  connect(setupsPanel_, &SetupsPanel::launchRequested, this, &MainWindow::launch);
  // The Equivalent batch table plans a csv's setups with the rows the Experiment tab counted.
  ExperimentForm* experiment = setupsPanel_->experimentForm();
  const auto countedRows = [this, experiment] {
    const auto sizes = experiment->dataSizes();
    equivalentPanel_->setCountedTrainSize(sizes ? std::optional<int64_t>(sizes->train)
                                                : std::nullopt);
  };
  connect(experiment, &ExperimentForm::dataSizesChanged, this, countedRows);
  countedRows();
  connect(setupsPanel_->concurrencyBox(), &QSpinBox::valueChanged, launcher_,
          &RunLauncher::setMaxConcurrent);
  launcher_->setMaxConcurrent(setupsPanel_->concurrencyBox()->value());
  connect(launcher_, &RunLauncher::launchFailed, this,
          [this](const QString& problem, const QString& fix) {
            showProblem(this, tr("Launch"), Advice{problem, fix});
            updateStatus();
          });
  connect(launcher_, &RunLauncher::runStarted, this, &MainWindow::updateStatus);
  connect(comparePanel_, &ComparePanel::proveRequested, launcher_, &RunLauncher::prove);
  connect(launcher_, &RunLauncher::proofQueued, comparePanel_, &ComparePanel::proofQueued);
  connect(launcher_, &RunLauncher::proveFailed, this, [this](const QString& message) {
    comparePanel_->proveFailed();
    showProblem(this, tr("Prove"), adviseOn(message), message);
  });
  connect(comparePanel_, &ComparePanel::fixRequested, launcher_, &RunLauncher::fix);
  connect(launcher_, &RunLauncher::fixQueued, this, &MainWindow::onFixQueued);
  connect(launcher_, &RunLauncher::fixFailed, this,
          [this](qint64 referenceId, qint64 runId, const QString& message) {
            comparePanel_->fixFailed(referenceId, runId);
            if (!message.isEmpty())
              showProblem(this, tr("Make it equivalent"), adviseOn(message), message);
          });
  connect(launcher_, &RunLauncher::runExited, this, [this](qint64 id) { exited_.insert(id); });
  connect(launcher_, &RunLauncher::idle, this, [this] {
    awaitingFinalPoll_ = true;  // the runs' last rows and statuses come with a later poll
    finalPolls_ = 0;
    db_->post(&DatabaseWorker::listRuns);
    updateStatus();
  });
  connect(runs_, &RunsModel::runEnded, this,
          [this](qint64 id, storage::RunStatus status, const QString& error) {
            if (status == storage::RunStatus::kFailed) noteFailure(id, error);
            updateStatus();
          });
  connect(runs_, &RunsModel::renameRequested, db_->worker(), &DatabaseWorker::renameRun);
  connect(runs_, &RunsModel::notesEdited, db_->worker(), &DatabaseWorker::setNotes);
  runsPanel_->setCanStop([this](qint64 id) { return launcher_->canStop(id); });
  connect(launcher_, &RunLauncher::stoppableChanged, runsPanel_, &RunsPanel::refreshActions);
  connect(runsPanel_, &RunsPanel::stopRequested, this, &MainWindow::stopRuns);
  connect(runsPanel_, &RunsPanel::deleteRequested, this, &MainWindow::deleteRuns);
  connect(chartPanel_->lossChart(), &LossChart::fetchFailed, this, [this](const QString& m) {
    statusBar()->showMessage(tr("Reading curves failed: %1").arg(m), 5000);
  });
  connect(chartPanel_->lossChart(), &LossChart::redrawn, this, &MainWindow::updateStatus);
  connectDrawnRuns();
}

// What the chart draws and Compare compares: the checked runs the Runs filter lets through, or
// the runs Compare selected names.
void MainWindow::connectDrawnRuns() {
  connect(runs_, &RunsModel::shownRunsChanged, this, &MainWindow::updateChartRuns);
  connect(runsPanel_, &RunsPanel::filterChanged, this, &MainWindow::updateChartRuns);
  comparePanel_->setDrawnFilter([this](qint64 id) { return runsPanel_->passesFilter(id); });
  connect(runsPanel_, &RunsPanel::filterChanged, comparePanel_, [this] {
    comparePanel_->setDrawnFilter([this](qint64 id) { return runsPanel_->passesFilter(id); });
  });
  connect(runsPanel_, &RunsPanel::compareRequested, this, [this](const QList<qint64>& ids) {
    runs_->setShown(ids, true);  // compared runs are drawn
    showDock(compareDock_);
    comparePanel_->compareRuns(ids);
  });
}

void MainWindow::openDatabase(const QString& path) {
  flushSetups();
  setupsRead_ = false;
  polledOnce_ = false;
  runs_->clear();
  chartPanel_->lossChart()->openDatabase(path);
  db_->openDatabase(path);
  dbLabel_->setText(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
}

QString MainWindow::databasePath() const { return db_->path(); }

QString MainWindow::lastDatabasePath() {
  const QString last = settings().value("database/last").toString();
  return last.isEmpty() ? defaultDatabasePath() : last;
}

void MainWindow::launchDemo() {
  setups_->reset(demoExperiment(), demoSetups());
  setupsPanel_->setCurrentRow(0);
  if (!db_->openPath().isEmpty()) {
    launch(setups_->configs());
  } else {
    demoPending_ = true;
  }
}

// A failed run is shown where runs are: red in the Runs table (its status's tooltip has the
// error) and counted in the status bar, whose tooltip lists each failure with its advice. No
// dialog per run: four failures at once used to stack four.
void MainWindow::noteFailure(qint64 runId, const QString& error) {
  const auto* run = runs_->runById(runId);
  const QString label = run ? QString::fromStdString(run->label) : QString();
  const Advice advice = adviseOn(error);
  failures_.append(tr("#%1 %2: %3 %4").arg(runId).arg(label, advice.problem, advice.fix));
  failedLabel_->setText(failures_.size() == 1
                            ? tr("Run #%1 (%2) failed: %3").arg(runId).arg(label, advice.problem)
                            : tr("%n runs failed; hover here, or their status in the Runs table",
                                 nullptr, static_cast<int>(failures_.size())));
  failedLabel_->setToolTip(failures_.join("\n"));
  failedLabel_->show();
  if (options_.quiet) {
    std::fprintf(stderr, "parity: run %lld (%s) failed: %s\n", static_cast<long long>(runId),
                 qPrintable(label), qPrintable(advice.problem));
  }
}

void MainWindow::launch(const std::vector<config::RunConfig>& configs) {
  if (configs.empty()) return;
  awaitingFinalPoll_ = false;
  failures_.clear();
  failedLabel_->hide();
  launcher_->launch(configs, setupsPanel_->launchTarget());
  runsDock_->raise();
  updateStatus();
}

bool MainWindow::isSettled(bool waitForRuns) const {
  if (!polledOnce_ || demoPending_) return false;
  if (waitForRuns && (launcher_->outstanding() > 0 || awaitingFinalPoll_)) return false;
  return chartPanel_->lossChart()->isSettled();
}

// A listing read before the last run's process ended can arrive after the launcher went idle
// (it was on its way from the database thread): the final statuses are those of the first
// listing in which no run that exited here is still queued or running. A run whose end could not
// be written stays running: after kFinalPolls listings the window stops waiting for it.
void MainWindow::onRunsListed(const RunRows& runs) {
  constexpr int kFinalPolls = 10;
  polledOnce_ = true;
  if (awaitingFinalPoll_) {
    bool ended = true;
    for (const auto& run : runs) {
      ended &= !(exited_.contains(run.id) && storage::is_active(run.status));
    }
    awaitingFinalPoll_ = !ended && ++finalPolls_ < kFinalPolls;
    if (!awaitingFinalPoll_) exited_.clear();
  }
  runs_->setRuns(runs);
  updateChartRuns();
}

// A run stopped before its first step has no curve: no legend entry, not counted as drawn.
static bool hasNoCurve(const storage::RunRow& r) {
  return r.status == storage::RunStatus::kStopped && r.steps_done == 0;
}

// The chart draws the checked runs that the Runs filter lets through (typing a dataset's name
// there draws that experiment alone).
void MainWindow::updateChartRuns() {
  std::vector<ChartRun> shown;
  for (qint64 id : runs_->shownRuns()) {
    const auto* r = runs_->runById(id);
    if (!r || hasNoCurve(*r) || !runsPanel_->passesFilter(id)) continue;
    shown.push_back({id, QString::fromStdString(r->label), r->status, r->steps_done});
  }
  chartPanel_->lossChart()->setRuns(shown);
  updateStatus();
}

void MainWindow::updateStatus() {
  // Running as the database says (a run let finish by an earlier window is running too, and a
  // run whose process ended is not); queued as this window's launcher holds them.
  int running = 0;
  for (const auto& r : runs_->runs()) running += r.status == storage::RunStatus::kRunning ? 1 : 0;
  const int waiting = launcher_->outstanding() - launcher_->running();
  int drawn = 0, filteredOut = 0;
  std::vector<const storage::RunRow*> experiments;  // one drawn run of each experiment
  for (qint64 id : runs_->shownRuns()) {
    const auto* r = runs_->runById(id);
    if (!r || hasNoCurve(*r)) continue;
    if (!runsPanel_->passesFilter(id)) {
      ++filteredOut;
      continue;
    }
    ++drawn;
    if (std::all_of(experiments.begin(), experiments.end(), [r](const storage::RunRow* e) {
          return !experimentDifference(*r, *e).isEmpty();
        }))
      experiments.push_back(r);
  }
  QString text = tr("%n run(s) drawn", nullptr, drawn);
  QString tip;
  if (filteredOut > 0) {
    text += tr(", %n filtered out", nullptr, filteredOut);
    tip = tr("The Runs filter \"%1\" leaves %n checked run(s) off the chart.", nullptr, filteredOut)
              .arg(runsPanel_->filterText());
  }
  if (experiments.size() > 1) {
    // Curves of other data or models share the axes, and one can flatten the others.
    text += tr(" · %n experiments", nullptr, static_cast<int>(experiments.size()));
    QStringList which;
    for (const storage::RunRow* e : experiments) which << QString::fromStdString(e->label);
    tip += (tip.isEmpty() ? "" : "\n") +
           tr("The drawn runs train %n experiments (their data or model differ), first of each: "
              "%1. Type a data name in the Runs filter to draw one experiment.",
              nullptr, static_cast<int>(experiments.size()))
               .arg(which.join(", "));
  }
  // Runs left off the chart are said, never silently unchecked (a reopened database draws only
  // the newest runs and those the user chose); the tooltip names them.
  const QList<qint64> hidden = runs_->hiddenRuns();
  if (!hidden.isEmpty()) {
    text += tr(", %n hidden", nullptr, static_cast<int>(hidden.size()));
    QStringList names;
    for (qint64 id : hidden) {
      const auto* r = runs_->runById(id);
      if (names.size() == 20) {
        names << tr("and %n more", nullptr, static_cast<int>(hidden.size()) - 20);
        break;
      }
      names << tr("#%1 %2").arg(id).arg(r ? QString::fromStdString(r->label) : QString());
    }
    tip += (tip.isEmpty() ? "" : "\n") +
           tr("Not drawn: %1.\nCheck a run in the Runs table (or right-click it: Show on chart) to "
              "draw it; the choice is kept with the database.")
               .arg(names.join(", "));
  }
  if (running > 0) text += tr(" · %n running", nullptr, running);
  if (waiting > 0) text += tr(" · %n queued", nullptr, waiting);
  // Imported runs whose setup is unknown have no samples seen: off the plot, and said so.
  const QStringList off = chartPanel_->lossChart()->runsOffAxis();
  if (!off.isEmpty()) {
    text += tr(" · %n not on this axis", nullptr, static_cast<int>(off.size()));
    tip += (tip.isEmpty() ? "" : "\n") +
           tr("Not on the samples axis (their setup is unknown, so no samples seen): %1. The "
              "Step axis shows them; Runs > Edit facts gives their setup.")
               .arg(off.join(", "));
  }
  chartPanel_->setStatusText(text, tip);
  stopAll_->setEnabled(launcher_->outstanding() > 0);
}

void MainWindow::stopRuns(const QList<qint64>& ids) {
  for (qint64 id : ids) launcher_->stop(id);
}

// Names what goes (the run, or the first few of several, with their steps) and defaults to No:
// Return on a reflex keeps the data.
bool MainWindow::confirmDelete(const QList<qint64>& ids) {
  QStringList names;
  qint64 steps = 0;
  for (qint64 id : ids) {
    const auto* run = runs_->runById(id);
    if (names.size() < 5) {
      names << (run ? tr("#%1 %2").arg(id).arg(QString::fromStdString(run->label))
                    : tr("#%1").arg(id));
    }
    if (run) steps += run->steps_done;
  }
  if (ids.size() > names.size()) names << tr("and %n more", nullptr, ids.size() - names.size());
  QMessageBox box(QMessageBox::Question, tr("Delete runs"),
                  tr("Delete %1 with its %n recorded step(s)? This cannot be undone.", nullptr,
                     static_cast<int>(steps))
                      .arg(names.join(", ")),
                  QMessageBox::Yes | QMessageBox::No, this);
  box.button(QMessageBox::Yes)->setText(tr("Delete"));
  box.setDefaultButton(QMessageBox::No);
  return box.exec() == QMessageBox::Yes;
}

void MainWindow::deleteRuns(const QList<qint64>& ids) {
  if (ids.isEmpty()) return;
  for (qint64 id : ids) {
    if (launcher_->canStop(id)) {
      showProblem(this, tr("Delete"),
                  {tr("Run %1 is still queued or running.").arg(id),
                   tr("Stop it first (Ctrl+.), then delete it.")});
      return;
    }
  }
  if (!options_.quiet && !confirmDelete(ids)) return;
  for (qint64 id : ids) {
    chartPanel_->lossChart()->forgetRun(id);
    db_->post(&DatabaseWorker::deleteRun, id);
  }
}

// Quit with runs going asks: let them finish (the running ones train on without the window, and
// the next window on this database shows them running, then ended), or stop them (each recorded
// stopped). Quiet mode stops them.
void MainWindow::closeEvent(QCloseEvent* event) {
  const int active = launcher_->outstanding();
  bool letFinish = false;
  if (active > 0 && !options_.quiet) {
    QMessageBox box(
        QMessageBox::Question, tr("Runs still going"),
        tr("%n run(s) launched from this window are still running or queued.", nullptr, active),
        QMessageBox::NoButton, this);
    box.setObjectName("quitWithRunsBox");
    box.setInformativeText(
        tr("Let them finish: the running ones keep training after the window closes; open "
           "this database again to watch them end. Runs not started yet are not started.\n"
           "Stop them: each is stopped and recorded stopped."));
    QPushButton* finish = box.addButton(tr("&Let them finish"), QMessageBox::AcceptRole);
    QPushButton* stop = box.addButton(tr("&Stop them"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(finish);
    box.exec();
    if (box.clickedButton() != finish && box.clickedButton() != stop) {
      event->ignore();
      return;
    }
    letFinish = box.clickedButton() == finish;
  }
  if (letFinish) {
    launcher_->letFinish();
  } else {
    launcher_->stopAllAndWait();
  }
  flushSetups();
  db_->flush();
  if (options_.useSettings) saveSettings();
  event->accept();
}

}  // namespace parity::ui
