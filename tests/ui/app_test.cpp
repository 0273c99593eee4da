// The parity executable itself: --help, and --screenshot on a database with runs in it.
#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>

#include "test_util.h"

namespace parity::ui {
namespace {

QString parityExe() { return qEnvironmentVariable("PARITY_GUI", PARITY_GUI_EXE); }

TEST(ParityApp, HelpListsTheOptions) {
  if (!QFileInfo(parityExe()).isExecutable()) GTEST_SKIP() << "parity is not built";
  QProcess p;
  p.start(parityExe(), {"--help"});
  ASSERT_TRUE(p.waitForFinished(20000));
  const QString out = QString::fromUtf8(p.readAllStandardOutput());
  for (const char* option : {"--demo", "--db", "--screenshot"}) {
    EXPECT_TRUE(out.contains(option)) << option;
  }
}

TEST(ParityApp, ScreenshotOfADatabaseIsSavedAndExits) {
  if (!QFileInfo(parityExe()).isExecutable()) GTEST_SKIP() << "parity is not built";
  QTemporaryDir dir;
  const QString db = dir.filePath("shot.db");
  {
    storage::Database d(db.toStdString());
    test::addFinishedRun(d, "1x64", 200, 64);
    test::addFinishedRun(d, "2x32", 200, 64);
  }
  const QString png = dir.filePath("shot.png");
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(parityExe(), {"--db", db, "--screenshot", png, "--timeout", "60"});
  ASSERT_TRUE(p.waitForFinished(90000));
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  const QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_GE(image.width(), 1000);
}

}  // namespace
}  // namespace parity::ui
