#include <parity/config/accelerate_config.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/setups/setup_form.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/widgets/file_dialogs.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace parity::ui {

namespace {

QScrollArea* scrolled(QWidget* content) {
  auto* area = new QScrollArea;
  area->setWidget(content);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  // Not a Tab stop of its own (it shows no focus): Tab goes from field to field, and a field
  // that gets the focus is scrolled into view, also when the focus comes from outside the area
  // (Tab from Launch back to Label), which QScrollArea itself does not follow.
  area->setFocusPolicy(Qt::NoFocus);
  QObject::connect(qApp, &QApplication::focusChanged, area, [area](QWidget*, QWidget* now) {
    // No margins: a field in full view (one just clicked) stays under the mouse.
    if (now && area->widget() && area->widget()->isAncestorOf(now))
      area->ensureWidgetVisible(now, 0, 0);
  });
  return area;
}

}  // namespace

SetupsPanel::SetupsPanel(SetupsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      list_(new QListView(this)),
      add_(new QToolButton(this)),
      duplicate_(new QToolButton(this)),
      remove_(new QToolButton(this)),
      import_(new QToolButton),
      importNote_(new QLabel),
      tabs_(new QTabWidget(this)),
      setupForm_(new SetupForm),
      experimentForm_(new ExperimentForm),
      summary_(new QLabel(this)),
      concurrency_(new QSpinBox(this)),
      launch_(new QPushButton(tr("&Launch"), this)),
      launchSelected_(new QPushButton(tr("Launch &selected"), this)) {
  setUpListAndButtons();
  setUpFormsAndLaunch();
  connectModel();
  layOut();
  experimentForm_->setConfig(model_->experiment());
  setCurrentRow(0);
  updatePreviewSetup();
  refreshValidation();
}

void SetupsPanel::setUpListAndButtons() {
  list_->setModel(model_);
  list_->setObjectName("setupsList");
  list_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  // Five rows (more scroll): the form below gets the rest of the dock, also in a small window.
  list_->setFixedHeight(list_->fontMetrics().height() * 5 + 10);
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  // A setup's warning icon is a line high and every row the same: a row grew when its setup
  // turned invalid, moving the rows under the cursor while the user typed.
  list_->setIconSize(QSize(list_->fontMetrics().height(), list_->fontMetrics().height()));
  list_->setUniformItemSizes(true);

  add_->setText(tr("Add"));
  add_->setToolTip(tr("Add a setup, or pick a preset from the arrow's menu"));
  add_->setPopupMode(QToolButton::MenuButtonPopup);
  auto* presetMenu = new QMenu(add_);
  const auto all = presets();
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    QAction* a = presetMenu->addAction(all[i].name);
    a->setToolTip(all[i].description);
    connect(a, &QAction::triggered, this, [this, i] { addPreset(i); });
  }
  presetMenu->setToolTipsVisible(true);
  add_->setMenu(presetMenu);
  duplicate_->setText(tr("Duplicate"));
  remove_->setText(tr("Remove"));
  connect(add_, &QToolButton::clicked, this, &SetupsPanel::addSetup);
  connect(duplicate_, &QToolButton::clicked, this, &SetupsPanel::duplicateSetup);
  connect(remove_, &QToolButton::clicked, this, &SetupsPanel::removeSetup);

  import_->setText(tr("Import accelerate config…"));
  import_->setToolTip(
      tr("Fill the selected setup from the YAML file `accelerate config` writes "
         "(~/.cache/huggingface/accelerate/default_config.yaml): num_processes, mixed_precision, "
         "gradient_accumulation_steps, device"));
  connect(import_, &QToolButton::clicked, this, &SetupsPanel::chooseAccelerateConfig);
  importNote_->setObjectName("importNote");
  importNote_->setWordWrap(true);
  importNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  importNote_->hide();
}

