// MainWindow: the docks around the chart (Setups on the left; Runs, Equivalent batch and Compare
// tabbed under it), their default sizes and how they give way when the window shrinks.
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/equivalent_batch_panel.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QDockWidget>
#include <QResizeEvent>

namespace parity::ui {

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
  // Qt keeps the docks whose tab is not current shown, only moved out of sight, so Tab walked
  // from the runs table into the Equivalent batch and Compare panels behind it. A panel is
  // enabled while its tab is the one shown.
  for (QDockWidget* dock : {runsDock_, equivalentDock_, compareDock_}) {
    dock->widget()->setEnabled(dock == runsDock_);
    connect(dock, &QDockWidget::visibilityChanged, dock->widget(), &QWidget::setEnabled);
  }
  resizeDocks({setupsDock_}, {430}, Qt::Horizontal);
  resizeDocks({runsDock_}, {300}, Qt::Vertical);
  // The Compare pane reads a verdict table, a run's details and the Δ plot side by side: at the
  // Runs table's 300 px it showed 3 verdicts and 4 lines of details. The first time it comes to
  // the front the docks under the chart take half the window (the chart keeps the rest).
  connect(compareDock_, &QDockWidget::visibilityChanged, this, [this](bool shown) {
    compareInFront_ = shown;
    if (!shown || compareSized_ || compareDock_->isFloating()) return;
    compareSized_ = true;
    if (compareDock_->height() < height() * kCompareShare / 100)
      resizeDocks({compareDock_}, {height() * kCompareShare / 100}, Qt::Vertical);
  });
}

// Docks keep their pixel size when the window shrinks, so at 900x600 the runs table took half
// the height and the setup form showed two rows. Each dock is held to at most 40 % of the window
// (the Compare pane, while in front, to half); within that a size the user chose stays (and is
// saved with the window's state).
void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  const int maxHeight = height() * (compareInFront_ ? kCompareShare : 40) / 100;
  const int maxWidth = width() * 2 / 5;
  for (QDockWidget* dock : {runsDock_, equivalentDock_, compareDock_}) {
    if (dock && dock->isVisible() && !dock->isFloating() && dock->height() > maxHeight) {
      resizeDocks({dock}, {maxHeight}, Qt::Vertical);
      break;  // tabified: one resize moves the whole group
    }
  }
  if (setupsDock_ && setupsDock_->isVisible() && !setupsDock_->isFloating() &&
      setupsDock_->width() > maxWidth) {
    resizeDocks({setupsDock_}, {maxWidth}, Qt::Horizontal);
  }
}

}  // namespace parity::ui
