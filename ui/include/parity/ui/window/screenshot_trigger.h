#pragma once
/// For `parity --screenshot FILE.png`: waits until the window has listed the runs and drawn
/// their data (and, when asked, until the runs it launched have ended), saves the window as PNG
/// and quits. Exit code 0 on success, 2 when the file cannot be written, 3 on timeout (the
/// screenshot is still saved, showing whatever was there).
/// Thread affinity: UI thread.

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace parity::ui {

class MainWindow;

class ScreenshotTrigger : public QObject {
  Q_OBJECT
 public:
  ScreenshotTrigger(MainWindow* window, QString path, bool waitForRuns, int timeoutSeconds,
                    QObject* parent = nullptr);

 signals:
  /// Saved (or failed) with this exit code; main() quits with it.
  void done(int exitCode);

 private:
  void check();
  void capture(bool timedOut);

  MainWindow* window_;
  QString path_;
  bool waitForRuns_;
  int timeoutMs_;
  int settledChecks_ = 0;
  QTimer timer_;
  QElapsedTimer clock_;
};

}  // namespace parity::ui
