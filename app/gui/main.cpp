// parity: the dashboard. Command line:
//   parity [--db FILE] [--demo] [--screenshot FILE.png [--timeout SECONDS]]
#include <parity/storage/storage_error.h>
#include <parity/ui/window/main_window.h>
#include <parity/ui/window/screenshot_trigger.h>
#include <parity/ui/window/translations.h>
#include <parity/version.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>
#include <cstdio>

#include "ui_trace.h"

namespace {

/// Prints the time from process start to the window's first paint when PARITY_PRINT_STARTUP is
/// set (the benchmark reads it).
class FirstPaintProbe : public QObject {
 public:
  explicit FirstPaintProbe(const QElapsedTimer& clock) : clock_(clock) {}
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Paint && !reported_) {
      reported_ = true;
      std::fprintf(stderr, "parity: startup_to_first_paint_ms %.1f\n", clock_.nsecsElapsed() / 1e6);
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  const QElapsedTimer& clock_;
  bool reported_ = false;
};

// Without a display, `--help`, `--version` and `--screenshot` still work: they need no screen, so
// Qt is pointed at its offscreen platform instead of failing on a missing X server.
void useOffscreenWithoutDisplay(int argc, char** argv) {
  if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || qEnvironmentVariableIsSet("DISPLAY") ||
      qEnvironmentVariableIsSet("WAYLAND_DISPLAY")) {
    return;
  }
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
        arg == "--version" || arg.startsWith("--screenshot")) {
      qputenv("QT_QPA_PLATFORM", "offscreen");
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  QElapsedTimer clock;
  clock.start();
  useOffscreenWithoutDisplay(argc, argv);
  QApplication app(argc, argv);
  // Empty organisation: AppDataLocation is ~/.local/share/parity, the CLI's default place too.
  QApplication::setApplicationName("parity");
  QApplication::setApplicationDisplayName("Parity");
  QApplication::setApplicationVersion(parity::kVersion);
  QApplication::setDesktopFileName("parity");
  QApplication::setWindowIcon(QIcon(":/parity/parity.svg"));
  parity::ui::installTranslations(&app);

  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Parity: launch distributed training setups and compare their loss curves.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption db("db", "Open this SQLite database (created if missing).", "FILE");
  QCommandLineOption demo("demo",
                          "Load the demo setups (Fashion-MNIST MLP: 1x64, 2x32, 2x64 "
                          "unscaled, 2x64 linear) and launch them.");
  QCommandLineOption screenshot("screenshot",
                                "Save the window as PNG once the data is drawn (with --demo: once "
                                "the runs have ended), then exit.",
                                "FILE.png");
  QCommandLineOption timeout("timeout",
                             "Give up waiting for --screenshot after SECONDS "
                             "(default 600); the screenshot is saved anyway.",
                             "SECONDS", "600");
  parser.addOptions({db, demo, screenshot, timeout});
  parser.addPositionalArgument("database", "Same as --db (for the .desktop file).", "[FILE]");
  parser.process(app);

  const bool headless = parser.isSet(screenshot);
  parity::ui::MainWindowOptions options;
  options.quiet = headless;
  // A screenshot run must not depend on, or disturb, the user's saved window state.
  options.useSettings = !headless;
  parity::ui::MainWindow window(options);

  QString path = parser.value(db);
  if (path.isEmpty() && !parser.positionalArguments().isEmpty()) {
    path = parser.positionalArguments().front();
  }
  if (path.isEmpty()) {
    try {
      path = parity::ui::MainWindow::lastDatabasePath();
    } catch (const parity::storage::StorageError& e) {  // neither XDG_DATA_HOME nor HOME is set
      std::fprintf(stderr, "parity: %s; give the database with --db FILE\n", e.what());
      return 2;
    }
  }
  window.openDatabase(QFileInfo(path).absoluteFilePath());

  FirstPaintProbe probe(clock);
  if (qEnvironmentVariableIsSet("PARITY_PRINT_STARTUP")) window.installEventFilter(&probe);
  // The xdotool tests read what the window shows from these lines (ui_trace.h).
  if (qEnvironmentVariableIsSet("PARITY_TRACE_UI")) new parity::app::UiTrace(&window);
  if (headless) window.resize(1600, 1000);
  window.show();
  if (parser.isSet(demo)) window.launchDemo();

  if (headless) {
    auto* trigger = new parity::ui::ScreenshotTrigger(
        &window, parser.value(screenshot), parser.isSet(demo), parser.value(timeout).toInt(), &app);
    QObject::connect(trigger, &parity::ui::ScreenshotTrigger::done, &app, [&](int code) {
      window.close();
      QCoreApplication::exit(code);
    });
  }
  return app.exec();
}
