// The Compare panel: the reference, the verdict table, and how its parts are laid out (the plot
// in compare_plot.cpp, the details pane and the proofs in compare_details.cpp).
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/experiment_match.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/widgets/elided_label.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <utility>

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

// The verdict table's columns: run, verdict, max and final |Δloss|, three of throughput, the
// proofs (counterfactual runs), why.
constexpr int kSpeedColumn = 4;
constexpr int kProofColumn = 7;
constexpr int kWhyColumn = 8;

QString joinReasons(const std::vector<analysis::Reason>& reasons) {
  QStringList texts;
  for (const auto& r : reasons) texts << QString::fromStdString(r.text);
  return texts.join("; ");
}

}  // namespace

ComparePanel::ComparePanel(RunsModel* runs, DatabaseThread* db, QWidget* parent)
    : QWidget(parent),
      runs_(runs),
      db_(db),
      reference_(new QComboBox(this)),
      plotKind_(new QComboBox(this)),
      compareButton_(new QPushButton(tr("Compare"), this)),
      proveButton_(new QPushButton(tr("Prove"), this)),
      status_(new ElidedLabel(this)),
      verdicts_(
          table(this, {tr("Run"), tr("Verdict"), tr("Max |Δloss|"), tr("Final |Δloss|"),
                       tr("Samples/s"), tr("Per device"), tr("Scaling"), tr("Proof"), tr("Why")})),
      diff_(table(this, {tr("Config key"), tr("This run"), tr("Reference")})),
      details_(new QTextBrowser(this)),
      deltaChart_(new QChart),
      deltaView_(new QChartView(deltaChart_, this)),
      deltaLegend_(new QLabel(this)) {
  setUpWidgets();
  connectSignals();
  layOut();
  refillReferences();
}

// Names, tooltips and the fixed settings of the panel's parts.
void ComparePanel::setUpWidgets() {
  reference_->setToolTip(tr("The run every other drawn run is compared with, on samples seen"));
  reference_->setMinimumContentsLength(24);
  status_->setObjectName("compareStatus");
  status_->setForegroundRole(QPalette::PlaceholderText);
  verdicts_->setObjectName("verdictTable");
  verdicts_->horizontalHeaderItem(kSpeedColumn)
      ->setToolTip(tr("Training samples per second, all ranks together (* shared the cores)"));
  verdicts_->horizontalHeaderItem(kSpeedColumn + 1)
      ->setToolTip(tr("Samples per second per process"));
  verdicts_->horizontalHeaderItem(kSpeedColumn + 2)
      ->setToolTip(tr("Throughput on W processes / (W × the single-process throughput)"));
  verdicts_->horizontalHeaderItem(kProofColumn)
      ->setToolTip(tr("Counterfactual runs (Prove): each cause aligned alone; confirmed when "
                      "that makes the run equivalent"));
  proveButton_->setObjectName("proveButton");
  proveButton_->setToolTip(
      tr("Prove the selected run's diagnosis: train it with each cause aligned with the "
         "reference alone (then all at once), queued like any launch, and judge each again"));
  proveButton_->setEnabled(false);
  details_->setObjectName("verdictDetails");
  details_->setOpenLinks(false);
  details_->setPlaceholderText(tr("Select a compared run to read its verdict in full"));
  // The pane must not raise the panel's minimum height (the window stays usable at 900x600).
  details_->setMinimumHeight(2 * fontMetrics().height());
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
}

void ComparePanel::connectSignals() {
  connect(plotKind_, &QComboBox::currentIndexChanged, this, &ComparePanel::plot);
  connect(compareButton_, &QPushButton::clicked, this, &ComparePanel::compare);
  connect(proveButton_, &QPushButton::clicked, this, &ComparePanel::proveSelected);
  // A counterfactual that ends changes its proof: read the verdicts again.
  connect(runs_, &RunsModel::runEnded, this, [this](qint64 id) {
    if (awaitsProof(id)) compare();
  });
  connect(db_->worker(), &DatabaseWorker::proofsRead, this,
          [this](int id, const RunProofs& proofs) {
            if (id == request_) incomingProofs_ = proofs;
          });
  connect(reference_, &QComboBox::activated, this, &ComparePanel::compare);
  connect(runs_, &RunsModel::shownRunsChanged, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::rowsInserted, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::modelReset, this, &ComparePanel::refillReferences);
  connect(db_->worker(), &DatabaseWorker::compared, this,
          [this](int id, const analysis::Comparison& c) {
            if (id == request_) show(c);  // an older request's answer is stale
          });
  connect(verdicts_, &QTableWidget::currentCellChanged, this, [this](int row) {
    showDiff(row);
    showDetails(row);
    updateProveButton();
  });
}

