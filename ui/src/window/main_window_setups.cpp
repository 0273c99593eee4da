// MainWindow: the setups and experiment kept with the database (schema 7's window_setups),
// "New setup from run #N" and Make it equivalent's "fix #N". What the Setups and Experiment tabs
// hold is saved a moment after each change (debounced) and read back when a database opens. A
// database with no saved setups leaves the on-screen ones as they are and gets nothing written
// until the user changes something.
#include <parity/config/run_config.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/experiment/experiment_form.h>
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
  // The experiment is shared by every setup: a run of another experiment brings its own, and
  // the Experiment tab shows it, with a note naming each value it changed and that the other
  // setups train it too (the form used to keep showing the old values).
  const config::RunConfig before = setups_->experiment();
  config::RunConfig experiment = before;
  applyExperiment(setup, experiment);
  QStringList changed;
  for (const config::ConfigField& field : config::config_fields()) {
    const std::string name(field.name);
    if (!isExperimentField(name)) continue;
    const std::string was = config::field_text(before, name);
    const std::string now = config::field_text(experiment, name);
    if (was == now) continue;
    changed << tr("%1 %2 → %3")
                   .arg(QString::fromStdString(name),
                        was.empty() ? tr("unset") : QString::fromStdString(was),
                        now.empty() ? tr("unset") : QString::fromStdString(now));
  }
  const int others = setups_->rowCount();
  if (!changed.isEmpty()) {
    setups_->setExperiment(experiment);
    setupsPanel_->experimentForm()->setConfig(setups_->experiment());
  }
  setup.label = run->label;
  const int row = setups_->addSetup(setup);
  const QString label = setups_->index(row).data().toString();
  setupsDock_->show();
  setupsDock_->raise();
  setupsPanel_->setCurrentRow(row);
  if (changed.isEmpty()) {
    statusBar()->showMessage(tr("Added setup %1 from run #%2").arg(label).arg(runId), 8000);
    return;
  }
  const QString note =
      tr("Setup %1 from run #%2 changed the shared Experiment to run #%2's: %3. %4")
          .arg(label)
          .arg(runId)
          .arg(changed.join("; "),
               others == 1 ? tr("The other setup trains these values too.")
                           : tr("The %1 other setups train these values too.").arg(others));
  setupsPanel_->experimentForm()->setChangeNote(note);
  statusBar()->showMessage(note, 15000);
}

// The remedy as a setup beside the user's: "fix #2". The Experiment is shared by every setup and
// is not changed behind the user's back: where the remedy's differs (an lr it changed, or the
// run's own data and model), the note says that Launch of this setup trains the Experiment's
// values, while the queued remedy run trains the remedy's own.
void MainWindow::onFixQueued(const RemedyPlan& fix) {
  comparePanel_->fixQueued(fix);
  if (fix.created.isEmpty()) return;  // nothing trained here, nothing to add
  constexpr int kNamed = 5;
  QStringList changed, other;  // Experiment keys the remedy changed; the run's others
  const config::RunConfig& experiment = setups_->experiment();
  for (const config::ConfigField& field : config::config_fields()) {
    const std::string name(field.name);
    if (!isExperimentField(name)) continue;
    const std::string remedy = config::field_text(fix.config, name);
    const std::string shared = config::field_text(experiment, name);
    if (remedy == shared) continue;
    const QString key = QString::fromStdString(name);
    if (fix.changedKeys.contains(key)) {
      changed << tr("the remedy's %1 %2 is %3 there")
                     .arg(key, QString::fromStdString(remedy),
                          shared.empty() ? tr("unset") : QString::fromStdString(shared));
    } else {
      other << key;
    }
  }
  if (other.size() > kNamed) {
    const int more = static_cast<int>(other.size()) - kNamed;
    other = other.mid(0, kNamed) << tr("%n more", nullptr, more);
  }
  if (!other.isEmpty())
    changed
        << tr("run #%1's experiment differs from it in %2").arg(fix.runId).arg(other.join(", "));
  config::RunConfig setup = fix.config;
  setup.label = tr("fix #%1").arg(fix.runId).toStdString();
  const int row = setups_->addSetup(setup);
  const QString label = setups_->index(row).data().toString();
  setupsDock_->show();
  setupsDock_->raise();
  setupsPanel_->setCurrentRow(row);
  QString note = tr("The remedy of #%1 is the setup \"%2\" in the Setups panel; run #%3 trains it.")
                     .arg(fix.runId)
                     .arg(label)
                     .arg(fix.created.front());
  if (!changed.isEmpty()) {
    note += " " + tr("The shared Experiment is left as it is: %1. Launch of \"%2\" trains the "
                     "Experiment's values, run #%3 the remedy's.")
                      .arg(changed.join("; "), label)
                      .arg(fix.created.front());
  }
  statusBar()->showMessage(note, 15000);
  comparePanel_->noteFixSetup(fix.runId, note);
}

}  // namespace parity::ui
