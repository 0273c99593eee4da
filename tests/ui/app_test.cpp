// The parity executable itself: --help, and --screenshot on a database with runs in it.
#include <gtest/gtest.h>
#include <parity/ui/chart/loss_chart.h>

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
  std::vector<int64_t> ids;
  {
    storage::Database d(db.toStdString());
    ids = {test::addFinishedRun(d, "1x64", 200, 64),
           test::addFinishedRun(d, "2x32", 200, 64, "{}", 1.5)};
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
  // Not a blank or half-drawn window: both runs' curves are drawn in their colours.
  for (int64_t id : ids) {
    const QColor want = LossChart::colorFor(id);
    int near = 0;
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        near += std::abs(c.red() - want.red()) + std::abs(c.green() - want.green()) +
                    std::abs(c.blue() - want.blue()) <
                30;
      }
    }
    EXPECT_GT(near, 200) << "run " << id << "'s curve is not in the screenshot";
  }
}

// `parity --demo` end to end, as the README's quick start opens it: the four demo setups train
// through parity-cli (Fashion-MNIST, 7,680 images), the window saves its screenshot once they
// ended, and the runs it recorded tell the lesson: 2x32 equivalent to 1x64 (EMA 0.9 and a 1 %
// tolerance, as parity-cli demo judges), both 2x64 different with the global batch as cause.
TEST(ParityApp, TheDemoTrainsTheLessonAndTheVerdictsTellIt) {
  if (!QFileInfo(parityExe()).isExecutable()) GTEST_SKIP() << "parity is not built";
  QTemporaryDir dir;
  const QString db = dir.filePath("demo.db"), png = dir.filePath("demo.png");
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
  p.setProcessEnvironment(env);
  p.start(parityExe(), {"--db", db, "--demo", "--screenshot", png, "--timeout", "400"});
  ASSERT_TRUE(p.waitForFinished(450000));
  ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  EXPECT_FALSE(QImage(png).isNull());
  const QString cli = QFileInfo(parityExe()).dir().filePath("parity-cli");
  QProcess cmp;
  cmp.start(cli, {"compare", "--db", db, "--reference", "1", "2", "3", "4", "--ema", "0.9",
                  "--rel-tolerance", "0.01"});
  ASSERT_TRUE(cmp.waitForFinished(60000));
  const QString out = QString::fromUtf8(cmp.readAllStandardOutput());
  ASSERT_EQ(cmp.exitCode(), 0) << cmp.readAllStandardError().toStdString();
  // The table's rows: "  2  2x32  equivalent ...".
  auto row = [&](const QString& label) {
    for (const QString& line : out.split('\n'))
      if (line.contains(" " + label + " ") && !line.contains("run ")) return line;
    return QString();
  };
  EXPECT_TRUE(row("2x32").contains("equivalent")) << out.toStdString();
  EXPECT_TRUE(row("2x64 unscaled").contains("different")) << out.toStdString();
  EXPECT_TRUE(row("2x64 linear").contains("different")) << out.toStdString();
  EXPECT_TRUE(out.contains("global batch 128 vs 64")) << out.toStdString();
}

}  // namespace
}  // namespace parity::ui
