#pragma once
/// The experiment every setup shares: dataset (its files, test data or validation split, CSV
/// columns, pad id), training samples, model (its file, dropout, batch norm, embedding), loss
/// normalisation, optimizer, base lr, scheduler (and onecycle's settings), epochs or max steps.
/// Fields that do not apply to the chosen dataset, model or scheduler are hidden, and count as
/// their neutral value. Beside the editors it shows what the choices mean: how many samples
/// train and evaluate (read from the files when a path changes, not per keystroke), what a
/// TorchScript file holds (asked of parity-worker, asynchronously), the schedule's default length
/// and a preview of the lr over samples seen for the first setup.
/// Thread affinity: UI thread.

#include <parity/config/data_sizes.h>
#include <parity/ui/widgets/config_form.h>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace parity::ui {

class LrPreview;
class ModelInspector;
struct ModelInfo;

class ExperimentForm : public ConfigForm {
  Q_OBJECT
 public:
  explicit ExperimentForm(QWidget* parent = nullptr);

  void setConfig(const config::RunConfig& config);
  /// A line above the fields saying what changed them other than the user's edits (a setup made
  /// from a run of another experiment); hidden when empty, and at the user's next edit.
  void setChangeNote(const QString& text);
  QString changeNote() const;
  /// `base` with the experiment fields replaced by the editors' values.
  config::RunConfig config(const config::RunConfig& base) const;
  /// The setup the schedule's default length and the lr preview are computed for (the first
  /// setup's full config; its experiment fields are replaced by the editors').
  void setPreviewSetup(const config::RunConfig& setup);
  /// Every setup, for the preview of the command each will run (Trains: your command).
  void setCommandSetups(const std::vector<config::RunConfig>& setups);
  /// The command each setup will run, one line each ("1x256: python3 train.py --bs 256"), or
  /// why the template cannot run; for tests.
  QString commandPreviewText() const;
  /// Why the command cannot run (an unknown placeholder, a bad quote, none typed); empty when it
  /// can or the engine trains. Launch stays off while it is set.
  QString commandProblem() const { return commandProblem_; }

  /// What the form shows beside the editors; for tests.
  QString dataSizesText() const;
  QString modelInfoText() const;
  const LrPreview* lrPreview() const { return lrPreview_; }
  /// True while parity-worker is inspecting the model file.
  bool inspecting() const;
  /// True while the data's samples are being counted (off the UI thread: a large file takes a
  /// while to read).
  bool countingData() const { return !countingKey_.isEmpty(); }
  /// Why the chosen TorchScript file cannot be trained (the worker's message); empty when it
  /// can, or no file is inspected. Launch stays off while it is set.
  QString modelProblem() const { return commandMode() ? QString() : modelProblem_; }
  /// Why the data cannot be trained on, as reading it said (a file missing, a target or feature
  /// column not in the csv's header: the engine's message, as `parity-cli plan` gives it); empty
  /// when it can, or while nothing was read. Launch stays off while it is set.
  QString dataProblem() const { return commandMode() ? QString() : dataProblem_; }
  /// The field the data problem is about, where it is shown: "target" or "features" for a
  /// column not in the header, "test_data" for a test file that cannot be read, else
  /// "data_path"; empty when there is no problem.
  QString dataProblemField() const;
  /// The data's sizes as last read or known (a csv's rows once counted); nullopt while unknown
  /// or unreadable. dataSizesChanged says when it changed.
  std::optional<config::DataSizes> dataSizes() const { return sizes_; }

 signals:
  void modelProblemChanged();
  void dataProblemChanged();
  void commandProblemChanged();
  void dataSizesChanged();

 private:
  QWidget* pathRow(QLineEdit* edit, const QString& toolTip, void (ExperimentForm::*browse)());
  void setUpEditors();
  void addDataFields();
  void addModelFields();
  void addOptimizationFields();
  // experiment_form_command.cpp: Trains: Parity's engine / your command.
  void addCommandFields();
  bool commandMode() const;
  /// In command mode only the command's fields and the lr are shown.
  void applyCommandMode();
  void refreshCommand();
  void connectEditors();
  void datasetChosen();
  void updateVisibility();
  void browseData();
  void browseTestData();
  void browseModelFile();
  void browseWorkdir();
  void setModelProblem(const QString& problem);
  void setDataProblem(const QString& problem);
  void setDataSizes(const std::optional<config::DataSizes>& sizes);
  void dataCounted(const QString& key, const std::optional<config::DataSizes>& sizes,
                   const QString& error);
  /// The data's size, the schedule and the model summary after an edit; files are read again
  /// only when what they depend on changed.
  void refreshDerived();
  void refreshDataSizes(const config::RunConfig& c);
  void refreshSchedule(const config::RunConfig& c);
  void refreshModelInfo(const config::RunConfig& c);
  void showModelInfo(const ModelInfo& info);
  void showModelError(const QString& message);

  QLabel* changeNote_;
  QComboBox* dataset_;
  QLineEdit* dataPath_;
  QLineEdit* testData_;
  QDoubleSpinBox* validationSplit_;
  QSpinBox* padId_;
  QLabel* dataSizes_;
  QComboBox* task_;
  QLineEdit* target_;
  QLineEdit* features_;
  QSpinBox* trainSamples_;
  QSpinBox* syntheticSamples_;
  QDoubleSpinBox* noise_;
  QComboBox* model_;
  QLineEdit* modelFile_;
  QLabel* modelInfo_;
  QLineEdit* hidden_;
  QDoubleSpinBox* dropout_;
  QCheckBox* batchNorm_;
  QSpinBox* embeddingDim_;
  QComboBox* lossNormalization_;
  QComboBox* optimizer_;
  QDoubleSpinBox* lr_;
  QDoubleSpinBox* momentum_;
  QDoubleSpinBox* weightDecay_;
  QComboBox* scheduler_;
  QSpinBox* warmup_;
  QSpinBox* numTrainingSteps_;
  QDoubleSpinBox* pctStart_;
  QDoubleSpinBox* divFactor_;
  QDoubleSpinBox* finalDivFactor_;
  QSpinBox* stepSize_;
  QDoubleSpinBox* gamma_;
  QSpinBox* epochs_;
  QSpinBox* maxSteps_;
  QComboBox* trainer_;
  QLineEdit* command_;
  QLineEdit* workdir_;
  QLineEdit* commandEnv_;
  QComboBox* capture_;
  QLabel* commandPreview_;
  QString commandProblem_;
  std::vector<config::RunConfig> commandSetups_;
  LrPreview* lrPreview_;
  QLabel* scheduleNote_;
  ModelInspector* inspector_;

  config::RunConfig previewSetup_;
  std::optional<config::DataSizes> sizes_;  ///< of the data as last read; nullopt: unknown
  QString sizesKey_;                        ///< what sizes_ was read from
  QString countingKey_;   ///< what is being counted now ("" = nothing); a later key wins
  QString inspectKey_;    ///< what the model summary shown was asked for
  QString modelProblem_;  ///< see modelProblem()
  QString dataProblem_;   ///< see dataProblem()
};

}  // namespace parity::ui
