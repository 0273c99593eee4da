#include <parity/ui/chart/chart_legend.h>
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

namespace parity::ui {

namespace {

constexpr int kAntialiasBudget = 12000;

}  // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent),
      chart_(new LossChart(this)),
      view_(new ChartView(chart_->chart(), this)),
      plot_(new QWidget(this)),
      legend_(new ChartLegend(chart_, plot_)),
      legendScroll_(new QScrollArea(plot_)),
      xAxis_(new QComboBox(this)),
      smoothing_(new QDoubleSpinBox(this)),
      logY_(new QCheckBox(tr("Lo&g y"), this)),
      ranks_(new QCheckBox(tr("Per-ran&k"), this)),
      reset_(new QToolButton(this)),
      export_(new QToolButton(this)),
      status_(new QLabel(this)) {
  setUpControls();
  connectControls();
  connectView();
  layOut();
}

void ChartPanel::setUpControls() {
  view_->setObjectName("lossChartView");
  // Opt-in: Qt Charts' OpenGL path draws huge series fast on a real GPU (not with a software GL).
  if (qEnvironmentVariableIntValue("PARITY_OPENGL") > 0 && LossChart::openGlAvailable()) {
    chart_->setAccelerated(true);
  }
  // In enum order, so an item's index is also its axis (see setCurrentIndex below).
  for (analysis::Axis axis : analysis::kAxes) {
    xAxis_->addItem(
        QCoreApplication::translate(analysis::kAxisTrContext, analysis::names(axis).menu),
        static_cast<int>(axis));
  }
  xAxis_->setToolTip(
      tr("Samples seen is the axis on which setups with different global "
         "batches compare"));
  xAxis_->setCurrentIndex(static_cast<int>(chart_->xAxis()));
  // The status text gives way first: the menu never shrinks below its longest entry.
  xAxis_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  xAxis_->setMinimumWidth(xAxis_->sizeHint().width());

  smoothing_->setRange(0.0, 0.99);
  smoothing_->setSingleStep(0.05);
  smoothing_->setDecimals(2);
  smoothing_->setValue(chart_->smoothing());
  smoothing_->setToolTip(
      tr("EMA weight (debiased); 0 draws the raw loss only. The raw curve "
         "stays faint beneath the smoothed one."));
  logY_->setToolTip(tr("Logarithmic loss axis (Ctrl+L)"));
  ranks_->setToolTip(
      tr("Also draw each rank's local loss, in the run's colour, one dash pattern per rank "
         "(named in the legend)"));

  reset_->setText(tr("Reset zoom"));
  reset_->setToolTip(tr("Show all data again (Home, or double-click the chart)"));
  export_->setText(tr("Export"));
  export_->setPopupMode(QToolButton::InstantPopup);
  status_->setObjectName("chartStatus");
  // The first thing to give way when the window is narrow (the controls keep their text).
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  status_->setMinimumWidth(0);
  status_->setForegroundRole(QPalette::PlaceholderText);
}

void ChartPanel::connectControls() {
  connect(xAxis_, &QComboBox::currentIndexChanged, this, [this] {
    chart_->setXAxis(static_cast<analysis::Axis>(xAxis_->currentData().toInt()));
    emit optionsChanged();
  });
  connect(smoothing_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    chart_->setSmoothing(v);
    emit optionsChanged();
  });
  connect(logY_, &QCheckBox::toggled, this, [this](bool on) {
    chart_->setLogY(on);
    emit optionsChanged();
  });
  connect(ranks_, &QCheckBox::toggled, this, [this](bool on) {
    chart_->setShowRanks(on);
    emit optionsChanged();
  });
}

/// Mouse and keyboard on the view drive the chart's navigation.
void ChartPanel::connectView() {
  connect(reset_, &QToolButton::clicked, chart_, &LossChart::resetZoom);
  connect(view_, &ChartView::resetRequested, chart_, &LossChart::resetZoom);
  // The view speaks widget pixels; the chart item sits at the scene origin, so map through it.
  auto toChart = [this](const QPointF& p) {
    return chart_->chart()->mapFromScene(view_->mapToScene(p.toPoint()));
  };
  connect(view_, &ChartView::zoomRectRequested, this, [this, toChart](const QRectF& r) {
    chart_->zoomToPixels(QRectF(toChart(r.topLeft()), toChart(r.bottomRight())).normalized());
  });
  connect(view_, &ChartView::panRequested, chart_, &LossChart::panPixels);
  connect(view_, &ChartView::zoomRequested, this,
          [this, toChart](double fx, double fy, const QPointF& p) {
            chart_->zoomAt(fx, fy, toChart(p));
          });
  connect(view_, &ChartView::resized, chart_, &LossChart::scheduleRedraw);
  // Every run's step, samples, loss and lr under the cursor.
  connect(view_, &ChartView::hovered, this, [this, toChart](const QPointF& p) {
    const QString text = chart_->describeAt(toChart(p));
    if (text.isEmpty()) {
      QToolTip::hideText();
    } else {
      QToolTip::showText(view_->mapToGlobal(p.toPoint()), text, view_);
    }
  });
  // Antialiased strokes cost about twice as much; past ~12k points (many long runs) the chart
  // stays fluid without them, and so do a zoom or pan step's drafts (the full detail that follows
  // when the gesture pauses is antialiased again).
  connect(chart_, &LossChart::redrawn, this, [this] {
    view_->setRenderHint(QPainter::Antialiasing,
                         !chart_->drawnAsDraft() && chart_->drawnPoints() < kAntialiasBudget);
  });
}

