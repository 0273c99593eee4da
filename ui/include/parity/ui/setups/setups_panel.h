#pragma once
/// The Setups panel: the list of setups (add, presets, duplicate, remove, rename in place, import
/// an accelerate config into the selected one), the selected setup's form, the shared
/// experiment's form, the validation summary, and Launch (disabled until every setup passes
/// check()).
/// Thread affinity: UI thread.

#include <parity/config/run_config.h>
#include <parity/ui/runs/launch_target.h>

#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QToolButton;

namespace parity::ui {

class ExperimentForm;
class SetupForm;
class SetupsModel;

class SetupsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SetupsPanel(SetupsModel* model, QWidget* parent = nullptr);

  int currentRow() const;
  void setCurrentRow(int row);
  SetupForm* setupForm() const { return setupForm_; }
  ExperimentForm* experimentForm() const { return experimentForm_; }
  QPushButton* launchButton() const { return launch_; }
  /// Launches only the setups selected in the list.
  QPushButton* launchSelectedButton() const { return launchSelected_; }
  QSpinBox* concurrencyBox() const { return concurrency_; }
  /// "Train on": this computer, or a Slurm batch job with its partition, time, account, gres.
  LaunchTarget launchTarget() const;
  void setLaunchTarget(const LaunchTarget& target);

  /// Adds a preset setup by its index in presets().
  void addPreset(int index);
  /// Fills the selected setup from an `accelerate config` YAML file (num_processes, mixed
  /// precision, accumulation, device); false when it cannot be read. The outcome, with the keys
  /// Parity does not use, is shown under the list (importMessage()).
  bool importAccelerateConfig(const QString& path);
  QString importMessage() const;

 signals:
  /// Launch was pressed with every setup valid.
  void launchRequested(const std::vector<parity::config::RunConfig>& configs);

 private:
  void setUpListAndButtons();
  void setUpFormsAndLaunch();
  QWidget* makeTrainOn();
  void connectModel();
  void layOut();
  void addSetup();
  void duplicateSetup();
  void removeSetup();
  void chooseAccelerateConfig();
  void showImportMessage(const QString& text, bool error);
  void updatePreviewSetup();
  void loadCurrent();
  void storeCurrent();
  void storeExperiment();
  void refreshValidation();
  std::vector<int> selectedRows() const;

  SetupsModel* model_;
  QListView* list_;
  QToolButton* add_;
  QToolButton* duplicate_;
  QToolButton* remove_;
  QToolButton* import_;
  QLabel* importNote_;
  QTabWidget* tabs_;
  SetupForm* setupForm_;
  ExperimentForm* experimentForm_;
  QLabel* summary_;
  QSpinBox* concurrency_;
  QPushButton* launch_;
  QComboBox* trainOn_ = nullptr;
  QWidget* slurmBox_ = nullptr;
  QLineEdit* partition_ = nullptr;
  QLineEdit* timeLimit_ = nullptr;
  QLineEdit* account_ = nullptr;
  QLineEdit* gres_ = nullptr;
  QPushButton* launchSelected_;
  bool storing_ = false;
};

}  // namespace parity::ui
