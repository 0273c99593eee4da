#include <parity/ui/runs/progress_delegate.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/widgets/tab_order.h>

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace parity::ui {

RunsPanel::RunsPanel(RunsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView(this)),
      filter_(new QLineEdit(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(RunsModel::kSortRole);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setDynamicSortFilter(true);

  filter_->setPlaceholderText(tr("Filter runs by label, status, setup, data or notes"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilterFixedString(text);
    emit filterChanged();
  });

  view_->setModel(proxy_);
  view_->setObjectName("runsView");
  view_->setItemDelegateForColumn(RunsModel::kProgress, new ProgressDelegate(view_));
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  // Tab leaves the table (arrows move inside it), instead of visiting every cell.
  view_->setTabKeyNavigation(false);
  view_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
  view_->setSortingEnabled(true);
  view_->sortByColumn(RunsModel::kId, Qt::AscendingOrder);
  view_->setAlternatingRowColors(true);
  // A run that appears (launched here or by parity-cli) is scrolled into view.
  // The view lays new rows out later; its scroll range must include them first.
  connect(proxy_, &QAbstractItemModel::rowsInserted, this,
          [this](const QModelIndex&, int, int last) {
            view_->doItemsLayout();
            view_->scrollTo(proxy_->index(last, RunsModel::kLabel));
          });
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 10);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  QHeaderView* header = view_->horizontalHeader();
  header->setStretchLastSection(true);
  header->resizeSection(RunsModel::kId, 44);
  header->resizeSection(RunsModel::kLabel, 170);
  // Wide enough for a Slurm job's wait in Slurm's words.
  header->resizeSection(RunsModel::kStatus,
                        view_->fontMetrics().horizontalAdvance("PENDING (Resources)") + 24);
  header->resizeSection(RunsModel::kProgress, 170);
  header->resizeSection(RunsModel::kSetup, 200);
  header->resizeSection(RunsModel::kSpeed, 84);
  header->resizeSection(RunsModel::kFinalLoss, 84);
  header->resizeSection(RunsModel::kAccuracy, 76);
  header->resizeSection(RunsModel::kSource, 150);

  createActions();
  connect(view_, &QWidget::customContextMenuRequested, this, &RunsPanel::showMenu);
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    updateActions();
    emit selectionChanged();
  });
  connect(model_, &QAbstractItemModel::dataChanged, this, &RunsPanel::updateActions);

  auto* top = new QHBoxLayout;
  top->addWidget(filter_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  setReadingOrder(this, {filter_, view_});  // the filter above the table: first
  updateActions();
}

// The table's actions (its menu, the Runs menu and their keys), each asking through a signal.
void RunsPanel::createActions() {
  show_ = new QAction(tr("Show on chart"), this);
  hide_ = new QAction(tr("Hide from chart"), this);
  rename_ = new QAction(tr("&Rename run"), this);
  rename_->setShortcut(Qt::Key_F2);
  notes_ = new QAction(tr("Edit &notes…"), this);
  notes_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  stop_ = new QAction(tr("&Stop run"), this);
  stop_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
  delete_ = new QAction(tr("&Delete run…"), this);
  delete_->setShortcut(QKeySequence::Delete);
  facts_ = new QAction(tr("Edit &facts…"), this);
  facts_->setStatusTip(tr("How an imported run trained: processes, batch, lr, seed, …"));
  newSetup_ = new QAction(tr("New s&etup from run"), this);
  newSetup_->setObjectName("newSetupFromRun");
  newSetup_->setStatusTip(tr("Adds a setup with the run's values to the Setups tab"));
  compare_ = new QAction(tr("&Compare selected"), this);
  compare_->setObjectName("compareSelected");
  compare_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  compare_->setStatusTip(
      tr("Draws and compares the selected runs: the reference is the Compare tab's when it is "
         "one of them, else the first"));
  for (QAction* a : {rename_, notes_, stop_, delete_, compare_}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(a);
  }
  connect(show_, &QAction::triggered, this, [this] { setShownForSelection(true); });
  connect(hide_, &QAction::triggered, this, [this] { setShownForSelection(false); });
  connect(rename_, &QAction::triggered, this, [this] {
    const QModelIndex current = view_->currentIndex();
    if (current.isValid()) view_->edit(current.siblingAtColumn(RunsModel::kLabel));
  });
  connect(notes_, &QAction::triggered, this, &RunsPanel::editNotes);
  connect(stop_, &QAction::triggered, this, [this] { emit stopRequested(selectedRunIds()); });
  connect(delete_, &QAction::triggered, this, [this] { emit deleteRequested(selectedRunIds()); });
  connect(facts_, &QAction::triggered, this, [this] {
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() == 1) emit editFactsRequested(ids.front());
  });
  connect(newSetup_, &QAction::triggered, this, [this] {
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() == 1) emit newSetupRequested(ids.front());
  });
  connect(compare_, &QAction::triggered, this, [this] {
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() >= 2) emit compareRequested(ids);
  });
}

