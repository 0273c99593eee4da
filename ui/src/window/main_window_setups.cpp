// MainWindow: the setups and experiment kept with the database (schema 7's window_setups) and
// "New setup from run #N". What the Setups and Experiment tabs hold is saved a moment after each
// change (debounced) and read back when a database opens. A database with no saved setups leaves
// the on-screen ones as they are and gets nothing written until the user changes something.
#include <parity/config/run_config.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QDockWidget>
#include <QStatusBar>
#include <QTimer>

namespace parity::ui {

void MainWindow::createSetupsKeeping() {
  setupsSave_ = new QTimer(this);
  setupsSave_->setSingleShot(true);
  setupsSave_->setInterval(kSetupsSaveDelayMs);
  connect(setupsSave_, &QTimer::timeout, this, &MainWindow::saveSetupsNow);
  connect(setups_, &SetupsModel::setupsChanged, this, [this] {
    if (applyingSetups_) return;
    setupsUnsaved_ = true;
    if (setupsRead_) setupsSave_->start();
  });
  connect(db_->worker(), &DatabaseWorker::setupsRead, this, &MainWindow::onSetupsRead);
  connect(runsPanel_, &RunsPanel::newSetupRequested, this, &MainWindow::newSetupFromRun);
}

void MainWindow::onSetupsRead(const QString& path, const QString& json) {
  if (path != db_->path()) return;  // another database was asked for meanwhile
  setupsRead_ = true;
  // What the user changed while no database was open (the demo's setups, say) is theirs: kept
  // on screen and written to this database rather than replaced by what it saved.
  if (setupsUnsaved_) {
    saveSetupsNow();
    return;
  }
  if (json.isEmpty()) return;
  applyingSetups_ = true;
  const bool read = setups_->fromJson(json);
  applyingSetups_ = false;
  if (read) setupsPanel_->setCurrentRow(0);
}

void MainWindow::saveSetupsNow() {
  setupsSave_->stop();
  if (!setupsRead_ || !setupsUnsaved_) return;
  db_->post(&DatabaseWorker::saveSetups, setups_->toJson());
  setupsUnsaved_ = false;
}

// Before another database opens (or the window closes), a change still waiting for its delay
// goes to the database it was made with.
void MainWindow::flushSetups() {
  if (setupsSave_->isActive()) saveSetupsNow();
}

void MainWindow::newSetupFromRun(qint64 runId) {
  const storage::RunRow* run = runs_->runById(runId);
  if (!run) return;
  config::RunConfig setup;
  try {
    setup = config::from_json(run->config_json);
  } catch (const std::exception& e) {
    statusBar()->showMessage(tr("Run #%1's setup cannot be read: %2").arg(runId).arg(e.what()),
                             8000);
    return;
  }
  // The experiment is shared by every setup: a run of another experiment brings its own, said.
  config::RunConfig experiment = setups_->experiment();
  applyExperiment(setup, experiment);
  const bool otherExperiment =
      config::to_json(experiment) != config::to_json(setups_->experiment());
  if (otherExperiment) setups_->setExperiment(experiment);
  setup.label = run->label;
  const int row = setups_->addSetup(setup);
  setupsDock_->show();
  setupsDock_->raise();
  setupsPanel_->setCurrentRow(row);
  statusBar()->showMessage(
      otherExperiment
          ? tr("Added setup %1 from run #%2; the Experiment tab now has run #%2's data and model")
                .arg(setups_->index(row).data().toString())
                .arg(runId)
          : tr("Added setup %1 from run #%2").arg(setups_->index(row).data().toString()).arg(runId),
      8000);
}

}  // namespace parity::ui