void SetupsPanel::setUpFormsAndLaunch() {
  // The import fills the setup shown, so it sits under that setup's form.
  auto* setupPage = new QWidget;
  auto* setupLayout = new QVBoxLayout(setupPage);
  setupLayout->setContentsMargins(0, 0, 0, 0);
  setupLayout->addWidget(setupForm_);
  auto* importRow = new QHBoxLayout;
  importRow->setContentsMargins(6, 0, 6, 6);
  importRow->addWidget(import_);
  importRow->addStretch(1);
  setupLayout->addLayout(importRow);
  importNote_->setContentsMargins(6, 0, 6, 6);
  setupLayout->addWidget(importNote_);
  setupLayout->addStretch(1);
  tabs_->addTab(scrolled(setupPage), tr("Setup"));
  tabs_->addTab(scrolled(experimentForm_), tr("Experiment (shared)"));
  summary_->setWordWrap(true);
  summary_->setObjectName("validationSummary");

  concurrency_->setRange(1, 64);
  concurrency_->setValue(std::max(1, QThread::idealThreadCount() / 4));
  concurrency_->setToolTip(
      tr("Runs started at the same time; the rest wait queued. Runs that "
         "share cores measure lower samples/s."));
  launch_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  launch_->setDefault(true);
  connect(launch_, &QPushButton::clicked, this, [this] {
    if (model_->allValid()) emit launchRequested(model_->configs());
  });
  connect(launchSelected_, &QPushButton::clicked, this, [this] {
    std::vector<config::RunConfig> configs;
    for (int row : selectedRows()) {
      if (!model_->issues(row).empty()) return;
      configs.push_back(model_->config(row));
    }
    if (!configs.empty()) emit launchRequested(configs);
  });
  connect(list_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &SetupsPanel::refreshValidation);
}

// The list, the forms and the model kept in step.
void SetupsPanel::connectModel() {
  connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &SetupsPanel::loadCurrent);
  connect(setupForm_, &SetupForm::edited, this, &SetupsPanel::storeCurrent);
  connect(experimentForm_, &ExperimentForm::edited, this, &SetupsPanel::storeExperiment);
  connect(experimentForm_, &ExperimentForm::modelProblemChanged, this,
          &SetupsPanel::refreshValidation);
  connect(experimentForm_, &ExperimentForm::commandProblemChanged, this,
          &SetupsPanel::refreshValidation);
  connect(experimentForm_, &ExperimentForm::dataProblemChanged, this,
          &SetupsPanel::refreshValidation);
  connect(model_, &SetupsModel::setupsChanged, this, &SetupsPanel::refreshValidation);
  // The lr preview and the schedule's default length are the first setup's.
  connect(model_, &SetupsModel::setupsChanged, this, &SetupsPanel::updatePreviewSetup);
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    experimentForm_->setConfig(model_->experiment());
    setCurrentRow(0);
    updatePreviewSetup();
  });
  connect(model_, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex& from, const QModelIndex& to) {
            // A rename in the list shows in the form (edits from the form itself are already
            // there).
            const int row = currentRow();
            if (storing_) return;
            if (row >= from.row() && row <= to.row()) {
              setupForm_->setConfig(model_->config(row));
              refreshValidation();
            }
          });
}

namespace {

// This machine can submit to a cluster: sbatch is here, and a Slurm configuration (SLURM_CONF, or
// the system's). Elsewhere "Train on" is not offered, and takes no room from the forms.
bool slurmHere() {
  if (QStandardPaths::findExecutable("sbatch").isEmpty()) return false;
  return !qEnvironmentVariableIsEmpty("SLURM_CONF") || QFileInfo::exists("/etc/slurm/slurm.conf") ||
         QFileInfo::exists("/etc/slurm-llnl/slurm.conf");
}

}  // namespace

