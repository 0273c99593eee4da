#pragma once
/// The per-setup fields: label, seed, device, processes, per-device batch, lr scaling,
/// accumulation, precision, split_batches, even_batches, drop_last.
/// CUDA is listed but disabled, with the reason, when this build has no CUDA.
/// Thread affinity: UI thread.

#include <parity/ui/widgets/config_form.h>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace parity::ui {

class SetupForm : public ConfigForm {
  Q_OBJECT
 public:
  explicit SetupForm(QWidget* parent = nullptr);

  /// Fills the editors (without emitting edited()).
  void setConfig(const config::RunConfig& config);
  /// Shows a label the model gave the setup, without reporting an edit.
  void showLabel(const QString& label);
  /// `base` with the setup fields replaced by the editors' values.
  config::RunConfig config(const config::RunConfig& base) const;

 private:
  QLineEdit* label_;
  QSpinBox* seed_;
  QComboBox* device_;
  QSpinBox* processes_;
  QSpinBox* batch_;
  QComboBox* scaling_;
  QSpinBox* accumulation_;
  QComboBox* precision_;
  QCheckBox* split_;
  QCheckBox* even_;
  QCheckBox* dropLast_;
  QCheckBox* seedable_;
  QCheckBox* syncBatchNorm_;
};

}  // namespace parity::ui
