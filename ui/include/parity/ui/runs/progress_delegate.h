#pragma once
/// Paints the runs table's progress column as a progress bar carrying the model's text
/// ("120 / 250  ETA 0:42"). Thread affinity: UI thread.

#include <QStyledItemDelegate>

namespace parity::ui {

class ProgressDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace parity::ui
