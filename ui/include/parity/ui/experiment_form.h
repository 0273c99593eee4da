#pragma once
/// The experiment every setup shares: dataset (and its path / CSV columns), training samples,
/// model, optimizer, base lr, scheduler, epochs or max steps. Fields that do not apply to the
/// chosen dataset, model or scheduler are hidden.
/// Thread affinity: UI thread.

#include <parity/ui/config_form.h>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace parity::ui {

class ExperimentForm : public ConfigForm {
  Q_OBJECT
 public:
  explicit ExperimentForm(QWidget* parent = nullptr);

  void setConfig(const engine::RunConfig& config);
  /// `base` with the experiment fields replaced by the editors' values.
  engine::RunConfig config(const engine::RunConfig& base) const;

 private:
  void updateVisibility();
  void browseData();

  QComboBox* dataset_;
  QLineEdit* dataPath_;
  QComboBox* task_;
  QLineEdit* target_;
  QLineEdit* features_;
  QSpinBox* trainSamples_;
  QSpinBox* syntheticSamples_;
  QDoubleSpinBox* noise_;
  QComboBox* model_;
  QLineEdit* hidden_;
  QComboBox* optimizer_;
  QDoubleSpinBox* lr_;
  QDoubleSpinBox* momentum_;
  QDoubleSpinBox* weightDecay_;
  QComboBox* scheduler_;
  QSpinBox* warmup_;
  QSpinBox* stepSize_;
  QDoubleSpinBox* gamma_;
  QSpinBox* epochs_;
  QSpinBox* maxSteps_;
};

}  // namespace parity::ui
