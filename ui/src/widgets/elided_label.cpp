#include <parity/ui/widgets/elided_label.h>

#include <QPainter>
#include <QStyle>

namespace parity::ui {

ElidedLabel::ElidedLabel(QWidget* parent, int maxPreferredChars)
    : QLabel(parent), maxPreferredChars_(maxPreferredChars) {
  setTextFormat(Qt::PlainText);
  setWordWrap(false);
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setStatusText(const QString& text) {
  setText(text);
  setToolTip(text);
}

bool ElidedLabel::isElided() const {
  return fontMetrics().horizontalAdvance(text()) > contentsRect().width();
}

QSize ElidedLabel::minimumSizeHint() const {
  const QFontMetrics fm = fontMetrics();
  return {fm.averageCharWidth() * 6, QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const {
  const QFontMetrics fm = fontMetrics();
  const int whole = fm.horizontalAdvance(text()) + 2 * margin() + 4;
  return {std::min(whole, fm.averageCharWidth() * maxPreferredChars_), QLabel::sizeHint().height()};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QRect area = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
  const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, area.width());
  style()->drawItemText(&painter, area, QStyle::visualAlignment(layoutDirection(), alignment()),
                        palette(), isEnabled(), shown, foregroundRole());
}

}  // namespace parity::ui
