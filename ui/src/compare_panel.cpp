#include <parity/ui/compare_panel.h>
#include <parity/ui/database_client.h>
#include <parity/ui/decimation.h>
#include <parity/ui/loss_chart.h>
#include <parity/ui/runs_model.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parity::ui {

namespace {

QTableWidget* table(QWidget* parent, const QStringList& headers) {
  auto* t = new QTableWidget(0, headers.size(), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->hide();
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->setTabKeyNavigation(false);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
  return t;
}

// The verdict table's columns: run, verdict, max and final |Δloss|, three of throughput, why.
constexpr int kSpeedColumn = 4;
constexpr int kWhyColumn = 7;

QString joinReasons(const std::vector<engine::Reason>& reasons) {
  QStringList texts;
  for (const auto& r : reasons) texts << QString::fromStdString(r.text);
  return texts.join("; ");
}

}  // namespace

ComparePanel::ComparePanel(RunsModel* runs, DatabaseClient* db, QWidget* parent)
    : QWidget(parent),
      runs_(runs),
      db_(db),
      reference_(new QComboBox(this)),
      plotKind_(new QComboBox(this)),
      compareButton_(new QPushButton(tr("Compare"), this)),
      status_(new QLabel(this)),
      verdicts_(table(this, {tr("Run"), tr("Verdict"), tr("Max |Δloss|"), tr("Final |Δloss|"),
                             tr("Samples/s"), tr("Per device"), tr("Scaling"), tr("Why")})),
      diff_(table(this, {tr("Config key"), tr("This run"), tr("Reference")})),
      deltaChart_(new QChart),
      deltaView_(new QChartView(deltaChart_, this)),
      deltaLegend_(new QLabel(this)) {
  reference_->setToolTip(tr("The run every other drawn run is compared with, on samples seen"));
  reference_->setMinimumContentsLength(24);
  status_->setForegroundRole(QPalette::PlaceholderText);
  verdicts_->setObjectName("verdictTable");
  verdicts_->horizontalHeaderItem(kSpeedColumn)
      ->setToolTip(tr("Training samples per second, all ranks together (* shared the cores)"));
  verdicts_->horizontalHeaderItem(kSpeedColumn + 1)
      ->setToolTip(tr("Samples per second per process"));
  verdicts_->horizontalHeaderItem(kSpeedColumn + 2)
      ->setToolTip(tr("Throughput on W processes / (W × the single-process throughput)"));
  diff_->setObjectName("configDiffTable");
  deltaChart_->setTitle(tr("Δ loss vs the reference"));
  deltaChart_->legend()->hide();  // deltaLegend_ keeps the names whole
  deltaLegend_->setObjectName("deltaLegend");
  deltaLegend_->setWordWrap(true);
  deltaLegend_->setTextFormat(Qt::RichText);
  deltaChart_->setMargins(QMargins(4, 4, 4, 4));
  deltaView_->setRenderHint(QPainter::Antialiasing);

  plotKind_->addItem(tr("Δ loss vs reference"));
  plotKind_->addItem(tr("Seed groups: mean and min–max band"));
  connect(plotKind_, &QComboBox::currentIndexChanged, this, &ComparePanel::plot);
  connect(compareButton_, &QPushButton::clicked, this, &ComparePanel::compare);
  connect(reference_, &QComboBox::activated, this, &ComparePanel::compare);
  connect(runs_, &RunsModel::shownRunsChanged, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::rowsInserted, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::modelReset, this, &ComparePanel::refillReferences);
  connect(db_, &DatabaseClient::compared, this, [this](int id, const engine::Comparison& c) {
    if (id == request_) show(c);  // an older request's answer is stale
  });
  connect(verdicts_, &QTableWidget::currentCellChanged, this, [this](int row) { showDiff(row); });

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Reference:"), this));
  top->addWidget(reference_);
  top->addWidget(compareButton_);
  top->addSpacing(8);
  top->addWidget(status_, 1);
  top->addWidget(new QLabel(tr("Plot:"), this));
  top->addWidget(plotKind_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  auto* left = new QSplitter(Qt::Vertical, split);
  left->addWidget(verdicts_);
  left->addWidget(diff_);
  split->addWidget(left);
  auto* plotBox = new QWidget(split);
  auto* plotLayout = new QVBoxLayout(plotBox);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  plotLayout->addWidget(deltaView_, 1);
  plotLayout->addWidget(deltaLegend_);
  split->addWidget(plotBox);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({700, 450});
  deltaView_->setMinimumWidth(320);
  verdicts_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  refillReferences();
}

qint64 ComparePanel::referenceId() const { return reference_->currentData().toLongLong(); }

void ComparePanel::refillReferences() {
  const qint64 current = referenceId();
  reference_->clear();
  for (qint64 id : runs_->shownRuns()) {
    const auto* r = runs_->runById(id);
    if (r)
      reference_->addItem(QString("#%1  %2").arg(id).arg(QString::fromStdString(r->label)), id);
  }
  const int at = reference_->findData(current);
  if (at >= 0) reference_->setCurrentIndex(at);
  compareButton_->setEnabled(reference_->count() >= 2);
  status_->setText(reference_->count() >= 2 ? QString()
                                            : tr("Draw at least two runs on the chart to compare"));
}

void ComparePanel::compare() {
  if (reference_->count() < 2) return;
  status_->setText(tr("Comparing…"));
  db_->compareRuns(++request_, referenceId(), runs_->shownRuns());
}

void ComparePanel::show(const engine::Comparison& c) {
  comparison_ = c;
  verdicts_->setRowCount(static_cast<int>(c.rows.size()));
  for (int row = 0; row < static_cast<int>(c.rows.size()); ++row) {
    const engine::RunComparison& r = c.rows[row];
    const bool reference = r.verdict == engine::Verdict::kReference;
    const QString why = r.verdict == engine::Verdict::kDifferent
                            ? joinReasons(r.reasons)
                            : QString::fromStdString(r.summary);
    // A run that shared the cores with another measured less than it would alone: say so, as
    // the runs table does.
    const storage::RunRow* stored = runs_->runById(r.id);
    const QString shared = stored ? runs_->sharedCoresNote(*stored) : QString();
    const QString mark = shared.isEmpty() ? QString() : QStringLiteral(" *");
    auto speed = [&](double v) { return v > 0 ? QString::number(v, 'f', 0) + mark : QString(); };
    const QStringList cells = {
        QString("#%1  %2").arg(r.id).arg(QString::fromStdString(r.label)),
        QString::fromStdString(engine::to_string(r.verdict)),
        reference ? QString() : QString::number(r.delta.max_abs, 'g', 4),
        reference ? QString() : QString::number(r.delta.final_abs, 'g', 4),
        speed(r.samples_per_s),
        speed(r.per_device_samples_per_s),
        r.scaling_efficiency ? QString("%1 %").arg(*r.scaling_efficiency * 100, 0, 'f', 0) + mark
                             : QString(),
        why};
    for (int col = 0; col < cells.size(); ++col) {
      auto* item = new QTableWidgetItem(cells[col]);
      if (col >= kSpeedColumn && col < kWhyColumn && !shared.isEmpty()) {
        item->setToolTip(col == kSpeedColumn + 2
                             ? shared + "\n" +
                                   tr("A throughput measured alongside other runs understates "
                                      "the scaling.")
                             : shared);
      }
      if (col == kWhyColumn || col == 0) {
        item->setToolTip(QString::fromStdString(r.summary) +
                         (r.info.empty() ? QString() : "\n" + joinReasons(r.info)));
      }
      if (col == 1) {
        item->setForeground(r.verdict == engine::Verdict::kEquivalent  ? QColor(0x2e, 0x7d, 0x32)
                            : r.verdict == engine::Verdict::kDifferent ? QColor(0xc6, 0x28, 0x28)
                                                                       : QColor());
      }
      verdicts_->setItem(row, col, item);
    }
  }
  for (int col = 0; col < kWhyColumn; ++col) verdicts_->resizeColumnToContents(col);
  if (!c.rows.empty()) verdicts_->selectRow(c.rows.size() > 1 ? 1 : 0);

  plot();
  int different = 0;
  for (const auto& r : c.rows) different += r.verdict == engine::Verdict::kDifferent ? 1 : 0;
  status_->setText(tr("%1 run(s) compared, %2 different; noise floor from %3")
                       .arg(static_cast<int>(c.rows.size()) - 1)
                       .arg(different)
                       .arg(c.groups.empty() ? tr("the tolerance") : tr("seed groups")));
  emit compared();
}

void ComparePanel::plot() {
  deltaChart_->removeAllSeries();
  for (QAbstractAxis* a : deltaChart_->axes()) {
    deltaChart_->removeAxis(a);
    delete a;
  }
  if (plotKind_->currentIndex() == 1) {
    plotSeedGroups();
  } else {
    plotDeltas();
  }
  // One entry per named series: a colour swatch and the whole name, wrapped as the width needs.
  QStringList entries;
  for (QAbstractSeries* s : deltaChart_->series()) {
    if (s->name().isEmpty()) continue;
    QColor color = Qt::gray;
    if (auto* line = qobject_cast<QLineSeries*>(s)) color = line->color();
    if (auto* area = qobject_cast<QAreaSeries*>(s)) color = area->brush().color();
    entries << QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                   .arg(color.name(), s->name().toHtmlEscaped().replace(' ', "&nbsp;"));
  }
  deltaLegend_->setText(entries.join(" &nbsp; "));
}

// The allowed gap around 0 where the verdict used a seed group: the seeds' min-max spread at
// each point (times noise_factor 1), the band a run's Δ must stay inside.
void ComparePanel::plotAllowedBand(QValueAxis* x, QValueAxis* y, double& lo, double& hi) {
  const engine::SeedGroup* group = nullptr;
  for (const engine::SeedGroup& g : comparison_.groups) {
    if (!group || std::find(g.indices.begin(), g.indices.end(), 0u) != g.indices.end()) group = &g;
  }
  if (!group || group->band.x.empty()) return;
  std::vector<double> up, down;
  for (std::size_t i = 0; i < group->band.x.size(); ++i) {
    const double w = group->band.hi[i] - group->band.lo[i];
    up.push_back(w);
    down.push_back(-w);
  }
  const int width = std::max(100, deltaView_->width());
  auto line = [&](const std::vector<double>& ys) {
    const engine::Series s =
        decimate_min_max(engine::Series{group->band.x, ys}, {engine::Range{}, width});
    auto* series = new QLineSeries;
    QList<QPointF> points;
    for (std::size_t i = 0; i < s.size(); ++i) {
      points.append(QPointF(s.x[i], s.y[i]));
      lo = std::min(lo, s.y[i]);
      hi = std::max(hi, s.y[i]);
    }
    series->replace(points);
    return series;
  };
  auto* band = new QAreaSeries(line(up), line(down));
  band->setBrush(QColor(128, 128, 128, 50));
  band->setPen(Qt::NoPen);
  QStringList ids;
  for (int64_t id : group->run_ids) ids << QString("#%1").arg(id);
  band->setName(tr("allowed gap: spread of seeds %1").arg(ids.join(", ")));
  deltaChart_->addSeries(band);
  band->attachAxis(x);
  band->attachAxis(y);
}

void ComparePanel::plotDeltas() {
  const engine::Comparison& c = comparison_;
  deltaChart_->setTitle(tr("Δ loss vs the reference"));
  auto* x = new QValueAxis;
  auto* y = new QValueAxis;
  x->setTitleText(tr("samples seen"));
  x->setLabelFormat("%g");
  y->setLabelFormat("%g");
  deltaChart_->addAxis(x, Qt::AlignBottom);
  deltaChart_->addAxis(y, Qt::AlignLeft);
  double lo = 0, hi = 0, x0 = 0, x1 = 1;
  bool any = false;
  plotAllowedBand(x, y, lo, hi);
  for (const engine::RunComparison& r : c.rows) {
    if (r.verdict == engine::Verdict::kReference || r.delta_curve.empty()) continue;
    // The delta curve has one point per reference step: decimate to the view's width.
    const engine::Series shown =
        decimate_min_max(r.delta_curve, {engine::Range{}, std::max(100, deltaView_->width())});
    QList<QPointF> points;
    for (std::size_t i = 0; i < shown.size(); ++i) {
      if (!std::isfinite(shown.y[i])) continue;
      points.append(QPointF(shown.x[i], shown.y[i]));
      lo = std::min(lo, shown.y[i]);
      hi = std::max(hi, shown.y[i]);
      x0 = any ? std::min(x0, shown.x[i]) : shown.x[i];
      x1 = any ? std::max(x1, shown.x[i]) : shown.x[i];
      any = true;
    }
    auto* series = new QLineSeries;
    series->setName(QString::fromStdString(r.label));
    series->setColor(LossChart::colorFor(r.id));
    series->replace(points);
    deltaChart_->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  const double pad = (hi - lo) * 0.05 + 1e-12;
  y->setRange(lo - pad, hi + pad);
  if (any) x->setRange(x0, x1 > x0 ? x1 : x0 + 1);
}

void ComparePanel::plotSeedGroups() {
  deltaChart_->setTitle(comparison_.groups.empty()
                            ? tr("No seed groups: run one setup with several seeds")
                            : tr("Seed groups: mean and min–max band"));
  auto* x = new QValueAxis;
  auto* y = new QValueAxis;
  x->setTitleText(tr("samples seen"));
  x->setLabelFormat("%g");
  y->setLabelFormat("%g");
  deltaChart_->addAxis(x, Qt::AlignBottom);
  deltaChart_->addAxis(y, Qt::AlignLeft);
  const int width = std::max(100, deltaView_->width());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  double x0 = lo, x1 = -lo;
  for (const engine::SeedGroup& g : comparison_.groups) {
    if (g.band.x.empty()) continue;
    const QColor color = LossChart::colorFor(g.run_ids.front());
    // Each of mean, lo and hi decimated on its own keeps its extremes.
    auto line = [&](const std::vector<double>& ys) {
      const engine::Series s =
          decimate_min_max(engine::Series{g.band.x, ys}, {engine::Range{}, width});
      auto* series = new QLineSeries;
      QList<QPointF> points;
      for (std::size_t i = 0; i < s.size(); ++i) {
        points.append(QPointF(s.x[i], s.y[i]));
        lo = std::min(lo, s.y[i]);
        hi = std::max(hi, s.y[i]);
        x0 = std::min(x0, s.x[i]);
        x1 = std::max(x1, s.x[i]);
      }
      series->replace(points);
      return series;
    };
    QLineSeries* upper = line(g.band.hi);
    QLineSeries* lower = line(g.band.lo);
    auto* band = new QAreaSeries(upper, lower);
    QColor fill = color;
    fill.setAlpha(60);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    QStringList ids;
    for (int64_t id : g.run_ids) ids << QString("#%1").arg(id);
    band->setName(tr("%1: min–max of %2 seeds").arg(ids.join(", ")).arg(g.run_ids.size()));
    deltaChart_->addSeries(band);
    band->attachAxis(x);
    band->attachAxis(y);
    QLineSeries* mean = line(g.band.mean);
    mean->setColor(color);
    mean->setName(tr("mean (spread %1)").arg(g.spread, 0, 'g', 3));
    deltaChart_->addSeries(mean);
    mean->attachAxis(x);
    mean->attachAxis(y);
  }
  if (lo <= hi) {
    const double pad = (hi - lo) * 0.05 + 1e-12;
    y->setRange(lo - pad, hi + pad);
    x->setRange(x0, x1 > x0 ? x1 : x0 + 1);
  }
}

void ComparePanel::showDiff(int row) {
  diff_->setRowCount(0);
  if (row < 0 || row >= static_cast<int>(comparison_.rows.size())) return;
  const auto& keys = comparison_.rows[row].config_diff;
  diff_->setRowCount(static_cast<int>(keys.size()));
  for (int i = 0; i < static_cast<int>(keys.size()); ++i) {
    diff_->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(keys[i].key)));
    diff_->setItem(i, 1, new QTableWidgetItem(QString::fromStdString(keys[i].value)));
    diff_->setItem(i, 2, new QTableWidgetItem(QString::fromStdString(keys[i].reference)));
  }
  diff_->resizeColumnsToContents();
}

}  // namespace parity::ui