// Where Launch trains: here, or handed to Slurm's sbatch (the window follows the job). The
// launcher is no setup's property (it changes no number), so it sits beside Launch.
QWidget* SetupsPanel::makeTrainOn() {
  auto* box = new QWidget(this);
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  trainOn_ = new QComboBox(box);
  trainOn_->setObjectName("trainOn");
  trainOn_->addItem(tr("This computer"));
  trainOn_->addItem(tr("Slurm batch job (sbatch)"));
  trainOn_->setToolTip(
      tr("This computer: the window starts each run here.\nSlurm batch job: Launch submits each "
         "run with sbatch and returns at once; the run shows PENDING with Slurm's reason, then "
         "its curve. The job goes on when the window closes; opening this database again follows "
         "it on. Stop cancels the job (scancel). The database's folder must be on a disk the "
         "cluster's nodes share."));
  auto* label = new QLabel(tr("&Train on:"), box);
  label->setBuddy(trainOn_);
  grid->addWidget(label, 0, 0);
  grid->addWidget(trainOn_, 0, 1, 1, 3);
  slurmBox_ = new QWidget(box);
  auto* slurm = new QGridLayout(slurmBox_);
  slurm->setContentsMargins(0, 0, 0, 0);
  const auto field = [this, slurm](int row, int column, const QString& name, const QString& hint,
                                   const QString& tip, const char* objectName) {
    auto* edit = new QLineEdit(slurmBox_);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(hint);
    edit->setToolTip(tip);
    slurm->addWidget(new QLabel(name, slurmBox_), row, column * 2);
    slurm->addWidget(edit, row, column * 2 + 1);
    return edit;
  };
  partition_ = field(0, 0, tr("Partition:"), tr("default"),
                     tr("The partition the job waits in (sbatch --partition)"), "slurmPartition");
  timeLimit_ = field(0, 1, tr("Time limit:"), tr("e.g. 1:00:00"),
                     tr("sbatch --time, in Slurm's formats (30, 1:00:00, 1-0)"), "slurmTime");
  account_ = field(1, 0, tr("Account:"), tr("default"),
                   tr("The account the job is charged to (sbatch --account)"), "slurmAccount");
  gres_ = field(1, 1, tr("GRES:"), tr("e.g. gpu:2"),
                tr("Generic resources per node, e.g. GPUs (sbatch --gres)"), "slurmGres");
  grid->addWidget(slurmBox_, 1, 0, 1, 4);
  slurmBox_->hide();
  connect(trainOn_, &QComboBox::currentIndexChanged, this,
          [this](int index) { slurmBox_->setVisible(index == 1); });
  box->setVisible(slurmHere());
  return box;
}

LaunchTarget SetupsPanel::launchTarget() const {
  LaunchTarget t;
  t.slurm = trainOn_->currentIndex() == 1;
  t.partition = partition_->text();
  t.time = timeLimit_->text();
  t.account = account_->text();
  t.gres = gres_->text();
  return t;
}

void SetupsPanel::setLaunchTarget(const LaunchTarget& target) {
  // Slurm kept from a session on a machine with it is not chosen where there is none.
  trainOn_->setCurrentIndex(target.slurm && slurmHere() ? 1 : 0);
  partition_->setText(target.partition);
  timeLimit_->setText(target.time);
  account_->setText(target.account);
  gres_->setText(target.gres);
}

void SetupsPanel::layOut() {
  // Tab follows the order widgets became children in, and the forms became children of their
  // tabs after these were made: Tab went to Launch, then Launch selected, then the form. Made
  // children again, these come after the form, in their row's order.
  for (QWidget* w : {static_cast<QWidget*>(concurrency_), static_cast<QWidget*>(launchSelected_),
                     static_cast<QWidget*>(launch_)}) {
    w->setParent(nullptr);
    w->setParent(this);
  }
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_);
  buttons->addWidget(duplicate_);
  buttons->addWidget(remove_);
  buttons->addStretch(1);
  auto* launchRow = new QHBoxLayout;
  auto* concurrencyLabel = new QLabel(tr("Run &at once:"), this);
  concurrencyLabel->setBuddy(concurrency_);
  launchRow->addWidget(concurrencyLabel);
  launchRow->addWidget(concurrency_);
  launchRow->addStretch(1);
  launchRow->addWidget(launchSelected_);
  launchRow->addWidget(launch_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(list_);
  layout->addLayout(buttons);
  layout->addWidget(tabs_, 1);
  layout->addWidget(summary_);
  layout->addWidget(makeTrainOn());
  layout->addLayout(launchRow);
}

int SetupsPanel::currentRow() const {
  const QModelIndex current = list_->currentIndex();
  return current.isValid() ? current.row() : -1;
}

