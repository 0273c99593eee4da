#pragma once
/// Tab in the screen's reading order. Qt's Tab order is the order widgets were made in, so in the
/// Setups pane Tab went to Launch before Launch selected and to the form after both, in Runs to the
/// table before the filter above it, and in Compare from Reference to Plot and back to Compare.
/// A pane names its parts top to bottom, left to right; each part's own order is kept.
/// Thread affinity: UI thread.

#include <QList>
#include <QWidget>

namespace parity::ui {

/// `root` and the widgets under it that Tab stops at (a widget with a focus proxy is skipped, as
/// Tab skips it; its proxy is listed), in the window's present Tab order.
QWidgetList tabStops(QWidget* root);

/// Orders Tab within `pane`: the stops of each part in turn (tabStops of each), then the pane's
/// other stops in their present order. The parts must be under `pane`.
void setReadingOrder(QWidget* pane, const QWidgetList& parts);

}  // namespace parity::ui
