#pragma once
/// The seed's equivalent-batch table: for each reference single-device batch (rows), the
/// per-device batch that keeps the global batch equal on each setup shape (columns: the seed's
/// 1 GPU / 2 GPUs / 8-worker TPU pod, then any other shape the configured setups use).
/// Thread affinity: UI thread.

#include <parity/config/batch_plan.h>

#include <QAbstractTableModel>
#include <vector>

namespace parity::ui {

class ReferenceBatchModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  explicit ReferenceBatchModel(QObject* parent = nullptr);

  /// Reference batches shown as rows (default 256, 128, 64, 32) and the one highlighted.
  void setReferences(std::vector<int64_t> batches, int64_t selected);
  /// Extra columns for the shapes of the configured setups not already among the seed's.
  void setSetupShapes(const std::vector<config::RunConfig>& setups);
  int64_t selectedReference() const { return selected_; }
  const std::vector<config::EquivalentShape>& shapes() const { return shapes_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  void rebuild();

  std::vector<int64_t> references_{256, 128, 64, 32};
  int64_t selected_ = 256;
  std::vector<config::EquivalentShape> shapes_;
  std::vector<config::EquivalentRow> rows_;
};

}  // namespace parity::ui
