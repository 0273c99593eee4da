#pragma once
/// What each configured setup actually does (plan_setup): global batch, effective lr, optimizer
/// steps per epoch, scheduler steps per optimizer step, and the per-device batch that would match
/// the reference. Cells that differ from the single-device reference (global batch, or effective
/// lr vs the base lr) are highlighted, with the reason in the tooltip, and so is the even_batches
/// tail: the samples repeated per epoch where a setup's last batches are padded (the reason
/// 1x256 and 2x128 end apart).
/// Thread affinity: UI thread.

#include <parity/config/batch_plan.h>

#include <QAbstractTableModel>
#include <optional>
#include <vector>

namespace parity::ui {

class SetupPlanModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kLabel,
    kShape,
    kGlobalBatch,
    kEffectiveLr,
    kStepsPerEpoch,
    kSchedulerPace,
    kMatch,
    kRepeated,
    kNotes,
    kColumnCount
  };
  /// True on a highlighted (differing) cell.
  static constexpr int kDiffersRole = Qt::UserRole + 1;

  explicit SetupPlanModel(QObject* parent = nullptr);

  /// `trainSize` is the training set's size as the Experiment tab counted it from the data's
  /// files (a csv's rows); it plans the setups whose size is not known without reading them.
  void setSetups(const std::vector<config::RunConfig>& setups, int64_t referenceBatch,
                 std::optional<int64_t> trainSize = std::nullopt);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    config::RunConfig config;
    config::SetupPlan plan;
    bool planned = false;  ///< false when the train size is unknown or the config invalid
    QString planError;
    bool batchDiffers = false;
    bool lrDiffers = false;
    bool padded = false;  ///< even_batches repeats samples each epoch
  };
  QVariant display(const Row& r, int column) const;
  QString reason(const Row& r, int column) const;

  std::vector<Row> rows_;
  int64_t reference_ = 256;
};

}  // namespace parity::ui
