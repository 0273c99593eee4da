#include <parity/ui/window/main_window.h>
#include <parity/ui/window/screenshot_trigger.h>

#include <QFileInfo>
#include <QPixmap>
#include <cstdio>

namespace parity::ui {

namespace {

constexpr int kCheckMs = 200;
/// Settled on this many checks in a row: lets a last redraw and repaint through.
constexpr int kSettledChecks = 3;

}  // namespace

ScreenshotTrigger::ScreenshotTrigger(MainWindow* window, QString path, bool waitForRuns,
                                     int timeoutSeconds, QObject* parent)
    : QObject(parent),
      window_(window),
      path_(std::move(path)),
      waitForRuns_(waitForRuns),
      timeoutMs_(timeoutSeconds * 1000) {
  clock_.start();
  timer_.setInterval(kCheckMs);
  connect(&timer_, &QTimer::timeout, this, &ScreenshotTrigger::check);
  timer_.start();
}

void ScreenshotTrigger::check() {
  if (clock_.elapsed() > timeoutMs_) {
    capture(true);
    return;
  }
  settledChecks_ = window_->isSettled(waitForRuns_) ? settledChecks_ + 1 : 0;
  if (settledChecks_ >= kSettledChecks) capture(false);
}

void ScreenshotTrigger::capture(bool timedOut) {
  timer_.stop();
  const QPixmap pixmap = window_->grab();
  int code = timedOut ? 3 : 0;
  if (!pixmap.save(path_, "PNG")) {
    std::fprintf(stderr,
                 "parity: could not write the screenshot %s: check the folder exists "
                 "and is writable\n",
                 qPrintable(QFileInfo(path_).absoluteFilePath()));
    code = 2;
  } else {
    std::fprintf(stderr, "parity: screenshot %s saved after %.1f s%s\n", qPrintable(path_),
                 clock_.elapsed() / 1000.0, timedOut ? " (timed out waiting for the runs)" : "");
  }
  emit done(code);
}

}  // namespace parity::ui
