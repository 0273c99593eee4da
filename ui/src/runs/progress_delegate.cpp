#include <parity/ui/runs/progress_delegate.h>
#include <parity/ui/runs/runs_model.h>

#include <QApplication>
#include <QPainter>
#include <QStyleOptionProgressBar>

namespace parity::ui {

void ProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
  const double fraction = index.data(RunsModel::kProgressRole).toDouble();
  if (fraction < 0) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  // Selection background first, so a selected row still reads as selected.
  QStyleOptionViewItem background = option;
  initStyleOption(&background, index);
  background.text.clear();
  const QWidget* widget = option.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

  QStyleOptionProgressBar bar;
  bar.rect = option.rect.adjusted(2, 2, -2, -2);
  bar.minimum = 0;
  bar.maximum = 1000;
  bar.progress = static_cast<int>(fraction * 1000);
  bar.text = index.data(Qt::DisplayRole).toString();
  bar.textVisible = true;
  bar.textAlignment = Qt::AlignCenter;
  bar.state = option.state | QStyle::State_Horizontal;
  bar.palette = option.palette;
  bar.fontMetrics = option.fontMetrics;
  style->drawControl(QStyle::CE_ProgressBar, &bar, painter, widget);
}

QSize ProgressDelegate::sizeHint(const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  size.setWidth(std::max(size.width() + 16, 150));
  return size;
}

}  // namespace parity::ui