void SetupsPanel::setCurrentRow(int row) {
  if (row >= 0 && row < model_->rowCount()) {
    list_->setCurrentIndex(model_->index(row));
  }
  loadCurrent();
}

void SetupsPanel::addPreset(int index) {
  const auto all = presets();
  if (index < 0 || index >= static_cast<int>(all.size())) return;
  setCurrentRow(model_->addSetup(all[index].setup));
}

void SetupsPanel::addSetup() {
  config::RunConfig setup;
  // A new setup starts from the current one's shape, which is usually what one varies from, and
  // is labelled by its shape until named.
  if (currentRow() >= 0) setup = model_->config(currentRow());
  setup.label.clear();
  setCurrentRow(model_->addSetup(setup));
}

void SetupsPanel::duplicateSetup() { setCurrentRow(model_->duplicateSetup(currentRow())); }

void SetupsPanel::removeSetup() {
  const int row = currentRow();
  if (row < 0) return;
  model_->removeSetup(row);
  setCurrentRow(std::min(row, model_->rowCount() - 1));
}

void SetupsPanel::chooseAccelerateConfig() {
  const QString start = QDir::home().filePath(".cache/huggingface/accelerate/default_config.yaml");
  const QString path = askPath(this, FileDialogKind::kOpenFile, tr("Accelerate config"), start,
                               tr("YAML files (*.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) importAccelerateConfig(path);
}

bool SetupsPanel::importAccelerateConfig(const QString& path) {
  const int row = currentRow();
  const QString name = QFileInfo(path).fileName();
  if (row < 0) {
    showImportMessage(tr("Select a setup to import %1 into.").arg(name), true);
    return false;
  }
  config::AccelerateConfig file;
  try {
    file = config::read_accelerate_config(path.toStdString());
  } catch (const std::exception& e) {
    showImportMessage(QString::fromStdString(e.what()), true);
    return false;
  }
  config::RunConfig setup = model_->config(row);
  config::apply_accelerate_config(file, setup);
  model_->setSetup(row, setup);
  setupForm_->setConfig(model_->config(row));
  refreshValidation();

  // Accelerate's own key names, which the user just wrote in the file.
  QStringList set;
  if (file.num_processes) set << QString("num_processes %1").arg(*file.num_processes);
  if (file.mixed_precision) {
    set << "mixed_precision " + QString::fromStdString(config::to_string(*file.mixed_precision));
  }
  if (file.gradient_accumulation_steps) {
    set << QString("gradient_accumulation_steps %1").arg(*file.gradient_accumulation_steps);
  }
  if (file.device) set << "device " + QString::fromStdString(config::to_string(*file.device));
  QString text = set.isEmpty() ? tr("%1 sets nothing Parity uses.").arg(name)
                               : tr("Set from %1: %2.").arg(name, set.join(", "));
  if (!file.ignored.empty()) {
    QStringList ignored;
    for (const auto& key : file.ignored) ignored << QString::fromStdString(key);
    text += ' ' + tr("Not used: %1.").arg(ignored.join(", "));
  }
  showImportMessage(text, false);
  return true;
}

void SetupsPanel::showImportMessage(const QString& text, bool error) {
  importNote_->setText(text);
  importNote_->setStyleSheet(error ? "color: #c62828;" : "");
  importNote_->setVisible(!text.isEmpty());
}

QString SetupsPanel::importMessage() const { return importNote_->text(); }

void SetupsPanel::updatePreviewSetup() {
  experimentForm_->setPreviewSetup(model_->rowCount() > 0 ? model_->config(0)
                                                          : model_->experiment());
  std::vector<config::RunConfig> setups;
  for (int r = 0; r < model_->rowCount(); ++r) setups.push_back(model_->config(r));
  experimentForm_->setCommandSetups(setups);
}

void SetupsPanel::loadCurrent() {
  const int row = currentRow();
  setupForm_->setEnabled(row >= 0);
  duplicate_->setEnabled(row >= 0);
  remove_->setEnabled(row >= 0);
  import_->setEnabled(row >= 0);
  showImportMessage({}, false);  // it spoke of the setup shown before
  if (row >= 0) setupForm_->setConfig(model_->config(row));
  refreshValidation();
}

void SetupsPanel::storeCurrent() {
  const int row = currentRow();
  if (row < 0) return;
  storing_ = true;
  model_->setSetup(row, setupForm_->config(model_->config(row)));
  storing_ = false;
  // A label that follows the shape changed with it: show it in the form too.
  setupForm_->showLabel(QString::fromStdString(model_->config(row).label));
}

void SetupsPanel::storeExperiment() {
  model_->setExperiment(experimentForm_->config(model_->experiment()));
}

void SetupsPanel::refreshValidation() {
  const int row = currentRow();
  // Experiment issues are the same for every setup: show those of the first setup that has any.
  std::vector<config::ConfigIssue> setupIssues, experimentIssues;
  for (int r = 0; r < model_->rowCount(); ++r) {
    for (const auto& issue : model_->issues(r)) {
      if (isExperimentField(issue.field)) {
        if (experimentIssues.empty() || r == row) experimentIssues.push_back(issue);
      } else if (r == row) {
        setupIssues.push_back(issue);
      }
    }
  }
  // Data that cannot be read (a missing file, a misspelled column) fails every run at its start.
  const QString dataProblem = experimentForm_->dataProblem();
  const QString dataField = experimentForm_->dataProblemField();
  if (!dataProblem.isEmpty())
    experimentIssues.push_back({dataField.toStdString(), dataProblem.toStdString()});
  QStringList loose = setupForm_->showIssues(setupIssues);
  loose << experimentForm_->showIssues(experimentIssues);
  // A TorchScript file the worker refused would fail every run at its start.
  const QString modelProblem = experimentForm_->modelProblem();
  if (!modelProblem.isEmpty())
    loose << tr("The model file cannot be trained: %1").arg(modelProblem);
  // Your command that cannot run (none typed, an unknown placeholder) would fail every run.
  const QString commandProblem = experimentForm_->commandProblem();
  if (!commandProblem.isEmpty()) loose << commandProblem;
  const bool experimentOk =
      modelProblem.isEmpty() && dataProblem.isEmpty() && commandProblem.isEmpty();
  const bool launchable = model_->allValid() && experimentOk;

  int invalid = 0;
  for (int r = 0; r < model_->rowCount(); ++r) invalid += model_->issues(r).empty() ? 0 : 1;
  QString text;
  if (model_->rowCount() == 0) {
    text = tr("Add a setup (or a preset) to launch.");
  } else if (invalid > 0) {
    text = tr("%n setup(s) need fixing before Launch (marked in the list).", nullptr, invalid);
  } else if (!dataProblem.isEmpty()) {
    text = tr("The data cannot be read (marked under %1 on the Experiment tab).")
               .arg(experimentForm_->fieldLabel(dataField));
  }
  if (!loose.isEmpty()) text += (text.isEmpty() ? "" : "\n") + loose.join('\n');
  summary_->setText(text);
  summary_->setStyleSheet(
      invalid > 0 || !loose.isEmpty() || !dataProblem.isEmpty() ? "color: #c62828;" : "");
  summary_->setVisible(!text.isEmpty());
  launch_->setEnabled(launchable);
  const std::vector<int> selected = selectedRows();
  bool selectedValid = !selected.empty() && experimentOk;
  for (int r : selected) selectedValid &= model_->issues(r).empty();
  launchSelected_->setVisible(model_->rowCount() > 1);
  launchSelected_->setEnabled(selectedValid);
  launchSelected_->setToolTip(
      selectedValid
          ? tr("Start only the %n selected setup(s)", nullptr, static_cast<int>(selected.size()))
          : tr("Select some of the setups (Ctrl+click) to start only those"));
  launch_->setToolTip(launchable ? tr("Start %n setup(s) as separate processes (Ctrl+Return)",
                                      nullptr, model_->rowCount())
                                 : text);
}

std::vector<int> SetupsPanel::selectedRows() const {
  std::vector<int> rows;
  for (const QModelIndex& i : list_->selectionModel()->selectedRows()) rows.push_back(i.row());
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace parity::ui
