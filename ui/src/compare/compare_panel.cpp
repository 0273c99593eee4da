// The Compare panel: the reference, the verdict table, and how its parts are laid out (the plot
// in compare_plot.cpp, the details pane and the proofs in compare_details.cpp, the remedy in
// compare_remedy.cpp).
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/experiment_match.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/widgets/elided_label.h>
#include <parity/ui/widgets/tab_order.h>
#include <parity/ui/window/error_advice.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <algorithm>
#include <utility>

namespace parity::ui {

namespace {

// The settings both tables share: whole rows selected one at a time, read-only, no row numbers.
void setUpTable(QTableView* t) {
  t->verticalHeader()->hide();
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->setTabKeyNavigation(false);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
}

QTableWidget* table(QWidget* parent, const QStringList& headers) {
  auto* t = new QTableWidget(0, headers.size(), parent);
  t->setHorizontalHeaderLabels(headers);
  setUpTable(t);
  return t;
}

QTableView* verdictView(QWidget* parent, VerdictTableModel* model) {
  auto* t = new QTableView(parent);
  t->setModel(model);
  setUpTable(t);
  return t;
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
      fixButton_(new QPushButton(tr("Make it equivalent"), this)),
      status_(new ElidedLabel(this)),
      verdictModel_(new VerdictTableModel(this)),
      verdicts_(verdictView(this, verdictModel_)),
      diff_(table(this, {tr("Config key"), tr("This run"), tr("Reference")})),
      details_(new QTextBrowser(this)),
      deltaChart_(new QChart),
      deltaView_(new QChartView(deltaChart_, this)),
      deltaLegend_(new QLabel(this)) {
  setUpWidgets();
  relayoutPlot_.setSingleShot(true);
  relayoutPlot_.setInterval(150);
  connect(&relayoutPlot_, &QTimer::timeout, this, &ComparePanel::plot);
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
  proveButton_->setObjectName("proveButton");
  proveButton_->setToolTip(
      tr("Prove the selected run's diagnosis (parity-cli explain): train it with each cause "
         "aligned with the reference alone (then all at once), queued like any launch, and "
         "judge each again"));
  proveButton_->setEnabled(false);
  fixButton_->setObjectName("fixButton");
  fixButton_->setEnabled(false);  // updateFixButton() says why in its tooltip
  details_->setObjectName("verdictDetails");
  details_->setOpenLinks(false);
  details_->setPlaceholderText(tr("Select a compared run to read its verdict in full"));
  // The pane must not raise the panel's minimum height (the window stays usable at 900x600).
  details_->setMinimumHeight(2 * fontMetrics().height());
  diff_->setMinimumHeight(2 * fontMetrics().height());  // nor the config diff beside it
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
  // Sized to its first choice, not its longest (the popup shows them whole): with Prove and Make
  // it equivalent in the same row, the window still narrows to 900 px.
  plotKind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  plotKind_->setMinimumContentsLength(static_cast<int>(plotKind_->itemText(0).size()));
}

void ComparePanel::connectSignals() {
  connect(plotKind_, &QComboBox::currentIndexChanged, this, &ComparePanel::plot);
  connect(compareButton_, &QPushButton::clicked, this, [this] {
    remedies_.clear();  // asked again: facts edited since are read anew
    chosen_.clear();    // the drawn runs again, after Compare selected
    refillReferences();
    compare();
  });
  connect(proveButton_, &QPushButton::clicked, this, &ComparePanel::proveSelected);
  connect(fixButton_, &QPushButton::clicked, this, &ComparePanel::fixSelected);
  connect(db_->worker(), &DatabaseWorker::remedyPlanned, this, &ComparePanel::onRemedyPlanned);
  // A counterfactual that ends changes its proof: read the verdicts again.
  connect(runs_, &RunsModel::runEnded, this, [this](qint64 id) {
    if (awaitsProof(id)) compare();
  });
  connect(runs_, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex& top, const QModelIndex& bottom) {
            rereadStartedProofs(top.row(), bottom.row());
          });
  connect(db_->worker(), &DatabaseWorker::proofsRead, this,
          [this](int id, const RunProofs& proofs) {
            if (id == request_) incomingProofs_ = proofs;
          });
  connect(reference_, &QComboBox::activated, this, &ComparePanel::compare);
  connect(runs_, &RunsModel::shownRunsChanged, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::rowsInserted, this, &ComparePanel::refillReferences);
  connect(runs_, &QAbstractItemModel::modelReset, this, &ComparePanel::dropDeletedRuns);
  connect(runs_, &QAbstractItemModel::rowsRemoved, this, &ComparePanel::dropDeletedRuns);
  connect(db_->worker(), &DatabaseWorker::compared, this,
          [this](int id, const analysis::Comparison& c) {
            if (id == request_) show(c);  // an older request's answer is stale
          });
  connect(verdicts_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            showDiff(current.row());
            showDetails(current.row());
            updateProveButton();
            updateFixButton();
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
  top->addWidget(fixButton_);
  top->addSpacing(8);
  top->addWidget(status_, 1);
  top->addWidget(new QLabel(tr("Plot:"), this));
  top->addWidget(plotKind_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  auto* left = new QSplitter(Qt::Vertical, split);
  verdictSplit_ = left;
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
  // Reference, its actions, Plot; then the table, the details and diff under it, the plot.
  setReadingOrder(this, {reference_, compareButton_, proveButton_, fixButton_, plotKind_,
                         verdicts_, details_, diff_, deltaView_});
}

// Prove refuses what cannot train (a run gone, or of another experiment than the reference: its
// counterfactuals would fail, red, for what the verdict already says) and asks before proving a
// run again (a repeated click used to queue every counterfactual twice).
void ComparePanel::proveSelected() {
  const int row = currentRow();
  if (row < 0 || row >= static_cast<int>(comparison().rows.size())) return;
  const qint64 runId = comparison().rows[row].id;
  const qint64 reference = comparison().reference_id;
  if (!runs_->runById(runId) || !runs_->runById(reference)) {
    status_->setStatusText(tr("Not proved: run #%1 was deleted; compare again")
                               .arg(runs_->runById(runId) ? reference : runId));
    return;
  }
  const QString other = otherExperiment_.value(runId);
  if (!other.isEmpty()) {
    status_->setStatusText(
        tr("Not proved: #%1 trained another experiment than the reference #%2 (%3), so its "
           "counterfactuals could not train against it. Prove it against a reference of its own "
           "data and model.")
            .arg(runId)
            .arg(reference)
            .arg(other));
    return;
  }
  const auto proved = proofs().find(runId);
  if (proved != proofs().end() && !proved->second.empty() && !quietDialogs()) {
    QMessageBox box(QMessageBox::Question, tr("Prove again"),
                    tr("Run #%1 was proved already (%n counterfactual run(s)). Prove it again, "
                       "training them all once more?",
                       nullptr, static_cast<int>(proved->second.size()))
                        .arg(runId),
                    QMessageBox::Yes | QMessageBox::No, this);
    box.setObjectName("proveAgainBox");
    box.button(QMessageBox::Yes)->setText(tr("Prove again"));
    box.setDefaultButton(QMessageBox::No);
    if (box.exec() != QMessageBox::Yes) return;
  }
  proveButton_->setEnabled(false);  // until the queued rows come back
  status_->setStatusText(tr("Queuing the counterfactuals of #%1…").arg(runId));
  emit proveRequested(reference, runId);
}

void ComparePanel::proveFailed() {
  updateProveButton();
  status_->setStatusText(statusText());
}

// A deleted run leaves the comparison: compared again without it, or cleared when fewer than two
// drawn runs are left.
void ComparePanel::dropDeletedRuns() {
  refillReferences();
  bool gone = false;
  for (const auto& r : comparison().rows) gone |= runs_->runById(r.id) == nullptr;
  if (!gone) return;
  if (reference_->count() >= 2) {
    compare();
  } else {
    ++request_;  // an answer on its way is stale
    show(analysis::Comparison{});
    status_->setStatusText(tr("Draw at least two runs on the chart to compare"));
  }
}

// The runs compared with a reference of another experiment: their curves differ for that
// before any batch or lr cause the verdict may name.
void ComparePanel::noteOtherExperiments(const analysis::Comparison& comparison) {
  otherExperiment_.clear();
  const storage::RunRow* reference = runs_->runById(comparison.reference_id);
  if (!reference) return;
  for (const analysis::RunComparison& r : comparison.rows) {
    const storage::RunRow* run = runs_->runById(r.id);
    if (!run || r.id == reference->id) continue;
    const QString difference = experimentDifference(*run, *reference);
    if (!difference.isEmpty()) otherExperiment_.insert(r.id, difference);
  }
}

const analysis::Comparison& ComparePanel::comparison() const { return verdictModel_->comparison(); }
const RunProofs& ComparePanel::proofs() const { return verdictModel_->proofs(); }

qint64 ComparePanel::referenceId() const { return reference_->currentData().toLongLong(); }

void ComparePanel::refillReferences() {
  const qint64 current = referenceId();
  reference_->clear();
  for (qint64 id : comparedRuns()) {
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

// In a low pane (two verdict rows at 900x600, where the splitter's 5:4 share gave the details as
// much) the table takes the height for up to five rows first; the details keep two lines (and
// their scroll bar).
void ComparePanel::giveVerdictsRoom() {
  const QList<int> sizes = verdictSplit_->sizes();
  if (sizes.size() != 2) return;
  const int total = sizes[0] + sizes[1];
  const int rows = std::min(verdictModel_->rowCount(), 5);
  const int need = verdicts_->horizontalHeader()->height() +
                   rows * verdicts_->verticalHeader()->defaultSectionSize() +
                   2 * verdicts_->frameWidth() +
                   verdicts_->horizontalScrollBar()->sizeHint().height();
  const int detailsLeast =
      2 * details_->fontMetrics().lineSpacing() + 2 * details_->frameWidth() + 8;
  const int table = std::min(need, total - detailsLeast);
  if (sizes[0] >= table) return;
  verdictSplit_->setSizes({table, total - table});
}

void ComparePanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  giveVerdictsRoom();
  relayoutPlot_.start();  // the Δ plot's ticks fit its new size (Qt writes "..." otherwise)
}

void ComparePanel::compare() {
  if (reference_->count() < 2) return;
  status_->setStatusText(tr("Comparing…"));
  db_->post(&DatabaseWorker::compareRuns, ++request_, referenceId(), comparedRuns());
}

QList<qint64> ComparePanel::comparedRuns() const {
  QList<qint64> ids;
  for (qint64 id : runs_->shownRuns()) {
    if (drawn_ && !drawn_(id)) continue;
    if (!chosen_.isEmpty() && !chosen_.contains(id) && id <= chosenAfter_) continue;
    ids.append(id);
  }
  return ids;
}

void ComparePanel::setDrawnFilter(std::function<bool(qint64)> drawn) {
  drawn_ = std::move(drawn);
  refillReferences();
}

void ComparePanel::compareRuns(const QList<qint64>& runIds) {
  if (runIds.size() < 2) return;
  chosen_ = runIds;
  chosenAfter_ = 0;
  for (const storage::RunRow& r : runs_->runs())
    chosenAfter_ = std::max<qint64>(chosenAfter_, r.id);
  remedies_.clear();
  const qint64 current = referenceId();
  refillReferences();
  const qint64 first = *std::min_element(runIds.begin(), runIds.end());
  const int at = reference_->findData(runIds.contains(current) ? current : first);
  if (at >= 0) reference_->setCurrentIndex(at);
  compare();
}

int ComparePanel::currentRow() const { return verdicts_->currentIndex().row(); }

void ComparePanel::show(const analysis::Comparison& c) {
  const qint64 selected = verdictModel_->runId(currentRow());
  noteOtherExperiments(c);
  VerdictTableModel::RunNotes notes;
  notes.otherExperiment = otherExperiment_;
  for (const analysis::RunComparison& r : c.rows) {
    const storage::RunRow* stored = runs_->runById(r.id);
    const QString shared = stored ? runs_->sharedCoresNote(*stored) : QString();
    if (!shared.isEmpty()) notes.sharedCores.insert(r.id, shared);
  }
  verdictModel_->setComparison(c, std::move(incomingProofs_), notes);
  incomingProofs_.clear();
  for (int col = 0; col < VerdictTableModel::kWhyColumn; ++col)
    verdicts_->resizeColumnToContents(col);
  // Why, the last column, keeps room beside a long Proof ("global_batch confirmed (#4);
  // effective_lr partly x3.25 (#5)" pushed it out of sight at 1500x950); the details pane below
  // reads both in full.
  const int proofWidth = std::max(120, verdicts_->viewport()->width() / 5);
  if (verdicts_->columnWidth(VerdictTableModel::kProofColumn) > proofWidth)
    verdicts_->setColumnWidth(VerdictTableModel::kProofColumn, proofWidth);
  // Keep the selection on the run it was on (a re-read after a counterfactual ended).
  const int kept = selected != 0 ? verdictModel_->rowOf(selected) : -1;
  const int select = kept >= 0 ? kept : (c.rows.size() > 1 ? 1 : 0);
  if (!c.rows.empty()) verdicts_->selectRow(select);
  if (c.rows.empty()) showDiff(-1);  // no row became current to clear it
  showDetails(currentRow());
  updateProveButton();
  updateFixButton();

  plot();
  giveVerdictsRoom();
  status_->setStatusText(statusText());
  emit compared();
}
}  // namespace parity::ui
