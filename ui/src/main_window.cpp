#include <parity/ui/chart_panel.h>
#include <parity/ui/compare_panel.h>
#include <parity/ui/database_client.h>
#include <parity/ui/equivalent_batch_panel.h>
#include <parity/ui/error_advice.h>
#include <parity/ui/loss_chart.h>
#include <parity/ui/main_window.h>
#include <parity/ui/run_launcher.h>
#include <parity/ui/runs_model.h>
#include <parity/ui/runs_panel.h>
#include <parity/ui/setup_presets.h>
#include <parity/ui/setups_model.h>
#include <parity/ui/setups_panel.h>

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace parity::ui {

namespace {

QSettings settings() {
  return QSettings(QSettings::IniFormat, QSettings::UserScope, "parity", "parity");
}

}  // namespace

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      db_(new DatabaseClient(this)),
      launcher_(new RunLauncher(db_, this)),
      setups_(new SetupsModel(this)),
      runs_(new RunsModel(this)),
      setupsPanel_(new SetupsPanel(setups_)),
      runsPanel_(new RunsPanel(runs_)),
      chartPanel_(new ChartPanel),
      equivalentPanel_(new EquivalentBatchPanel(setups_)),
      comparePanel_(new ComparePanel(runs_, db_)) {
  setQuietDialogs(options_.quiet);
  setWindowTitle(tr("Parity"));
  setWindowIcon(QIcon(":/parity/parity.svg"));
  setCentralWidget(chartPanel_);
  createDocks();
  createActions();
  createMenus();
  connectPlumbing();

  dbLabel_ = new QLabel(this);
  statusBar()->addPermanentWidget(dbLabel_);
  resize(1500, 950);
  if (options_.useSettings) restoreSettings();
  if (setups_->rowCount() == 0) {
    for (const auto& p : presets()) setups_->addSetup(p.setup);
    setupsPanel_->setCurrentRow(0);
  }
}

MainWindow::~MainWindow() = default;

QString MainWindow::defaultDatabasePath() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("parity.db");
}

void MainWindow::createDocks() {
  setDockOptions(AnimatedDocks | AllowTabbedDocks);
  setupsDock_ = new QDockWidget(tr("Setups"), this);
  setupsDock_->setObjectName("setupsDock");
  setupsDock_->setWidget(setupsPanel_);
  addDockWidget(Qt::LeftDockWidgetArea, setupsDock_);

  runsDock_ = new QDockWidget(tr("Runs"), this);
  runsDock_->setObjectName("runsDock");
  runsDock_->setWidget(runsPanel_);
  addDockWidget(Qt::BottomDockWidgetArea, runsDock_);

  equivalentDock_ = new QDockWidget(tr("Equivalent batch"), this);
  equivalentDock_->setObjectName("equivalentDock");
  equivalentDock_->setWidget(equivalentPanel_);
  addDockWidget(Qt::BottomDockWidgetArea, equivalentDock_);
  tabifyDockWidget(runsDock_, equivalentDock_);
  compareDock_ = new QDockWidget(tr("Compare"), this);
  compareDock_->setObjectName("compareDock");
  compareDock_->setWidget(comparePanel_);
  addDockWidget(Qt::BottomDockWidgetArea, compareDock_);
  tabifyDockWidget(equivalentDock_, compareDock_);
  runsDock_->raise();
  resizeDocks({setupsDock_}, {430}, Qt::Horizontal);
  resizeDocks({runsDock_}, {300}, Qt::Vertical);
}

void MainWindow::connectPlumbing() {
  connect(db_, &DatabaseClient::databaseOpened, this, [this](const QString& path) {
    setWindowTitle(tr("Parity — %1").arg(QDir::toNativeSeparators(path)));
    dbLabel_->setText(QDir::toNativeSeparators(path));
    if (options_.useSettings) settings().setValue("database/last", path);
    emit databaseReady(path);
    if (demoPending_) {
      demoPending_ = false;
      launch(setups_->configs());
    }
  });
  connect(db_, &DatabaseClient::databaseFailed, this,
          [this](const QString& path, const QString& message) {
            demoPending_ = false;
            Advice advice = adviseOn(message);
            advice.problem = tr("The database %1 could not be opened: %2").arg(path, message);
            showProblem(this, tr("Database"), advice);
          });
  connect(db_, &DatabaseClient::runsListed, this, &MainWindow::onRunsListed);
  connect(db_, &DatabaseClient::pollFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Reading runs failed (retrying): %1").arg(message), 3000);
  });
  connect(db_, &DatabaseClient::operationFailed, this,
          [this](const QString& what, const QString& message) {
            showProblem(this, what, adviseOn(message), message);
          });
  connect(db_, &DatabaseClient::exportFinished, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
  });

  connect(setupsPanel_, &SetupsPanel::launchRequested, this, &MainWindow::launch);
  connect(setupsPanel_->concurrencyBox(), &QSpinBox::valueChanged, launcher_,
          &RunLauncher::setMaxConcurrent);
  launcher_->setMaxConcurrent(setupsPanel_->concurrencyBox()->value());
  connect(launcher_, &RunLauncher::launchFailed, this,
          [this](const QString& problem, const QString& fix) {
            showProblem(this, tr("Launch"), Advice{problem, fix});
            updateStatus();
          });
  connect(launcher_, &RunLauncher::runStarted, this, &MainWindow::updateStatus);
  connect(launcher_, &RunLauncher::idle, this, [this] {
    awaitingFinalPoll_ = true;  // the runs' last rows and statuses come with the next poll
    db_->pollNow();
    updateStatus();
  });
  connect(runs_, &RunsModel::runEnded, this,
          [this](qint64 id, const QString& status, const QString& error) {
            if (status == "failed") {
              const auto* run = runs_->runById(id);
              const QString label = run ? QString::fromStdString(run->label) : QString();
              showProblem(this, tr("Run %1 (%2) failed").arg(id).arg(label), adviseOn(error),
                          error);
            }
            updateStatus();
          });
  connect(runs_, &RunsModel::shownRunsChanged, this, &MainWindow::updateChartRuns);
  connect(runs_, &RunsModel::renameRequested, db_, &DatabaseClient::renameRun);
  connect(runs_, &RunsModel::notesEdited, db_, &DatabaseClient::setNotes);
  runsPanel_->setCanStop([this](qint64 id) { return launcher_->canStop(id); });
  connect(runsPanel_, &RunsPanel::stopRequested, this, &MainWindow::stopRuns);
  connect(runsPanel_, &RunsPanel::deleteRequested, this, &MainWindow::deleteRuns);
  connect(chartPanel_->lossChart(), &LossChart::fetchFailed, this, [this](const QString& m) {
    statusBar()->showMessage(tr("Reading curves failed: %1").arg(m), 5000);
  });
  connect(chartPanel_->lossChart(), &LossChart::redrawn, this, &MainWindow::updateStatus);
}

