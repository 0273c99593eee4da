#pragma once
/// Keeps the mouse wheel from changing settings nobody clicked: a combo box or spin box takes
/// the wheel only while it has the focus; otherwise the wheel goes on to what holds it (the
/// form's scroll area scrolls). Scrolling the Experiment form used to switch Optimizer sgd ->
/// adamw and Loss normalisation per-batch -> global on its way down.
/// Installed once on the application (MainWindow does), so it covers every form and dialog,
/// widgets made later included. Thread affinity: UI thread.

#include <QObject>

namespace parity::ui {

class WheelGuard : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  /// Installs one guard on the application (again: none more).
  static void install();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace parity::ui
