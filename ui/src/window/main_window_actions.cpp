// MainWindow: actions, menus, file dialogs and exports (the rest is in main_window.cpp).
#include <parity/ui/chart/chart_export.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/run_launcher.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/widgets/file_dialogs.h>
#include <parity/ui/window/error_advice.h>
#include <parity/ui/window/main_window.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QToolButton>

namespace parity::ui {

namespace {

QAction* action(QObject* parent, const QString& text, const QKeySequence& shortcut = {},
                const QString& tip = {}) {
  auto* a = new QAction(text, parent);
  if (!shortcut.isEmpty()) a->setShortcut(shortcut);
  if (!tip.isEmpty()) a->setStatusTip(tip);
  return a;
}

}  // namespace

void MainWindow::createActions() {
  newDb_ = action(this, tr("&New database…"), QKeySequence::New,
                  tr("Create an empty database file and switch to it"));
  openDb_ = action(this, tr("&Open database…"), QKeySequence::Open,
                   tr("Switch to another database file"));
  importRuns_ = action(this, tr("&Import runs…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I),
                       tr("Runs trained elsewhere: TensorBoard logdirs, trainer_state.json, "
                          "MLflow stores, CSV tables"));
  exportCurves_ = action(this, tr("Export &curves as CSV…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                         tr("Curves of the runs drawn on the chart, long format, ranks included"));
  exportRuns_ =
      action(this, tr("Export &runs table as CSV…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
             tr("The runs listed (after the filter), with configs and finals"));
  exportReport_ = action(this, tr("E&xport report…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                         tr("What Compare shows, as a report to send: HTML (one file, its plots "
                            "inline), PDF (A4) or CSV"));
  exportPng_ =
      action(this, tr("Save chart as &PNG…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  exportSvg_ =
      action(this, tr("Save chart as &SVG…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
  quit_ = action(this, tr("&Quit"), QKeySequence::Quit);
  launch_ = action(this, tr("&Launch setups"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                   tr("Start every setup as separate processes"));
  demo_ = action(this, tr("Launch the de&mo"), {},
                 tr("Fashion-MNIST MLP as 1x64, 2x32, 2x64 unscaled and 2x64 linear"));
  stopAll_ =
      action(this, tr("Stop &all runs"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period));
  resetZoom_ = action(this, tr("&Reset zoom"), QKeySequence(Qt::CTRL | Qt::Key_0));
  logY_ = action(this, tr("&Log y axis"), QKeySequence(Qt::CTRL | Qt::Key_L));
  logY_->setCheckable(true);
  ranks_ = action(this, tr("&Per-rank curves"), QKeySequence(Qt::CTRL | Qt::Key_R));
  ranks_->setCheckable(true);
  resetLayout_ = action(this, tr("Reset la&yout"), {},
                        tr("Put every panel back where it was first: docked, Runs, Equivalent "
                           "batch and Compare tabbed under the chart"));

  connect(newDb_, &QAction::triggered, this, &MainWindow::newDatabase);
  connect(openDb_, &QAction::triggered, this, &MainWindow::chooseDatabase);
  connect(importRuns_, &QAction::triggered, this, [this] { importRuns(); });
  connect(runsPanel_, &RunsPanel::editFactsRequested, this, &MainWindow::editFacts);
  connect(exportCurves_, &QAction::triggered, this, &MainWindow::exportCurves);
  connect(exportRuns_, &QAction::triggered, this, &MainWindow::exportRuns);
  connect(exportReport_, &QAction::triggered, this, &MainWindow::exportReport);
  connect(exportPng_, &QAction::triggered, this, [this] { exportChart(false); });
  connect(exportSvg_, &QAction::triggered, this, [this] { exportChart(true); });
  connect(quit_, &QAction::triggered, this, &QWidget::close);
  connect(launch_, &QAction::triggered, setupsPanel_->launchButton(), &QPushButton::click);
  connect(demo_, &QAction::triggered, this, &MainWindow::launchDemo);
  connect(stopAll_, &QAction::triggered, launcher_, &RunLauncher::stopAll);
  LossChart* chart = chartPanel_->lossChart();
  connect(resetZoom_, &QAction::triggered, chart, &LossChart::resetZoom);
  connect(resetLayout_, &QAction::triggered, this, &MainWindow::resetLayout);
  connect(logY_, &QAction::toggled, chartPanel_, &ChartPanel::setLogY);
  connect(ranks_, &QAction::toggled, chartPanel_, &ChartPanel::setShowRanks);
  connect(chartPanel_, &ChartPanel::optionsChanged, this, [this, chart] {
    logY_->setChecked(chart->logY());
    ranks_->setChecked(chart->showRanks());
  });

  auto* exportMenu = new QMenu(this);
  exportMenu->addAction(exportCurves_);
  exportMenu->addAction(exportPng_);
  exportMenu->addAction(exportSvg_);
  chartPanel_->exportButton()->setMenu(exportMenu);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(newDb_);
  file->addAction(openDb_);
  file->addSeparator();
  file->addAction(importRuns_);
  file->addSeparator();
  file->addAction(exportCurves_);
  file->addAction(exportRuns_);
  file->addAction(exportReport_);
  file->addAction(exportPng_);
  file->addAction(exportSvg_);
  file->addSeparator();
  file->addAction(quit_);

  QMenu* runs = menuBar()->addMenu(tr("&Runs"));
  runs->addAction(launch_);
  runs->addAction(demo_);
  runs->addSeparator();
  runs->addAction(runsPanel_->stopAction());
  runs->addAction(stopAll_);
  runs->addSeparator();
  runs->addAction(runsPanel_->renameAction());
  runs->addAction(runsPanel_->notesAction());
  runs->addAction(runsPanel_->factsAction());
  runs->addAction(runsPanel_->newSetupAction());
  runs->addAction(runsPanel_->compareAction());
  runs->addAction(runsPanel_->deleteAction());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(resetZoom_);
  view->addAction(logY_);
  view->addAction(ranks_);
  view->addSeparator();
  // The tabbed docks under the chart, one shortcut each: shown, in front, and focused.
  const std::pair<QDockWidget*, QString> tabs[] = {{runsDock_, tr("Show R&uns")},
                                                   {equivalentDock_, tr("Show &Equivalent batch")},
                                                   {compareDock_, tr("Show &Compare")}};
  int key = Qt::Key_1;
  for (const auto& [dock, text] : tabs) {
    QAction* a = view->addAction(text, this, [this, dock = dock] { showDock(dock); });
    a->setShortcut(QKeySequence(Qt::CTRL | key++));
    a->setObjectName(dock->objectName() + "Show");
  }
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  view->addAction(resetLayout_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard and mouse"), this, &MainWindow::showShortcuts);
  help->addAction(tr("&About Parity"), this, [this] {
    QMessageBox::about(this, tr("About Parity"),
                       tr("<b>Parity</b> %1<br>Compare loss curves across distributed training "
                          "setups, and find out whether they differ because of arithmetic or "
                          "because of a bug.")
                           .arg(QApplication::applicationVersion()));
  });
}

QString MainWindow::askSavePath(const QString& title, const QString& name, const QString& filter) {
  QSettings s(QSettings::IniFormat, QSettings::UserScope, "parity", "parity");
  const QString dir = s.value("export/dir", QDir::homePath()).toString();
  const QString path =
      askPath(this, FileDialogKind::kSaveFile, title, QDir(dir).filePath(name), filter);
  if (!path.isEmpty()) s.setValue("export/dir", QFileInfo(path).absolutePath());
  return path;
}

void MainWindow::newDatabase() {
  const QString path = askPath(this, FileDialogKind::kSaveFile, tr("New database"),
                               QFileInfo(databasePath()).absolutePath() + "/parity-new.db",
                               tr("Parity databases (*.db);;All files (*)"));
  if (path.isEmpty()) return;
  if (QFileInfo::exists(path)) {
    // The dialog already asked to replace it; an existing database is simply opened, not wiped.
    statusBar()->showMessage(tr("%1 exists: opened it as it is").arg(path), 6000);
  }
  openDatabase(path);
}

void MainWindow::chooseDatabase() {
  const QString path = askPath(this, FileDialogKind::kOpenFile, tr("Open database"),
                               QFileInfo(databasePath()).absolutePath(),
                               tr("Parity databases (*.db);;All files (*)"));
  if (!path.isEmpty()) openDatabase(path);
}

void MainWindow::exportCurves() {
  QList<qint64> ids = runs_->shownRuns();
  const QString path = askSavePath(tr("Export curves"), "parity-curves.csv", tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  db_->post(&DatabaseWorker::exportCurves, path, ids, true);
}

void MainWindow::exportRuns() {
  QList<qint64> ids;
  QSortFilterProxyModel* proxy = runsPanel_->proxy();
  for (int row = 0; row < proxy->rowCount(); ++row) {
    ids.append(proxy->index(row, 0).data(RunsModel::kRunIdRole).toLongLong());
  }
  const QString path = askSavePath(tr("Export runs"), "parity-runs.csv", tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  db_->post(&DatabaseWorker::exportRuns, path, ids);
}

void MainWindow::exportReport() {
  const qint64 reference = comparePanel_->referenceId();
  QList<qint64> ids;
  const VerdictTableModel* verdicts = comparePanel_->verdictModel();
  for (int row = 0; row < verdicts->rowCount(); ++row) {
    if (verdicts->runId(row) != reference) ids.append(verdicts->runId(row));
  }
  if (reference <= 0 || ids.isEmpty()) {
    QMessageBox::information(this, tr("Export report"),
                             tr("Compare runs first: the report is what the Compare panel shows "
                                "(its reference and the runs judged against it)."));
    return;
  }
  QString path =
      askSavePath(tr("Export report"), QString("parity-report-%1.html").arg(reference),
                  tr("HTML report (*.html);;PDF report (*.pdf);;CSV report (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += ".html";  // the writer goes by the extension
  statusBar()->showMessage(tr("Writing the report of %n run(s) against #%1…", nullptr,
                              static_cast<int>(ids.size()))
                               .arg(reference));
  db_->post(&DatabaseWorker::exportReport, path, reference, ids);
}

void MainWindow::exportChart(bool svg) {
  const QString path = svg ? askSavePath(tr("Save chart"), "parity-chart.svg", tr("SVG (*.svg)"))
                           : askSavePath(tr("Save chart"), "parity-chart.png", tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  const QList<QWidget*> stack = chartPanel_->exportStack();  // the chart, its legend whole
  LossChart* chart = chartPanel_->lossChart();
  // OpenGL-drawn lines live on a GL surface a vector painter cannot see: draw them plainly.
  const bool accelerated = chart->accelerated();
  if (accelerated) {
    chart->setAccelerated(false);
    chart->redrawNow();
  }
  const QString error = svg ? saveStackSvg(stack, path, windowTitle()) : saveStackPng(stack, path);
  if (accelerated) chart->setAccelerated(true);
  if (!error.isEmpty()) {
    showProblem(this, tr("Save chart"), {error, tr("Choose another folder.")});
  } else {
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 6000);
  }
}

void MainWindow::showDock(QDockWidget* dock) {
  dock->show();
  dock->raise();
  dock->widget()->setEnabled(true);  // visibilityChanged comes later; the focus needs it now
  dock->widget()->setFocus(Qt::ShortcutFocusReason);
}

// Floated or dragged docks back where the window first put them, at their first sizes.
void MainWindow::resetLayout() {
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    dock->setFloating(false);
    dock->show();
  }
  restoreState(defaultLayout_);
  runsDock_->raise();
}

void MainWindow::showShortcuts() {
  QMessageBox::information(
      this, tr("Keyboard and mouse"),
      tr("<table>"
         "<tr><td><b>Chart</b></td><td></td></tr>"
         "<tr><td>drag</td><td>zoom to a box</td></tr>"
         "<tr><td>right- or middle-drag</td><td>pan</td></tr>"
         "<tr><td>wheel / Shift+wheel</td><td>zoom x / zoom y</td></tr>"
         "<tr><td>double-click, Home, Ctrl+0</td><td>reset zoom</td></tr>"
         "<tr><td>arrows, + / −</td><td>pan, zoom</td></tr>"
         "<tr><td>Ctrl+L / Ctrl+R</td><td>log y / per-rank curves</td></tr>"
         "<tr><td><b>Runs</b></td><td></td></tr>"
         "<tr><td>Ctrl+Return</td><td>launch the setups</td></tr>"
         "<tr><td>F2 / Ctrl+I</td><td>rename / notes</td></tr>"
         "<tr><td>Ctrl+. / Delete</td><td>stop / delete the selected runs</td></tr>"
         "<tr><td>Ctrl+E / Ctrl+Shift+E</td><td>export curves / runs as CSV</td></tr>"
         "<tr><td>Ctrl+1 / 2 / 3</td><td>the Runs / Equivalent batch / Compare panel</td></tr>"
         "</table>"));
}

}  // namespace parity::ui