void MainWindow::openDatabase(const QString& path) {
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

void MainWindow::launch(const std::vector<engine::RunConfig>& configs) {
  if (configs.empty()) return;
  awaitingFinalPoll_ = false;
  launcher_->launch(configs);
  runsDock_->raise();
  updateStatus();
}

bool MainWindow::isSettled(bool waitForRuns) const {
  if (!polledOnce_ || demoPending_) return false;
  if (waitForRuns && (launcher_->outstanding() > 0 || awaitingFinalPoll_)) return false;
  return chartPanel_->lossChart()->isSettled();
}

void MainWindow::onRunsListed(const RunRows& runs) {
  polledOnce_ = true;
  awaitingFinalPoll_ = false;
  runs_->setRuns(runs);
  updateChartRuns();
}

void MainWindow::updateChartRuns() {
  std::vector<ChartRun> shown;
  for (qint64 id : runs_->shownRuns()) {
    const auto* r = runs_->runById(id);
    if (!r) continue;
    shown.push_back(
        {id, QString::fromStdString(r->label), QString::fromStdString(r->status), r->steps_done});
  }
  chartPanel_->lossChart()->setRuns(shown);
  updateStatus();
}

void MainWindow::updateStatus() {
  const int running = launcher_->running();
  const int waiting = launcher_->outstanding() - running;
  QString text = tr("%n run(s) drawn", nullptr, static_cast<int>(runs_->shownRuns().size()));
  if (running > 0) text += tr(" · %n running", nullptr, running);
  if (waiting > 0) text += tr(" · %n queued", nullptr, waiting);
  chartPanel_->setStatusText(text);
  stopAll_->setEnabled(launcher_->outstanding() > 0);
}

void MainWindow::stopRuns(const QList<qint64>& ids) {
  for (qint64 id : ids) launcher_->stop(id);
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
  if (!options_.quiet &&
      QMessageBox::question(this, tr("Delete runs"),
                            tr("Delete %n run(s) with all their steps? This cannot be undone.",
                               nullptr, static_cast<int>(ids.size()))) != QMessageBox::Yes) {
    return;
  }
  for (qint64 id : ids) {
    chartPanel_->lossChart()->forgetRun(id);
    db_->deleteRun(id);
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  const int active = launcher_->outstanding();
  if (active > 0 && !options_.quiet) {
    const auto answer = QMessageBox::question(
        this, tr("Runs still going"),
        tr("%n run(s) launched from this window are still queued or running. Stop them and "
           "quit?",
           nullptr, active));
    if (answer != QMessageBox::Yes) {
      event->ignore();
      return;
    }
  }
  launcher_->stopAll();
  if (options_.useSettings) saveSettings();
  event->accept();
}

void MainWindow::restoreSettings() {
  QSettings s = settings();
  restoreGeometry(s.value("window/geometry").toByteArray());
  restoreState(s.value("window/state").toByteArray());
  chartPanel_->setXAxis(static_cast<engine::Axis>(
      s.value("chart/xAxis", static_cast<int>(engine::Axis::kSamples)).toInt()));
  chartPanel_->setSmoothing(s.value("chart/smoothing", 0.6).toDouble());
  chartPanel_->setLogY(s.value("chart/logY", false).toBool());
  chartPanel_->setShowRanks(s.value("chart/ranks", false).toBool());
  equivalentPanel_->setReferenceBatch(s.value("setups/referenceBatch", 256).toLongLong());
  if (s.contains("setups/concurrent")) {
    setupsPanel_->concurrencyBox()->setValue(s.value("setups/concurrent").toInt());
  }
  const QString json = s.value("setups/json").toString();
  if (!json.isEmpty()) setups_->fromJson(json);
}

void MainWindow::saveSettings() const {
  QSettings s = settings();
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
  const LossChart* chart = chartPanel_->lossChart();
  s.setValue("chart/xAxis", static_cast<int>(chart->xAxis()));
  s.setValue("chart/smoothing", chart->smoothing());
  s.setValue("chart/logY", chart->logY());
  s.setValue("chart/ranks", chart->showRanks());
  s.setValue("setups/referenceBatch", static_cast<qlonglong>(equivalentPanel_->referenceBatch()));
  s.setValue("setups/concurrent", setupsPanel_->concurrencyBox()->value());
  s.setValue("setups/json", setups_->toJson());
}

}  // namespace parity::ui