void RunsPanel::setCanStop(std::function<bool(qint64)> canStop) {
  canStop_ = std::move(canStop);
  updateActions();
}

QList<qint64> RunsPanel::selectedRunIds() const {
  QList<qint64> ids;
  for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
    ids.append(index.data(RunsModel::kRunIdRole).toLongLong());
  }
  return ids;
}

bool RunsPanel::passesFilter(qint64 runId) const {
  if (filter_->text().isEmpty()) return true;
  const int row = model_->rowOf(runId);
  return row >= 0 && proxy_->mapFromSource(model_->index(row, 0)).isValid();
}

QString RunsPanel::filterText() const { return filter_->text(); }

void RunsPanel::updateActions() {
  const QList<qint64> ids = selectedRunIds();
  compare_->setEnabled(ids.size() >= 2);
  bool stoppable = false;
  for (qint64 id : ids) stoppable |= canStop_ && canStop_(id);
  rename_->setEnabled(ids.size() == 1);
  notes_->setEnabled(ids.size() == 1);
  const storage::RunRow* one = ids.size() == 1 ? model_->runById(ids.front()) : nullptr;
  facts_->setEnabled(one && one->origin != storage::RunOrigin::kEngine);
  newSetup_->setEnabled(one != nullptr);
  newSetup_->setText(one ? tr("New s&etup from run #%1").arg(one->id) : tr("New s&etup from run"));
  facts_->setToolTip(facts_->isEnabled() ? QString()
                                         : tr("A run Parity trained has its config as its "
                                              "facts; select one imported run"));
  delete_->setEnabled(!ids.isEmpty());
  show_->setEnabled(!ids.isEmpty());
  hide_->setEnabled(!ids.isEmpty());
  stop_->setEnabled(stoppable);
  stop_->setToolTip(stoppable ? tr("Send the run's process SIGTERM; it is marked stopped")
                              : tr("Only queued or running runs launched from this window can "
                                   "be stopped here; stop others where they were started"));
}

void RunsPanel::editNotes() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.size() != 1) return;
  const int row = model_->rowOf(ids.front());
  if (row < 0) return;
  bool ok = false;
  const QString current = model_->index(row, RunsModel::kNotes).data().toString();
  const QString notes = QInputDialog::getMultiLineText(
      this, tr("Notes"), tr("Notes on run %1:").arg(ids.front()), current, &ok);
  if (ok) model_->setData(model_->index(row, RunsModel::kNotes), notes);
}

void RunsPanel::setShownForSelection(bool shown) { model_->setShown(selectedRunIds(), shown); }

void RunsPanel::showMenu(const QPoint& pos) {
  updateActions();
  QMenu menu(this);
  menu.addAction(show_);
  menu.addAction(hide_);
  menu.addAction(compare_);
  menu.addSeparator();
  menu.addAction(rename_);
  menu.addAction(notes_);
  menu.addAction(facts_);
  menu.addAction(newSetup_);
  menu.addSeparator();
  menu.addAction(stop_);
  menu.addAction(delete_);
  menu.exec(view_->viewport()->mapToGlobal(pos));
}

}  // namespace parity::ui