// The reference and actions on top; below, the verdict table over the details pane and the
// config diff, beside the plot.
void ComparePanel::layOut() {
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Reference:"), this));
  top->addWidget(reference_);
  top->addWidget(compareButton_);
  top->addWidget(proveButton_);
  top->addSpacing(8);
  top->addWidget(status_, 1);
  top->addWidget(new QLabel(tr("Plot:"), this));
  top->addWidget(plotKind_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  auto* left = new QSplitter(Qt::Vertical, split);
  left->addWidget(verdicts_);
  // Under the table: the selected run in full, beside the config keys it differs in.
  auto* below = new QSplitter(Qt::Horizontal, left);
  below->addWidget(details_);
  below->addWidget(diff_);
  below->setStretchFactor(0, 3);
  below->setStretchFactor(1, 2);
  left->addWidget(below);
  // About 8 verdicts over 8 lines of details when the pane has half the window.
  left->setStretchFactor(0, 5);
  left->setStretchFactor(1, 4);
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
}

void ComparePanel::proveSelected() {
  const int row = verdicts_->currentRow();
  if (row < 0 || row >= static_cast<int>(comparison_.rows.size())) return;
  proveButton_->setEnabled(false);  // until the queued rows come back
  status_->setStatusText(tr("Queuing the counterfactuals of #%1…").arg(comparison_.rows[row].id));
  emit proveRequested(referenceId(), comparison_.rows[row].id);
}

// The runs compared with a reference of another experiment: their curves differ for that
// before any batch or lr cause the verdict may name.
void ComparePanel::noteOtherExperiments() {
  otherExperiment_.clear();
  const storage::RunRow* reference = runs_->runById(comparison_.reference_id);
  if (!reference) return;
  for (const analysis::RunComparison& r : comparison_.rows) {
    const storage::RunRow* run = runs_->runById(r.id);
    if (!run || r.id == reference->id) continue;
    const QString difference = experimentDifference(*run, *reference);
    if (!difference.isEmpty()) otherExperiment_.insert(r.id, difference);
  }
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
  status_->setStatusText(
      reference_->count() >= 2 ? QString() : tr("Draw at least two runs on the chart to compare"));
}

void ComparePanel::compare() {
  if (reference_->count() < 2) return;
  status_->setStatusText(tr("Comparing…"));
  db_->post(&DatabaseWorker::compareRuns, ++request_, referenceId(), runs_->shownRuns());
}

void ComparePanel::show(const analysis::Comparison& c) {
  comparison_ = c;
  proofs_ = std::move(incomingProofs_);
  incomingProofs_.clear();
  const QTableWidgetItem* current = verdicts_->item(verdicts_->currentRow(), 0);
  const qint64 selected = current ? current->data(Qt::UserRole).toLongLong() : 0;
  verdicts_->setRowCount(static_cast<int>(c.rows.size()));
  noteOtherExperiments();
  for (int row = 0; row < static_cast<int>(c.rows.size()); ++row) {
    const analysis::RunComparison& r = c.rows[row];
    const bool reference = r.verdict == analysis::Verdict::kReference;
    QString why = r.verdict == analysis::Verdict::kDifferent ? joinReasons(r.reasons)
                                                             : QString::fromStdString(r.summary);
    const QString other = otherExperiment_.value(r.id);
    if (!other.isEmpty()) why = tr("Another experiment (%1); %2").arg(other, why);
    // A run that shared the cores with another measured less than it would alone: say so, as
    // the runs table does.
    const storage::RunRow* stored = runs_->runById(r.id);
    const QString shared = stored ? runs_->sharedCoresNote(*stored) : QString();
    const QString mark = shared.isEmpty() ? QString() : QStringLiteral(" *");
    auto speed = [&](double v) { return v > 0 ? QString::number(v, 'f', 0) + mark : QString(); };
    const QStringList cells = {
        QString("#%1  %2").arg(r.id).arg(QString::fromStdString(r.label)),
        QString::fromStdString(analysis::to_string(r.verdict)),
        reference ? QString() : QString::number(r.delta.max_abs, 'g', 4),
        reference ? QString() : QString::number(r.delta.final_abs, 'g', 4),
        speed(r.samples_per_s),
        speed(r.per_device_samples_per_s),
        r.scaling_efficiency ? QString("%1 %").arg(*r.scaling_efficiency * 100, 0, 'f', 0) + mark
                             : QString(),
        proofCell(r.id),
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
      if (col == 0) item->setData(Qt::UserRole, static_cast<qlonglong>(r.id));
      if (col == kProofColumn) item->setToolTip(proofTooltip(r.id));
      if (col == kWhyColumn || col == 0) {
        item->setToolTip(QString::fromStdString(r.summary) +
                         (r.info.empty() ? QString() : "\n" + joinReasons(r.info)));
      }
      if (col == kWhyColumn && !other.isEmpty()) item->setForeground(QColor(0xc6, 0x28, 0x28));
      if (col == 1) {
        item->setForeground(r.verdict == analysis::Verdict::kEquivalent  ? QColor(0x2e, 0x7d, 0x32)
                            : r.verdict == analysis::Verdict::kDifferent ? QColor(0xc6, 0x28, 0x28)
                                                                         : QColor());
      }
      verdicts_->setItem(row, col, item);
    }
  }
  for (int col = 0; col < kWhyColumn; ++col) verdicts_->resizeColumnToContents(col);
  // Keep the selection on the run it was on (a re-read after a counterfactual ended).
  int select = c.rows.size() > 1 ? 1 : 0;
  for (int row = 0; row < static_cast<int>(c.rows.size()); ++row)
    if (selected != 0 && c.rows[row].id == selected) select = row;
  if (!c.rows.empty()) verdicts_->selectRow(select);
  showDetails(verdicts_->currentRow());
  updateProveButton();

  plot();
  status_->setStatusText(statusText());
  emit compared();
}
}  // namespace parity::ui
