#include <parity/config/batch_plan.h>
#include <parity/ui/setups/equivalent_batch_panel.h>
#include <parity/ui/setups/reference_batch_model.h>
#include <parity/ui/setups/setup_plan_model.h>
#include <parity/ui/setups/setups_model.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace parity::ui {

namespace {

QTableView* compactTable(QWidget* parent) {
  auto* view = new QTableView(parent);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
  view->setSelectionMode(QAbstractItemView::NoSelection);
  view->setTabKeyNavigation(false);
  view->setFocusPolicy(Qt::NoFocus);  // nothing to select or edit
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setWordWrap(false);
  return view;
}

}  // namespace

EquivalentBatchPanel::EquivalentBatchPanel(SetupsModel* setups, QWidget* parent)
    : QWidget(parent),
      setups_(setups),
      referenceBox_(new QComboBox(this)),
      reference_(new ReferenceBatchModel(this)),
      plan_(new SetupPlanModel(this)),
      referenceView_(compactTable(this)),
      planView_(compactTable(this)) {
  referenceBox_->setEditable(true);
  referenceBox_->setValidator(new QIntValidator(1, 1 << 24, referenceBox_));
  for (int b : {256, 128, 64, 32}) referenceBox_->addItem(QString::number(b));
  referenceBox_->setToolTip(
      tr("The single-device batch the setups are compared against: the first setup's global "
         "batch until you choose or type another"));
  referenceBox_->setInsertPolicy(QComboBox::NoInsert);
  referenceError_ = new QLabel(this);
  referenceError_->setObjectName("referenceError");
  referenceError_->setStyleSheet("color: #c62828");
  referenceError_->hide();
  connect(referenceBox_, &QComboBox::currentTextChanged, this, [this](const QString& text) {
    bool ok = false;
    const qlonglong b = text.trimmed().toLongLong(&ok);
    const bool valid = ok && b >= 1;
    referenceError_->setVisible(!valid);
    referenceError_->setText(
        valid ? QString()
              : tr("A batch is a whole number of at least 1: the tables still use %1")
                    .arg(referenceBatch_));
    if (!following_) follows_ = false;  // the user's choice stays whatever the setups are
    if (!valid || b == referenceBatch_) return;
    referenceBatch_ = b;
    update();
    emit referenceBatchChanged(referenceBatch_);
  });

  referenceView_->setModel(reference_);
  referenceView_->setObjectName("referenceBatchView");
  referenceView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  referenceView_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  planView_->setModel(plan_);
  planView_->setObjectName("setupPlanView");
  planView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  planView_->horizontalHeader()->setSectionResizeMode(SetupPlanModel::kNotes, QHeaderView::Stretch);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Reference single-device batch:"), this));
  top->addWidget(referenceBox_);
  top->addWidget(referenceError_);
  auto* hint = new QLabel(
      tr("Highlighted: differs from the reference, or samples even_batches repeats (hover for "
         "why)"),
      this);
  hint->setForegroundRole(QPalette::PlaceholderText);
  top->addSpacing(12);
  top->addWidget(hint);
  top->addStretch(1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  auto* tables = new QHBoxLayout;
  // The reference table is as wide as its columns ("8-worker TPU pod" was cut at 2/7 of the
  // row): fixed at its contents' width. The plan, whose notes stretch, takes the rest.
  // Its last section must not stretch: its width is part of the hint it is fixed at, which grew
  // with every layout under X (a 1000 px "8-worker TPU pod" column pushing the plan out).
  referenceView_->horizontalHeader()->setStretchLastSection(false);
  referenceView_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
  tables->addWidget(referenceView_, 0);
  tables->addWidget(planView_, 1);
  layout->addLayout(tables, 1);

  connect(setups_, &SetupsModel::setupsChanged, this, &EquivalentBatchPanel::update);
  connect(setups_, &QAbstractItemModel::modelReset, this, &EquivalentBatchPanel::update);
  update();
}

int64_t EquivalentBatchPanel::referenceBatch() const { return referenceBatch_; }

void EquivalentBatchPanel::setReferenceBatch(int64_t batch) {
  referenceBox_->setCurrentText(QString::number(batch));
}

void EquivalentBatchPanel::setCountedTrainSize(std::optional<int64_t> trainSize) {
  if (trainSize == countedTrainSize_) return;
  countedTrainSize_ = trainSize;
  update();
}

void EquivalentBatchPanel::update() {
  const auto firstSetups = setups_->configs();
  if (follows_ && !firstSetups.empty()) {
    // The reference is the first setup's global batch (it stayed 256 for setups of 64).
    const int64_t first = config::global_batch_size(firstSetups.front());
    if (first >= 1 && first != referenceBatch_) {
      following_ = true;
      referenceBox_->setCurrentText(QString::number(first));  // updates again, with it
      following_ = false;
      return;
    }
  }
  const int64_t ref = referenceBatch();
  std::vector<int64_t> batches = {256, 128, 64, 32};
  if (std::find(batches.begin(), batches.end(), ref) == batches.end())
    batches.insert(batches.begin(), ref);
  const auto configs = setups_->configs();
  reference_->setSetupShapes(configs);
  reference_->setReferences(batches, ref);
  plan_->setSetups(configs, ref, countedTrainSize_);
}

}  // namespace parity::ui
