#include <parity/ui/setups/reference_batch_model.h>

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

namespace parity::ui {

ReferenceBatchModel::ReferenceBatchModel(QObject* parent) : QAbstractTableModel(parent) {
  shapes_ = config::equivalent_shapes({});
  rebuild();
}

void ReferenceBatchModel::setReferences(std::vector<int64_t> batches, int64_t selected) {
  beginResetModel();
  references_ = std::move(batches);
  selected_ = selected;
  rows_ = config::equivalent_table(references_, shapes_);
  endResetModel();
}

void ReferenceBatchModel::setSetupShapes(const std::vector<config::RunConfig>& setups) {
  std::vector<config::EquivalentShape> shapes = config::equivalent_shapes(setups);
  const bool same =
      shapes.size() == shapes_.size() &&
      std::equal(shapes.begin(), shapes.end(), shapes_.begin(), [](const auto& a, const auto& b) {
        return a.num_processes == b.num_processes && a.accumulation == b.accumulation &&
               a.name == b.name;
      });
  if (same) return;
  beginResetModel();
  shapes_ = std::move(shapes);
  rows_ = config::equivalent_table(references_, shapes_);
  endResetModel();
}

void ReferenceBatchModel::rebuild() { rows_ = config::equivalent_table(references_, shapes_); }

int ReferenceBatchModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ReferenceBatchModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(shapes_.size()) + 1;
}

QVariant ReferenceBatchModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const config::EquivalentRow& row = rows_[index.row()];
  const bool selected = row.reference_batch == selected_;
  if (role == Qt::FontRole && selected) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignCenter);
  if (index.column() == 0) {
    if (role == Qt::DisplayRole) return static_cast<qlonglong>(row.reference_batch);
    if (role == Qt::ToolTipRole)
      return tr("Global batch %1 on one device").arg(row.reference_batch);
    return {};
  }
  const std::size_t shape = index.column() - 1;
  const auto& value = shape < row.per_device.size() ? row.per_device[shape] : std::nullopt;
  const config::EquivalentShape& s = shapes_[shape];
  switch (role) {
    case Qt::DisplayRole:
      return value ? QVariant(static_cast<qlonglong>(*value)) : QVariant(tr("—"));
    case Qt::ToolTipRole:
      if (value) {
        return tr("%1 × %2%3 = global batch %4")
            .arg(s.num_processes)
            .arg(*value)
            .arg(s.accumulation > 1 ? tr(" × %1 accumulation").arg(s.accumulation) : QString())
            .arg(row.reference_batch);
      }
      return tr("%1 does not divide by %2: no per-device batch gives exactly this global batch")
          .arg(row.reference_batch)
          .arg(s.num_processes * s.accumulation);
    case Qt::ForegroundRole:
      return value ? QVariant() : QVariant(QBrush(QColor(0x9e, 0x9e, 0x9e)));
    default:
      return {};
  }
}

QVariant ReferenceBatchModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    if (section == 0) return tr("Reference batch");
    return QString::fromStdString(shapes_[section - 1].name);
  }
  if (role == Qt::ToolTipRole && section > 0) {
    const auto& s = shapes_[section - 1];
    return tr("Per-device batch on %1 process(es) with accumulation %2")
        .arg(s.num_processes)
        .arg(s.accumulation);
  }
  return {};
}

}  // namespace parity::ui
