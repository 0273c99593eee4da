#include <parity/ui/widgets/wheel_guard.h>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>

namespace parity::ui {

namespace {

bool isBox(const QWidget* w) {
  return qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w);
}

// Their default, Qt::WheelFocus, has QApplication give them the focus before the wheel reaches
// anyone: a click or Tab gives it now.
void strengthenFocus(QWidget* w) {
  if (isBox(w) && w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
}

}  // namespace

void WheelGuard::install() {
  if (qApp->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
  qApp->installEventFilter(new WheelGuard(qApp));
  // Boxes polished already (a sizeHint() polishes) get no Polish event again.
  for (QWidget* w : QApplication::allWidgets()) strengthenFocus(w);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  const auto type = event->type();
  if (type != QEvent::Wheel && type != QEvent::Polish) return false;
  auto* w = qobject_cast<QWidget*>(watched);
  if (!w || !isBox(w)) return false;
  if (type == QEvent::Polish) {
    strengthenFocus(w);
    return false;
  }
  if (w->hasFocus()) return false;
  // Not delivered to the box, and not accepted: QApplication hands it to the box's parents.
  event->ignore();
  return true;
}

}  // namespace parity::ui