void ChartPanel::layOut() {
  // Two groups: what the plot shows, and the status with the actions. They share a row while
  // it is wide enough for both (their size hints), else the actions go to a second row, so no
  // control is squeezed below its text (900x600 with the setups dock at its minimum).
  viewControls_ = new QWidget(this);
  auto* left = new QHBoxLayout(viewControls_);
  left->setContentsMargins(0, 0, 0, 0);
  auto* xLabel = new QLabel(tr("&X axis:"), this);
  xLabel->setBuddy(xAxis_);
  left->addWidget(xLabel);
  left->addWidget(xAxis_);
  auto* smoothLabel = new QLabel(tr("S&moothing:"), this);
  smoothLabel->setBuddy(smoothing_);
  left->addSpacing(8);
  left->addWidget(smoothLabel);
  left->addWidget(smoothing_);
  left->addSpacing(8);
  left->addWidget(logY_);
  left->addWidget(ranks_);
  actionControls_ = new QWidget(this);
  auto* right = new QHBoxLayout(actionControls_);
  right->setContentsMargins(0, 0, 0, 0);
  right->addWidget(status_, 1);
  right->addSpacing(8);
  right->addWidget(reset_);
  right->addWidget(export_);
  auto* controls = new QGridLayout;
  controls->setContentsMargins(0, 0, 0, 0);
  controls->addWidget(viewControls_, 0, 0, Qt::AlignLeft);
  controls->addWidget(actionControls_, 0, 1);
  controls->setColumnStretch(1, 1);
  controls_ = controls;

  // The legend under the plot grows a row at a time as the window narrows.
  plot_->setObjectName("chartPlot");
  plot_->setAutoFillBackground(true);
  plot_->setBackgroundRole(QPalette::Base);
  auto* plotLayout = new QVBoxLayout(plot_);
  plotLayout->setContentsMargins(0, 0, 0, 2);
  plotLayout->setSpacing(0);
  view_->setParent(plot_);
  plotLayout->addWidget(view_, 1);
  // At 900x600 with 11 runs the legend's last row was cut: it scrolls instead, from 30 % of the
  // plot's height (fitLegend).
  legendScroll_->setObjectName("chartLegendScroll");
  legendScroll_->setWidget(legend_);
  legendScroll_->setWidgetResizable(true);
  legendScroll_->setFrameShape(QFrame::NoFrame);
  legendScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  legendScroll_->setBackgroundRole(QPalette::Base);
  legendScroll_->viewport()->setBackgroundRole(QPalette::Base);
  legendScroll_->setFocusPolicy(Qt::NoFocus);
  plotLayout->addWidget(legendScroll_);
  plot_->installEventFilter(this);
  connect(chart_, &LossChart::legendChanged, this, &ChartPanel::fitLegend);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addLayout(controls);
  layout->addWidget(plot_, 1);
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // The actions' own minimum: their buttons whole and a little of the status.
  const int actions = reset_->sizeHint().width() + export_->sizeHint().width() + 8 + 60;
  const bool oneRow =
      width() - 8 >= viewControls_->sizeHint().width() + controls_->horizontalSpacing() + actions;
  const bool isOneRow = controls_->itemAtPosition(0, 1) != nullptr;
  if (oneRow == isOneRow) return;
  controls_->removeWidget(actionControls_);
  if (oneRow) {
    controls_->addWidget(actionControls_, 0, 1);
  } else {
    controls_->addWidget(actionControls_, 1, 0, 1, 2);
  }
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::Resize) fitLegend();
  return QWidget::eventFilter(watched, event);
}

// The legend's whole height at the plot's width, or 30 % of the plot (at least two rows) with a
// scroll bar when it needs more.
void ChartPanel::fitLegend() {
  const bool any = !chart_->legendEntries().empty();
  legendScroll_->setVisible(any);
  if (!any) return;
  const int width = plot_->contentsRect().width();
  const int whole = legend_->heightForWidth(width);
  const int rows = 2 * (fontMetrics().height() + 3) + 4;
  const int cap = std::max(rows, plot_->height() * 3 / 10);
  if (whole <= cap) {
    legendScroll_->setFixedHeight(whole);
    return;
  }
  legendScroll_->setFixedHeight(cap);
}

QList<QWidget*> ChartPanel::exportStack() const {
  if (!legendScroll_->isVisible()) return {view_};
  // Drawn at its whole height, every row, whatever the screen shows of it.
  legend_->resize(legend_->width(), legend_->heightForWidth(legend_->width()));
  return {view_, legend_};
}

void ChartPanel::setXAxis(analysis::Axis kind) {
  xAxis_->setCurrentIndex(xAxis_->findData(static_cast<int>(kind)));
}
void ChartPanel::setSmoothing(double beta) { smoothing_->setValue(beta); }
void ChartPanel::setLogY(bool on) { logY_->setChecked(on); }
void ChartPanel::setShowRanks(bool on) { ranks_->setChecked(on); }
void ChartPanel::setStatusText(const QString& text, const QString& toolTip) {
  status_->setText(text);
  status_->setToolTip(toolTip.isEmpty() ? text : toolTip);
}

}  // namespace parity::ui
