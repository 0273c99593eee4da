// The window's size and place as kept between sessions (#38 item 8): a geometry saved on a larger
// screen opens fitted to the screen the window opens on. The offscreen platform's screen is
// 800x600, smaller than the 1500x950 a window on a desktop monitor keeps.
#include <gtest/gtest.h>
#include <parity/ui/runs/launch_target.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QGuiApplication>
#include <QLayout>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

namespace parity::ui {
namespace {

TEST(WindowGeometry, AGeometryKeptOnALargerScreenOpensFittedToThisOne) {
  // The settings in a folder of this test's own, not the user's.
  QTemporaryDir config;
  ASSERT_TRUE(config.isValid());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
  const QRect free = QGuiApplication::primaryScreen()->availableGeometry();
  ASSERT_LT(free.width(), 1500);
  ASSERT_LT(free.height(), 950);
  {
    MainWindow kept;
    kept.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&kept));
    QTest::qWait(0);
    // The user made it large (on this platform a window may be larger than its screen).
    kept.setGeometry(free.left() + 300, free.top() + 200, 1500, 950);
    ASSERT_EQ(kept.size(), QSize(1500, 950)) << "the platform let the window be larger";
    kept.close();
  }
  {
    QSettings s(QSettings::IniFormat, QSettings::UserScope, "parity", "parity");
    ASSERT_FALSE(s.value("window/geometry").toByteArray().isEmpty()) << "no geometry was kept";
  }
  MainWindow restored;
  restored.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&restored));
  QTest::qWait(0);  // the fit once the frame is known comes with the next turn of the event loop
  // As large as the screen allows, or the window's own minimum where that is larger (this
  // screen is narrower than the window's least width), and starting on the screen.
  const QRect frame = restored.frameGeometry();
  const QSize least = restored.layout()->totalMinimumSize().expandedTo(restored.minimumSize());
  const QSize border = frame.size() - restored.size();
  const QSize expected = (free.size() - border).expandedTo(least) + border;
  EXPECT_LE(frame.width(), expected.width()) << "kept 1500 wide on a screen " << free.width();
  EXPECT_LE(frame.height(), expected.height()) << "kept 950 high on a screen " << free.height();
  EXPECT_GE(frame.left(), free.left());
  EXPECT_GE(frame.top(), free.top());
  EXPECT_LE(frame.left(), free.right() - std::min(frame.width(), free.width()) + 1)
      << "the window starts at x " << frame.left();
  restored.close();
}

// Where the setups train, and sbatch's options, are kept between sessions (#37: they were asked
// again at every start). Slurm itself is chosen again only where this machine can submit.
TEST(WindowSettings, WhereTheSetupsTrainIsKeptBetweenSessions) {
  QTemporaryDir config;
  ASSERT_TRUE(config.isValid());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
  const bool canSubmit = !QStandardPaths::findExecutable("sbatch").isEmpty();
  if (canSubmit) qputenv("SLURM_CONF", QByteArray("/etc/slurm/slurm.conf"));
  LaunchTarget chosen;
  chosen.slurm = true;
  chosen.partition = "gpu";
  chosen.time = "02:00:00";
  chosen.account = "ml-team";
  chosen.gres = "gpu:2";
  {
    MainWindow first;
    first.setupsPanel()->setLaunchTarget(chosen);
    first.close();
  }
  MainWindow second;
  const LaunchTarget kept = second.setupsPanel()->launchTarget();
  EXPECT_EQ(kept.slurm, canSubmit);
  EXPECT_EQ(kept.partition, "gpu");
  EXPECT_EQ(kept.time, "02:00:00");
  EXPECT_EQ(kept.account, "ml-team");
  EXPECT_EQ(kept.gres, "gpu:2");
  second.close();
  if (canSubmit) qunsetenv("SLURM_CONF");
}

}  // namespace
}  // namespace parity::ui
