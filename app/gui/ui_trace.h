#pragma once
/// What a person sees, as lines on stderr, for the xdotool tests (tests/ui/*.sh) that drive the
/// real window under Xvfb: they press keys and move the mouse, and read here what came of it.
/// Installed only when PARITY_TRACE_UI is set. Each line starts "parity-trace: ":
///   focus AREA CLASS "NAME" X,Y,W,H          the widget keyboard focus moved to
///   tooltip "TEXT"                           a tooltip shown (line breaks as " | ")
///   tooltip-hidden N ms after its last text  and hidden again
///   dialog "TITLE" "TEXT" default="BUTTON"   a message box or dialog shown, then 300 ms
///   button "TEXT" X,Y,W,H                    later each of a message box's buttons
///   map-begin / map-end                      around a map of the window's controls, printed
///                                            300 ms after the window was resized, a widget in
///                                            it shown or hidden, or a view's rows changed
///                                            (at most a second late while they keep changing):
///   widget AREA CLASS "NAME" X,Y,W,H hint=W  a visible control (button, box, editor, view, tab
///                                            bar: NAME is its current tab), hint its width hint
///   tab "TEXT" X,Y,W,H                       a tab of a dock's or a panel's tab bar
///   label AREA OBJECTNAME X,Y,W,H "TEXT"     a visible label with an objectName or a text
///                                            (OBJECTNAME "-" when it has none)
///   row VIEW N "CELL ; CELL" X,Y,W,H         one of the first rows of a list or table, at its
///                                            label (a table's second column)
/// AREA is the objectName of the dock the widget sits in, or "central", "dialog" in a dialog,
/// or "-" outside the main window; NAME is the text a person reads for it (its label's, its
/// own, or its objectName).
/// Geometry is global (screen) pixels; Qt keeps a dock behind another dock's tab shown, out of
/// the window's rectangle, and it is listed there. Thread affinity: UI thread.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class QWidget;

namespace parity::app {

class UiTrace : public QObject {
 public:
  explicit UiTrace(QWidget* window);
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onFocus(QWidget* now);
  void requestMap();
  void printMap();

  QWidget* window_;
  QTimer mapTimer_;
  QElapsedTimer pending_;
};

}  // namespace parity::app
