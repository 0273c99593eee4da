#include <parity/ui/widgets/tab_order.h>

namespace parity::ui {

QWidgetList tabStops(QWidget* root) {
  QWidgetList stops;
  QWidget* w = root;
  do {
    if ((w == root || root->isAncestorOf(w)) && (w->focusPolicy() & Qt::TabFocus) &&
        !w->focusProxy()) {
      stops << w;
    }
    w = w->nextInFocusChain();
  } while (w && w != root);
  return stops;
}

void setReadingOrder(QWidget* pane, const QWidgetList& parts) {
  QWidgetList order;
  for (QWidget* part : parts) {
    for (QWidget* w : tabStops(part))
      if (!order.contains(w)) order << w;
  }
  for (QWidget* w : tabStops(pane))
    if (!order.contains(w) && w != pane) order << w;
  // Each call puts the second right after the first: in turn, they give the list's order. The
  // pane leads, so the order starts where the pane's widgets start: Qt takes a pair already in
  // order round the cycle as placed (a pane alone, [pane, table, filter], read the filter as
  // before the table), and only a widget that takes focus counts as that lead.
  const Qt::FocusPolicy policy = pane->focusPolicy();
  pane->setFocusPolicy(Qt::TabFocus);
  order.prepend(pane);
  for (qsizetype i = 0; i + 1 < order.size(); ++i) QWidget::setTabOrder(order[i], order[i + 1]);
  pane->setFocusPolicy(policy);
}

}  // namespace parity::ui
