// MainWindow: what the window keeps between sessions in QSettings (its size and place, fitted to
// the screen it opens on; the chart's choices; the equivalent-batch reference when chosen; where
// the setups train; the setups themselves, also kept with each database).
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/runs/launch_target.h>
#include <parity/ui/setups/equivalent_batch_panel.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSpinBox>
#include <QTimer>
#include <algorithm>

namespace parity::ui {

QSettings MainWindow::settings() {
  return QSettings(QSettings::IniFormat, QSettings::UserScope, "parity", "parity");
}

void MainWindow::restoreSettings() {
  QSettings s = settings();
  restoreGeometry(s.value("window/geometry").toByteArray());
  fitToScreen();
  restoreState(s.value("window/state").toByteArray());
  chartPanel_->setXAxis(static_cast<analysis::Axis>(
      s.value("chart/xAxis", static_cast<int>(analysis::Axis::kSamples)).toInt()));
  chartPanel_->setSmoothing(s.value("chart/smoothing", 0.6).toDouble());
  chartPanel_->setLogY(s.value("chart/logY", false).toBool());
  chartPanel_->setShowRanks(s.value("chart/ranks", false).toBool());
  if (s.contains("setups/referenceBatch"))  // a reference chosen; else it follows the setups
    equivalentPanel_->setReferenceBatch(s.value("setups/referenceBatch").toLongLong());
  if (s.contains("setups/concurrent")) {
    setupsPanel_->concurrencyBox()->setValue(s.value("setups/concurrent").toInt());
  }
  // Where the setups train (this computer or Slurm, with sbatch's options), as last chosen.
  LaunchTarget target;
  target.slurm = s.value("launch/slurm", false).toBool();
  target.partition = s.value("launch/partition").toString();
  target.time = s.value("launch/time").toString();
  target.account = s.value("launch/account").toString();
  target.gres = s.value("launch/gres").toString();
  setupsPanel_->setLaunchTarget(target);
  const QString json = s.value("setups/json").toString();
  if (!json.isEmpty()) setups_->fromJson(json);
}

// A geometry saved on a larger screen (1500x950 restored on a 900x600 one) is fitted to the
// screen the window opens on: no larger than its free area, and inside it. (Qt only moves a
// window that would open off the screen.)
void MainWindow::fitToScreen() {
  if (isMaximized() || isFullScreen() || screen() == nullptr) return;
  const QRect free = screen()->availableGeometry();
  // The frame's border and title, known once the window has been shown (none before).
  const QSize border = frameGeometry().size() - geometry().size();
  const QSize fitted = size().boundedTo(free.size() - border);
  if (fitted != size()) resize(fitted);
  QRect frame = frameGeometry();
  frame.moveRight(std::min(frame.right(), free.right()));
  frame.moveBottom(std::min(frame.bottom(), free.bottom()));
  frame.moveLeft(std::max(frame.left(), free.left()));
  frame.moveTop(std::max(frame.top(), free.top()));
  if (frame.topLeft() != frameGeometry().topLeft()) move(frame.topLeft());
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (options_.useSettings && !event->spontaneous() && !fittedOnce_) {
    fittedOnce_ = true;
    QTimer::singleShot(0, this, &MainWindow::fitToScreen);
  }
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
  if (equivalentPanel_->followsSetups()) {
    s.remove("setups/referenceBatch");
  } else {
    s.setValue("setups/referenceBatch", static_cast<qlonglong>(equivalentPanel_->referenceBatch()));
  }
  s.setValue("setups/concurrent", setupsPanel_->concurrencyBox()->value());
  const LaunchTarget target = setupsPanel_->launchTarget();
  s.setValue("launch/slurm", target.slurm);
  s.setValue("launch/partition", target.partition);
  s.setValue("launch/time", target.time);
  s.setValue("launch/account", target.account);
  s.setValue("launch/gres", target.gres);
  s.setValue("setups/json", setups_->toJson());
}

}  // namespace parity::ui
